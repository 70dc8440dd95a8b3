/*
 * test_cpu.c — the cpu module's arithmetic on fixtures: steal from
 * per-CPU /proc/stat deltas over the pass's CPUs (busy + steal ticks:
 * guest already inside user, idle and iowait left out; 2- and 8-vCPU
 * guests with one busy CPU; a kernel without the steal field = unknown), cgroup throttling deltas
 * (v2 throttled_usec, v1 throttled_time in ns), the quota and the
 * effective thread count, and the prime event's answer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cgroup_limits.h"
#include "core/proc_stat.h"
#include "core/uncert.h"
#include "grade/grade.h"
#include "grade/health.h"
#include "report/report.h"
#include "modules/cpu/cpu.h"
#include "modules/cpu/cpu_env.h"
#include "th.h"

static void fixture_root(char *buf, size_t n, const char *rel)
{
	snprintf(buf, n, "%s/tests/fixtures/%s", th_srcdir(), rel);
}

static void read_text(const char *rel, char *buf, size_t n)
{
	char path[512];
	FILE *f;
	size_t got;

	fixture_root(path, sizeof(path), rel);
	f = fopen(path, "r");
	buf[0] = '\0';
	if (!f) {
		th_fail(__FILE__, __LINE__, "cannot open %s", path);
		return;
	}
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

TH_TEST(cpu_prime_event_answer)
{
	/* primes in 3 .. max_prime-1: 2 is not counted (sysbench starts at 3) */
	TH_EQ_INT(cpu_prime_event(3), 0);
	TH_EQ_INT(cpu_prime_event(4), 1);
	TH_EQ_INT(cpu_prime_event(100), 24);
	TH_EQ_INT(cpu_prime_event(10000), 1228);
}

static void read_stat(const char *rel, struct proc_stat *s)
{
	char r[512];

	fixture_root(r, sizeof(r), rel);
	proc_stat_read(r, s);
}

TH_TEST(cpu_steal_from_proc_stat_fixtures)
{
	static struct proc_stat a, b;
	struct proc_stat_delta d;
	const int c01[2] = { 0, 1 };

	read_stat("cpu_steal/before", &a);
	read_stat("cpu_steal/after", &b);
	TH_EQ_INT(a.n, 2);
	/* per CPU: user 400, system 50, irq 0, softirq 0 busy (guest 150 inside user), steal 250 */
	d = proc_stat_diff(&a, &b, c01, 2);
	TH_CHECK(d.ok);
	TH_EQ_INT(d.busy, 900);
	TH_EQ_INT(d.steal, 500);
	TH_NEAR(proc_stat_steal_pct(d).v, 500.0 / 1400.0 * 100.0, 1e-9);
	/* the other way round time went backwards: unknown, never 0 */
	TH_CHECK(!proc_stat_steal_pct(proc_stat_diff(&b, &a, c01, 2)).ok);
	/* no tick passed: unknown */
	TH_CHECK(!proc_stat_steal_pct(proc_stat_diff(&a, &a, c01, 2)).ok);
}

