/*
 * watch_deltas.c — snapshots of the cumulative counters and their deltas
 * over a round's interval (watch_deltas.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_deltas.h"
#include "core/cgroup.h"
#include "core/clock.h"
#include "core/host_mem.h"
#include "core/root_read.h"
#include "modules/cpu/cpu.h"

int watch_snap_init(struct watch_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->ps = calloc(1, sizeof(*s->ps));
	return s->ps ? 0 : -1;
}

void watch_snap_free(struct watch_snap *s)
{
	free(s->ps);
	s->ps = NULL;
}

bool watch_psi_read(const char *res, double *avg10, double *total_us)
{
	char path[64], buf[512];
	double a, t;

	snprintf(path, sizeof(path), "/proc/pressure/%s", res);
	if (root_read_file("", path, buf, sizeof(buf)) <= 0)
		return false;
	if (sscanf(buf, "some avg10=%lf avg60=%*f avg300=%*f total=%lf", &a, &t) != 2)
		return false;
	if (avg10)
		*avg10 = a;
	if (total_us)
		*total_us = t;
	return true;
}

static bool cg_level(const char *root, const char *dir, int ver, void *arg)
{
	struct watch_snap *s = arg;
	struct cpu_throttle_counters c;
	char buf[1024];

	if (s->ncg >= WATCH_CG_LEVELS)
		return false;
	memset(&c, 0, sizeof(c));
	if (cgroup_read(root, dir, "cpu.stat", buf, sizeof(buf)) > 0)
		cpu_throttle_parse(buf, ver, &c);
	s->throttled_ns[s->ncg++] = c.ok ? mu64_of(c.throttled_ns) : (struct mu64){ 0, false };
	return true;
}

void watch_snap_take(struct watch_snap *s)
{
	struct host_mem_signs h;
	double t;

	s->mono_s = mono_s();
	proc_stat_read("", s->ps);
	s->ncg = 0;
	cgroup_walk("", "cpu", cg_level, s);
	s->psi_cpu_us = watch_psi_read("cpu", NULL, &t) ? mdbl_of(t) : (struct mdbl){ 0, false };
	s->psi_mem_us = watch_psi_read("memory", NULL, &t) ? mdbl_of(t) : (struct mdbl){ 0, false };
	s->psi_io_us = watch_psi_read("io", NULL, &t) ? mdbl_of(t) : (struct mdbl){ 0, false };
	host_mem_read("", &h);
	s->pswpin = h.pswpin;
}

static struct mdbl pct_of(struct mdbl a, struct mdbl b, double secs)
{
	if (!a.ok || !b.ok || b.v < a.v || secs <= 0)
		return (struct mdbl){ 0, false };
	return mdbl_of((b.v - a.v) / (secs * 1e6) * 100.0);
}

/* /proc/stat's unit: USER_HZ ticks a second (100 on every Linux ABI) */
static double user_hz(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return hz > 0 ? (double)hz : 100.0;
}

/* Steal since boot summed over the CPUs read, in seconds; unknown when none had the field. */
static struct mdbl steal_total(const struct proc_stat *ps)
{
	uint64_t sum = 0;
	bool any = false;

	for (unsigned c = 0; c < ps->n; c++)
		if (ps->cpu[c].ok) {
			sum += ps->cpu[c].steal;
			any = true;
		}
	return any ? mdbl_of((double)sum / user_hz()) : (struct mdbl){ 0, false };
}

/* The CPUs read in both snapshots: the ratio's CPU count. */
static unsigned cpus_in_both(const struct proc_stat *a, const struct proc_stat *b)
{
	unsigned n = 0;

	for (unsigned c = 0; c < a->n && c < b->n; c++)
		n += a->cpu[c].ok && b->cpu[c].ok;
	return n;
}

void watch_snap_delta(const struct watch_snap *a, const struct watch_snap *b,
		      struct watch_deltas *d)
{
	double secs = b->mono_s - a->mono_s;
	struct proc_stat_delta pd;
	bool any = false;
	uint64_t best = 0, total = 0;
	unsigned ncpu = cpus_in_both(a->ps, b->ps);

	memset(d, 0, sizeof(*d));
	pd = proc_stat_diff(a->ps, b->ps, NULL, 0);
	d->steal_pct = proc_stat_steal_pct(pd);
	/* ticks passed but none busy nor stolen: no steal */
	if (!d->steal_pct.ok && pd.ok)
		d->steal_pct = mdbl_of(0);
	d->steal_total_s = steal_total(b->ps);
	if (pd.ok) {
		d->steal_s = mdbl_of((double)pd.steal / user_hz());
		/* per wall time of every CPU, as top's %st: the stolen share of the machine */
		if (secs > 0 && ncpu > 0)
			d->steal_ratio = mdbl_of(d->steal_s.v / (secs * ncpu));
	}
	/* the level whose quota bit hardest: most time lost */
	for (unsigned i = 0; i < a->ncg && i < b->ncg; i++) {
		const struct mu64 x = a->throttled_ns[i], y = b->throttled_ns[i];

		if (!x.ok || !y.ok || y.v < x.v)
			continue;
		if (!any || y.v - x.v > best) {
			best = y.v - x.v;
			total = y.v;
		}
		any = true;
	}
	if (any) {
		d->throttled_s = mdbl_of((double)best / 1e9);
		d->throttled_total_s = mdbl_of((double)total / 1e9);
	}
	d->psi_cpu_pct = pct_of(a->psi_cpu_us, b->psi_cpu_us, secs);
	d->psi_mem_pct = pct_of(a->psi_mem_us, b->psi_mem_us, secs);
	d->psi_io_pct = pct_of(a->psi_io_us, b->psi_io_us, secs);
	if (a->pswpin.ok && b->pswpin.ok && b->pswpin.v >= a->pswpin.v)
		d->pswpin = mu64_of(b->pswpin.v - a->pswpin.v);
	d->pswpin_total = b->pswpin;
}
