/*
 * marks.c — the strings behind the marks of marks.h, so text and HTML
 * say the same words.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "marks.h"

void mark_value(char *buf, size_t n, double v, double u, const char *unit)
{
	char num[32], un[32];

	grade_fmt_value(num, sizeof(num), v);
	if (isnan(u))
		snprintf(buf, n, "%s %s ± unknown", num, unit);
	else if (isinf(u))
		snprintf(buf, n, "%s %s ± unbounded", num, unit);
	else {
		grade_fmt_value(un, sizeof(un), u);
		snprintf(buf, n, "%s ± %s %s", num, un, unit);
	}
}

void mark_tier(char *buf, size_t n, const struct grade *x)
{
	if (x->borderline && x->between[0])
		snprintf(buf, n, "%s, tiers %u-%u of %u (%u = best)", x->between, x->rank + 1,
			 x->rank_hi + 1, x->ntiers, x->ntiers);
	else if (x->borderline)
		snprintf(buf, n, "between tiers %u and %u of %u (%u = best)", x->rank + 1,
			 x->rank_hi + 1, x->ntiers, x->ntiers);
	else
		snprintf(buf, n, "%s, tier %u of %u (%u = best)", x->label, x->rank + 1, x->ntiers,
			 x->ntiers);
}

const struct metric *mark_metric(const struct grade_result *g, const char *name)
{
	return metric_get(&g->metrics, name);
}

double mark_uncert(const struct grade_result *g, const struct grade *x)
{
	const struct metric *m = mark_metric(g, x->metric);

	return m ? m->uncert : x->uncert;
}

int mark_weak_pos(const struct grade_result *g, unsigned gi)
{
	for (unsigned k = 0; k < g->nweak && k < GRADE_MAX_WEAK; k++)
		if (g->weak[k] >= 0 && (unsigned)g->weak[k] == gi)
			return (int)k;
	return -1;
}

bool mark_ungraded_shown(const struct grade_result *g, const struct metric *m)
{
	if (!m->measured || grade_get(g, m->name))
		return false;
	return m->disturbed || m->why_not[0];
}

const char *mark_unit(const char *name)
{
	const struct grade_def *d = grade_find(grade_builtin_table(), name);

	return d ? d->unit : "";
}
