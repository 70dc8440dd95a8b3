/*
 * cgroup_limits.h — the limits a cgroup puts on the process: the CPU
 * quota (v2 cpu.max, v1 cfs_quota_us/period_us) and the memory limit
 * (v2 memory.max, v1 memory.limit_in_bytes), the lowest over the levels
 * core/cgroup.h walks, and the effective CPU count they leave. Read below
 * a root prefix so fixture trees stand in.
 */
#ifndef VPSBENCH_CGROUP_LIMITS_H
#define VPSBENCH_CGROUP_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

struct cgroup_cpu_quota {
	int version;     /* 1 or 2; 0 = no cpu cgroup found */
	bool seen;       /* a level said "max"/-1 or gave a quota */
	bool limited;    /* some level has a quota */
	double cpus;     /* the smallest quota/period over the levels, when limited */
};

struct cgroup_mem_limit {
	int version;     /* 1 or 2; 0 = no memory cgroup found */
	bool seen;       /* a level said "max" or gave a limit */
	bool limited;    /* some level has a limit */
	uint64_t limit;  /* bytes: the lowest over the levels */
	bool used_ok;
	uint64_t used;   /* that level's usage less its file cache, bytes */
};

void cgroup_cpu_quota(const char *root, struct cgroup_cpu_quota *q);
void cgroup_mem_limit(const char *root, struct cgroup_mem_limit *m);

/* Effective CPUs: min(affinity, ceil(quota)); quota <= 0 = none. At least 1. */
unsigned cgroup_effective_cpus(unsigned affinity, double quota_cpus);

#endif
