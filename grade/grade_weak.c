/*
 * grade_weak.c — the resources weak for a VPS of this size, if any. No
 * comparison across scales: a figure is weak only when it sits robustly in
 * its metric's worst tier (rank 0 and not borderline: its whole 95%
 * interval is below the next bound), and every such figure is listed. They
 * are ordered by how far off they are, |ln(value / bound of the tier
 * above)|: symmetric, so half the bound of a higher-is-better figure and
 * double the bound of a lower-is-better one are equally far, whatever the
 * unit. Ties keep the table's order. Disturbed figures and figures with no
 * uncertainty have no grade (grade.c), so they are never here. Health
 * figures (steal, IOPS CoV and drop) are the Health block's, and the
 * metrics whose tiers would be a consequence of the machine's size
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

/* |ln(value / next bound)| of a robustly worst-tier figure; NAN when it is not one. */
static double ln_off(const struct grade *g)
{
	if (g->rank != 0 || g->borderline || g->ntiers < 2 || !isfinite(g->bound_next) ||
	    g->bound_next <= 0 || !isfinite(g->value))
		return NAN;
	if (g->value <= 0)
		return INFINITY; /* nothing at all: as far off as can be */
	return fabs(log(g->value / g->bound_next));
}

/* The metric's place in t (ties keep the table's order); t NULL: the grades' order. */
static unsigned table_pos(const struct grade_table *t, const struct grade_result *out, int i)
{
	if (t)
		for (unsigned k = 0; k < t->n; k++)
			if (strcmp(t->def[k].metric, out->g[i].metric) == 0)
				return k;
	return GRADE_MAX_METRICS + (unsigned)i;
}

/* Whether a (score sa, index ia) goes before b. */
static bool before(const struct grade_table *t, const struct grade_result *out, double sa, int ia,
		   double sb, int ib)
{
	if (sa != sb)
		return sa > sb;
	return table_pos(t, out, ia) < table_pos(t, out, ib);
}

void grade_pick_weak(const struct grade_table *t, struct grade_result *out)
{
	out->nweak = 0;
	for (unsigned i = 0; i < out->n; i++) {
		double s;
		unsigned at;

		if (is_health_metric(out->g[i].metric))
			continue;
		s = ln_off(&out->g[i]);
		if (isnan(s))
			continue;
		/* insertion into the sorted list; past GRADE_MAX_WEAK the nearest ones drop */
		at = out->nweak;
		while (at > 0 && before(t, out, s, (int)i, out->weak_ln[at - 1], out->weak[at - 1]))
			at--;
		if (at >= GRADE_MAX_WEAK)
			continue;
		for (unsigned k = out->nweak < GRADE_MAX_WEAK ? out->nweak : GRADE_MAX_WEAK - 1; k > at; k--) {
			out->weak[k] = out->weak[k - 1];
			out->weak_ln[k] = out->weak_ln[k - 1];
		}
		out->weak[at] = (int)i;
		out->weak_ln[at] = s;
		if (out->nweak < GRADE_MAX_WEAK)
			out->nweak++;
	}
}
