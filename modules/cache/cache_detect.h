/*
 * cache_detect.h — the pure rules of the storage profile (cache.c):
 * the knee of a cache-cliff curve and the change point of a write
 * timeline. No I/O; unit-tested in tests/test_cache.c on recorded curves.
 */
#ifndef VPSBENCH_CACHE_DETECT_H
#define VPSBENCH_CACHE_DETECT_H

#include <stdbool.h>

/* A knee: the points after it are this many times slower than those up to it. */
#define CACHE_KNEE_RATIO 2.0
/* ... and none of them climbs back above this share of the fast level. */
#define CACHE_KNEE_STAY 0.75
/* A change point: the sustained rate is at most this share of the burst rate. */
#define CACHE_DROP_RATIO 0.7
/* Recovered: the last CACHE_RECOVER_N samples average this share of the burst. */
/* ... by more than this many standard errors of the two means */
#define CACHE_DROP_T 5.0
#define CACHE_RECOVER_SHARE 0.8
#define CACHE_RECOVER_N 3u

/*
 * The knee of v[0..n-1] (figures per growing working set, higher is
 * faster, e.g. IOPS): the index k of the last point served from a cache
 * (mean of v[0..k] >= CACHE_KNEE_RATIO x mean of v[k+1..], and every later
 * point below CACHE_KNEE_STAY x that fast mean), the split with the
 * largest ratio. -1 = no knee (flat, noisy, getting faster, n < 2).
 */
int cache_knee(const double *v, unsigned n);

struct cache_change {
	bool found;            /* a drop that stays down */
	unsigned index;        /* first sample of the sustained part */
	double burst_rate;     /* mean of the samples before it (unit of v) */
	double sustained_rate; /* mean from it on */
	double burst_amount;   /* v x dt summed until the drop, the mixed sample split */
	bool recovered;        /* the tail climbed back to the burst level */
};

/*
 * The change point of a timeline v[0..n-1] of rates, one sample per dt
 * seconds: the two-segment least-squares split (each part >= 2 samples)
 * whose second part is at most CACHE_DROP_RATIO of the first, by at
 * least CACHE_DROP_T standard errors. Without
 * one, found is false and burst_rate is the mean of all (sustained).
 */
void cache_change_point(const double *v, unsigned n, double dt, struct cache_change *c);

#endif
