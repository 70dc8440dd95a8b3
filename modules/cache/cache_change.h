/*
 * cache_change.h — the change point of a write timeline (cache_write.c):
 * where a burst rate drops to a sustained one. Pure, no I/O; unit-tested
 * in tests/test_cache.c on recorded and generated timelines.
 */
#ifndef VPSBENCH_CACHE_CHANGE_H
#define VPSBENCH_CACHE_CHANGE_H

#include <stdbool.h>

/* A change point: the sustained rate is at most this share of the burst rate. */
#define CACHE_DROP_RATIO 0.7
/* ... by more than this many standard errors of the two means */
#define CACHE_DROP_T 5.0
/* Recovered: the last CACHE_RECOVER_N samples average this share of the burst. */
#define CACHE_RECOVER_SHARE 0.8
#define CACHE_RECOVER_N 3u

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
