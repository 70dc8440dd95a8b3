/*
 * test_watch_metrics.c — `vpsbench watch`'s Prometheus body line by line:
 * base units, the monotonic throttled counter, skips by reason, the stale
 * rule, steal as seconds and per wall time, the baseline split by unit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_deltas.h"
#include "cmd/watch/watch_metrics.h"
#include "th.h"

/* true when body has the whole line (name, labels and value as written) */
static int has_line(const char *body, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = body; (p = strstr(p, line)); p++)
		if ((p == body || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

#define TH_LINE(body, line)                                                         \
	do {                                                                         \
		if (!has_line(body, line))                                           \
			th_fail(__FILE__, __LINE__, "no line \"%s\" in:\n%s", line, body); \
	} while (0)

static void state(struct watch_state *s, struct watch_drift *d)
{
	memset(s, 0, sizeof(*s));
	memset(d, 0, sizeof(*d));
	s->state_dir = "/var/lib/vpsbench";
	s->dir = "/srv/da\"ta";
	s->start_time = 1000000;
	s->every_s = 900;
	s->probe_s = 10;
	s->window = 5;
	s->now = 1000000;
	s->drift = d;
}

static void ok_round(struct watch_round *r, double t)
{
	memset(r, 0, sizeof(*r));
	r->unix_time = t;
	r->gate_open = true;
	r->probe[WP_RANDREAD].p50_us = mdbl_of(40);
	r->probe[WP_RANDREAD].p99_us = mdbl_of(250);
	r->probe[WP_RANDREAD].iops = mdbl_of(20000);
	r->probe[WP_RANDREAD].duration_s = mdbl_of(2.5);
	r->probe[WP_FSYNC].p99_us = mdbl_of(1500);
	r->probe[WP_PRIME].eps = mdbl_of(4000);
	r->probe[WP_DRAM].ns = mdbl_of(120);
	r->probe[WP_DRAM].huge = MB_FALSE;
}

static void skipped_round(struct watch_round *r, double t, enum watch_skip_reason k)
{
	memset(r, 0, sizeof(*r));
	r->unix_time = t;
	for (int i = 0; i < WP_COUNT; i++) {
		r->probe[i].status = WS_SKIPPED;
		r->probe[i].skip = k;
	}
}

static char *render(const struct watch_state *s)
{
	size_t n = 0;
	char *b = watch_metrics_render(s, &n);

	TH_CHECK(b != NULL);
	TH_EQ_INT(strlen(b), n);
	return b;
}

TH_TEST(watch_metrics_figures_in_base_units)
{
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	char *b;

	state(&s, &d);
	ok_round(&r, 1000100);
	watch_state_add(&s, &r);
	b = render(&s);
	/* p99 in seconds = us x 1e-6; the disk probe says its directory */
	TH_LINE(b, "vpsbench_watch_randread_latency_p99_seconds{dir=\"/srv/da\\\"ta\"} 0.00025");
	TH_LINE(b, "vpsbench_watch_randread_latency_p50_seconds{dir=\"/srv/da\\\"ta\"} 4e-05");
	TH_LINE(b, "vpsbench_watch_fsync_latency_p99_seconds{dir=\"/srv/da\\\"ta\"} 0.0015");
	TH_LINE(b, "vpsbench_watch_dram_latency_seconds{pages=\"4k\"} 1.2e-07");
	TH_LINE(b, "vpsbench_watch_prime_events_per_second 4000");
	TH_LINE(b, "vpsbench_watch_probe_duration_seconds{probe=\"randread\",dir=\"/srv/da\\\"ta\"} 2.5");
	TH_LINE(b, "vpsbench_watch_probe_last_success_timestamp_seconds{probe=\"prime\"} 1000100");
	TH_LINE(b, "vpsbench_watch_start_time_seconds 1000000");
	/* unknown stays out: no fsync p50, no wake-up samples, no duration for prime */
	TH_CHECK(!strstr(b, "fsync_latency_p50_seconds"));
	TH_CHECK(!strstr(b, "wakeup_delay"));
	TH_CHECK(!strstr(b, "probe_duration_seconds{probe=\"prime\""));
	/* the lint's rules: no quantile label on a gauge, no non-base unit */
	TH_CHECK(!strstr(b, "quantile"));
	TH_CHECK(!strstr(b, "_us"));
	TH_CHECK(!strstr(b, "_pages"));
	free(b);
}

TH_TEST(watch_metrics_skips_by_reason)
{
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	char *b;

	state(&s, &d);
	b = render(&s);
	/* every reason listed from the start, at 0 */
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"dram\",reason=\"budget\"} 0");
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"fsync\",dir=\"/srv/da\\\"ta\",reason=\"hung\"} 0");
	TH_CHECK(!strstr(b, "reason=\"\""));
	free(b);
	ok_round(&r, 1000100);
	watch_state_add(&s, &r);
	skipped_round(&r, 1001000, WR_LOAD);
	watch_state_add(&s, &r);
	skipped_round(&r, 1002000, WR_LOAD);
	watch_state_add(&s, &r);
	skipped_round(&r, 1003000, WR_NONE); /* a skip of no kind counts as other */
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"randread\",dir=\"/srv/da\\\"ta\",reason=\"load\"} 2");
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"prime\",reason=\"load\"} 2");
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"prime\",reason=\"cpu\"} 0");
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"prime\",reason=\"other\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_runs_total{probe=\"prime\",result=\"skipped\"} 3");
	TH_LINE(b, "vpsbench_watch_rounds_total 4");
	/* the skipped rounds move neither the last success nor the figure */
	TH_LINE(b, "vpsbench_watch_probe_last_success_timestamp_seconds{probe=\"prime\"} 1000100");
	TH_LINE(b, "vpsbench_watch_prime_events_per_second 4000");
	TH_LINE(b, "vpsbench_watch_last_round_timestamp_seconds 1003000");
	free(b);
}

