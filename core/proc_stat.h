/*
 * proc_stat.h — the per-CPU lines of /proc/stat ("cpuN ..."), and the
 * steal of a timed pass over the CPUs it ran on: steal ticks over the
 * busy + steal ticks of those CPUs. Idle ticks are left out, so idle
 * vCPUs (or idle time of the pass's own) do not dilute the steal a busy
 * thread saw: 10% steal on the one busy vCPU of eight reads 10%, not 1.25%.
 */
#ifndef VPSBENCH_PROC_STAT_H
#define VPSBENCH_PROC_STAT_H

#include <stdbool.h>
#include <stdint.h>

#include "value.h"

#define PROC_STAT_MAX_CPUS 1024

struct proc_stat_cpu {
	uint64_t busy;   /* user nice system irq softirq (guest is inside user) */
	uint64_t steal;
	bool ok;         /* the line was there and had the steal field */
};

struct proc_stat {
	unsigned n;      /* highest CPU number seen + 1 */
	struct proc_stat_cpu cpu[PROC_STAT_MAX_CPUS];
};

/* Parses the "cpuN" lines of /proc/stat text (the aggregate "cpu " line is not one). */
void proc_stat_parse(const char *text, struct proc_stat *s);
/* Reads root/proc/stat (NULL or "" = the live one); s->n is 0 when unreadable. */
void proc_stat_read(const char *root, struct proc_stat *s);

/* The ticks of cpus[0..n) between two readings (n 0 = every CPU read in both). */
struct proc_stat_delta {
	uint64_t busy, steal;
	bool ok;         /* every CPU asked for was in both readings, no counter went back */
};
struct proc_stat_delta proc_stat_diff(const struct proc_stat *a, const struct proc_stat *b,
				      const int *cpus, unsigned n);
/* 100 x steal / (busy + steal); null when unknown or no busy or steal tick passed. */
struct mdbl proc_stat_steal_pct(struct proc_stat_delta d);

#endif
