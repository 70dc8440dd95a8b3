/*
 * watch_drift.h — drift of `vpsbench watch`'s probes against the baseline:
 * per metric the median of the last K ok values, its ratio to the baseline
 * ("worse is bigger": median/baseline for latencies, baseline/median for
 * rates), and the degraded state: true once K ok values in a row were each
 * worse than the baseline by more than the margin (so is their median),
 * false again after K in a row within it. One stderr line per change.
 */
#ifndef VPSBENCH_WATCH_DRIFT_H
#define VPSBENCH_WATCH_DRIFT_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/watch/watch_opts.h"
#include "cmd/watch/watch_round.h"
#include "core/value.h"

enum watch_drift_id { WD_RANDREAD = 0, WD_FSYNC, WD_PRIME, WD_DRAM, WD_WAKEUP, WD_COUNT };

/* "randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us" */
extern const char *const watch_drift_names[WD_COUNT];

/* where a drift baseline came from */
enum watch_base_src {
	WB_NONE = 0,  /* none yet */
	WB_REPORT,    /* the baseline report (baseline.json) */
	WB_ROUNDS,    /* the median of the first K gate-open rounds (wake-up) */
	WB_ENV,       /* $VPSBENCH_WATCH_WAKEUP_BASELINE_US (tests) */
	WB_COUNT
};
extern const char *const watch_base_src_names[WB_COUNT]; /* "none", "report", "rounds", "env" */

struct watch_drift_metric {
	struct mdbl baseline;
	enum watch_base_src baseline_src;
	double baseline_time;           /* Unix time the baseline was measured; 0 unknown */
	double vals[WATCH_MAX_WINDOW]; /* the last K ok values, a ring */
	unsigned nvals, head;
	double first[WATCH_MAX_WINDOW]; /* wakeup: the first K, whose median is its baseline */
	unsigned nfirst;
	unsigned beyond_run, within_run;
	struct mdbl median, ratio;
	enum mbool degraded;            /* unknown until a baseline and a value */
};

struct watch_drift {
	unsigned window;
	double margin;
	struct watch_drift_metric m[WD_COUNT];
};

/*
 * A report has no wake-up figure: without one in baseline[WD_WAKEUP] (only a test gives
 * one, $VPSBENCH_WATCH_WAKEUP_BASELINE_US) the wake-up baseline is the median of the
 * first K rounds.
 */
void watch_drift_init(struct watch_drift *d, unsigned window, double margin,
		      const struct mdbl baseline[WD_COUNT]);
/* Takes the round's ok values; logs each degraded/recovered change to log. */
void watch_drift_update(struct watch_drift *d, const struct watch_round *r, FILE *log);

/* The median of v[0..n) without changing v; n >= 1. */
double watch_median(const double *v, unsigned n);

#endif
