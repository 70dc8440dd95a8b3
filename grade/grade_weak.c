/*
 * grade_weak.c — the one resource weak for a VPS of this size, if any.
 * No comparison across scales: a figure is weak only when it sits in its
 * metric's worst tier, and among several the one furthest below the bound
 * of the tier above it (in % of that bound, each in its own unit) is named.
 * Health figures (steal, IOPS CoV and drop) are the Health block's, and
 * the metrics whose tiers would be a consequence of the machine's size
 * (all-thread bandwidth) have no tiers at all (grade_table.c).
 */
#include <math.h>
#include <string.h>

#include "grade.h"

/* Judged by the Health block, not named as a weak resource. */
static const char *const health_metrics[] = {
	"rand_cov_pct", "rand_tail_ratio", "cpu_steal_pct", NULL,
};

static bool is_health_metric(const char *name)
{
	for (int i = 0; health_metrics[i]; i++)
		if (strcmp(health_metrics[i], name) == 0)
			return true;
	return false;
}

/* % the value falls short of the next tier's bound; NAN when not in the worst tier. */
static double shortfall_pct(const struct grade *g)
{
	if (g->rank != 0 || g->ntiers < 2 || !isfinite(g->bound_next) || g->bound_next == 0)
		return NAN;
	return (g->higher_better ? g->bound_next - g->value : g->value - g->bound_next) /
	       fabs(g->bound_next) * 100.0;
}

int grade_pick_weak(const struct grade_result *out, double *short_pct)
{
	int weak = -1;
	double worst = -1;

	*short_pct = NAN;
	for (unsigned i = 0; i < out->n; i++) {
		double s;

		if (is_health_metric(out->g[i].metric))
			continue;
		s = shortfall_pct(&out->g[i]);
		if (isfinite(s) && s > worst) {
			worst = s;
			weak = (int)i;
		}
	}
	if (weak >= 0)
		*short_pct = worst;
	return weak;
}
