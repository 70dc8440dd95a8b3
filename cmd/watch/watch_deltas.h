/*
 * watch_deltas.h — the counters `vpsbench watch` takes deltas of between
 * rounds: steal (/proc/stat, core/proc_stat), cgroup CPU throttling
 * (cpu.stat at each level, core/cgroup), PSI stall time (/proc/pressure/
 * cpu, memory and io, "some"), swap-in (/proc/vmstat pswpin).
 */
#ifndef VPSBENCH_WATCH_DELTAS_H
#define VPSBENCH_WATCH_DELTAS_H

#include "cmd/watch/watch_round.h"
#include "core/proc_stat.h"

#define WATCH_CG_LEVELS 8

struct watch_snap {
	double mono_s;
	struct proc_stat *ps;            /* heap: 24 KiB */
	unsigned ncg;
	struct mu64 throttled_ns[WATCH_CG_LEVELS];
	struct mdbl psi_cpu_us, psi_mem_us, psi_io_us;  /* "some" total= */
	struct mu64 pswpin;
};

/* 0, or -1 when out of memory (the snapshot's proc_stat). */
int watch_snap_init(struct watch_snap *s);
void watch_snap_free(struct watch_snap *s);
void watch_snap_take(struct watch_snap *s);
/* d from a to b (the figures unknown where either reading lacked them). */
void watch_snap_delta(const struct watch_snap *a, const struct watch_snap *b,
		      struct watch_deltas *d);

/* /proc/pressure/<res> "some": avg10 (%) and total (us); false when absent. */
bool watch_psi_read(const char *res, double *avg10, double *total_us);

#endif
