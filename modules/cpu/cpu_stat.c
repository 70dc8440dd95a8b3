/*
 * cpu_stat.c — the arithmetic of what others took: steal from /proc/stat
 * tick deltas and cgroup cpu.stat throttling counters (the effective CPU
 * count is core/cgroup_limits.c's). Pure parsers, fixture-tested.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"

void cpu_ticks_parse(const char *text, struct cpu_ticks *t)
{
	unsigned long long v[8];
	const char *p = text;

	memset(t, 0, sizeof(*t));
	while (p && *p) {
		if (strncmp(p, "cpu ", 4) == 0) {
			/* user nice system idle iowait irq softirq steal [guest guest_nice] */
			if (sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
				   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
				return; /* before 2.6.11 there is no steal field: unknown */
			t->idle = v[3] + v[4];
			t->steal = v[7];
			t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
			t->total = t->busy + t->idle + t->steal;
			t->ok = true;
			return;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

void cpu_ticks_read(const char *root, struct cpu_ticks *t)
{
	char path[PATH_MAX], buf[1024];
	size_t n;
	FILE *f;

	memset(t, 0, sizeof(*t));
	if (snprintf(path, sizeof(path), "%s/proc/stat", root ? root : "") >= (int)sizeof(path))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	/* the aggregate line comes first */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	cpu_ticks_parse(buf, t);
}

struct mdbl cpu_steal_pct(const struct cpu_ticks *a, const struct cpu_ticks *b)
{
	uint64_t dt, ds;

	if (!a->ok || !b->ok || b->total <= a->total || b->steal < a->steal)
		return (struct mdbl){ 0, false };
	dt = b->total - a->total;
	ds = b->steal - a->steal;
	return mdbl_of((double)ds / (double)dt * 100.0);
}

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
