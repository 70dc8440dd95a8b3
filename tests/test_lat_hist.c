/* test_lat_hist.c — fio-compatible latency histogram and statistics. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lat_hist.h"
#include "th.h"

/* One lat_hist is ~15 KB: keep it off the stack. */
static struct lat_hist *hist_new(void)
{
	struct lat_hist *h = malloc(sizeof(*h));

	if (h)
		lat_hist_reset(h);
	return h;
}

TH_TEST(lat_constants_match_fio)
{
	TH_EQ_INT(LAT_PLAT_BITS, 6);
	TH_EQ_INT(LAT_PLAT_VAL, 64);
	TH_EQ_INT(LAT_PLAT_GROUP_NR, 29);
	TH_EQ_INT(LAT_PLAT_NR, 1856);
	TH_EQ_INT(LAT_NPCT, 17);
	TH_NEAR(lat_default_percentiles[0], 1.0, 0);
	TH_NEAR(lat_default_percentiles[6], 50.0, 0);
	TH_NEAR(lat_default_percentiles[12], 99.0, 0);
	TH_NEAR(lat_default_percentiles[13], 99.5, 0);
	TH_NEAR(lat_default_percentiles[15], 99.95, 0);
	TH_NEAR(lat_default_percentiles[16], 99.99, 0);
	for (int i = 1; i < LAT_NPCT; i++)
		TH_CHECK(lat_default_percentiles[i] > lat_default_percentiles[i - 1]);
}

TH_TEST(lat_small_values_are_exact)
{
	for (unsigned v = 0; v < 128; v++) {
		TH_EQ_INT(lat_plat_val_to_idx(v), v);
		TH_EQ_INT(lat_plat_idx_to_val(v), v);
	}
}

/*
 * Pairs worked out by hand from fio's formulas:
 *   idx = ((msb - 6 + 1) << 6) + ((v >> (msb - 6)) & 63), capped at 1855;
 *   val(idx) = 2^(eb+6) + (idx%64 + 0.5) * 2^eb, eb = idx/64 - 1, truncated.
 */
