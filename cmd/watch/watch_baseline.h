/*
 * watch_baseline.h — the baseline of `vpsbench watch`: a vpsbench JSON
 * report (schema "vpsbench.report/1"), from --baseline FILE (copied to
 * the state directory's baseline.json), from baseline.json itself, or
 * written there by one default run of this binary at start. Its figures:
 * grade/watch_base.c reads them (randread-4k-qd1 read clat p99, fsync p99,
 * 1-thread prime events/s, DRAM latency on huge and on 4 KiB pages).
 */
#ifndef VPSBENCH_WATCH_BASELINE_H
#define VPSBENCH_WATCH_BASELINE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/watch/watch_drift.h"
#include "core/value.h"
#include "grade/watch_base.h"

/* The figures of the report at path into b (grade/watch_base.c's reader, the one `watch
 * --report` uses) and the FNV-1a of its bytes in hash (16 hex digits). 0, or -1 with err. */
int watch_baseline_load(const char *path, struct watch_base_report *b, char hash[17], char *err,
			size_t errlen);

/* One line on log per figure the report lacks, naming it and why; the count of usable ones. */
int watch_baseline_usable(const struct watch_base_report *b, const char *path, FILE *log);

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
