/*
 * watch_metrics.h — the Prometheus text (format 0.0.4) of `vpsbench
 * watch`: the same body on /metrics and in --prom-file. The names are the
 * README's "Metrics reference" (stable): base units, one unit per family,
 * no quantile label on a gauge; `promtool check metrics` passes on it. A
 * metric with no value yet is left out, never shown as 0.
 */
#ifndef VPSBENCH_WATCH_METRICS_H
#define VPSBENCH_WATCH_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/watch/watch_drift.h"
#include "cmd/watch/watch_opts.h"
#include "cmd/watch/watch_round.h"

/* a further --dir's disk probes: the counts and latest figures, by WP_RANDREAD / WP_FSYNC */
struct watch_disk_acct {
	uint64_t runs[WP_DISK_COUNT][WS_COUNT];
	uint64_t skipped[WP_DISK_COUNT][WR_COUNT];
	bool have_ok[WP_DISK_COUNT];
	struct watch_probe_result last_ok[WP_DISK_COUNT];
	double last_ok_time[WP_DISK_COUNT];
	struct mdbl duration_s[WP_DISK_COUNT];
};

struct watch_state {
	const char *state_dir;
	const char *dir;        /* the disk probes' directory: --dir or the state dir (label dir) */
	double start_time;      /* Unix s the watcher started */
	double every_s;         /* --every */
	double probe_s;         /* --probe-time */
	unsigned window;        /* --window K */
	double now;             /* tests: the render's Unix time before any round; 0 = the clock */
	uint64_t rounds;
	uint64_t runs[WP_COUNT][WS_COUNT];
	uint64_t skipped[WP_COUNT][WR_COUNT]; /* [WR_NONE] unused: a skip of no kind is "other" */
	bool have_round;
	struct watch_round last;                   /* the latest round */
	bool have_ok[WP_COUNT];
	struct watch_probe_result last_ok[WP_COUNT]; /* each probe's latest ok figures */
	double last_ok_time[WP_COUNT];             /* the start of that round, Unix s */
	struct mdbl duration_s[WP_COUNT];          /* each probe's latest run (ok or failed) */
	/* the watcher's own sum of the rounds' throttled time: a cgroup recreated (its
	 * cpu.stat counter back at 0) adds nothing, so the counter never goes down */
	bool have_throttled;
	double throttled_sum_s;
	const struct watch_drift *drift;
	uint64_t write_errors;
	/* the further --dirs (series of their own, label dir; no drift families) */
	unsigned nextra;
	const char *xdir[WATCH_MAX_DIRS - 1];
	struct watch_disk_acct x[WATCH_MAX_DIRS - 1];
};

/* s from the options (its labels, the stale rule's figures), started now. */
void watch_state_init(struct watch_state *s, const struct watch_opts *o,
		      const struct watch_drift *drift);

/* Adds round r to s (counts, latest figures). */
void watch_state_add(struct watch_state *s, const struct watch_round *r);

/* Seconds after which a probe's latest ok figure is stale: window x every x 1.1 + probe time. */
double watch_stale_after_s(const struct watch_state *s);

/* The body into a malloc'd string; NULL on no memory. */
char *watch_metrics_render(const struct watch_state *s, size_t *len);

#endif