TH_TEST(watch_metrics_stale)
{
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	char *b;

	state(&s, &d);
	/* 5 x 900 x 1.1 + 10 */
	TH_NEAR(watch_stale_after_s(&s), 4960, 1e-9);
	/* no ok figure yet: stale once the watcher ran that long */
	s.now = s.start_time + 4959;
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"dram\"} 0");
	free(b);
	s.now = s.start_time + 4961;
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"dram\"} 1");
	TH_CHECK(!strstr(b, "probe_last_success_timestamp_seconds{"));
	free(b);
	/* from a round on, as of the latest round's start (the clock no longer counts) */
	ok_round(&r, 1005000);
	watch_state_add(&s, &r);
	s.now = 1005000 + 100000;
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"dram\"} 0"); /* fresh, however long the round ran */
	free(b);
	skipped_round(&r, 1005000 + 4959, WR_CPU);
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"randread\",dir=\"/srv/da\\\"ta\"} 0");
	free(b);
	skipped_round(&r, 1005000 + 4961, WR_CPU);
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"randread\",dir=\"/srv/da\\\"ta\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"prime\"} 1");
	free(b);
}

static void cg(struct watch_snap *s, double mono, uint64_t ns)
{
	s->mono_s = mono;
	s->ncg = 1;
	s->throttled_ns[0] = mu64_of(ns);
}

TH_TEST(watch_metrics_throttled_monotonic)
{
	struct watch_snap a, b2, c, e;
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	char *b;

	TH_CHECK(watch_snap_init(&a) == 0 && watch_snap_init(&b2) == 0 &&
		 watch_snap_init(&c) == 0 && watch_snap_init(&e) == 0);
	state(&s, &d);
	cg(&a, 10, 2000000000ULL);
	cg(&b2, 20, 5000000000ULL);  /* +3 s */
	cg(&c, 30, 1000000000ULL);   /* the cgroup recreated: its counter went back */
	cg(&e, 40, 1500000000ULL);   /* +0.5 s */
	skipped_round(&r, 1000100, WR_LOAD);
	watch_snap_delta(&a, &b2, &r.d);
	TH_NEAR(r.d.throttled_s.v, 3, 1e-9);
	watch_state_add(&s, &r);
	watch_snap_delta(&b2, &c, &r.d);
	TH_CHECK(!r.d.throttled_s.ok);
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_cgroup_throttled_seconds_total 3");
	TH_LINE(b, "# TYPE vpsbench_watch_cgroup_throttled_seconds_total counter");
	free(b);
	watch_snap_delta(&c, &e, &r.d);
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_cgroup_throttled_seconds_total 3.5");
	free(b);
	watch_snap_free(&a);
	watch_snap_free(&b2);
	watch_snap_free(&c);
	watch_snap_free(&e);
}

TH_TEST(watch_metrics_steal_and_swap)
{
	struct watch_snap a, c;
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	long hz = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
	char *b, want[128];

	TH_CHECK(watch_snap_init(&a) == 0 && watch_snap_init(&c) == 0);
	state(&s, &d);
	a.mono_s = 100;
	c.mono_s = 110;
	a.ps->n = c.ps->n = 2;
	for (int i = 0; i < 2; i++) {
		a.ps->cpu[i] = (struct proc_stat_cpu){ .busy = 1000, .steal = 200, .ok = true };
		/* half a second stolen on each CPU, over 10 s: 1 s of 20 CPU-seconds */
		c.ps->cpu[i] = (struct proc_stat_cpu){ .busy = 1500, .steal = 200 + (uint64_t)hz / 2,
						       .ok = true };
	}
	c.pswpin = mu64_of(10);
	skipped_round(&r, 1000100, WR_LOAD);
	watch_snap_delta(&a, &c, &r.d);
	TH_NEAR(r.d.steal_s.v, 1.0, 1e-9);
	TH_NEAR(r.d.steal_ratio.v, 0.05, 1e-12);
	watch_state_add(&s, &r);
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_steal_ratio 0.05");
	snprintf(want, sizeof(want), "vpsbench_watch_steal_seconds_total %.15g",
		 (double)(400 + hz) / (double)hz);
	TH_LINE(b, want);
	snprintf(want, sizeof(want), "vpsbench_watch_swapin_bytes_total %ld", 10 * page);
	TH_LINE(b, want);
	free(b);
	watch_snap_free(&a);
	watch_snap_free(&c);
}