/* One busy vCPU with 10% steal: 10% on it and over all, where the old all-ticks figure was 10/N. */
TH_TEST(cpu_steal_one_busy_vcpu_of_2_and_8)
{
	static struct proc_stat a, b;
	const int c0 = 0, c1 = 1, c3 = 3, c35[2] = { 3, 5 };
	struct proc_stat_delta d;

	read_stat("cpu_steal/vcpu2_before", &a);
	read_stat("cpu_steal/vcpu2_after", &b);
	TH_EQ_INT(b.n, 2);
	d = proc_stat_diff(&a, &b, &c0, 1);
	TH_EQ_INT(d.busy, 90);
	TH_EQ_INT(d.steal, 10);
	TH_NEAR(proc_stat_steal_pct(d).v, 10.0, 1e-9);
	TH_NEAR(proc_stat_steal_pct(proc_stat_diff(&a, &b, NULL, 0)).v, 10.0, 1e-9);
	/* the idle vCPU alone: no busy or steal tick, unknown */
	TH_CHECK(!proc_stat_steal_pct(proc_stat_diff(&a, &b, &c1, 1)).ok);

	read_stat("cpu_steal/vcpu8_before", &a);
	read_stat("cpu_steal/vcpu8_after", &b);
	TH_EQ_INT(b.n, 8);
	/* cpu3: user 80 + nice 5 + irq 2 + softirq 3 busy, 10 steal */
	d = proc_stat_diff(&a, &b, &c3, 1);
	TH_EQ_INT(d.busy, 90);
	TH_EQ_INT(d.steal, 10);
	TH_NEAR(proc_stat_steal_pct(d).v, 10.0, 1e-9);
	/* cpu5's 4 busy ticks of another task join the denominator */
	TH_NEAR(proc_stat_steal_pct(proc_stat_diff(&a, &b, c35, 2)).v, 100.0 * 10 / 104, 1e-9);
	TH_NEAR(proc_stat_steal_pct(proc_stat_diff(&a, &b, NULL, 0)).v, 100.0 * 10 / 104, 1e-9);
	/* a CPU the readings do not have: unknown */
	{
		const int c9 = 9;

		TH_CHECK(!proc_stat_diff(&a, &b, &c9, 1).ok);
	}
}

TH_TEST(cpu_steal_unknown_without_field_or_file)
{
	static struct proc_stat a, b;
	const int c0 = 0;

	read_stat("cpu_steal/old_kernel", &a);
	TH_CHECK(!a.cpu[0].ok);
	read_stat("no_such_tree", &b);
	TH_EQ_INT(b.n, 0);
	TH_CHECK(!proc_stat_steal_pct(proc_stat_diff(&a, &b, &c0, 1)).ok);
	TH_CHECK(!proc_stat_steal_pct(proc_stat_diff(&a, &b, NULL, 0)).ok);
	/* the aggregate line is not a CPU's */
	proc_stat_parse("cpu  1 2 3 4 5 6 7 8 9 10\ncpu2 1 2 3 4 5 6 7 8\n", &a);
	TH_EQ_INT(a.n, 3);
	TH_CHECK(!a.cpu[0].ok && a.cpu[2].ok);
	TH_EQ_INT(a.cpu[2].busy, 1 + 2 + 3 + 6 + 7);
	TH_EQ_INT(a.cpu[2].steal, 8);
}

TH_TEST(cpu_throttle_v2_and_v1)
{
	char t[1024];
	struct cpu_throttle_snap a = { .version = 2, .n = 1 }, b = { .version = 2, .n = 1 };
	struct cpu_result r;

	read_text("cpu_throttle/v2_a/cpu.stat", t, sizeof(t));
	cpu_throttle_parse(t, 2, &a.lvl[0]);
	read_text("cpu_throttle/v2_b/cpu.stat", t, sizeof(t));
	cpu_throttle_parse(t, 2, &b.lvl[0]);
	TH_CHECK(a.lvl[0].ok && b.lvl[0].ok);
	TH_EQ_INT(a.lvl[0].throttled_ns, 2000000000LL); /* usec -> ns */
	memset(&r, 0, sizeof(r));
	cpu_throttle_delta(&a, &b, &r);
	TH_CHECK(r.throttled_periods.ok && r.nr_periods.ok && r.throttled_s.ok);
	TH_EQ_INT(r.throttled_periods.v, 50);
	TH_EQ_INT(r.nr_periods.v, 50);
	TH_NEAR(r.throttled_s.v, 2.5, 1e-9);
	TH_EQ_INT(r.cgroup_version, 2);

	/* v1: throttled_time is already ns; a v2 parse of it finds no time */
	read_text("cpu_throttle/v1_a/cpu.stat", t, sizeof(t));
	cpu_throttle_parse(t, 2, &a.lvl[0]);
	TH_CHECK(!a.lvl[0].ok);
	cpu_throttle_parse(t, 1, &a.lvl[0]);
	read_text("cpu_throttle/v1_b/cpu.stat", t, sizeof(t));
	cpu_throttle_parse(t, 1, &b.lvl[0]);
	a.version = b.version = 1;
	memset(&r, 0, sizeof(r));
	cpu_throttle_delta(&a, &b, &r);
	TH_EQ_INT(r.throttled_periods.v, 10);
	TH_EQ_INT(r.nr_periods.v, 10);
	TH_NEAR(r.throttled_s.v, 1.0, 1e-9);
	TH_EQ_INT(r.cgroup_version, 1);

	/* nothing readable: unknown, not 0 */
	a.lvl[0].ok = false;
	memset(&r, 0, sizeof(r));
	cpu_throttle_delta(&a, &b, &r);
	TH_CHECK(!r.throttled_periods.ok && !r.throttled_s.ok);
}