TH_TEST(lat_index_table)
{
	static const struct { uint64_t v; unsigned idx; } cases[] = {
		{ 127, 127 },
		{ 128, 128 },        /* msb 7, eb 1: (2<<6) + (64 & 63) */
		{ 129, 128 },        /* same 2 ns wide bucket */
		{ 130, 129 },
		{ 255, 191 },        /* (2<<6) + (127 & 63) */
		{ 256, 192 },        /* msb 8, eb 2: (3<<6) + 0 */
		{ 259, 192 },
		{ 260, 193 },
		{ 511, 255 },
		{ 512, 256 },
		{ 1000, 317 },       /* msb 9, eb 3: 256 + (125 & 63) */
		{ 1024, 320 },
		{ 4096, 448 },
		{ 100000, 737 },     /* msb 16, eb 10: (11<<6) + (97 & 63) */
		{ 1000000, 954 },    /* msb 19, eb 13: (14<<6) + (122 & 63) */
		{ 1ULL << 33, 1792 },
		{ (1ULL << 34) - 1, 1855 },
		{ 1ULL << 34, 1855 },        /* past the table: capped */
		{ 1ULL << 40, 1855 },
		{ UINT64_MAX, 1855 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TH_EQ_INT(lat_plat_val_to_idx(cases[i].v), cases[i].idx);
}

TH_TEST(lat_value_table)
{
	static const struct { unsigned idx; uint64_t v; } cases[] = {
		{ 127, 127 },
		{ 128, 129 },        /* 128 + 0.5 * 2 */
		{ 129, 131 },
		{ 191, 255 },        /* 128 + 63.5 * 2 */
		{ 192, 258 },        /* 256 + 0.5 * 4 */
		{ 256, 516 },        /* 512 + 0.5 * 8 */
		{ 317, 1004 },       /* 512 + 61.5 * 8 */
		{ 320, 1032 },       /* 1024 + 0.5 * 16 */
		{ 737, 99840 },      /* 65536 + 33.5 * 1024 */
		{ 954, 1003520 },    /* 524288 + 58.5 * 8192 */
		{ 1792, 8657043456ULL }, /* 2^33 + 0.5 * 2^27 */
		{ 1855, 17112760320ULL }, /* fio's ceiling: "17113 msec" */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TH_EQ_INT(lat_plat_idx_to_val(cases[i].idx), cases[i].v);
	/* Out of range indexes are clamped to the last bucket. */
	TH_EQ_INT(lat_plat_idx_to_val(LAT_PLAT_NR), 17112760320ULL);
}

/* Every bucket's value maps back to the same bucket; values rise strictly. */
TH_TEST(lat_round_trip_all_buckets)
{
	uint64_t prev = 0;

	for (unsigned idx = 0; idx < LAT_PLAT_NR; idx++) {
		uint64_t v = lat_plat_idx_to_val(idx);

		TH_EQ_INT(lat_plat_val_to_idx(v), idx);
		if (idx > 0)
			TH_CHECK(v > prev);
		prev = v;
	}
}

/* Bucket edges at powers of two: 2^k starts a group, 2^k - 1 ends one. */
TH_TEST(lat_power_of_two_boundaries)
{
	for (unsigned k = 7; k < 34; k++) {
		uint64_t v = 1ULL << k;
		unsigned group = k - 6 + 1;

		TH_EQ_INT(lat_plat_val_to_idx(v), group * 64);
		TH_EQ_INT(lat_plat_val_to_idx(v - 1), group * 64 - 1);
		/* The group's first bucket starts at 2^k, half a bucket higher. */
		TH_EQ_INT(lat_plat_idx_to_val(group * 64), v + (1ULL << (k - 6)) / 2);
	}
}

/* fio's bound: quantization error at most 1/2^(BITS+1) of the value. */
TH_TEST(lat_error_bound)
{
	uint64_t v = 1, worst_v = 0;
	double worst = 0.0;

	/* ~1.2 M values, geometric with a prime-ish step to hit odd offsets. */
	while (v < (1ULL << 34)) {
		uint64_t r = lat_plat_idx_to_val(lat_plat_val_to_idx(v));
		double err = fabs((double)r - (double)v) / (double)v;

		if (err > worst) {
			worst = err;
			worst_v = v;
		}
		v = v + v / 4099 + 1;
	}
	if (worst > 1.0 / 128)
		th_fail(__FILE__, __LINE__, "error %g at %llu > 1/128", worst,
			(unsigned long long)worst_v);
	TH_CHECK(worst > 0.0);
	/* Every value inside one bucket maps to it: 1000..1007 share bucket 317. */
	for (uint64_t x = 1000; x < 1008; x++)
		TH_EQ_INT(lat_plat_val_to_idx(x), 317);
	TH_EQ_INT(lat_plat_val_to_idx(999), 316);
	TH_EQ_INT(lat_plat_val_to_idx(1008), 318);
}

TH_TEST(lat_percentile_empty_and_single)
{
	struct lat_hist *h = hist_new();

	TH_CHECK(h != NULL);
	if (!h)
		return;
	TH_EQ_INT(lat_hist_percentile(h, 50.0), 0);
	TH_EQ_INT(lat_hist_percentile(h, 99.99), 0);

	lat_hist_add(h, 1000);
	TH_EQ_INT(h->st.n, 1);
	TH_EQ_INT(h->st.min, 1000);
	TH_EQ_INT(h->st.max, 1000);
	TH_NEAR(h->st.mean, 1000.0, 0);
	TH_NEAR(lat_stat_stddev(&h->st), 0.0, 0);
	for (int i = 0; i < LAT_NPCT; i++)
		TH_EQ_INT(lat_hist_percentile(h, lat_default_percentiles[i]), 1004);
	TH_EQ_INT(lat_hist_percentile(h, 100.0), 1004);
	TH_EQ_INT(lat_hist_percentile(h, 0.0), 1004);
	free(h);
}

/*
 * Ten samples at 10..100 ns (exact buckets): p-th percentile is the first
 * value whose cumulative count reaches p/100*10, so p=10 -> 10, p=11 -> 20,
 * p=50 -> 50, p=50.01 -> 60, p=99.99 -> 100, p=100 -> 100.
 */
TH_TEST(lat_percentile_selection)
{
	struct lat_hist *h = hist_new();

	TH_CHECK(h != NULL);
	if (!h)
		return;
	for (uint64_t v = 10; v <= 100; v += 10)
		lat_hist_add(h, v);
	TH_EQ_INT(lat_hist_percentile(h, 1.0), 10);
	TH_EQ_INT(lat_hist_percentile(h, 10.0), 10);
	TH_EQ_INT(lat_hist_percentile(h, 11.0), 20);
	TH_EQ_INT(lat_hist_percentile(h, 30.0), 30);
	TH_EQ_INT(lat_hist_percentile(h, 50.0), 50);
	TH_EQ_INT(lat_hist_percentile(h, 50.01), 60);
	TH_EQ_INT(lat_hist_percentile(h, 90.0), 90);
	TH_EQ_INT(lat_hist_percentile(h, 90.01), 100);
	TH_EQ_INT(lat_hist_percentile(h, 99.99), 100);
	TH_EQ_INT(lat_hist_percentile(h, 100.0), 100);
	TH_EQ_INT(lat_hist_percentile(h, 150.0), 100);
	TH_EQ_INT(lat_hist_percentile(h, 0.0), 10);
	free(h);
}

/*
 * 10000 samples: 9990 fast (5 us), 9 slow (1 ms), 1 outlier (20 ms).
 * fio compares the count with (long double)p / 100 * N, p a double, so the
 * binary value of p decides ties: 99.9 is 99.900000000000006, its rank
 * 9990.0000000000006 is just past the 9990 fast samples -> slow bucket,
 * while 99.8 (rank 9979.99...) stays in the fast one. 99.95 and 99.99
 * -> slow; 100 -> outlier.
 */
TH_TEST(lat_percentile_tail)
{
	struct lat_hist *h = hist_new();

	TH_CHECK(h != NULL);
	if (!h)
		return;
	for (int i = 0; i < 9990; i++)
		lat_hist_add(h, 5000);
	for (int i = 0; i < 9; i++)
		lat_hist_add(h, 1000000);
	lat_hist_add(h, 20000000);
	TH_EQ_INT(h->st.n, 10000);
	TH_EQ_INT(h->st.max, 20000000);
	/* 5000: msb 12, eb 6: 448 + (78 & 63) = 462 -> 4096 + 14.5*64 = 5024 */
	TH_EQ_INT(lat_plat_val_to_idx(5000), 462);
	TH_EQ_INT(lat_hist_percentile(h, 50.0), 5024);
	TH_EQ_INT(lat_hist_percentile(h, 99.8), 5024);
	TH_EQ_INT(lat_hist_percentile(h, 99.9), 1003520);
	TH_EQ_INT(lat_hist_percentile(h, 99.95), 1003520);
	TH_EQ_INT(lat_hist_percentile(h, 99.99), 1003520);
	TH_EQ_INT(lat_hist_percentile(h, 100.0), lat_plat_idx_to_val(lat_plat_val_to_idx(20000000)));
	/* The outlier's bucket is within 1/128 of it. */
	TH_CHECK(llabs((long long)lat_hist_percentile(h, 100.0) - 20000000LL) <= 20000000LL / 128);
	free(h);
}

/* Tiny deterministic PRNG (xorshift64*) so the tests need no seeding. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* Latency-like samples: mostly ~20-200 us with a long tail. */
static uint64_t sample(uint64_t *s)
{
	uint64_t r = rng_next(s);
	uint64_t v = 20000 + r % 180000;

	if ((r >> 60) == 0)
		v *= 50;
	return v;
}

TH_TEST(lat_welford_vs_two_pass)
{
	enum { N = 20000 };
	uint64_t *vals = malloc(N * sizeof(*vals));
	struct lat_stat st = { 0 };
	uint64_t s = 0x9e3779b97f4a7c15ULL, mn = UINT64_MAX, mx = 0;
	double sum = 0, mean, ss = 0, sd;

	TH_CHECK(vals != NULL);
	if (!vals)
		return;
	for (int i = 0; i < N; i++) {
		vals[i] = sample(&s);
		lat_stat_add(&st, vals[i]);
		sum += (double)vals[i];
		if (vals[i] < mn)
			mn = vals[i];
		if (vals[i] > mx)
			mx = vals[i];
	}
	mean = sum / N;
	for (int i = 0; i < N; i++)
		ss += ((double)vals[i] - mean) * ((double)vals[i] - mean);
	sd = sqrt(ss / (N - 1));
	TH_EQ_INT(st.n, N);
	TH_EQ_INT(st.min, mn);
	TH_EQ_INT(st.max, mx);
	TH_NEAR(st.mean, mean, mean * 1e-12);
	TH_NEAR(lat_stat_stddev(&st), sd, sd * 1e-9);
	/* Sample (n-1) formula on a known set: {2,4,4,4,5,5,7,9} -> sqrt(32/7). */
	{
		static const uint64_t k[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
		struct lat_stat t = { 0 };

		for (size_t i = 0; i < 8; i++)
			lat_stat_add(&t, k[i]);
		TH_NEAR(t.mean, 5.0, 1e-12);
		TH_NEAR(lat_stat_stddev(&t), sqrt(32.0 / 7.0), 1e-12);
	}
	free(vals);
}

TH_TEST(lat_merge_equals_single)
{
	struct lat_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct lat_hist *empty = hist_new();
	uint64_t s = 12345;

	TH_CHECK(a && b && all && empty);
	if (!a || !b || !all || !empty)
		goto out;
	/* Unequal halves with different distributions. */
	for (int i = 0; i < 7000; i++) {
		uint64_t v = sample(&s);

		lat_hist_add(a, v);
		lat_hist_add(all, v);
	}
	for (int i = 0; i < 3000; i++) {
		uint64_t v = 1000 + rng_next(&s) % 5000;

		lat_hist_add(b, v);
		lat_hist_add(all, v);
	}
	lat_hist_merge(a, b);
	TH_EQ_INT(a->st.n, all->st.n);
	TH_EQ_INT(a->st.min, all->st.min);
	TH_EQ_INT(a->st.max, all->st.max);
	TH_NEAR(a->st.mean, all->st.mean, all->st.mean * 1e-12);
	TH_NEAR(lat_stat_stddev(&a->st), lat_stat_stddev(&all->st),
		lat_stat_stddev(&all->st) * 1e-9);
	TH_CHECK(memcmp(a->bucket, all->bucket, sizeof(a->bucket)) == 0);
	for (int i = 0; i < LAT_NPCT; i++)
		TH_EQ_INT(lat_hist_percentile(a, lat_default_percentiles[i]),
			  lat_hist_percentile(all, lat_default_percentiles[i]));

	/* Merging an empty one changes nothing; merging into empty copies. */
	lat_hist_merge(a, empty);
	TH_EQ_INT(a->st.n, 10000);
	TH_NEAR(a->st.mean, all->st.mean, all->st.mean * 1e-12);
	lat_hist_merge(empty, b);
	TH_EQ_INT(empty->st.n, 3000);
	TH_EQ_INT(empty->st.min, b->st.min);
	TH_EQ_INT(empty->st.max, b->st.max);
	TH_NEAR(empty->st.mean, b->st.mean, 0);

	/* Reset clears everything. */
	lat_hist_reset(a);
	TH_EQ_INT(a->st.n, 0);
	TH_EQ_INT(a->bucket[lat_plat_val_to_idx(5000)], 0);
	TH_EQ_INT(lat_hist_percentile(a, 50.0), 0);
out:
	free(a);
	free(b);
	free(all);
	free(empty);
}

/* fio's io_u_mark_lat_nsec/usec/msec edges, one value each side. */
TH_TEST(lat_range_edges_as_fio)
{
	static const struct { uint64_t ns; unsigned idx; } c[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 9, 2 }, { 10, 3 },
		{ 749, 8 }, { 750, 9 }, { 999, 9 },
		{ 1000, 10 }, { 1999, 10 }, { 2000, 11 }, { 9999, 12 }, { 10000, 13 },
		{ 749999, 18 }, { 750000, 19 }, { 999999, 19 },
		{ 1000000, 20 }, { 1999999, 20 }, { 2000000, 21 }, { 749999999, 28 },
		{ 750000000, 29 }, { 999999999, 29 }, { 1000000000, 30 }, { 1999999999, 30 },
		{ 2000000000, 31 }, { UINT64_MAX, 31 },
	};
	struct lat_hist *h = hist_new();

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		TH_EQ_INT(lat_range_idx(c[i].ns), c[i].idx);
	TH_CHECK(strcmp(lat_range_label[9], "1000") == 0);
	TH_CHECK(strcmp(lat_range_label[31], ">=2000") == 0);
	TH_CHECK(h != NULL);
	if (!h)
		return;
	lat_hist_add(h, 760);
	lat_hist_add(h, 12000);
	lat_hist_add(h, 12000);
	TH_EQ_INT(h->range[9], 1);
	TH_EQ_INT(h->range[13], 2);
	free(h);
}
