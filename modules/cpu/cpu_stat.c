/*
 * cpu_stat.c — the arithmetic of what the provider took: cgroup cpu.stat
 * throttling counters (steal is core/proc_stat.c's, the effective CPU
 * count core/cgroup_limits.c's). A pure parser, fixture-tested.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"

void cpu_throttle_parse(const char *text, int version, struct cpu_throttle_counters *c)
{
	const char *p = text;
	bool per = false, thr = false, tim = false;

	memset(c, 0, sizeof(*c));
	while (p && *p) {
		char key[64];
		unsigned long long v;

		if (sscanf(p, "%63s %llu", key, &v) == 2) {
			if (strcmp(key, "nr_periods") == 0) {
				c->nr_periods = v;
				per = true;
			} else if (strcmp(key, "nr_throttled") == 0) {
				c->nr_throttled = v;
				thr = true;
			} else if (version == 2 && strcmp(key, "throttled_usec") == 0) {
				c->throttled_ns = (uint64_t)v * 1000;
				tim = true;
			} else if (version == 1 && strcmp(key, "throttled_time") == 0) {
				c->throttled_ns = v;
				tim = true;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	c->ok = per && thr && tim;
}
