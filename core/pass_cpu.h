/*
 * pass_cpu.h — what CPU a timed pass got: the share of the CPU it was
 * entitled to that it ran, and the steal of the CPUs it ran on. A pass is
 * entitled to min(threads, the cgroup CPU quota in CPUs) x its wall time:
 * a 0.5-CPU container's 1-thread pass that gets its 0.5 CPU got all it was
 * sold. A pass below PASS_CPU_SHARE_MIN of that was disturbed (another
 * process, the hypervisor, a quota that gave less than it promises): its
 * figures are shown, never graded.
 */
#ifndef VPSBENCH_PASS_CPU_H
#define VPSBENCH_PASS_CPU_H

#include <stdbool.h>

#include "value.h"

#define PASS_CPU_SHARE_MIN 0.9

struct pass_cpu {
	struct mdbl share;     /* CPU seconds / (entitled x wall seconds); null = not measured */
	double entitled;       /* CPUs the pass could have: min(threads, quota); 0 = not measured */
	bool quota;            /* entitled is the cgroup quota's (below the thread count) */
	struct mdbl steal_pct; /* steal over busy + steal ticks of the pass's CPUs; null = unknown */
	bool disturbed;        /* share below PASS_CPU_SHARE_MIN */
};

/*
 * The share of min(threads, quota_cpus) x wall that cpu_s is; disturbed
 * below PASS_CPU_SHARE_MIN. quota_cpus <= 0 (or NAN): no quota.
 */
static inline void pass_cpu_set_share_q(struct pass_cpu *c, double cpu_s, unsigned threads,
					double quota_cpus, double wall_s)
{
	double ent = threads;

	c->quota = false;
	if (threads == 0 || !(wall_s > 0) || !(cpu_s >= 0)) {
		c->share = (struct mdbl){ 0, false };
		c->entitled = 0;
		c->disturbed = false;
		return;
	}
	if (quota_cpus > 0 && quota_cpus < ent) {
		ent = quota_cpus;
		c->quota = true;
	}
	c->entitled = ent;
	c->share = mdbl_of(cpu_s / (ent * wall_s));
	c->disturbed = c->share.v < PASS_CPU_SHARE_MIN;
}

/* The same with no quota: the share of threads x wall. */
static inline void pass_cpu_set_share(struct pass_cpu *c, double cpu_s, unsigned threads,
				      double wall_s)
{
	pass_cpu_set_share_q(c, cpu_s, threads, 0, wall_s);
}

#endif
