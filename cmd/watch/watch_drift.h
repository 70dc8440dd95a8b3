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
#include "grade/watch_base.h"

enum watch_drift_id { WD_RANDREAD = 0, WD_FSYNC, WD_PRIME, WD_DRAM, WD_WAKEUP, WD_COUNT };

/* "randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us" */
extern const char *const watch_drift_names[WD_COUNT];

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

/* one baseline figure the drift may grade against (grade/watch_base.h's WBF_* order) */
struct watch_drift_fig {
	struct mdbl v;
	enum watch_base_src src;
	double time;                    /* Unix time measured; 0 unknown */
};

struct watch_drift {
	unsigned window;
	double margin;
	struct watch_drift_metric m[WD_COUNT];
	/* every baseline figure: m[].baseline is the one in use (DRAM: huge or 4k, as the probe ran) */
	struct watch_drift_fig fig[WBF_N];
	bool learn[WD_COUNT];           /* learnt from the first K gate-open rounds (no report figure) */
	enum mbool dram_huge;           /* the pages of the DRAM values in the window */
	bool dram_picked;               /* dram_huge and m[WD_DRAM].baseline set by a DRAM figure */
	bool learnt;                    /* set when a baseline was learnt: drift_baseline.json is due */
};

/*
 * Figures from fig (unknown .v: none). A metric without one (the wake-up always: a report
 * has no wake-up figure; randread when fig has none, see README "drift baselines") learns
 * it: the median of its first K values from gate-open rounds (the gate let the probes run),
 * never from skipped ones; source "rounds", time the K-th round's.
 */
void watch_drift_init(struct watch_drift *d, unsigned window, double margin,
		      const struct watch_drift_fig fig[WBF_N]);
/* Takes the round's ok values; logs each degraded/recovered change to log. */
void watch_drift_update(struct watch_drift *d, const struct watch_round *r, FILE *log);
/*
 * A restart: the last K values of each metric (oldest first, from the history's tail) fill its
 * window and its beyond/within run; its degraded flag is the history's newest (flag: 1, 0,
 * -1) when that line was graded against the baseline now in use (hist_base, NAN unknown).
 * dram_huge: the pages of the newest DRAM figure (1, 0, -1).
 */
void watch_drift_restore(struct watch_drift *d, int id, const double *v, unsigned n, int flag,
			 double hist_base, int dram_huge);

/* The median of v[0..n) without changing v; n >= 1. */
double watch_median(const double *v, unsigned n);

#endif
