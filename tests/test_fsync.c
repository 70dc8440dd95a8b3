/* test_fsync.c — the fsync module's figures against hand-computed fio values. */
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "modules/fsync/fsync.h"
#include "th.h"

/*
 * 1000 syncs: 500 at 250 us, 400 at 1 ms, 90 at 3 ms, 10 at 20 ms. fio's
 * buckets (plat_idx_to_val, by hand): 250000 -> idx 826 = 250880,
 * 1000000 -> 954 = 1003520, 3000000 -> 1051 = 2998272, 20000000 -> 1228
 * = 20054016. Cumulative 500, 900, 990, 1000: p50 wants 500 (>= is met
 * at the first bucket), p90 wants 900, p99 wants 990: each lands on the
 * lower bucket exactly at its edge.
 */
static void recorded_set(struct lat_hist *h, unsigned scale_down)
{
	static const struct { uint64_t ns; unsigned n; } set[] = {
		{ 250000, 500 }, { 1000000, 400 }, { 3000000, 90 }, { 20000000, 10 },
	};

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		for (unsigned k = 0; k < set[i].n / scale_down; k++)
			lat_hist_add(h, set[i].ns);
}

TH_TEST(fsync_lat_percentiles_fio)
{
	static const uint64_t want[LAT_NPCT] = {
		/* 1 5 10 20 30 40 50 */
		250880, 250880, 250880, 250880, 250880, 250880, 250880,
		/* 60 70 80 90 */
		1003520, 1003520, 1003520, 1003520,
		/* 95 99 */
		2998272, 2998272,
		/* 99.5 99.9 99.95 99.99 */
		20054016, 20054016, 20054016, 20054016,
	};
	struct lat_hist *h = calloc(1, sizeof(*h));
	struct fsync_lat *l = calloc(1, sizeof(*l));
	uint64_t nbins = 0;

	TH_CHECK(h && l);
	if (!h || !l)
		goto out;
	recorded_set(h, 1);
	fsync_lat_from_hist(l, h);
	TH_EQ_INT(l->n, 1000);
	TH_EQ_INT(l->min, 250000);
	TH_EQ_INT(l->max, 20000000);
	TH_NEAR(l->mean, 995000.0, 1e-6);
	for (int i = 0; i < LAT_NPCT; i++)
		TH_EQ_INT(l->pct[i], want[i]);
	TH_EQ_INT(l->pct[fsync_pct_index(99.0)], 2998272);
	TH_EQ_INT(l->pct[fsync_pct_index(50.0)], 250880);
	/* the exported bins are the histogram: 4 buckets with the counts */
	TH_EQ_INT(l->bins[826], 500);
	TH_EQ_INT(l->bins[954], 400);
	TH_EQ_INT(l->bins[1051], 90);
	TH_EQ_INT(l->bins[1228], 10);
	for (unsigned i = 0; i < LAT_PLAT_NR; i++)
		nbins += l->bins[i];
	TH_EQ_INT(nbins, 1000);
	/* fio's latency_us/ms buckets, each [previous edge, label): 250 us in us "500",
	 * 1 ms in ms "2", 3 ms in "4", 20 ms in "50" */
	TH_EQ_INT(l->range[10 + 7], 500);
	TH_EQ_INT(l->range[20 + 0], 400);
	TH_EQ_INT(l->range[20 + 1], 90);
	TH_EQ_INT(l->range[20 + 4], 10);
	/* sample stddev by hand: sum of squared deviations / 999 */
	{
		double ss = 500 * (250000.0 - 995000) * (250000.0 - 995000) +
			    400 * (1e6 - 995000) * (1e6 - 995000) +
			    90 * (3e6 - 995000) * (3e6 - 995000) +
			    10 * (2e7 - 995000) * (2e7 - 995000);

		TH_NEAR(l->stddev, sqrt(ss / 999.0), 1e-3);
	}
	/* an empty histogram: nothing, all zero (the renderers show null) */
	memset(h, 0, sizeof(*h));
	fsync_lat_from_hist(l, h);
	TH_EQ_INT(l->n, 0);
	TH_EQ_INT(l->pct[fsync_pct_index(99.0)], 0);
out:
	free(h);
	free(l);
}

TH_TEST(fsync_low_confidence_rule)
{
	TH_CHECK(fsync_p99_low_confidence(0));
	TH_CHECK(fsync_p99_low_confidence(999));
	TH_CHECK(!fsync_p99_low_confidence(1000));
	TH_CHECK(!fsync_p99_low_confidence(10029));
}

TH_TEST(fsync_fit_size_table)
{
	static const struct {
		uint64_t want;
		int64_t avail;
		uint32_t bs;
		uint64_t size;
		bool scaled;
	} cases[] = {
		/* etcd's 22m: 10029 whole blocks, as fio (the partial 10030th is dropped) */
		{ 22ULL << 20, -1, 2300, 10029ULL * 2300, false },
		{ 22ULL << 20, 100LL << 20, 2300, 10029ULL * 2300, false },
		/* exactly want + the 1 MiB margin fits */
		{ 23066700, 23066700 + (1LL << 20), 2300, 23066700, false },
		/* one byte less: 10028 blocks */
		{ 23066700, 23066700 + (1LL << 20) - 1, 2300, 10028ULL * 2300, true },
		/* 10 MiB free: 9 MiB of room, 4103 blocks */
		{ 22ULL << 20, 10LL << 20, 2300, 4103ULL * 2300, true },
		/* 1.5 MiB free: 0.5 MiB of room is below the 1 MiB minimum */
		{ 22ULL << 20, 3LL << 19, 2300, 0, true },
		{ 22ULL << 20, 0, 2300, 0, true },
		/* a small --fsync-size that fits is kept, below the minimum or not */
		{ 100000, 1LL << 30, 2300, 43ULL * 2300, false },
		{ 4096, -1, 4096, 4096, false },
		{ 4096, -1, 0, 0, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool scaled = !cases[i].scaled;

		TH_EQ_INT(fsync_fit_size(cases[i].want, cases[i].avail, cases[i].bs, &scaled),
			  cases[i].size);
		TH_EQ_INT(scaled, cases[i].scaled);
	}
}
