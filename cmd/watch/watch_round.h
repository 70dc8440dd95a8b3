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
enum watch_status { WS_OK = 0, WS_SKIPPED, WS_FAILED, WS_COUNT };

extern const char *const watch_probe_names[WP_COUNT];   /* "randread", ... */
extern const char *const watch_status_names[WS_COUNT];  /* "ok", "skipped", "failed" */

struct watch_probe_result {
	enum watch_status status;
	char reason[200];           /* skipped/failed: why; "" when ok */
	struct mdbl p50_us, p99_us; /* randread, fsync */
	struct mdbl iops;           /* randread */
	struct mdbl eps;            /* prime: events/s */
	struct mdbl ns;             /* dram: ns per dependent load */
};

struct watch_deltas {
	struct mdbl steal_pct;       /* % of busy + steal ticks, over the interval */
	struct mdbl throttled_s;     /* cgroup cpu.stat throttled time */
	struct mdbl psi_cpu_pct;     /* % of the interval some task stalled on CPU */
	struct mdbl psi_mem_pct;
	struct mu64 pswpin;          /* pages swapped in */
	/* the counters themselves (for the _total metrics) */
	struct mdbl throttled_total_s;
	struct mu64 pswpin_total;
};

struct watch_wakeup {
	struct mdbl p99_us, max_us;
	uint64_t samples;
};

struct watch_round {
	uint64_t seq;
	double unix_time;           /* CLOCK_REALTIME at the round's start */
	struct mdbl interval_s;     /* since the previous round's start */
	struct watch_probe_result probe[WP_COUNT];
	struct watch_deltas d;
	struct watch_wakeup wake;
	uint64_t write_errors;      /* history writes that failed before this line */
};

#endif
