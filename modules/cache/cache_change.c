/*
 * cache_change.c — the change point of a write timeline.
 */
#include <math.h>
#include <stddef.h>

#include "cache_change.h"

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

void cache_change_point(const double *v, unsigned n, double dt, struct cache_change *c)
{
	double best = INFINITY;
	unsigned bt = 0;

	*c = (struct cache_change){ 0 };
	c->burst_rate = mean(v, 0, n);
	c->sustained_rate = c->burst_rate;
	c->burst_amount = c->burst_rate * dt * n;
	for (unsigned t = 2; t + 2 <= n; t++) {
		double m1 = mean(v, 0, t), m2 = mean(v, t, n);
		double e = sse(v, 0, t, m1) + sse(v, t, n, m2);

		double sd = sqrt(e / (double)(n - 2));
		double se = sd * sqrt(1.0 / t + 1.0 / (double)(n - t));

		/* a drop, and not one that noise makes (t statistic, CoV 20% in tests) */
		if (m2 <= CACHE_DROP_RATIO * m1 && (se == 0 || (m1 - m2) / se >= CACHE_DROP_T) &&
		    e < best) {
			best = e;
			bt = t;
		}
	}
	if (!bt)
		return;
	c->found = true;
	c->index = bt;
	/* the levels without the two samples around the split, one may be mixed */
	double hi = bt >= 3 ? mean(v, 0, bt - 1) : mean(v, 0, bt);
	double lo = n - bt >= 3 ? mean(v, bt + 1, n) : mean(v, bt, n);

	c->burst_rate = hi;
	c->sustained_rate = lo;
	c->burst_amount = 0;
	for (unsigned i = 0; i + 1 < bt; i++)
		c->burst_amount += v[i] * dt;
	/* a mixed sample v = f*hi + (1-f)*lo spent the share f of dt at the burst rate */
	for (unsigned i = bt - 1; i <= bt && i < n; i++) {
		double f = hi > lo ? (v[i] - lo) / (hi - lo) : 0;

		f = f < 0 ? 0 : f > 1 ? 1 : f;
		c->burst_amount += f * hi * dt;
	}
	unsigned r = n - bt < CACHE_RECOVER_N ? n - bt : CACHE_RECOVER_N;

	c->recovered = mean(v, n - r, n) >= CACHE_RECOVER_SHARE * hi;
}
