/*
 * test_cache.c — the knee of a cache-cliff curve (modules/cache/cache_knee.c)
 * on recorded curves: flat, noisy (CoV 20%, seeded), stepping up, and real
 * steps (found within one size step); the --storage-report decision.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "grade/grade.h"
#include "modules/cache/cache_knee.h"
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
TH_TEST(cache_knee_recorded)
{
	const double v[] = { 182000, 176500, 171200, 9400, 8900 };

	TH_EQ_INT(cache_knee(v, 5), 2);
}

TH_TEST(cache_knee_flat_none)
{
	const double v[] = { 12000, 12000, 12000, 12000, 12000, 12000 };

	TH_EQ_INT(cache_knee(v, 6), -1);
	TH_EQ_INT(cache_knee(v, 1), -1);
	TH_EQ_INT(cache_knee(v, 0), -1);
}

TH_TEST(cache_knee_step_up_none)
{
	/* faster with size (a cold start, read-ahead): not a cache cliff */
	const double v[] = { 3000, 3100, 9000, 30000, 31000 };

	TH_EQ_INT(cache_knee(v, 5), -1);
}

TH_TEST(cache_knee_noisy_flat_none)
{
	rng = 0x89;
	for (int s = 0; s < 500; s++) {
		double v[8];

		for (int i = 0; i < 8; i++)
			v[i] = noisy(20000);
		if (cache_knee(v, 8) != -1)
			th_fail(__FILE__, __LINE__, "false knee on flat noisy curve %d", s);
	}
}

TH_TEST(cache_knee_noisy_step_within_one)
{
	rng = 0x1234;
	for (int s = 0; s < 500; s++) {
		unsigned truth = 1 + (unsigned)s % 5; /* last fast index */
		double v[8];

		for (unsigned i = 0; i < 8; i++)
			v[i] = noisy(i <= truth ? 150000 : 15000);
		int k = cache_knee(v, 8);

		if (k < 0 || abs(k - (int)truth) > 1)
			th_fail(__FILE__, __LINE__, "curve %d: knee %d, truth %u", s, k, truth);
	}
}

TH_TEST(cache_knee_partial_hit_point)
{
	/* a working set twice the cache: half its reads hit, the point between the levels */
	const double v[] = { 100000, 100000, 52000, 9000, 8000 };
	int k = cache_knee(v, 5);

	TH_CHECK(k == 1 || k == 2);
}

TH_TEST(cache_storage_ref_decision)
{
	TH_CHECK(storage_ref_cache_served(4ULL << 30, 8ULL << 30));  /* 4 GiB file, knee 8 GiB */
	TH_CHECK(!storage_ref_cache_served(4ULL << 30, 1ULL << 30)); /* knee 1 GiB: the device's */
	TH_CHECK(storage_ref_cache_served(1ULL << 30, 1ULL << 30));  /* at the knee: still the cache's */
	TH_CHECK(!storage_ref_cache_served((1ULL << 30) + 4096, 1ULL << 30));
	TH_CHECK(!storage_ref_cache_served(4ULL << 30, 0));          /* no knee measured */
}
