/*
 * cache_knee.c — the knee of a cache-cliff curve.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "cache_knee.h"

static double mean(const double *v, unsigned a, unsigned b)
{
	double s = 0;

	for (unsigned i = a; i < b; i++)
		s += v[i];
	return b > a ? s / (double)(b - a) : NAN;
}

static double sse(const double *v, unsigned a, unsigned b, double m)
{
	double s = 0;

	for (unsigned i = a; i < b; i++)
		s += (v[i] - m) * (v[i] - m);
	return s;
}

int cache_knee(const double *v, unsigned n)
{
	double lv[64], best = INFINITY;
	int knee = -1;

	if (n > 64)
		n = 64;
	for (unsigned i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -1; /* a point not measured: no knee claimed */
		lv[i] = log(v[i]);
	}
	for (unsigned k = 0; k + 1 < n; k++) {
		double fast = mean(v, 0, k + 1), slow = mean(v, k + 1, n);
		bool stays = fast >= CACHE_KNEE_RATIO * slow;

		for (unsigned i = k + 1; i < n; i++)
			if (v[i] >= CACHE_KNEE_STAY * fast)
				stays = false;
		/* every point up to the knee is itself fast: a slow start is no cache */
		for (unsigned i = 0; i <= k; i++)
			if (v[i] < CACHE_KNEE_RATIO * slow)
				stays = false;
		if (!stays)
			continue;
		/* the split that fits two levels best, in log space (the noise is a factor) */
		double e = sse(lv, 0, k + 1, mean(lv, 0, k + 1)) + sse(lv, k + 1, n, mean(lv, k + 1, n));

		if (e < best) {
			best = e;
			knee = (int)k;
		}
	}
	return knee;
}

