/*
 * lat_hist.h — latency statistics that agree with fio bucket for bucket:
 * fio's log-linear "plat" histogram (6 bits, 29 groups, 1856 buckets,
 * error <= 1/2^7 = 0.78%) plus Welford mean/variance and exact min/max.
 * lat_hist_add() is inline: it runs once per I/O in the engine loops.
 */
#ifndef VPSBENCH_LAT_HIST_H
#define VPSBENCH_LAT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAT_PLAT_BITS     6
#define LAT_PLAT_VAL      (1u << LAT_PLAT_BITS)
#define LAT_PLAT_GROUP_NR 29
#define LAT_PLAT_NR       (LAT_PLAT_GROUP_NR * LAT_PLAT_VAL) /* 1856 */

#define LAT_NPCT 17
/* fio's default list: 1, 5, 10, 20, ..., 99.95, 99.99 */
extern const double lat_default_percentiles[LAT_NPCT];

struct lat_stat {
	uint64_t n;
	uint64_t min, max;   /* exact, ns */
	double mean, m2;     /* Welford running sums */
};

/* fio's latency_ns / latency_us / latency_ms buckets: [0,2) [2,4) [4,10)
 * [10,20) [20,50) [50,100) [100,250) [250,500) [500,750) [750,1000) of each
 * unit, then ms [1000,2000) and >= 2000. Counted exactly per I/O: the
 * bucket edges (750, 10000...) fall inside plat buckets. */
#define LAT_RANGE_NR 32
extern const char *const lat_range_label[LAT_RANGE_NR]; /* "2", ..., ">=2000" */

struct lat_hist {
	struct lat_stat st;
	uint64_t bucket[LAT_PLAT_NR];
	uint64_t range[LAT_RANGE_NR];
};

/* fio's io_u_mark_lat_nsec/usec/msec: the unit is ns below 1 us, us below 1 ms. */
static inline unsigned lat_range_idx(uint64_t ns)
{
	static const uint16_t lim[10] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	uint64_t v = ns;
	unsigned base = 0;

	if (v >= 1000) {
		v /= 1000;
		base = 10;
		if (v >= 1000) {
			v /= 1000;
			base = 20;
			if (v >= 2000)
				return 31;
			if (v >= 1000)
				return 30;
		}
	}
	for (unsigned i = 0; i < 9; i++)
		if (v < lim[i])
			return base + i;
	return base + 9;
}

/* fio's plat_val_to_idx(): values below 128 map to themselves. */
static inline unsigned lat_plat_val_to_idx(uint64_t val)
{
	unsigned msb, error_bits, base, offset, idx;

	if (val == 0)
		msb = 0;
	else
		msb = (unsigned)(63 - __builtin_clzll(val));
	if (msb <= LAT_PLAT_BITS)
		return (unsigned)val;
	error_bits = msb - LAT_PLAT_BITS;
	base = (error_bits + 1) << LAT_PLAT_BITS;
	offset = (unsigned)((LAT_PLAT_VAL - 1) & (val >> error_bits));
	idx = base + offset;
	return idx < LAT_PLAT_NR ? idx : LAT_PLAT_NR - 1;
}

static inline void lat_stat_add(struct lat_stat *s, uint64_t v)
{
	double d;

	if (s->n == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	d = (double)v - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * ((double)v - s->mean);
}

static inline void lat_hist_add(struct lat_hist *h, uint64_t ns)
{
	lat_stat_add(&h->st, ns);
	h->bucket[lat_plat_val_to_idx(ns)]++;
	h->range[lat_range_idx(ns)]++;
}

/* fio's plat_idx_to_val(): the bucket's representative value (ns). */
uint64_t lat_plat_idx_to_val(unsigned idx);

void lat_hist_reset(struct lat_hist *h);
void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src);
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);

/* Sample standard deviation (n-1), as fio; 0 when n < 2. */
double lat_stat_stddev(const struct lat_stat *s);

/*
 * fio's percentile selection: the first bucket whose cumulative count is
 * >= p/100 * N; returns its representative value, 0 when empty.
 */
uint64_t lat_hist_percentile(const struct lat_hist *h, double p);

/*
 * The representative value (ns) of the rank-th smallest sample (1-based)
 * of a plat histogram bins[LAT_PLAT_NR]; 0 when rank is 0 or past the
 * samples the bins hold.
 */
uint64_t lat_bins_at_rank(const uint64_t *bins, uint64_t rank);

/*
 * The 95% half-width (ns) of a percentile value v (p in %, v as reported)
 * of n samples: the order-statistic interval, ranks n*p/100 -/+ 1.96 x
 * sqrt(n p/100 (1 - p/100)) rounded outward, and the larger distance from
 * v to the values at those ranks. INFINITY when the upper rank is past n
 * (too few samples for that percentile), NAN when n is 0. *lo_rank and
 * *hi_rank (may be NULL) get the ranks.
 */
double lat_bins_pct_uncert(const uint64_t *bins, uint64_t n, double p, uint64_t v,
			   uint64_t *lo_rank, uint64_t *hi_rank);

#endif
