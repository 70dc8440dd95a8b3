/*
 * test_cache_change.c — the change point of a write timeline
 * (modules/cache/cache_change.c) on recorded and generated timelines:
 * flat, noisy (CoV 20%, seeded), stepping up, real drops, recovery.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "modules/cache/cache_change.h"
#include "th.h"

static uint64_t rng = 1;

static double unif(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

/* level x (1 + 0.2 N(0,1)): a coefficient of variation of 20% */
static double noisy(double level)
{
	double z = sqrt(-2.0 * log(unif())) * cos(2.0 * M_PI * unif());
	double x = level * (1.0 + 0.2 * z);

	return x > 0 ? x : level * 0.01;
}

/* Recorded on a VPS (qd32 IOPS at 256M, 1G, 4G, 16G, 32G): the host cache held 4 GiB. */
TH_TEST(cache_change_flat)
{
	double v[30];
	struct cache_change c;

	for (int i = 0; i < 30; i++)
		v[i] = 100e6;
	cache_change_point(v, 30, 1.0, &c);
	TH_CHECK(!c.found);
	TH_NEAR(c.burst_rate, 100e6, 1);
	TH_NEAR(c.burst_amount, 3000e6, 1);
}

TH_TEST(cache_change_noisy_flat_none)
{
	rng = 0x89;
	for (int s = 0; s < 500; s++) {
		double v[40];
		struct cache_change c;

		for (int i = 0; i < 40; i++)
			v[i] = noisy(200e6);
		cache_change_point(v, 40, 1.0, &c);
		if (c.found)
			th_fail(__FILE__, __LINE__, "false drop in flat noisy timeline %d at %u", s,
				c.index);
	}
}

TH_TEST(cache_change_step_up_none)
{
	double v[20];
	struct cache_change c;

	for (int i = 0; i < 20; i++)
		v[i] = i < 8 ? 50e6 : 150e6;
	cache_change_point(v, 20, 1.0, &c);
	TH_CHECK(!c.found);
}

TH_TEST(cache_change_step_exact)
{
	/* 400 MB/s for 6.25 s (2.5 GB), then 100 MB/s: the 7th second is mixed */
	double v[20];
	struct cache_change c;

	for (int i = 0; i < 20; i++)
		v[i] = i < 6 ? 400e6 : 100e6;
	v[6] = 0.25 * 400e6 + 0.75 * 100e6;
	cache_change_point(v, 20, 1.0, &c);
	TH_CHECK(c.found);
	TH_CHECK(c.index == 6 || c.index == 7);
	TH_NEAR(c.burst_rate, 400e6, 1);
	TH_NEAR(c.sustained_rate, 100e6, 1);
	TH_NEAR(c.burst_amount, 2.5e9, 1e3);
	TH_CHECK(!c.recovered);
}

TH_TEST(cache_change_noisy_step)
{
	/* CoV 20% on both levels: the change within one second, the bytes within 10% */
	rng = 0x5eed;
	for (int s = 0; s < 300; s++) {
		unsigned truth = 5 + (unsigned)s % 20;
		double v[40], bytes = 0, after = 0;
		struct cache_change c;

		for (unsigned i = 0; i < 40; i++) {
			v[i] = noisy(i < truth ? 500e6 : 120e6);
			if (i < truth)
				bytes += v[i];
			else if (i > truth)
				after += v[i] / (39.0 - truth);
		}
		cache_change_point(v, 40, 1.0, &c);
		if (!c.found || abs((int)c.index - (int)truth) > 1 ||
		    fabs(c.burst_amount - bytes) > 0.1 * bytes || fabs(c.sustained_rate - after) > 0.1 * after)
			th_fail(__FILE__, __LINE__, "timeline %d: found %d at %u (truth %u), %.0f of %.0f bytes",
				s, c.found, c.index, truth, c.burst_amount, bytes);
	}
}

TH_TEST(cache_change_recovered)
{
	/* credits refilled after 18 s at the floor: the last 4 s are back at the burst rate */
	double v[30];
	struct cache_change c;

	for (int i = 0; i < 30; i++)
		v[i] = (i < 8 || i >= 26) ? 300e6 : 60e6;
	cache_change_point(v, 30, 1.0, &c);
	TH_CHECK(c.found);
	TH_CHECK(c.recovered);
}

/* --storage-report: a rand file no larger than the knee is cache-served (grade/storage_ref.c) */
