/*
 * pass_cpu.h — what CPU a timed pass got: the share of its threads' wall
 * time they ran, and the steal of the CPUs they ran on. A pass below
 * PASS_CPU_SHARE_MIN was disturbed (another process, a quota, the
 * hypervisor): its figures are shown, never graded.
 */
#ifndef VPSBENCH_PASS_CPU_H
#define VPSBENCH_PASS_CPU_H

#include <stdbool.h>

#include "value.h"

#define PASS_CPU_SHARE_MIN 0.9

struct pass_cpu {
	struct mdbl share;     /* CPU seconds / (threads x wall seconds); null = not measured */
	struct mdbl steal_pct; /* steal over busy + steal ticks of the pass's CPUs; null = unknown */
	bool disturbed;        /* share below PASS_CPU_SHARE_MIN */
};

/* The share of threads x wall that cpu_s is; disturbed below the bound. */
static inline void pass_cpu_set_share(struct pass_cpu *c, double cpu_s, unsigned threads,
				      double wall_s)
{
	if (threads == 0 || !(wall_s > 0) || !(cpu_s >= 0)) {
		c->share = (struct mdbl){ 0, false };
		c->disturbed = false;
		return;
	}
	c->share = mdbl_of(cpu_s / ((double)threads * wall_s));
	c->disturbed = c->share.v < PASS_CPU_SHARE_MIN;
}

#endif
