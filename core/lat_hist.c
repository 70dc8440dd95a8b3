/*
 * lat_hist.c — fio-compatible latency statistics: bucket representative
 * values, percentile selection and merging of per-job statistics.
 * Re-implemented from the description of fio's stat.c (plat_idx_to_val,
 * calc_clat_percentiles, sum_stat) so percentiles quantize as fio's do.
 */
#include <math.h>
#include <string.h>

#include "lat_hist.h"

const double lat_default_percentiles[LAT_NPCT] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

const char *const lat_range_label[LAT_RANGE_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

uint64_t lat_plat_idx_to_val(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	if (idx >= LAT_PLAT_NR)
		idx = LAT_PLAT_NR - 1;
	/* The first two groups are exact: the index is the value. */
	if (idx < (LAT_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> LAT_PLAT_BITS) - 1;
	base = (uint64_t)1 << (error_bits + LAT_PLAT_BITS);
	k = idx % LAT_PLAT_VAL;
	/* Middle of the bucket, truncated, computed in double as fio does. */
	return base + (uint64_t)(((double)k + 0.5) * (double)((uint64_t)1 << error_bits));
}

void lat_hist_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* Chan et al.'s pairwise update, the same formula as fio's sum_stat(). */
void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	double n_a, n_b, delta;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	n_a = (double)dst->n;
	n_b = (double)src->n;
	delta = src->mean - dst->mean;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->mean = (dst->mean * n_a + src->mean * n_b) / (n_a + n_b);
	dst->m2 = dst->m2 + src->m2 + delta * delta * (n_a * n_b) / (n_a + n_b);
	dst->n += src->n;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	lat_stat_merge(&dst->st, &src->st);
	for (unsigned i = 0; i < LAT_PLAT_NR; i++)
		dst->bucket[i] += src->bucket[i];
	for (unsigned i = 0; i < LAT_RANGE_NR; i++)
		dst->range[i] += src->range[i];
}

double lat_stat_stddev(const struct lat_stat *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / ((double)s->n - 1.0));
}

/*
 * As fio's calc_clat_percentiles(): walk the buckets, keeping a running
 * count, and stop at the first one where count >= p/100 * N, compared in
 * long double. N is the sample count of the stat, as in fio. fio never
 * asks for p <= 0 (0 ends its list); here that gives the lowest non-empty
 * bucket, and p > 100 (or NaN) is treated as 100.
 */
uint64_t lat_hist_percentile(const struct lat_hist *h, double p)
{
	uint64_t sum = 0;
	unsigned last = 0;
	bool seen = false;
	long double want;

	if (h->st.n == 0)
		return 0;
	if (!(p <= 100.0))
		p = 100.0;
	want = (long double)p / 100.0 * h->st.n;
	for (unsigned i = 0; i < LAT_PLAT_NR; i++) {
		if (h->bucket[i] == 0)
			continue;
		sum += h->bucket[i];
		last = i;
		seen = true;
		if (sum >= want)
			return lat_plat_idx_to_val(i);
	}
	/* Buckets hold fewer samples than st.n: report the highest one. */
	return seen ? lat_plat_idx_to_val(last) : 0;
}

uint64_t lat_bins_at_rank(const uint64_t *bins, uint64_t rank)
{
	uint64_t sum = 0;

	if (rank == 0)
		return 0;
	for (unsigned i = 0; i < LAT_PLAT_NR; i++) {
		sum += bins[i];
		if (bins[i] && sum >= rank)
			return lat_plat_idx_to_val(i);
	}
	return 0;
}

double lat_bins_pct_uncert(const uint64_t *bins, uint64_t n, double p, uint64_t v,
			   uint64_t *lo_rank, uint64_t *hi_rank)
{
	double q = p / 100.0, c, h, lo, hi, dl, dh;
	uint64_t rl, rh;

	if (n == 0 || !(q > 0 && q < 1))
		return NAN;
	c = (double)n * q;
	h = 1.96 * sqrt((double)n * q * (1.0 - q));
	lo = floor(c - h);
	hi = ceil(c + h);
	rl = lo < 1 ? 1 : (uint64_t)lo;
	rh = (uint64_t)hi;
	if (lo_rank)
		*lo_rank = rl;
	if (hi_rank)
		*hi_rank = rh;
	if (rh > n)
		return INFINITY;
	dl = (double)v - (double)lat_bins_at_rank(bins, rl);
	dh = (double)lat_bins_at_rank(bins, rh) - (double)v;
	if (dl < 0)
		dl = -dl;
	if (dh < 0)
		dh = -dh;
	return dl > dh ? dl : dh;
}
