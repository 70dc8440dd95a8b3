/*
 * uncert.h — the uncertainty a figure carries (README "Grades": the
 * borderline rule): the half-width, in the figure's unit, of its 95%
 * interval. A grade is named only when the figure is clear of every
 * tier bound by more than this. NAN = could not be told (fewer than 2
 * samples): such a figure is shown, not graded.
 */
#ifndef VPSBENCH_UNCERT_H
#define VPSBENCH_UNCERT_H

/* Student's t, two-sided 95% (0.975 quantile), for df degrees of freedom (df >= 1). */
double uncert_t975(unsigned df);

/* The mean of n samples: t975(n-1) x s / sqrt(n). NAN when n < 2. */
double uncert_mean_ci95(const double *v, unsigned n);

/*
 * A best-of (or worst-of) figure from n repetitions (STREAM's best rep, a
 * min latency): half the range of the repetitions, the honest spread when
 * the figure is an extreme rather than a mean. NAN when n < 2.
 */
double uncert_half_range(const double *v, unsigned n);

/* a / b with a's and b's own uncertainties: relative ones add in quadrature. NAN if either is. */
double uncert_ratio(double a, double ua, double b, double ub);

#endif
