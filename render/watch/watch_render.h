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
/* v against the baseline: "1.08x the baseline (+8%, worse)"; "baseline unknown" */
void watch_fmt_vs(char *buf, size_t n, enum watch_metric m, double v, double base);
/* a worse-is-bigger ratio: "4.18"; "unknown" */
void watch_fmt_ratio(char *buf, size_t n, double r);
/* the skip/fail reasons of a probe: "busy: load x8 (e.g. "busy: load 2.10 > 1.50"), ..." */
void watch_fmt_reasons(char *buf, size_t n, const struct watch_probe_stat *ps);

#endif
