/*
 * affinity.h — the CPUs of this process's affinity mask, in order: the
 * CPUs a pass pins its threads to and reads its steal over.
 */
#ifndef VPSBENCH_AFFINITY_H
#define VPSBENCH_AFFINITY_H

#include <sched.h>

/* Up to max CPU numbers of the affinity mask into cpus; their number (0 on failure). */
static inline unsigned affinity_cpu_list(int *cpus, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

#endif