TH_TEST(cpu_throttle_level_that_lost_most)
{
	struct cpu_throttle_snap a = { .version = 2, .n = 2 }, b = { .version = 2, .n = 2 };
	struct cpu_result r;

	/* own level: no quota, nothing throttled; parent: 0.5 s lost */
	a.lvl[0] = (struct cpu_throttle_counters){ 0, 0, 0, true };
	b.lvl[0] = (struct cpu_throttle_counters){ 0, 0, 0, true };
	a.lvl[1] = (struct cpu_throttle_counters){ 10, 1, 1000, true };
	b.lvl[1] = (struct cpu_throttle_counters){ 30, 11, 500001000, true };
	memset(&r, 0, sizeof(r));
	cpu_throttle_delta(&a, &b, &r);
	TH_EQ_INT(r.throttled_periods.v, 10);
	TH_EQ_INT(r.nr_periods.v, 20);
	TH_NEAR(r.throttled_s.v, 0.5, 1e-9);
}

TH_TEST(cpu_quota_and_throttle_on_cgroup_fixtures)
{
	char root[512];
	struct cpu_throttle_snap s;
	struct mdbl q;
	int ver = 0;

	fixture_root(root, sizeof(root), "docker_v1");
	q = cpu_quota_read(root, &ver);
	TH_CHECK(q.ok);
	TH_NEAR(q.v, 0.5, 1e-12); /* the container's 50000/100000, below the parent's 2 CPUs */
	TH_EQ_INT(ver, 1);
	fixture_root(root, sizeof(root), "docker_v2");
	q = cpu_quota_read(root, &ver);
	TH_CHECK(q.ok);
	TH_NEAR(q.v, 1.5, 1e-12);
	TH_EQ_INT(ver, 2);
	cpu_throttle_read(root, &s);
	TH_EQ_INT(s.version, 2);
	TH_CHECK(s.n >= 1 && s.lvl[0].ok);
	TH_EQ_INT(s.lvl[0].nr_throttled, 40);
	fixture_root(root, sizeof(root), "kvm_vps");
	q = cpu_quota_read(root, &ver);
	TH_CHECK(!q.ok); /* "max": no quota */
}

