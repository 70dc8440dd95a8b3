/*
 * watch_base_state.h — drift_baseline.json in the state directory: every
 * drift baseline of `vpsbench watch` (value, unit, source, when measured)
 * and the FNV-1a of the baseline.json it goes with, written atomically
 * whenever a baseline is set, read back by a restarted watcher (through
 * grade/watch_base.c, the reader `watch --report` uses too).
 */
#ifndef VPSBENCH_WATCH_BASE_STATE_H
#define VPSBENCH_WATCH_BASE_STATE_H

#include <stddef.h>

#include "cmd/watch/watch_drift.h"
#include "grade/watch_base.h"

/* Writes <state_dir>/drift_baseline.json from d->fig; probe_dir: where the disk probes ran
 * (a learnt randread baseline holds for that directory only). 0, or -1 with err. */
int watch_base_state_save(const char *state_dir, const struct watch_drift *d,
			  const char *report_fnv1a, const char *probe_dir, char *err, size_t errlen);

/* Reads it into s: 0, 1 when there is none, -1 with err (unreadable or not ours). */
int watch_base_state_load(const char *state_dir, struct watch_base_saved *s, char *err,
			  size_t errlen);

#endif
