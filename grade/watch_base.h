/*
 * watch_base.h — the one reader of `vpsbench watch`'s drift baselines, for
 * the daemon (cmd/watch/) and `watch --report` alike: the figures of a
 * baseline report (baseline.json), the file the daemon keeps every drift
 * baseline in (drift_baseline.json) and the tail of the history a restarted
 * daemon takes its drift state from. Self-contained (no watch_hist.h) so
 * cmd/watch/ can include it beside its own round model. Unknown is NAN.
 */
#ifndef VPSBENCH_WATCH_BASE_H
#define VPSBENCH_WATCH_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the first five in the drift metrics' order (cmd's WD_*, grade's WM_*); DRAM: huge pages */
enum watch_base_fig {
	WBF_RANDREAD = 0, WBF_FSYNC, WBF_PRIME, WBF_DRAM, WBF_WAKEUP, WBF_DRAM_4K, WBF_N
};
#define WATCH_BASE_METRICS 5
/* "randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us", "dram_4k_ns" */
extern const char *const watch_base_fig_names[WBF_N];
extern const char *const watch_base_fig_units[WBF_N]; /* "us", "us", "events/s", "ns", "us", "ns" */
/* what a person reads: "randread qd1 p99", ... */
extern const char *const watch_base_fig_labels[WBF_N];

/* where a drift baseline came from: the report (baseline.json), the median of the first K
 * gate-open rounds (wake-up; randread on another region), $VPSBENCH_WATCH_WAKEUP_BASELINE_US */
enum watch_base_src { WBS_NONE = 0, WBS_REPORT, WBS_ROUNDS, WBS_ENV, WBS_N };
extern const char *const watch_base_src_str[WBS_N]; /* "none", "report", "rounds", "env" */

#define WATCH_BASE_WHY 240

/* The figures of one vpsbench report. */
struct watch_base_report {
	double v[WBF_N];                 /* NAN: the report has none (why[] says why) */
	char why[WBF_N][WATCH_BASE_WHY]; /* "" where v is known */
	double start;                    /* run.start, Unix s; NAN unknown */
	char start_s[32];                /* run.start as written, "" unknown */
	double rand_file_bytes;          /* the randread-4k-qd1 pass's file; NAN unknown */
};

/* The figures of report text into b: 0 (some may stay NAN, each with why), -1 with why when it
 * is not a vpsbench report. The wake-up figure is never in a report. */
int watch_base_report_parse(const char *text, struct watch_base_report *b, char *why, size_t wn);

/* "2026-12-02T17:00:00Z" (seconds, Z or nothing after) as Unix seconds; NAN otherwise */
double watch_base_utc_time(const char *s);

/* FNV-1a 64 of n bytes: which baseline.json a drift_baseline.json goes with */
uint64_t watch_base_fnv1a(const void *p, size_t n);

/* drift_baseline.json as read back */
struct watch_base_saved {
	char report_fnv1a[17];  /* hex of the baseline.json it goes with; "" unknown */
	char probe_dir[4096];   /* where the disk probes ran; "" unknown */
	double v[WBF_N];        /* NAN none */
	enum watch_base_src src[WBF_N];
	double time[WBF_N];     /* when measured, Unix s; 0 unknown */
};
/* 0, or -1 with why (not JSON, wrong schema). */
int watch_base_saved_parse(const char *text, struct watch_base_saved *s, char *why, size_t wn);

/* The newest history rounds of a state directory, per drift metric, for a restart. */
#define WATCH_BASE_TAIL_MAX 100
struct watch_base_tail {
	unsigned lines;                              /* watch lines read */
	unsigned n[WATCH_BASE_METRICS];              /* values kept below, oldest first */
	double v[WATCH_BASE_METRICS][WATCH_BASE_TAIL_MAX];
	int degraded[WATCH_BASE_METRICS];            /* the newest line's flag: 1, 0, -1 unknown */
	double baseline[WATCH_BASE_METRICS];         /* the newest line's drift baseline; NAN */
	int dram_huge;                               /* the newest DRAM figure's pages: 1, 0, -1 */
};
/* The last k (<= WATCH_BASE_TAIL_MAX) figures of each metric in <dir>/history.jsonl(.1).
 * A missing history is 0 with nothing read; -1 with why on a read error. */
int watch_base_tail_read(const char *dir, unsigned k, struct watch_base_tail *t, char *why,
			 size_t wn);

#endif