TH_TEST(cpu_effective_threads_table)
{
	static const struct {
		unsigned aff;
		double quota;
		unsigned want;
	} c[] = {
		{ 2, 0.5, 1 },   /* half a CPU: one thread */
		{ 2, 1.5, 2 },   /* rounded up */
		{ 4, 1.5, 2 },
		{ 8, 2.0, 2 },   /* exactly 2 CPUs: not 3 */
		{ 8, 2.01, 3 },
		{ 2, 0, 2 },     /* no quota: the affinity mask */
		{ 1, 4, 1 },     /* quota above the mask: the mask */
		{ 0, 0, 1 },     /* never 0 */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		TH_EQ_INT(cgroup_effective_cpus(c[i].aff, c[i].quota), c[i].want);
}

TH_TEST(cpu_flags_from_cpuinfo)
{
	char root[512];
	enum mbool aes, sha;

	fixture_root(root, sizeof(root), "kvm_vps");
	cpu_flags_read(root, &aes, &sha);
	TH_CHECK(aes != MB_UNKNOWN);
	fixture_root(root, sizeof(root), "no_such_tree");
	cpu_flags_read(root, &aes, &sha);
	TH_CHECK(aes == MB_UNKNOWN && sha == MB_UNKNOWN);
}

/*
 * A pass's share is against min(threads, quota): a 0.5-CPU container's
 * 1-thread pass that ran 0.9 of its 0.5 CPU is not disturbed; one tick less
 * is. Exact boundary at PASS_CPU_SHARE_MIN (0.9).
 */
TH_TEST(cpu_share_against_the_quota_boundaries)
{
	struct pass_cpu c;

	memset(&c, 0, sizeof(c));
	pass_cpu_set_share_q(&c, 0.9, 1, 0.5, 2.0);           /* 0.9 CPU-s of 0.5 x 2 s */
	TH_CHECK(c.share.ok && c.quota && !c.disturbed);
	TH_NEAR(c.share.v, 0.9, 1e-12);
	TH_NEAR(c.entitled, 0.5, 1e-12);
	pass_cpu_set_share_q(&c, 0.8999, 1, 0.5, 2.0);
	TH_CHECK(c.disturbed);
	pass_cpu_set_share(&c, 0.9, 1, 2.0);                  /* no quota: 0.9 of 2 s is 45% */
	TH_CHECK(!c.quota && c.disturbed);
	TH_NEAR(c.share.v, 0.45, 1e-12);
	pass_cpu_set_share_q(&c, 2.7, 2, 1.5, 2.0);           /* 2 threads under 1.5 CPUs: 2.7 of 3 */
	TH_CHECK(c.quota && !c.disturbed);
	TH_NEAR(c.entitled, 1.5, 1e-12);
	pass_cpu_set_share_q(&c, 3.6, 2, 4.0, 2.0);           /* a quota above the threads: threads */
	TH_CHECK(!c.quota && !c.disturbed);
	TH_NEAR(c.entitled, 2, 1e-12);
	pass_cpu_set_share_q(&c, 1.0, 0, 0.5, 2.0);           /* nothing measured */
	TH_CHECK(!c.share.ok && !c.disturbed);
}

static const struct health_check *hcheck(const struct health_result *h, const char *name)
{
	for (unsigned i = 0; i < h->n; i++)
		if (strcmp(h->c[i].check, name) == 0)
			return &h->c[i];
	return NULL;
}

/*
 * Health under a 0.5-CPU quota: throttled periods are what the quota sells;
 * cpu_throttle and cpu_share are problems only when a pass got less than
 * PASS_CPU_SHARE_MIN of the quota's share (boundary: 0.9 passes, below fails).
 */
TH_TEST(cpu_health_throttle_under_quota)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct health_result *h = calloc(1, sizeof(*h));
	struct cpu_result *r;
	const struct health_check *t, *s;

	TH_CHECK(rep && h);
	if (!rep || !h) {
		free(rep);
		free(h);
		return;
	}
	r = &rep->cpu;
	rep->outcome[MOD_cpu].status = BENCH_OK;
	r->threads = 1;
	r->quota_cpus = mdbl_of(0.5);
	r->single.threads = r->multi.threads = 1;
	r->throttled_periods = (struct mu64){ 40, true };
	r->nr_periods = (struct mu64){ 50, true };
	r->throttled_s = mdbl_of(2.0);
	/* each pass ran 2.5 s and got 1.125 CPU-s: exactly 0.9 of 0.5 x 2.5 */
	pass_cpu_set_share_q(&r->single.cpu, 1.125, 1, 0.5, 2.5);
	pass_cpu_set_share_q(&r->multi.cpu, 1.125, 1, 0.5, 2.5);
	health_assess(rep, NULL, h);
	t = hcheck(h, "cpu_throttle");
	s = hcheck(h, "cpu_share");
	TH_CHECK(t && t->state == HEALTH_PASSED);
	TH_CHECK(s && s->state == HEALTH_PASSED);
	TH_CHECK(t && strstr(t->evidence, "what the quota sells") != NULL);
	/* one pass a little under: both are problems */
	memset(h, 0, sizeof(*h));
	pass_cpu_set_share_q(&r->multi.cpu, 1.12, 1, 0.5, 2.5);
	health_assess(rep, NULL, h);
	t = hcheck(h, "cpu_throttle");
	s = hcheck(h, "cpu_share");
	TH_CHECK(t && t->state == HEALTH_PROBLEM);
	TH_CHECK(s && s->state == HEALTH_PROBLEM);
	/* throttled with no quota read: a problem whatever the shares */
	memset(h, 0, sizeof(*h));
	pass_cpu_set_share_q(&r->multi.cpu, 2.5, 1, 0, 2.5);
	r->quota_cpus = (struct mdbl){ 0, false };
	health_assess(rep, NULL, h);
	t = hcheck(h, "cpu_throttle");
	TH_CHECK(t && t->state == HEALTH_PROBLEM);
	free(rep);
	free(h);
}

