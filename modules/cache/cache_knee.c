/*
 * cache_knee.c — the knee of a cache-cliff curve from repeated points.
 * The thresholds were set on seeded Monte-Carlo curves (tests/test_cache.c):
 * flat ones and 3x cliffs, 3 repeats, log-normal noise.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "cache_knee.h"

static void sort(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* The logs of x[0..m-1]: their median, mean and sum of squares about the mean; false if one is not > 0. */
static bool log_stats(const double *x, unsigned m, double *med, double *avg, double *ss)
{
	double l[CACHE_MAX_REPEATS], mean = 0;

	if (!m || m > CACHE_MAX_REPEATS)
		return false;
	for (unsigned j = 0; j < m; j++) {
		if (!(x[j] > 0) || !isfinite(x[j]))
			return false;
		l[j] = log(x[j]);
		mean += l[j] / m;
	}
	*ss = 0;
	for (unsigned j = 0; j < m; j++)
		*ss += (l[j] - mean) * (l[j] - mean);
	*avg = mean;
	sort(l, m);
	*med = m % 2 ? l[m / 2] : (l[m / 2 - 1] + l[m / 2]) / 2;
	return true;
}

double cache_knee_spread(const double (*x)[CACHE_MAX_REPEATS], const unsigned *m, unsigned n)
{
	double ss = 0;
	unsigned df = 0;

	for (unsigned i = 0; i < n && i < CACHE_MAX_SIZES; i++) {
		double med, avg, e;

		if (!log_stats(x[i], m[i], &med, &avg, &e))
			return 0;
		ss += e;
		df += m[i] - 1;
	}
	return df ? ss / df : 0;
}

int cache_knee_series(const double (*x)[CACHE_MAX_REPEATS], const unsigned *m, unsigned n, double s2min)
{
	double med[CACHE_MAX_SIZES], avg[CACHE_MAX_SIZES], ss = 0, best = INFINITY;
	unsigned df = 0;
	int knee = -1;

	if (n > CACHE_MAX_SIZES)
		n = CACHE_MAX_SIZES;
	for (unsigned i = 0; i < n; i++) {
		double e;

		if (!log_stats(x[i], m[i], &med[i], &avg[i], &e))
			return -1; /* a size not measured: no knee claimed */
		ss += e;
		df += m[i] - 1;
	}
	for (unsigned k = 0; k + 1 < n; k++) {
		double F = 0, S = 0, Fa = 0, Sa = 0, se2 = 0, nf = k + 1, ns = n - k - 1, e = 0, rr = ss;
		bool ok;

		for (unsigned i = 0; i < n; i++) {
			if (i <= k) {
				F += med[i] / nf;
				Fa += avg[i] / nf;
				se2 += 1.0 / (m[i] * nf * nf);
			} else {
				S += med[i] / ns;
				Sa += avg[i] / ns;
				se2 += 1.0 / (m[i] * ns * ns);
			}
		}
		/* the split holds in the medians: a ratio, and no size on the wrong side of it */
		ok = F - S >= log(CACHE_KNEE_RATIO);
		for (unsigned i = 0; i < n; i++)
			if (i > k ? med[i] >= F + log(CACHE_KNEE_STAY) : med[i] <= S - log(CACHE_KNEE_STAY))
				ok = false;
		if (!ok)
			continue;
		/* ... and exceeds the spread: the repeats' variance about their size's mean and the
		 * sizes' about their level (pooled, never below s2min), the levels' difference in
		 * standard errors, the bar raised with each split tried */
		if (df) {
			double s2, t = CACHE_KNEE_SE + CACHE_KNEE_SE_PER * (n - 2);

			for (unsigned i = 0; i < n; i++)
				rr += m[i] * (avg[i] - (i <= k ? Fa : Sa)) * (avg[i] - (i <= k ? Fa : Sa));
			s2 = rr / (df + n - 2);
			s2 = s2 < s2min ? s2min : s2;
			if (Fa - Sa < t * sqrt(s2 * se2))
				continue;
		}
		/* of the splits that pass, the one that fits two levels best */
		for (unsigned i = 0; i < n; i++)
			e += (med[i] - (i <= k ? F : S)) * (med[i] - (i <= k ? F : S));
		if (e < best) {
			best = e;
			knee = (int)k;
		}
	}
	return knee;
}

int cache_knee_points(const struct cache_point *p, unsigned n, enum cache_knee_by *by)
{
	double io[CACHE_MAX_SIZES][CACHE_MAX_REPEATS], lat[CACHE_MAX_SIZES][CACHE_MAX_REPEATS], s2a, s2b;
	unsigned m[CACHE_MAX_SIZES];
	int ki, kl;

	if (n > CACHE_MAX_SIZES)
		n = CACHE_MAX_SIZES;
	for (unsigned i = 0; i < n; i++) {
		m[i] = p[i].nrep < CACHE_MAX_REPEATS ? p[i].nrep : CACHE_MAX_REPEATS;
		for (unsigned j = 0; j < m[i]; j++) {
			io[i][j] = p[i].rep[j].iops32;
			/* latency as a speed, so that higher is faster as for IOPS */
			lat[i][j] = p[i].rep[j].p50_1_ns ? 1e9 / (double)p[i].rep[j].p50_1_ns : 0;
		}
	}
	/* each figure is held to the larger of the two spreads: a quiet figure (IOPS at an
	 * engine's cap) does not make the other's noise look small, and two estimates from
	 * few repeats underestimate the noise less often than one */
	s2a = cache_knee_spread((const double (*)[CACHE_MAX_REPEATS])io, m, n);
	s2b = cache_knee_spread((const double (*)[CACHE_MAX_REPEATS])lat, m, n);
	ki = cache_knee_series((const double (*)[CACHE_MAX_REPEATS])io, m, n, s2a > s2b ? s2a : s2b);
	kl = cache_knee_series((const double (*)[CACHE_MAX_REPEATS])lat, m, n, s2a > s2b ? s2a : s2b);
	if (ki >= 0 && ki == kl)
		*by = CACHE_KNEE_BOTH;
	else if (ki >= 0 && (kl < 0 || ki < kl))
		*by = CACHE_KNEE_IOPS;
	else if (kl >= 0)
		*by = CACHE_KNEE_LAT;
	else
		*by = CACHE_KNEE_NONE;
	return *by == CACHE_KNEE_NONE ? -1 : *by == CACHE_KNEE_LAT ? kl : ki;
}
