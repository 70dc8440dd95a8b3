/*
 * test_cpu.c — the cpu module's arithmetic on fixtures: steal from
 * /proc/stat deltas (guest ticks already inside user, iowait idle, a
 * kernel without the steal field = unknown), cgroup throttling deltas
 * (v2 throttled_usec, v1 throttled_time in ns), the quota and the
 * effective thread count, and the prime event's answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cgroup_limits.h"
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

TH_TEST(cpu_steal_from_proc_stat_fixtures)
{
	char ra[512], rb[512];
	struct cpu_ticks a, b;
	struct mdbl s;

	fixture_root(ra, sizeof(ra), "cpu_steal/before");
	fixture_root(rb, sizeof(rb), "cpu_steal/after");
	cpu_ticks_read(ra, &a);
	cpu_ticks_read(rb, &b);
	TH_CHECK(a.ok && b.ok);
	/* deltas: user 800, system 100, idle 300, iowait 100, steal 500; guest 300 is inside user */
	TH_EQ_INT(b.total - a.total, 1800);
	TH_EQ_INT(b.steal - a.steal, 500);
	TH_EQ_INT(b.idle - a.idle, 400);
	s = cpu_steal_pct(&a, &b);
	TH_CHECK(s.ok);
	TH_NEAR(s.v, 500.0 / 1800.0 * 100.0, 1e-9);
	/* the other way round time went backwards: unknown, never 0 */
	s = cpu_steal_pct(&b, &a);
	TH_CHECK(!s.ok);
	/* no tick passed: unknown */
	s = cpu_steal_pct(&a, &a);
	TH_CHECK(!s.ok);
}

TH_TEST(cpu_steal_unknown_without_field_or_file)
{
	char r[512];
	struct cpu_ticks a, b;

	fixture_root(r, sizeof(r), "cpu_steal/old_kernel");
	cpu_ticks_read(r, &a);
	TH_CHECK(!a.ok);
	fixture_root(r, sizeof(r), "no_such_tree");
	cpu_ticks_read(r, &b);
	TH_CHECK(!b.ok);
	TH_CHECK(!cpu_steal_pct(&a, &b).ok);
	/* the aggregate line only: "cpu0" lines are not it */
	cpu_ticks_parse("cpu0 1 2 3 4 5 6 7 8\n", &a);
	TH_CHECK(!a.ok);
	cpu_ticks_parse("intr 5\ncpu  1 2 3 4 5 6 7 8 9 10\n", &a);
	TH_CHECK(a.ok);
	TH_EQ_INT(a.steal, 8);
	TH_EQ_INT(a.total, 36);
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