/* The cpu figures' uncertainties: the passes' own, their ratio in quadrature, one steal tick. */
TH_TEST(cpu_collect_uncertainties)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct metric_set *ms = calloc(1, sizeof(*ms));
	const struct metric *s, *m, *sc, *st;
	struct cpu_result *r;

	TH_CHECK(rep && ms);
	if (!rep || !ms)
		goto out;
	r = &rep->cpu;
	rep->outcome[MOD_cpu].status = BENCH_OK;
	r->threads = r->multi.threads = 2;
	r->single.threads = 1;
	r->single.eps = mdbl_of(1000);
	r->single.eps_u = 10;
	r->single.nsub = 12;
	r->multi.eps = mdbl_of(2000);
	r->multi.eps_u = 40;
	r->multi.nsub = 12;
	r->single.complete = r->multi.complete = true;
	pass_cpu_set_share(&r->single.cpu, 1, 1, 1);
	pass_cpu_set_share(&r->multi.cpu, 2, 2, 1);
	r->scaling = mdbl_of(2);
	r->scaling_u = uncert_ratio(2000, 40, 1000, 10);
	r->steal_pct = mdbl_of(1.0);
	r->steal_ticks = 5;
	r->total_ticks = 500;
	grade_collect(rep, NULL, ms);
	s = metric_get(ms, "cpu_single_eps");
	m = metric_get(ms, "cpu_multi_eps");
	sc = metric_get(ms, "cpu_scaling");
	st = metric_get(ms, "cpu_steal_pct");
	TH_CHECK(s && s->measured && s->uncert == 10 && strstr(s->uncert_from, "12 per-0.2 s"));
	TH_CHECK(m && m->measured && m->uncert == 40);
	/* 2 x sqrt(0.01^2 + 0.02^2) */
	TH_CHECK(sc && sc->measured);
	if (sc)
		TH_NEAR(sc->uncert, 2 * sqrt(0.0001 + 0.0004), 1e-12);
	TH_CHECK(st && st->measured);
	if (st)
		TH_NEAR(st->uncert, 100.0 / 500, 1e-12);
	/* one sub-interval: no uncertainty, so the figure is shown, not graded */
	r->single.eps_u = NAN;
	r->single.nsub = 1;
	grade_collect(rep, NULL, ms);
	s = metric_get(ms, "cpu_single_eps");
	TH_CHECK(s && s->measured && isnan(s->uncert));
out:
	free(ms);
	free(rep);
}
