/*
 * proc_stat.c — per-CPU tick counters of /proc/stat and the steal
 * arithmetic over a pass's CPUs (proc_stat.h). Pure but for the reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc_stat.h"
#include "root_read.h"

/* One "cpuN v..." line into s; a line without the steal field stays !ok. */
static void parse_line(const char *line, struct proc_stat *s)
{
	unsigned long long v[8];
	char *end;
	unsigned long c;

	if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
		return;
	c = strtoul(line + 3, &end, 10);
	if (c >= PROC_STAT_MAX_CPUS)
		return;
	/* user nice system idle iowait irq softirq steal [guest guest_nice] */
	if (sscanf(end, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 8)
		return; /* before 2.6.11 there is no steal field: unknown */
	s->cpu[c].busy = v[0] + v[1] + v[2] + v[5] + v[6];
	s->cpu[c].steal = v[7];
	s->cpu[c].ok = true;
	if (c + 1 > s->n)
		s->n = (unsigned)c + 1;
}

void proc_stat_parse(const char *text, struct proc_stat *s)
{
	memset(s, 0, sizeof(*s));
	for (const char *p = text; p && *p;) {
		parse_line(p, s);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

void proc_stat_read(const char *root, struct proc_stat *s)
{
	FILE *f = root_fopen(root, "/proc/stat");
	char line[512];

	memset(s, 0, sizeof(*s));
	if (!f)
		return;
	/* the cpu lines come first; the long intr line after them is not read */
	while (fgets(line, sizeof(line), f) && strncmp(line, "cpu", 3) == 0)
		parse_line(line, s);
	fclose(f);
}

/* Adds CPU c's ticks between a and b to d; false when unknown or gone back. */
static bool add_cpu(const struct proc_stat *a, const struct proc_stat *b, int c,
		    struct proc_stat_delta *d)
{
	const struct proc_stat_cpu *x, *y;

	if (c < 0 || (unsigned)c >= a->n || (unsigned)c >= b->n)
		return false;
	x = &a->cpu[c];
	y = &b->cpu[c];
	if (!x->ok || !y->ok || y->busy < x->busy || y->steal < x->steal)
		return false;
	d->busy += y->busy - x->busy;
	d->steal += y->steal - x->steal;
	return true;
}

struct proc_stat_delta proc_stat_diff(const struct proc_stat *a, const struct proc_stat *b,
				      const int *cpus, unsigned n)
{
	struct proc_stat_delta d = { 0, 0, false };
	bool ok = true, any = false;

	if (n == 0) {
		for (unsigned c = 0; c < a->n && c < b->n; c++)
			if (a->cpu[c].ok && b->cpu[c].ok) {
				ok &= add_cpu(a, b, (int)c, &d);
				any = true;
			}
	} else {
		for (unsigned i = 0; i < n; i++) {
			ok &= add_cpu(a, b, cpus[i], &d);
			any = true;
		}
	}
	d.ok = ok && any;
	return d;
}

struct mdbl proc_stat_steal_pct(struct proc_stat_delta d)
{
	if (!d.ok || d.busy + d.steal == 0)
		return (struct mdbl){ 0, false };
	return mdbl_of(100.0 * (double)d.steal / (double)(d.busy + d.steal));
}
