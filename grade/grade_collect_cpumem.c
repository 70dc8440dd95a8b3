/*
 * grade_collect_cpumem.c — the cpu and mem figures a report grades, each
 * with its 95% half-width (core/uncert.h) and what it was told from: the
 * prime passes' per-0.2 s event rates (a mean), STREAM's counted reps
 * (half their range: best-of figures), the latency chase's repeat rounds
 * at the graded point (a mean), ratios in quadrature, steal to one tick.
 * A pass that did not get its CPU (its share of min(threads, quota)) is
 * measured and shown, marked disturbed, not graded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/uncert.h"
#include "grade_collect.h"
#include "report/report.h"

/* A pass that did not get its CPU: why its figures are shown but not graded, else NULL. */
static const char *disturbed_why(const struct pass_cpu *c, const char *pass, char *buf, size_t n)
{
	if (!c->disturbed)
		return NULL;
	if (c->quota)
		snprintf(buf, n, "the %s got %.0f%% of its %.2g-CPU quota (below %.0f%%): shown, "
			 "not graded", pass, c->share.v * 100, c->entitled, PASS_CPU_SHARE_MIN * 100);
	else
		snprintf(buf, n, "the %s got %.0f%% of its CPU time (below %.0f%%): shown, not graded",
			 pass, c->share.v * 100, PASS_CPU_SHARE_MIN * 100);
	return buf;
}

/*
 * Shown, not graded (struct metric: disturbed): measured, the value kept,
 * why says what was seen; grade.c grades no disturbed figure.
 */
static void set_disturbed(struct metric *m, double v, const char *why)
{
	if (!m)
		return;
	m->value = v;
	m->measured = true;
	m->disturbed = true;
	collect_set_why(m, why);
}

/* The uncertainty of a measured figure and what it was told from. */
static void set_uncert(struct metric *m, double u, const char *fmt, unsigned n)
{
	if (!m || !m->measured)
		return;
	m->uncert = u;
	snprintf(m->uncert_from, sizeof(m->uncert_from), fmt, n);
}

static void collect_cpu_scaling(const struct bench_report *rep, struct metric *sc,
				struct metric *pc)
{
	const struct cpu_result *c = &rep->cpu;
	const struct mu64 *cores = &rep->sys.cpu.physical_cores;
	char why[256], w1[160];
	unsigned on;

	if (!c->scaling.ok) {
		collect_set_why(sc, "a prime pass did not finish");
		collect_set_why(pc, "a prime pass did not finish");
		return;
	}
	if (c->multi.threads < 2) {
		collect_set_why(sc, "one effective CPU: no scaling to measure");
		collect_set_why(pc, "one effective CPU: no scaling to measure");
		return;
	}
	if (c->single.cpu.disturbed || c->multi.cpu.disturbed) {
		const struct pass_cpu *d = c->single.cpu.disturbed ? &c->single.cpu : &c->multi.cpu;

		disturbed_why(d, c->single.cpu.disturbed ? "1-thread prime pass" : "N-thread prime pass",
			      w1, sizeof(w1));
		snprintf(why, sizeof(why), "a prime pass did not get its CPU: %s", w1);
		set_disturbed(sc, c->scaling.v, why);
		if (cores->ok)
			set_disturbed(pc, c->scaling.v / (cores->v < c->multi.threads ?
							  (double)cores->v : c->multi.threads), why);
		else
			collect_set_why(pc, why);
		return;
	}
	/* more than x threads cannot come from the threads: one of the passes was disturbed */
	if (c->scaling.v > c->multi.threads * 1.05) {
		snprintf(why, sizeof(why), "%.2fx on %u threads is above the thread count: "
			 "measurement disturbed, not graded", c->scaling.v, c->multi.threads);
		collect_set_why(sc, why);
		collect_set_why(pc, why);
		return;
	}
	collect_set_value(sc, c->scaling.v, -1);
	set_uncert(sc, c->scaling_u, "ratio of two passes' %u per-0.2 s rates",
		   c->single.nsub < c->multi.nsub ? c->single.nsub : c->multi.nsub);
	if (!cores->ok) {
		collect_set_why(pc, "physical cores unknown (sysinfo not run, or no sysfs topology)");
		return;
	}
	on = cores->v < c->multi.threads ? (unsigned)cores->v : c->multi.threads;
	collect_set_value(pc, c->scaling.v / on, -1);
	set_uncert(pc, c->scaling_u / on, "cpu_scaling over %u cores", on);
}

