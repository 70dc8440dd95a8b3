/*
 * uncert.c — 95% half-widths for the figures the grades read (uncert.h).
 */
#include <math.h>

#include "uncert.h"

double uncert_t975(unsigned df)
{
	/* the 0.975 quantile of Student's t, df 1..30; past that the normal's 1.96 plus a 2.4/df correction */
	static const double t[] = {
		NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df == 0)
		return NAN;
	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	return 1.96 + 2.4 / df;
}

double uncert_mean_ci95(const double *v, unsigned n)
{
	double sum = 0, var = 0, mean;

	if (n < 2)
		return NAN;
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	return uncert_t975(n - 1) * sqrt(var / (n - 1)) / sqrt((double)n);
}

double uncert_half_range(const double *v, unsigned n)
{
	double lo = INFINITY, hi = -INFINITY;

	if (n < 2)
		return NAN;
	for (unsigned i = 0; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return (hi - lo) / 2;
}

double uncert_ratio(double a, double ua, double b, double ub)
{
	double r;

	if (!isfinite(a) || !isfinite(ua) || !isfinite(b) || !isfinite(ub) || a == 0 || b == 0)
		return NAN;
	r = a / b;
	return fabs(r) * sqrt((ua / a) * (ua / a) + (ub / b) * (ub / b));
}
