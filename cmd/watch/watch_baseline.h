/*
 * watch_baseline.h — the baseline of `vpsbench watch`: a vpsbench JSON
 * report (schema "vpsbench.report/1"), from --baseline FILE (copied to
 * the state directory's baseline.json), from baseline.json itself, or
 * written there by one default run of this binary at start. Its figures:
 * randread-4k-qd1 read clat p99 (metrics.lat_p99_ms), fsync p99
 * (fsync_p99_ms), 1-thread prime events/s (cpu_single_eps, else the pass's
 * own figure when the report nulled a disturbed one), DRAM latency on
 * huge pages (mem_latency_huge_ns).
 */
#ifndef VPSBENCH_WATCH_BASELINE_H
#define VPSBENCH_WATCH_BASELINE_H

#include <signal.h>
#include <stddef.h>

#include "cmd/watch/watch_drift.h"
#include "core/value.h"

/* The figures of report path into v (unknown where the report has none). 0, or -1 with err. */
int watch_baseline_load(const char *path, struct mdbl v[WD_COUNT], char *err, size_t errlen);

/* Copies the report at from to path (atomically). 0, or -1 with err. */
int watch_baseline_copy(const char *from, const char *path, char *err, size_t errlen);

/*
 * Runs this binary's default benchmark (--dir dir, the JSON report to
 * path), extra arguments from $VPSBENCH_WATCH_BASELINE_ARGS (tests: a
 * short run). A set *stop sends the run SIGTERM. 0, or -1 with err.
 */
int watch_baseline_run(const char *path, const char *dir, const volatile sig_atomic_t *stop,
		       char *err, size_t errlen);

#endif