void collect_cpu(const struct bench_report *rep, struct metric_set *ms)
{
	const struct cpu_result *c = &rep->cpu;
	bool sel = rep->outcome[MOD_cpu].status != BENCH_NOT_RUN;
	struct metric *s = collect_add(ms, "cpu_single_eps", sel), *m = collect_add(ms, "cpu_multi_eps", sel),
		      *sc = collect_add(ms, "cpu_scaling", sel), *st = collect_add(ms, "cpu_steal_pct", sel),
		      *pc = collect_add(ms, "cpu_scaling_per_core", sel);
	char why[320];

	if (rep->outcome[MOD_cpu].status != BENCH_OK) {
		collect_module_why(rep, MOD_cpu, why, sizeof(why));
		collect_set_why(s, why);
		collect_set_why(m, why);
		collect_set_why(sc, why);
		collect_set_why(st, why);
		collect_set_why(pc, why);
		return;
	}
	if (!c->single.eps.ok)
		collect_set_why(s, "the 1-thread pass counted no event");
	else if (disturbed_why(&c->single.cpu, "1-thread prime pass", why, sizeof(why)))
		set_disturbed(s, c->single.eps.v, why);
	else
		collect_set_value(s, c->single.eps.v, -1);
	set_uncert(s, c->single.eps_u, "%u per-0.2 s event rates", c->single.nsub);
	if (!c->multi.eps.ok)
		collect_set_why(m, "the N-thread pass counted no event");
	else if (disturbed_why(&c->multi.cpu, "N-thread prime pass", why, sizeof(why)))
		set_disturbed(m, c->multi.eps.v, why);
	else
		collect_set_value(m, c->multi.eps.v, -1);
	set_uncert(m, c->multi.eps_u, "%u per-0.2 s event rates", c->multi.nsub);
	collect_cpu_scaling(rep, sc, pc);
	if (c->steal_pct.ok) {
		collect_set_value(st, c->steal_pct.v, -1);
		/* /proc/stat counts whole ticks: the figure is known to one tick of the total */
		if (c->total_ticks > 0)
			set_uncert(st, 100.0 / (double)c->total_ticks, "tick resolution (1 of %u ticks)",
				   (unsigned)c->total_ticks);
	} else {
		collect_set_why(st, "/proc/stat unreadable or without a steal field: unknown");
	}
}

/* The N-thread run when there is one, else the 1-thread run. */
static const struct mem_stream *mem_all_threads(const struct mem_result *m)
{
	return m->st[1].present ? &m->st[1] : m->st[0].present ? &m->st[0] : NULL;
}

static void mem_bw(struct metric *x, const struct mem_stream *s, int k, const char *capped)
{
	char why[160];

	if (capped)
		collect_set_why(x, capped);
	else if (!s || !s->mbps[k].ok)
		collect_set_why(x, "the STREAM run has no figure");
	else if (!s->validated)
		collect_set_why(x, "the STREAM check failed");
	else if (disturbed_why(&s->cpu, s->threads > 1 ? "N-thread STREAM run" : "1-thread STREAM run",
			       why, sizeof(why)))
		set_disturbed(x, s->mbps[k].v, why);
	else
		collect_set_value(x, s->mbps[k].v, -1);
	/* best of the counted reps (the first is a warm-up): half their range */
	if (s && s->reps > 1)
		set_uncert(x, s->mbps_u[k], "best of %u reps (half their range)", s->reps - 1);
}