TH_TEST(watch_metrics_baseline_by_unit)
{
	struct watch_state s;
	struct watch_drift d;
	char *b;

	state(&s, &d);
	d.m[WD_PRIME].baseline = mdbl_of(2000);
	d.m[WD_PRIME].baseline_src = WBS_REPORT;
	d.m[WD_PRIME].baseline_time = 1700000000;
	d.m[WD_DRAM].baseline = mdbl_of(300);
	d.m[WD_WAKEUP].baseline = mdbl_of(85);
	d.m[WD_WAKEUP].baseline_src = WBS_ROUNDS; /* time unknown: no timestamp line */
	d.m[WD_RANDREAD].baseline = mdbl_of(144);
	d.m[WD_RANDREAD].ratio = mdbl_of(1.5);
	d.m[WD_RANDREAD].degraded = MB_TRUE;
	b = render(&s);
	TH_LINE(b, "vpsbench_watch_baseline_events_per_second{metric=\"prime\"} 2000");
	TH_LINE(b, "vpsbench_watch_baseline_seconds{metric=\"dram\"} 3e-07");
	TH_LINE(b, "vpsbench_watch_baseline_seconds{metric=\"wakeup_p99\"} 8.5e-05");
	TH_LINE(b, "vpsbench_watch_baseline_seconds{metric=\"randread_p99\",dir=\"/srv/da\\\"ta\"} 0.000144");
	TH_LINE(b, "vpsbench_watch_baseline_timestamp_seconds{metric=\"prime\",source=\"report\"} 1700000000");
	TH_LINE(b, "vpsbench_watch_degraded{metric=\"randread_p99\",dir=\"/srv/da\\\"ta\"} 1");
	TH_LINE(b, "vpsbench_watch_drift_ratio{metric=\"randread_p99\",dir=\"/srv/da\\\"ta\"} 1.5");
	TH_CHECK(!strstr(b, "baseline_seconds{metric=\"prime\""));
	TH_CHECK(!strstr(b, "baseline_timestamp_seconds{metric=\"wakeup_p99\""));
	TH_CHECK(!strstr(b, "degraded{metric=\"dram\""));
	free(b);
}

/* each family's TYPE line once: a second --dir's series join its family, not a copy of it */
static int type_lines(const char *b, const char *name)
{
	char want[128];
	int n = 0;

	snprintf(want, sizeof(want), "# TYPE vpsbench_watch_%s ", name);
	for (const char *p = b; (p = strstr(p, want)); p++)
		n++;
	return n;
}

TH_TEST(watch_metrics_second_dir_own_series)
{
	struct watch_state s;
	struct watch_drift d;
	struct watch_round r;
	char *b;

	state(&s, &d);
	s.nextra = 1;
	s.xdir[0] = "/mnt/b";
	ok_round(&r, 1000100);
	r.nextra = 1;
	r.extra[0].dir = "/mnt/b";
	r.extra[0].probe[WP_RANDREAD].p99_us = mdbl_of(900);
	r.extra[0].probe[WP_RANDREAD].iops = mdbl_of(3000);
	r.extra[0].probe[WP_FSYNC].status = WS_SKIPPED;
	r.extra[0].probe[WP_FSYNC].skip = WR_HUNG;
	watch_state_add(&s, &r);
	b = render(&s);
	/* the first directory's figures stay its own */
	TH_LINE(b, "vpsbench_watch_randread_latency_p99_seconds{dir=\"/srv/da\\\"ta\"} 0.00025");
	TH_LINE(b, "vpsbench_watch_randread_latency_p99_seconds{dir=\"/mnt/b\"} 0.0009");
	TH_LINE(b, "vpsbench_watch_randread_iops{dir=\"/mnt/b\"} 3000");
	TH_LINE(b, "vpsbench_watch_probe_runs_total{probe=\"randread\",dir=\"/mnt/b\",result=\"ok\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_runs_total{probe=\"fsync\",dir=\"/mnt/b\",result=\"skipped\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_runs_total{probe=\"fsync\",dir=\"/srv/da\\\"ta\",result=\"ok\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_skipped_total{probe=\"fsync\",dir=\"/mnt/b\",reason=\"hung\"} 1");
	TH_LINE(b, "vpsbench_watch_probe_last_success_timestamp_seconds{probe=\"randread\",dir=\"/mnt/b\"} 1000100");
	TH_LINE(b, "vpsbench_watch_probe_stale{probe=\"fsync\",dir=\"/mnt/b\"} 0");
	/* no fsync figure for the skipped one, and prime/DRAM once, with no dir */
	TH_CHECK(!strstr(b, "fsync_latency_p99_seconds{dir=\"/mnt/b\"}"));
	TH_CHECK(!strstr(b, "probe=\"prime\",dir="));
	TH_EQ_INT(type_lines(b, "randread_latency_p99_seconds"), 1);
	TH_EQ_INT(type_lines(b, "probe_runs_total"), 1);
	TH_EQ_INT(type_lines(b, "probe_stale"), 1);
	free(b);
}
