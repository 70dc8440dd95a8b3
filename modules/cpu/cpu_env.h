/*
 * cpu_env.h — what the CPU module reads about its surroundings: the cgroup
 * CPU quota and throttling counters (core/cgroup.h walks the levels), and
 * the crypto extensions named in /proc/cpuinfo.
 */
#ifndef VPSBENCH_CPU_ENV_H
#define VPSBENCH_CPU_ENV_H

#include "cpu.h"

#define CPU_CG_LEVELS 16

/* Throttling counters of every level of the cpu hierarchy, process's own first. */
struct cpu_throttle_snap {
	int version;
	unsigned n;
	struct cpu_throttle_counters lvl[CPU_CG_LEVELS];
};

/* The smallest quota over the levels in CPUs (quota/period), or null. */
struct mdbl cpu_quota_read(const char *root, int *version);
void cpu_throttle_read(const char *root, struct cpu_throttle_snap *s);
/* Deltas b - a at the level that throttled most into r (null when unreadable). */
void cpu_throttle_delta(const struct cpu_throttle_snap *a, const struct cpu_throttle_snap *b,
			struct cpu_result *r);
/* aes / sha extensions from root/proc/cpuinfo flags (x86) or Features (arm64). */
void cpu_flags_read(const char *root, enum mbool *aes, enum mbool *sha);

#endif
