/*
 * cache_knee.h — the knee of a cache-cliff curve (cache_cliff.c): where a
 * growing working set stops being served from a cache. Pure, no I/O;
 * unit-tested in tests/test_cache.c on recorded and generated curves.
 */
#ifndef VPSBENCH_CACHE_KNEE_H
#define VPSBENCH_CACHE_KNEE_H

/* A knee: the points after it are this many times slower than those up to it. */
#define CACHE_KNEE_RATIO 2.0
/* ... and none of them climbs back above this share of the fast level. */
#define CACHE_KNEE_STAY 0.75

/*
 * The knee of v[0..n-1] (figures per growing working set, higher is
 * faster, e.g. IOPS): the index k of the last point served from a cache
 * (mean of v[0..k] >= CACHE_KNEE_RATIO x mean of v[k+1..], and every later
 * point below CACHE_KNEE_STAY x that fast mean), the split with the
 * largest ratio. -1 = no knee (flat, noisy, getting faster, n < 2).
 */
int cache_knee(const double *v, unsigned n);

#endif
