/*
 * test_cache_change.c — the change point of a write timeline
 * (modules/cache/cache_change.c) on recorded and generated timelines:
 * flat, noisy (CoV 20%, seeded), stepping up, real drops, recovery; and
 * seeded: three levels (the floor, not the mean after the first change),
 * an end-of-run dip (no drop), AR(1) phi 0.9 noise (false-drop and miss
 * rates printed and bounded), a 1.2 s burst sized from 100 ms samples.
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

static double gauss(void)
{
	return sqrt(-2.0 * log(unif())) * cos(2.0 * M_PI * unif());
}

/* v[i] = level(i) x (1 + cov e_i), e an AR(1) series with coefficient phi and unit variance */
static void ar1(double *v, unsigned n, double phi, double cov)
{
	double e = gauss();

	for (unsigned i = 0; i < n; i++) {
		if (i)
			e = phi * e + sqrt(1 - phi * phi) * gauss();
		v[i] *= 1.0 + cov * e;
		if (v[i] < 0)
			v[i] = 0;
	}
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
	/* iid CoV 20%: none in 500 (was also the old rule's bar) */
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
	/* one drop: what was written before the floor is the burst */
	TH_NEAR(c.change_amount, 2.5e9, 1e3);
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
	/* the floor is the 60 MB/s level, the 4 s back at 300 a level of its own */
	TH_NEAR(c.sustained_rate, 60e6, 1);
	TH_EQ_INT(c.index, 8);
}

TH_TEST(cache_change_three_levels_floor)
{
	/* SLC 400 -> TLC 250 -> folding 150 MB/s (10 s, 20 s, 30 s), CoV 5%: the floor 150 +-5%, the last change at 30 s */
	rng = 0x3e7e1;
	for (int s = 0; s < 200; s++) {
		double v[60];
		struct cache_change c;

		for (unsigned i = 0; i < 60; i++)
			v[i] = (i < 10 ? 400e6 : i < 30 ? 250e6 : 150e6) * (1 + 0.05 * gauss());
		cache_change_point(v, 60, 1.0, &c);
		if (!c.found || fabs(c.sustained_rate - 150e6) > 0.05 * 150e6 || abs((int)c.index - 30) > 1 ||
		    fabs(c.burst_rate - 400e6) > 0.05 * 400e6 || abs((int)c.first - 10) > 1)
			th_fail(__FILE__, __LINE__, "timeline %d: found %d, floor %.0f from %u, burst %.0f to %u",
				s, c.found, c.sustained_rate, c.index, c.burst_rate, c.first);
	}
}

TH_TEST(cache_change_end_dip_none)
{
	/* 2 s (and 4 s) at a quarter of the rate at the end of 30 s (60 s), CoV 10%: shorter than the minimum drop */
	rng = 0xd1b;
	TH_EQ_INT(cache_change_min_drop(30, 1.0), 5);
	TH_EQ_INT(cache_change_min_drop(120, 1.0), 12);
	TH_EQ_INT(cache_change_min_drop(7200, 1.0), 60);
	for (int s = 0; s < 200; s++) {
		unsigned n = s % 2 ? 60 : 30, dip = s % 2 ? 4 : 2;
		double v[60];
		struct cache_change c;

		for (unsigned i = 0; i < n; i++)
			v[i] = (i + dip >= n ? 50e6 : 200e6) * (1 + 0.1 * gauss());
		cache_change_point(v, n, 1.0, &c);
		if (c.found)
			th_fail(__FILE__, __LINE__, "timeline %d: a %u s dip at the end is a drop at %u", s, dip,
				c.index);
	}
}