/* Per vCPU: the N-thread Triad / N, and that over the 1-thread Triad. */
static void mem_per_vcpu(const struct mem_result *m, const struct metric *t1,
			 const struct metric *tn, struct metric *pv, struct metric *eff)
{
	if (!m->st[1].present || m->st[1].threads < 2) {
		collect_set_why(pv, "no multi-thread STREAM run (one effective CPU)");
		collect_set_why(eff, "no multi-thread STREAM run (one effective CPU)");
		return;
	}
	if (!tn || !tn->measured) {
		collect_set_why(pv, tn ? tn->why_not : "not measured");
		collect_set_why(eff, tn ? tn->why_not : "not measured");
		return;
	}
	if (tn->disturbed)
		set_disturbed(pv, tn->value / m->st[1].threads, tn->why_not);
	else
		collect_set_value(pv, tn->value / m->st[1].threads, -1);
	set_uncert(pv, uncert_ratio(tn->value, tn->uncert, m->st[1].threads, 0),
		   "N-thread Triad over %u threads", m->st[1].threads);
	if (!t1 || !t1->measured || !(t1->value > 0))
		collect_set_why(eff, t1 && t1->why_not[0] ? t1->why_not : "no 1-thread Triad");
	else if (tn->disturbed || t1->disturbed)
		set_disturbed(eff, tn->value / m->st[1].threads / t1->value,
			      tn->disturbed ? tn->why_not : t1->why_not);
	else
		collect_set_value(eff, tn->value / m->st[1].threads / t1->value, -1);
	if (eff && eff->measured)
		set_uncert(eff, uncert_ratio(pv->value, pv->uncert, t1->value, t1->uncert),
			   "ratio of the %u-thread and 1-thread Triads", m->st[1].threads);
}

void collect_mem(const struct bench_report *rep, struct metric_set *ms)
{
	const struct mem_result *m = &rep->mem;
	bool sel = rep->outcome[MOD_mem].status != BENCH_NOT_RUN;
	struct metric *tr = collect_add(ms, "mem_triad_mbps", sel), *t1 = collect_add(ms, "mem_triad_1t_mbps", sel),
		      *cp = collect_add(ms, "mem_copy_mbps", sel), *lat[2] = { collect_add(ms, "mem_latency_ns", sel),
		      collect_add(ms, "mem_latency_huge_ns", sel) }, *pv = collect_add(ms, "mem_triad_per_vcpu_mbps", sel),
		      *eff = collect_add(ms, "mem_scaling_eff", sel);
	const char *capped = m->capped ? "arrays smaller than 4x LLC: figures include cache" : NULL;
	char why[320];

	if (rep->outcome[MOD_mem].status != BENCH_OK) {
		collect_module_why(rep, MOD_mem, why, sizeof(why));
		collect_set_why(tr, why);
		collect_set_why(t1, why);
		collect_set_why(cp, why);
		collect_set_why(lat[0], why);
		collect_set_why(lat[1], why);
		collect_set_why(pv, why);
		collect_set_why(eff, why);
		return;
	}
	mem_bw(tr, mem_all_threads(m), MEM_TRIAD, capped);
	mem_bw(cp, mem_all_threads(m), MEM_COPY, capped);
	mem_bw(t1, m->st[0].present ? &m->st[0] : NULL, MEM_TRIAD, capped);
	mem_per_vcpu(m, t1, m->st[1].present ? tr : NULL, pv, eff);
	for (int k = 0; k < 2; k++) {
		const struct mem_curve *c = &m->lat[k];

		if (!c->present)
			collect_set_why(lat[k], c->reason[0] ? c->reason : "not measured");
		else if (k == 1 && c->huge_used != MB_TRUE)
			collect_set_why(lat[k], "no huge pages backed the buffer");
		else if (m->capped)
			collect_set_why(lat[k], "the curve did not go past the cache (arrays capped)");
		else if (!c->graded_ns.ok)
			collect_set_why(lat[k], "the curve did not level off past the cache "
					"(no point past the cache edge with its next within 10%)");
		else if (c->cpu.disturbed) {
			disturbed_why(&c->cpu, "latency chase", why, sizeof(why));
			set_disturbed(lat[k], c->graded_ns.v, why);
		} else
			collect_set_value(lat[k], c->graded_ns.v, -1);
		set_uncert(lat[k], c->graded_u, "%u rounds of the chase at the graded point", c->rounds);
	}
}

