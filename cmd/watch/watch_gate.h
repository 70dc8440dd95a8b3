/*
 * watch_gate.h — whether a `vpsbench watch` round may run its probes: the
 * idle gate (1-minute load, share of the CPUs busy over the last second,
 * /proc/pressure/cpu some avg10) and the budget (probes' wall time so far
 * over the time since start). A round that may not is recorded skipped
 * with the reason, nothing run into the user's own workload.
 */
#ifndef VPSBENCH_WATCH_GATE_H
#define VPSBENCH_WATCH_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/watch/watch_opts.h"
#include "cmd/watch/watch_round.h"

struct watch_cpu_ticks {
	uint64_t busy, total;  /* aggregate "cpu " line: steal left out of both */
	bool ok;
};

/* The aggregate line of /proc/stat. */
void watch_cpu_ticks_read(struct watch_cpu_ticks *t);

/*
 * false when the round may run; true with the reason ("busy: load 2.10 >
 * 1.50", "busy: cpu 97% > 50%", "busy: psi cpu some 35% > 20%", "budget:
 * 1.0% of wall time used") and its kind when it may not. since: the CPU ticks read
 * about a second ago (the busy share is over since .. now).
 */
bool watch_gate_closed(const struct watch_opts *o, const struct watch_cpu_ticks *since,
		       double probe_s, double elapsed_s, enum watch_skip_reason *kind, char *reason,
		       size_t n);

#endif