/* AR(1) phi 0.9 CoV 20% flat timelines of 30, 60, 120 s: false drops at most 2% of 3000 */
TH_TEST(cache_change_ar1_false_drops)
{
	unsigned lens[] = { 30, 60, 120 }, fp = 0, runs = 0;

	rng = 0xa71;
	for (unsigned l = 0; l < 3; l++)
		for (int s = 0; s < 1000; s++) {
			double v[120];
			struct cache_change c;

			for (unsigned i = 0; i < lens[l]; i++)
				v[i] = 200e6;
			ar1(v, lens[l], 0.9, 0.2);
			cache_change_point(v, lens[l], 1.0, &c);
			fp += c.found;
			runs++;
		}
	printf("    AR(1) phi 0.9 CoV 20%%, flat: %u false drops in %u (%.2f%%)\n", fp, runs, 100.0 * fp / runs);
	if (fp * 50 > runs)
		th_fail(__FILE__, __LINE__, "%u false drops in %u AR(1) flat timelines (bound 2%%)", fp, runs);
}

/* a real drop (500 -> 150 MB/s at 10..40 s of 60) under AR(1) phi 0.9 CoV 10%: missed at most 5% */
TH_TEST(cache_change_ar1_drop_found)
{
	unsigned miss = 0, runs = 0, off = 0;

	rng = 0xa72;
	for (int s = 0; s < 1000; s++) {
		unsigned truth = 10 + (unsigned)s % 31;
		double v[60];
		struct cache_change c;

		for (unsigned i = 0; i < 60; i++)
			v[i] = i < truth ? 500e6 : 150e6;
		ar1(v, 60, 0.9, 0.1);
		cache_change_point(v, 60, 1.0, &c);
		runs++;
		if (!c.found)
			miss++;
		else if (abs((int)c.index - (int)truth) > 2 || fabs(c.sustained_rate - 150e6) > 0.25 * 150e6)
			off++;
	}
	printf("    AR(1) phi 0.9 CoV 10%%, 500 -> 150 MB/s: %u missed, %u misplaced in %u (%.2f%%, %.2f%%)\n",
	       miss, off, runs, 100.0 * miss / runs, 100.0 * off / runs);
	if (miss * 20 > runs || off * 20 > runs)
		th_fail(__FILE__, __LINE__, "%u missed, %u misplaced of %u real drops (bound 5%%)", miss, off, runs);
}

/*
 * 1.2 s (and 0.6 s: no 1 s sample is all burst) at 800 MB/s then 100 MB/s
 * for 30 s: 1 s samples, and 100 ms ones for the first 10 s
 */
TH_TEST(cache_change_short_burst_sub)
{
	rng = 0x5b;
	for (int s = 0; s < 200; s++) {
		double v[30], sub[100], truth = 0, rate, len = s % 2 ? 0.6 : 1.2;
		unsigned nb = s % 2 ? 6 : 12;
		struct cache_change c;

		for (unsigned i = 0; i < 100; i++)
			sub[i] = noisy(i < nb ? 800e6 : 100e6) * 0.1;
		for (unsigned i = 0; i < 30; i++) {
			v[i] = 0;
			for (unsigned k = 0; k < 10; k++)
				v[i] += i < 10 ? sub[i * 10 + k] : noisy(100e6) * 0.1;
		}
		/* rates, not bytes, per sample; the truth: what the first 1.2 s wrote */
		for (unsigned i = 0; i < 100; i++) {
			truth += i < nb ? sub[i] : 0;
			sub[i] /= 0.1;
		}
		rate = truth / len;
		cache_change_point(v, 30, 1.0, &c);
		TH_CHECK(c.found);
		cache_change_sub(sub, 100, 0.1, 1.0, &c);
		if (fabs(c.burst_amount - truth) > 0.1 * truth || fabs(c.burst_rate - rate) > 0.1 * rate)
			th_fail(__FILE__, __LINE__, "timeline %d: burst %.0f MB/s, %.0f MB (truth %.0f, %.0f)", s,
				c.burst_rate / 1e6, c.burst_amount / 1e6, rate / 1e6, truth / 1e6);
	}
}

/* --storage-report: a rand file no larger than the knee is cache-served (grade/storage_ref.c) */
