/*
 * cache_knee.h — the knee of a cache-cliff curve (cache_cliff.c): where a
 * growing working set stops being served from a cache, read from each
 * size's repeated measurements. Pure, no I/O; unit-tested in
 * tests/test_cache.c on recorded curves and seeded Monte-Carlo ones.
 */
#ifndef VPSBENCH_CACHE_KNEE_H
#define VPSBENCH_CACHE_KNEE_H

#include "cache.h"

/* The later sizes' medians at least this many times slower than the earlier ones' ... */
#define CACHE_KNEE_RATIO 1.6
/* ... none of them above this share of the fast level (nor a fast one below 1/share of the slow) ... */
#define CACHE_KNEE_STAY 0.75
/* ... and the split this many standard errors of the repeats' spread, plus this per size beyond 2. */
#define CACHE_KNEE_SE 2.5
#define CACHE_KNEE_SE_PER 0.25

/*
 * The knee of one figure (higher is faster: IOPS, 1/latency) measured
 * m[i] times at each of n growing sizes, x[i][0..m[i]-1] > 0: the index k
 * of the last size served from a cache, or -1 (flat, noisy, getting
 * faster, a size not measured, n < 2). In log space (the noise is a
 * factor), for each split k: F = mean of the medians of sizes 0..k, S =
 * that of k+1..n-1. A knee needs F - S >= log(CACHE_KNEE_RATIO), every
 * later median below F + log(CACHE_KNEE_STAY), every earlier one above
 * S - log(CACHE_KNEE_STAY), and the difference of the repeats' mean
 * levels at least CACHE_KNEE_SE + CACHE_KNEE_SE_PER x (n - 2) standard
 * errors, the variance pooled from the repeats about their size and the
 * sizes about their level, never below s2min (log-space variance; with
 * one repeat per size the spread is unknown and that test is not made).
 * Of the splits that pass, the one that fits two levels best.
 */
int cache_knee_series(const double (*x)[CACHE_MAX_REPEATS], const unsigned *m, unsigned n, double s2min);

/* The repeats' log-space variance about their size's mean, pooled; 0 with one repeat per size. */
double cache_knee_spread(const double (*x)[CACHE_MAX_REPEATS], const unsigned *m, unsigned n);

/*
 * The knee of the cliff's first n points (each measured nrep >= 1 times):
 * looked for in qd32 IOPS and in qd1 p50 as a speed (1/p50), each held to
 * the larger of the two figures' spreads. by gets which showed it; when
 * both show one at different sizes, the smaller size is the knee (beyond
 * it one figure is already at its slow level) and by names that figure.
 */
int cache_knee_points(const struct cache_point *p, unsigned n, enum cache_knee_by *by);

#endif
