/*
 * text_pass_io.h — what the disk sections (text_seq.c, text_rand.c,
 * text_fsync.c) print beside their figures: the graded figure's 95%
 * half-width (from the metric set) and a "disturbed: why" line per
 * disturbed pass.
 */
#ifndef VPSBENCH_TEXT_PASS_IO_H
#define VPSBENCH_TEXT_PASS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/pass_io.h"
#include "grade/grade.h"
#include "render/render.h"

/*
 * " ± 12.3" (fmt formats the half-width times scale), " ± ? (too few
 * samples)" when the interval is unbounded, "" when metric is "" or its
 * uncertainty is unknown. Returns buf.
 */
const char *text_pm(char *buf, size_t n, const struct grade_result *g, const char *metric,
		    double scale, const char *fmt);
/*
 * A disturbed pass's line: " <label>: <what>: <why>" (label padded as
 * text_kv's, or printed as is when raw), the why wrapped at 80 columns
 * under its start. Nothing when p is not disturbed.
 */
void text_disturbed(FILE *f, const struct render_style *st, const char *label, bool kv,
		    const char *what, const struct pass_io *p);
/*
 * The ± line of a percentile metric under its figures: label then
 * "± 36.9 us (order statistics of 12345 reads)", the half-width in us; "too
 * few ... for its interval" when unbounded. Nothing when unknown.
 */
void text_pct_pm(FILE *f, const struct render_style *st, const char *label, bool kv,
		 const struct grade_result *g, const char *metric);
/* The metric's uncertainty: NAN when unknown or not measured, INFINITY when unbounded. */
double text_uncert(const struct grade_result *g, const char *metric);
#endif
