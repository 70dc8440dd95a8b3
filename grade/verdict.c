/*
 * verdict.c — the one verdict line: health status, then each fit-for
 * answer, then every resource weak for a VPS of this size with the figure
 * that decided it, furthest off first. No score across scales: the weak
 * list comes from grade_pick_weak (grade_weak.c); a borderline or
 * disturbed figure is never in it.
 */
#include <stdio.h>
#include <string.h>

#include "grade.h"
#include "health.h"

static const char *answer_word(enum fit_answer a)
{
	return a == FIT_YES ? "yes" : a == FIT_NO ? "no" : "unknown";
}

void verdict_build(struct grade_result *g, const struct health_result *h)
{
	char *v = g->verdict;
	size_t n = sizeof(g->verdict), used;

	health_summary(h, v, n);
	for (unsigned i = 0; i < g->nfit; i++) {
		const struct fit_result *f = &g->fit[i];

		if (!f->asked)
			continue; /* its module was not run: the Fit for section says unknown */
		used = strlen(v);
		if (f->disturbed)
			snprintf(v + used, n - used, " — %s: %.120s", f->rule.rule, f->why);
		else if (f->answer == FIT_UNKNOWN)
			snprintf(v + used, n - used, " — %s: unknown: not measured", f->rule.rule);
		else
			snprintf(v + used, n - used, " — %s: %s%s", f->rule.rule, answer_word(f->answer),
				 f->low_confidence ? " (low confidence)" : "");
	}
	used = strlen(v);
	if (!g->nweak) {
		snprintf(v + used, n - used, " — weak for its size: %s",
			 g->n ? "nothing" : "nothing graded");
		return;
	}
	snprintf(v + used, n - used, " — weak for its size:");
	for (unsigned i = 0; i < g->nweak; i++) {
		const struct grade *w = &g->g[g->weak[i]];
		char val[32];

		used = strlen(v);
		grade_fmt_value(val, sizeof(val), w->value);
		snprintf(v + used, n - used, "%s %s = %s %s (%s: %s)", i ? ";" : "", w->metric, val,
			 w->unit, w->label, w->meaning);
	}
}
