/*
 * watch_hist.h — a `vpsbench watch` history read and analysed for
 * `watch --report`: the rounds of history.jsonl (format: the README's
 * "vpsbench watch" section), the baseline of baseline.json, and per metric
 * the median, worst value, degraded spans and worst hours. Read by
 * render/watch/ (results only); unknown figures are NAN, never 0.
 */
#ifndef VPSBENCH_WATCH_HIST_H
#define VPSBENCH_WATCH_HIST_H

#include <stdbool.h>
#include <stddef.h>

enum watch_probe { WP_RANDREAD, WP_FSYNC, WP_PRIME, WP_DRAM, WP_N };
enum watch_metric { WM_RANDREAD_P99, WM_FSYNC_P99, WM_PRIME_EPS, WM_DRAM_NS, WM_WAKEUP_P99, WM_N };
/* a probe's status in one round; WS_NONE: the line does not say */
enum watch_status { WS_NONE, WS_OK, WS_SKIPPED, WS_FAILED };

/* A metric and the probe it comes from (WP_N: the wake-up sampler). */
struct watch_metric_info {
	const char *name;  /* as in the history's drift object and the metrics */
	const char *label; /* for a person */
	const char *unit;
	bool rate;         /* higher is better: the ratio is baseline/value */
	enum watch_probe probe;
};
extern const struct watch_metric_info watch_metrics[WM_N];
extern const char *const watch_hist_probe_names[WP_N];

#define WATCH_REASON_LEN 160

/* One history line. */
struct watch_round {
	long long seq;                /* -1 unknown */
	double ts;                  /* seconds since the epoch (always known) */
	double interval_s;
	enum watch_status st[WP_N];
	char reason[WP_N][WATCH_REASON_LEN];
	double v[WM_N];               /* the metric's figure this round */
	double steal_pct, psi_cpu_pct, wakeup_max_us;
	double psi_io_pct;            /* NAN: unknown, or a line from before it was written */
	int degraded[WM_N];           /* the daemon's drift flag: 1, 0, -1 unknown */
	double drift_ratio[WM_N], drift_baseline[WM_N];
	double write_errors;
	/* a skipped probe's kind as the line names it ("load", "budget"...); "": not said */
	char skip[WP_N][12];
};

/* A run of rounds the daemon flagged degraded. */
struct watch_span {
	size_t first, last;  /* round indexes, both flagged */
	double from, to;     /* ts: first flagged round; the round that cleared it, else the last flagged */
	bool cleared;        /* a later round said degraded: false */
	bool ongoing;        /* still flagged at the newest round of the period */
	double worst_ratio;  /* of the flagged rounds' figures to the baseline; NAN unknown */
	double worst_value;
};

/* One UTC hour of the period. */
struct watch_hour {
	double start;        /* ts, a whole hour */
	unsigned rounds, nvalues;
	double median;       /* of the metric's figures in the hour */
	double ratio;        /* median to the baseline, worse-is-bigger; NAN unknown */
	double steal_pct;    /* mean over the hour's rounds that say it; NAN unknown */
	double steal_max_pct;
	double wakeup_p99_us; /* the highest interval p99 of the hour */
	double wakeup_max_us;
};

#define WATCH_TOP_HOURS 3
#define WATCH_MAX_SPANS 64
/* fewer rounds than the daemon's default window: the figures rest on too few samples */
#define WATCH_SHORT_ROUNDS 5

struct watch_metric_stat {
	double baseline;     /* NAN unknown */
	const char *baseline_src; /* "baseline.json", "history" (the daemon's drift baseline), NULL */
	unsigned nvalues;
	double median, worst;
	double worst_ts;
	double worst_ratio, median_ratio; /* worse-is-bigger to the baseline; NAN unknown */
	unsigned nflag_known;   /* rounds whose degraded flag is known */
	unsigned nspans;        /* spans found (the first WATCH_MAX_SPANS kept) */
	struct watch_span span[WATCH_MAX_SPANS];
	double degraded_s;      /* time inside spans */
	unsigned nhours;        /* hours with a figure */
	unsigned ntop;
	struct watch_hour top[WATCH_TOP_HOURS]; /* worst first */
};

/* skip/fail reasons of one probe, counted by kind (numbers left out) */
#define WATCH_MAX_REASONS 8
struct watch_reason {
	char kind[WATCH_REASON_LEN];    /* "busy: load" */
	char example[WATCH_REASON_LEN]; /* the first one seen in full */
	unsigned n;
};

struct watch_probe_stat {
	unsigned ok, skipped, failed, unknown;
	unsigned nreasons;
	struct watch_reason reason[WATCH_MAX_REASONS]; /* most frequent first; the rest in "other" */
	unsigned other;
};

struct watch_hist {
	/* what was read */
	struct watch_round *round;
	size_t n, cap;
	unsigned lines, malformed, foreign, blank;
	bool last_line_broken;  /* the newest file's last line did not parse (e.g. truncated) */
	unsigned files;         /* history files read (1 or 2) */
	char baseline_note[4400]; /* why baseline.json gave nothing, "" when it did */
	char baseline_time[32];  /* run.start of baseline.json */
	double base_json[WM_N];  /* the figures of baseline.json; NAN unknown */

	/* the analysis (watch_hist_analyse) over [first, n) */
	double since_s;         /* 0 = all */
	size_t first;           /* first round in the period */
	size_t nperiod;
	double from, to;        /* ts of the period's first and last round */
	unsigned all_ok, with_skip, with_fail;
	double write_errors;    /* the highest count the rounds say; NAN unknown */
	struct watch_probe_stat probe[WP_N];
	struct watch_metric_stat m[WM_N];
};

/* Reads one history file into h (appending); a missing file is -1 with errno ENOENT.
 * Malformed lines are counted, not fatal. -1 and why (operation, errno text) on a read error. */
int watch_hist_read_file(struct watch_hist *h, const char *path, char *why, size_t wn);
/* Parses one line into r: 0 ok, -1 not JSON or not an object, -2 not a watch line
 * (wrong schema or no time). Used by the reader and the tests. */
int watch_hist_parse_line(const char *line, struct watch_round *r);
/* The baseline's figures from the text of a report (baseline.json): 0 ok (some may stay NAN),
 * -1 with why when it is not a vpsbench report. */
int watch_hist_baseline_parse(const char *text, double out[WM_N], char *when, size_t wn,
			      char *why, size_t whyn);
/* Reads <dir>/history.jsonl.1 (if present), <dir>/history.jsonl and <dir>/baseline.json.
 * -1 and why when the directory or history.jsonl cannot be read. */
int watch_hist_load(struct watch_hist *h, const char *dir, char *why, size_t wn);
/* The analysis over the rounds of the last since_s seconds before the newest (0: all). */
void watch_hist_analyse(struct watch_hist *h, double since_s);
void watch_hist_free(struct watch_hist *h);

/* worse-is-bigger ratio of v to base for metric m; NAN when either is unknown */
double watch_ratio(enum watch_metric m, double v, double base);
/* median of n values (sorts a copy); NAN for none */
double watch_hist_median(const double *v, size_t n);

#endif
