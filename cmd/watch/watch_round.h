/*
 * watch_round.h — what one probe round of `vpsbench watch` found: the
 * probes' figures and statuses, the counters' deltas and the wake-up
 * sampler's interval. Filled by watch_probe.c, watch_deltas.c and
 * watch_sampler.c; written by watch_history.c and watch_metrics.c.
 */
#ifndef VPSBENCH_WATCH_ROUND_H
#define VPSBENCH_WATCH_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/value.h"

enum watch_probe_id { WP_RANDREAD = 0, WP_FSYNC, WP_PRIME, WP_DRAM, WP_COUNT };
#define WP_DISK_COUNT 2  /* the disk probes, WP_RANDREAD and WP_FSYNC, come first */
#define WATCH_MAX_DIRS 8 /* --dir given at most this often */
enum watch_status { WS_OK = 0, WS_SKIPPED, WS_FAILED, WS_COUNT };
/* why a probe was skipped: the label of vpsbench_watch_probe_skipped_total */
enum watch_skip_reason {
	WR_NONE = 0, /* not skipped */
	WR_LOAD,     /* idle gate: 1-minute load */
	WR_CPU,      /* idle gate: CPU busy share */
	WR_PSI,      /* idle gate: CPU pressure */
	WR_BUDGET,   /* the probes' share of wall time */
	WR_HUNG,     /* an earlier probe on the same disk has not returned */
	WR_STOPPED,  /* a signal stopped the round */
	WR_OTHER,
	WR_COUNT
};

extern const char *const watch_probe_names[WP_COUNT];   /* "randread", ... */
extern const char *const watch_status_names[WS_COUNT];  /* "ok", "skipped", "failed" */
/* "", "load", "cpu", "psi", "budget", "hung", "stopped", "other" */
extern const char *const watch_skip_reason_names[WR_COUNT];

struct watch_probe_result {
	enum watch_status status;
	enum watch_skip_reason skip; /* WS_SKIPPED: which kind; WR_NONE otherwise */
	char reason[200];           /* skipped/failed: why; "" when ok */
	struct mdbl duration_s;     /* wall time the probe ran (ok or failed); unknown when skipped */
	struct mdbl p50_us, p99_us; /* randread, fsync */
	struct mdbl iops;           /* randread */
	struct mdbl eps;            /* prime: events/s */
	struct mdbl ns;             /* dram: ns per dependent load */
	enum mbool huge;            /* dram: the chase's buffer was backed by huge pages */
};

struct watch_deltas {
	struct mdbl steal_pct;       /* % of busy + steal ticks, over the interval */
	struct mdbl throttled_s;     /* cgroup cpu.stat throttled time */
	struct mdbl psi_cpu_pct;     /* % of the interval some task stalled on CPU */
	struct mdbl psi_mem_pct;
	struct mdbl psi_io_pct;      /* % of the interval some task stalled on I/O */
	struct mdbl steal_s;         /* steal seconds over the interval, all CPUs summed */
	struct mdbl steal_total_s;   /* /proc/stat steal since boot, all CPUs summed */
	struct mdbl steal_ratio;     /* steal_s / (interval s x CPUs read): top's %st, 0..1 */
	struct mu64 pswpin;          /* pages swapped in */
	/* the counters themselves (for the _total metrics) */
	struct mdbl throttled_total_s;
	struct mu64 pswpin_total;
};

struct watch_wakeup {
	struct mdbl p99_us, max_us;
	uint64_t samples;
};

/* a further --dir's disk probes (the first --dir's are the round's probe[]) */
struct watch_disk_result {
	const char *dir;            /* the --dir (the options' string) */
	struct watch_probe_result probe[WP_DISK_COUNT]; /* [WP_RANDREAD], [WP_FSYNC] */
};

struct watch_round {
	uint64_t seq;
	double unix_time;           /* CLOCK_REALTIME at the round's start */
	struct mdbl interval_s;     /* since the previous round's start */
	bool gate_open;             /* the idle gate and budget let the probes run */
	struct watch_probe_result probe[WP_COUNT]; /* disk probes: the first --dir's */
	unsigned nextra;            /* the further --dirs, in their order on the command line */
	struct watch_disk_result extra[WATCH_MAX_DIRS - 1]; /* monitored, no drift */
	struct watch_deltas d;
	struct watch_wakeup wake;
	uint64_t write_errors;      /* history writes that failed before this line */
};

#endif
