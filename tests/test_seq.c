/* test_seq.c — the seq module's pure helpers (table-driven). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "modules/seq/seq.h"
#include "th.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

TH_TEST(seq_spread_table)
{
	static const struct {
		double r[5];
		unsigned n;
		double avg, min, max, cov; /* cov < 0: unknown */
		bool out[5];
		unsigned nout;
	} cases[] = {
		/* one run: no spread, no outliers */
		{ { 400 }, 1, 400, 400, 400, -1, { false }, 0 },
		/* identical runs */
		{ { 300, 300, 300 }, 3, 300, 300, 300, 0, { false, false, false }, 0 },
		/* sample stddev of 90,100,110 = 10 → CoV 0.1 */
		{ { 90, 100, 110 }, 3, 100, 90, 110, 0.1, { false, false, false }, 0 },
		/* 200 vs the median 400: 50% off, flagged; the 400s are not */
		{ { 200, 400, 400, 400 }, 4, 350, 200, 400, 0.2857142857, { true, false, false, false }, 1 },
		/* exactly 25% off the median is not flagged (strictly more than) */
		{ { 125, 100, 100 }, 3, 325.0 / 3, 100, 125, 0.13323467750529824, { false, false, false }, 0 },
		/* just above 25% */
		{ { 126, 100, 100 }, 3, 326.0 / 3, 100, 126, 0.1381390214625485, { true, false, false }, 1 },
		/* two runs: the median is their mean; 13% off it each, not flagged */
		{ { 100, 130 }, 2, 115, 100, 130, 0.18446262, { false, false }, 0 },
		/* two runs 2x apart: 33% off the median each, both flagged */
		{ { 100, 200 }, 2, 150, 100, 200, 0.4714045207910317, { true, true }, 2 },
		/* a cold first run (seen on a VM): only it is flagged, not the two
		 * good runs that the mean of the others (1333) would also flag */
		{ { 620, 1960, 2046 }, 3, 1542, 620, 2046, 0.5185683628735704, { true, false, false }, 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seq_spread sp;
		bool out[5];
		unsigned nout = seq_spread(cases[i].r, cases[i].n, &sp, out);

		TH_EQ_INT(nout, cases[i].nout);
		TH_CHECK(sp.avg.ok && sp.min.ok && sp.max.ok);
		TH_NEAR(sp.avg.v, cases[i].avg, 1e-6);
		TH_NEAR(sp.min.v, cases[i].min, 1e-9);
		TH_NEAR(sp.max.v, cases[i].max, 1e-9);
		if (cases[i].cov < 0) {
			TH_CHECK(!sp.cov.ok);
		} else {
			TH_CHECK(sp.cov.ok);
			TH_NEAR(sp.cov.v, cases[i].cov, 1e-6);
		}
		for (unsigned k = 0; k < cases[i].n; k++)
			TH_EQ_INT(out[k], cases[i].out[k]);
	}
}

TH_TEST(seq_spread_empty_is_unknown)
{
	struct seq_spread sp;

	TH_EQ_INT(seq_spread(NULL, 0, &sp, NULL), 0);
	TH_CHECK(!sp.avg.ok && !sp.min.ok && !sp.max.ok && !sp.cov.ok);
}

