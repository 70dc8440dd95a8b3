/*
 * watch_render.h — `vpsbench watch --report` output: the plain-text
 * summary for a support ticket (watch_text.c) and the HTML page of time
 * series (watch_html.c); the formatting both share (watch_fmt.c).
 */
#ifndef VPSBENCH_WATCH_RENDER_H
#define VPSBENCH_WATCH_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "grade/watch_hist.h"
#include "grade/watch_status.h"

/* 0, or -1 on a write error */
int watch_text(FILE *f, const struct watch_hist *h);
int watch_html(FILE *f, const struct watch_hist *h);
/* `watch --status` of the state directory dir (watch_status_text.c, watch_status_json.c) */
int watch_status_text(FILE *f, const struct watch_status_sum *s, const char *dir);
int watch_status_json(FILE *f, const struct watch_status_sum *s, const char *dir);

/* "2026-12-02 17:00 UTC" (with_zone false: without " UTC") */
void watch_fmt_time(char *buf, size_t n, double ts, int with_zone);
/* "40 s", "15 min", "2 h 5 min", "3 d 4 h" */
void watch_fmt_dur(char *buf, size_t n, double s);
/* a figure: "74.2", "14800"; "unknown" for NAN */
void watch_fmt_val(char *buf, size_t n, double v);
/* a figure with its unit ("74.2 us"), "unknown" for NAN; micro: "µs" for "us" */
void watch_fmt_unit(char *buf, size_t n, enum watch_metric m, double v, int micro);
/* v against the baseline in the one direction of the report, worse is bigger:
 * "5.26x worse than baseline", "0.98x worse than baseline (better)"; "baseline unknown" */
void watch_fmt_vs(char *buf, size_t n, enum watch_metric m, double v, double base);
/* a worse-is-bigger ratio: "4.18"; "unknown" */
void watch_fmt_ratio(char *buf, size_t n, double r);
/* the same with its sign: "4.18x" (utf8: "4.18×"); "unknown" */
void watch_fmt_times(char *buf, size_t n, double r, int utf8);
/* a worse-is-bigger ratio in words: "4.18x worse than baseline", "(better)" under 0.995,
 * "(as the baseline)" within 0.5%; utf8: "×"; "unknown" */
void watch_fmt_worse(char *buf, size_t n, double r, int utf8);
/* the skip/fail reasons of a probe: "busy: load x8 (e.g. "busy: load 2.10 > 1.50"), ..." */
void watch_fmt_reasons(char *buf, size_t n, const struct watch_probe_stat *ps);

/*
 * A chart's y axis, chosen so one outlier does not flatten a series (the
 * rule the page and the README state): from 0 to the largest figure (and
 * the baseline), unless the largest figure is above WATCH_CLIP_OVER x the
 * reference (the series' 95th percentile, the sorted figure at position
 * floor(0.95 (n - 1)), or the baseline when higher): then the axis stops
 * at WATCH_CLIP_AT x the reference, rounded up to 1, 2, 2.5 or 5 x 10^k,
 * and the figures above are drawn on its top edge and marked; else, when
 * every figure is positive and the largest is above WATCH_LOG_SPAN x the
 * smallest (baseline included), the axis is logarithmic.
 */
#define WATCH_CLIP_OVER 3.0
#define WATCH_CLIP_AT 1.5
#define WATCH_LOG_SPAN 20.0

enum watch_yscale { WY_LINEAR, WY_CLIPPED, WY_LOG };
extern const char *const watch_yscale_names[3]; /* "linear", "clipped", "log" */

struct watch_yaxis {
	enum watch_yscale scale;
	double lo, hi;      /* the axis' ends in the metric's unit; lo 0 unless log */
	double ref;         /* the clip rule's reference; NAN without figures */
	unsigned nclipped;  /* figures above hi (WY_CLIPPED), drawn on the top edge */
	double clipped_max; /* the largest of them; NAN none */
};

/* The axis for the n values (NAN ones ignored) and the baseline (NAN unknown). */
void watch_yaxis_pick(struct watch_yaxis *ax, const double *v, size_t n, double baseline);
/* Where v sits on the axis: 0 the bottom, 1 the top; above the top 1, below the bottom 0. */
double watch_yaxis_frac(const struct watch_yaxis *ax, double v);

#endif
