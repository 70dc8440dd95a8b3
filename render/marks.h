/*
 * marks.h — the marks every format puts on a graded figure (issue #39):
 * its value ± its 95% uncertainty and where that came from, its tier as
 * "tier 4 of 5, 5 = best", "between good and ideal" when borderline (no
 * single tier word), "disturbed: why" for a figure measured but not
 * graded, and whether it is one of the weak figures. Text and HTML print
 * these strings; JSON and prom carry the same facts as fields/series.
 */
#ifndef VPSBENCH_RENDER_MARKS_H
#define VPSBENCH_RENDER_MARKS_H

#include <stdbool.h>
#include <stddef.h>

#include "grade/grade.h"

/*
 * "480 ± 12 MB/s"; "480 MB/s ± unknown" when u is NAN; "480 MB/s ± unbounded"
 * when u is infinite (a percentile whose upper rank is past its samples).
 */
void mark_value(char *buf, size_t n, double v, double u, const char *unit);
/* "good, tier 4 of 5 (5 = best)" or "between good and ideal, tiers 3-4 of 5 (5 = best)". */
void mark_tier(char *buf, size_t n, const struct grade *x);
/* The metric behind a grade or a name (g->metrics), or NULL. */
const struct metric *mark_metric(const struct grade_result *g, const char *name);
/*
 * A grade's uncertainty: its metric's (the figure's own, NAN when unknown),
 * else the grade's copy.
 */
double mark_uncert(const struct grade_result *g, const struct grade *x);
/* The position of grade index gi in g->weak[] (0 = the furthest off), or -1. */
int mark_weak_pos(const struct grade_result *g, unsigned gi);
/* The unit of a metric's figures (the built-in table's), "" when it has none. */
const char *mark_unit(const char *name);
/* Whether m is measured but has no grade and a reason to say so (disturbed, or why_not set). */
bool mark_ungraded_shown(const struct grade_result *g, const struct metric *m);

#endif