TH_TEST(seq_fit_size_table)
{
	static const struct {
		uint64_t want, avail;
		uint32_t bs;
		uint64_t got;
		bool scaled;
	} cases[] = {
		/* plenty of space: as asked */
		{ GiB, 80 * GiB, 65536, GiB, false },
		/* exactly size + 5% + 64 MiB fits */
		{ GiB, GiB + GiB / 20 + 64 * MiB, 65536, GiB, false },
		/* one byte short: scaled down to a multiple of bs that fits */
		{ GiB, GiB + GiB / 20 + 64 * MiB - 1, 65536, 1073676288, true },
		/* 500 MiB free: (500-64)/1.05 = 415.2 MiB → 415.2 rounded down to 64K */
		{ GiB, 500 * MiB, 65536, 435355648, true },
		/* would shrink below 64 MiB: skip */
		{ GiB, 100 * MiB, 65536, 0, false },
		{ GiB, 64 * MiB, 65536, 0, false },
		{ GiB, 0, 65536, 0, false },
		/* a small request that fits runs even below the 64 MiB minimum */
		{ 16 * MiB, 200 * MiB, 65536, 16 * MiB, false },
		/* a small request that does not fit is skipped, never shrunk */
		{ 16 * MiB, 70 * MiB, 65536, 0, false },
		/* size not a multiple of bs: rounded down */
		{ 100 * MiB + 1000, 10 * GiB, 1 << 20, 100 * MiB, false },
		/* odd block size */
		{ GiB, 300 * MiB, 3 * 512, 0, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool scaled = !cases[i].scaled;
		uint64_t got = seq_fit_size(cases[i].want, cases[i].avail, cases[i].bs, &scaled);

		if (i == sizeof(cases) / sizeof(cases[0]) - 1) {
			/* derived: largest multiple of 1536 with s + s/20 + 64M <= 300M */
			TH_CHECK(got > 0 && got % 1536 == 0);
			TH_CHECK(seq_space_needed(got) <= 300 * MiB);
			TH_CHECK(seq_space_needed(got + 1536) > 300 * MiB);
			TH_CHECK(scaled);
			continue;
		}
		TH_EQ_INT(got, cases[i].got);
		TH_EQ_INT(scaled, cases[i].scaled);
		if (got)
			TH_CHECK(seq_space_needed(got) <= cases[i].avail);
	}
}

TH_TEST(seq_space_needed_margin)
{
	TH_EQ_INT(seq_space_needed(GiB), GiB + GiB / 20 + 64 * MiB);
	TH_EQ_INT(seq_space_needed(0), 64 * MiB);
}

TH_TEST(seq_zfs_rule)
{
	/* yabs: warn below 2 x inflation GiB (48 GiB at the default 24) */
	TH_CHECK(seq_zfs_space_low(47 * GiB, 24));
	TH_CHECK(!seq_zfs_space_low(48 * GiB, 24));
	TH_CHECK(!seq_zfs_space_low(100 * GiB, 24));
	TH_CHECK(seq_zfs_space_low(5 * GiB, 3));
	TH_CHECK(!seq_zfs_space_low(6 * GiB, 3));
}

/* Stamps a repeated block at many offsets: every sector must differ. */
TH_TEST(seq_stamp_makes_sectors_unique)
{
	enum { BS = 4096, NB = 64, SECT = BS / SEQ_SECTOR };
	unsigned char *pool = malloc(BS), *all = malloc((size_t)BS * NB * 2);
	size_t nsect = (size_t)NB * SECT * 2;

	TH_CHECK(pool && all);
	if (!pool || !all)
		goto out;
	/* worst case for dedupe: the same (zero) pool slot reused for every block */
	for (int run = 0; run < 2; run++) {
		for (int b = 0; b < NB; b++) {
			memset(pool, 0, BS);
			seq_stamp(pool, BS, (uint64_t)b * BS, (uint64_t)run, 0x1234);
			memcpy(all + ((size_t)run * NB + b) * BS, pool, BS);
		}
	}
	for (size_t i = 0; i < nsect; i++)
		for (size_t j = i + 1; j < nsect; j++)
			if (memcmp(all + i * SEQ_SECTOR, all + j * SEQ_SECTOR, SEQ_SECTOR) == 0) {
				TH_CHECK(!"two sectors are identical");
				goto out;
			}
	/* the stamp covers 16 bytes per sector and leaves the rest alone */
	for (size_t i = 0; i < nsect; i++) {
		const unsigned char *s = all + i * SEQ_SECTOR;
		int nz = 0;

		for (int k = 16; k < SEQ_SECTOR; k++)
			nz |= s[k];
		TH_EQ_INT(nz, 0);
	}
	/* deterministic: the same inputs give the same stamp; another nonce another */
	{
		unsigned char a[1024] = { 0 }, b[1024] = { 0 };

		seq_stamp(a, sizeof(a), 8192, 7, 99);
		seq_stamp(b, sizeof(b), 8192, 7, 99);
		TH_CHECK(memcmp(a, b, sizeof(a)) == 0);
		seq_stamp(b, sizeof(b), 8192, 7, 100);
		TH_CHECK(memcmp(a, b, 16) != 0);
		TH_CHECK(memcmp(a + 512, b + 512, 16) != 0);
	}
out:
	free(pool);
	free(all);
}

TH_TEST(seq_ordinal_table)
{
	static const struct { unsigned n; const char *s; } cases[] = {
		{ 1, "1st" }, { 2, "2nd" }, { 3, "3rd" }, { 4, "4th" }, { 10, "10th" },
		{ 11, "11th" }, { 12, "12th" }, { 13, "13th" }, { 21, "21st" }, { 22, "22nd" },
		{ 100, "100th" }, { 101, "101st" }, { 111, "111th" },
	};
	char buf[16];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TH_EQ_STR(seq_ordinal(cases[i].n, buf, sizeof(buf)), cases[i].s);
}

/* Runs of unequal length: the sustained figure is bytes over seconds, not the mean rate. */
TH_TEST(seq_total_is_bytes_over_seconds)
{
	struct seq_run runs[3] = {
		{ .bytes = 1000000000, .seconds = 2.0, .mbps = 500 },
		{ .bytes = 1000000000, .seconds = 8.0, .mbps = 125 },
		{ .bytes = 500000000, .seconds = 0.0, .mbps = 0 },
	};
	struct mdbl t = seq_total_mbps(runs, 2);

	TH_CHECK(t.ok);
	TH_NEAR(t.v, 200.0, 1e-9); /* 2e9 B / 10 s; the mean of the rates is 312.5 */
	t = seq_total_mbps(runs, 3);
	TH_NEAR(t.v, 250.0, 1e-9); /* 2.5e9 B / 10 s */
	TH_CHECK(!seq_total_mbps(runs, 0).ok);
	TH_CHECK(!seq_total_mbps(&runs[2], 1).ok); /* no time: unknown, never inf or 0 */
}
