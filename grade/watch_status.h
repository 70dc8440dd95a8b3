/*
 * watch_status.h — `vpsbench watch --status`: the state of a watcher at a
 * glance, gathered from its state directory (a loaded struct watch_hist,
 * the lock file, drift_baseline.json) without writing anything or holding
 * the lock. Drawn by render/watch/watch_status_text.c and _json.c.
 * Unknown is NAN, -1 or WRUN_UNKNOWN, never 0.
 */
#ifndef VPSBENCH_WATCH_STATUS_H
#define VPSBENCH_WATCH_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "watch_hist.h"

/* is a watcher running on the directory (its lock file held) */
enum watch_run { WRUN_UNKNOWN, WRUN_NO, WRUN_YES };

/* a probe at a glance: stale wins over the newest round's outcome */
enum watch_pstate { WPS_UNKNOWN, WPS_OK, WPS_SKIPPED, WPS_FAILED, WPS_STALE };
extern const char *const watch_pstate_names[]; /* "unknown", "ok", "skipped", "failed", "stale" */

/* the skip kinds of vpsbench_watch_probe_skipped_total{reason} */
enum watch_skip_kind { WSK_LOAD, WSK_CPU, WSK_PSI, WSK_BUDGET, WSK_HUNG, WSK_STOPPED, WSK_OTHER, WSK_N };
extern const char *const watch_skip_kind_names[WSK_N]; /* "load", "cpu", ... "other" */

/* a skip reason's kind from its text ("busy: load 6.25 > 1.50" is load), for lines without
 * their own "skip" kind */
enum watch_skip_kind watch_skip_kind_of(const char *reason);

#define WATCH_STATUS_DAY_S 86400.0
#define WATCH_STATUS_NOTE_LEN 4608 /* a path and why */

struct watch_status_base {
	double value;        /* in watch_metrics[m].unit; NAN unknown */
	char source[24];     /* "report", "rounds", "env", "none"...; "" unknown */
	const char *from;    /* "drift_baseline.json", "history", "baseline.json"; NULL none */
	double time;         /* when it was measured (or, learnt, in use since); NAN unknown */
	double age_s;
};

struct watch_status_probe {
	enum watch_pstate state;
	enum watch_status latest;     /* the newest round's outcome; WS_NONE unknown */
	char reason[WATCH_REASON_LEN]; /* the newest round's reason when not ok */
	double latest_ts;             /* NAN: no round says */
	double ok_ts, ok_age_s;       /* the last ok round; NAN: none in the history */
	double value;                 /* the figure of the last ok round; NAN */
	enum watch_metric metric;
};

struct watch_status_drift {
	int degraded;                 /* the newest round's flag: 1, 0, -1 unknown */
	double ratio;                 /* the newest round's drift ratio; NAN */
	bool open;                    /* a degraded span runs up to the newest round */
	double open_since, open_for_s;
	unsigned open_rounds;
	double open_worst_ratio;      /* the highest drift ratio in it (else the figures'); NAN */
};

struct watch_status_sum {
	double now;
	enum watch_run running;
	long pid;                     /* the holder's, from /proc/locks; -1 unknown */
	char run_note[WATCH_STATUS_NOTE_LEN]; /* why unknown */

	size_t rounds;
	long long last_seq;           /* -1 unknown */
	double last_ts, last_age_s;
	double every_s;               /* the median interval of the newest rounds; NAN unknown */
	unsigned window;
	bool window_given;            /* from --window, else the default */
	double stale_after_s;         /* window x every x 1.1 (the jitter); NAN unknown */

	/* baseline.json */
	char report_start[32];        /* run.start; "" unknown */
	double report_ts, report_age_s;
	char report_note[WATCH_STATUS_NOTE_LEN]; /* why it gave nothing; "" */
	/* drift_baseline.json */
	bool drift_file;
	char drift_note[WATCH_STATUS_NOTE_LEN];  /* why it was not read; "" absent or read */

	struct watch_status_base base[WM_N];
	struct watch_status_probe probe[WP_N];
	struct watch_status_drift drift[WM_N];

	/* the last 24 h before now */
	double day_from;
	unsigned day_rounds, day_rounds_skipped; /* rounds; rounds with a probe skipped */
	unsigned day_skips[WSK_N];    /* probe runs skipped, by kind */
	unsigned day_failed;          /* probe runs failed */
};

/* Whether a watcher holds <dir>/lock: a shared non-blocking flock tried and let go at
 * once (it fails while a watcher holds it); no lock file is WRUN_UNKNOWN. */
void watch_status_lock(struct watch_status_sum *s, const char *dir);
/* The figures of drift_baseline.json's text into s->base (source "drift_baseline.json"):
 * 0, -1 with s->drift_note when it is not usable. */
int watch_status_drift_parse(struct watch_status_sum *s, const char *text);
/* Reads <dir>/drift_baseline.json if present (absent: nothing, 0). */
int watch_status_drift_file(struct watch_status_sum *s, const char *dir);
/* Everything else from the loaded history h (watch_hist_load; no analysis needed), at now.
 * Call after watch_status_drift_file (its figures win) and before or after the lock. */
void watch_status_build(struct watch_status_sum *s, const struct watch_hist *h, double now,
			unsigned window, bool window_given);
/* sets the fields to unknown; call first */
void watch_status_init(struct watch_status_sum *s);

#endif
