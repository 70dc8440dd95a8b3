/*
 * test_watch_drift.c — `vpsbench watch`'s drift baselines: learnt from the
 * first K gate-open rounds only (never a skipped one), DRAM graded against
 * the report's figure on the same pages, the drift state restored from a
 * history tail, drift_baseline.json written and read back, and the one
 * report reader (grade/watch_base.c) checked figure by figure against the
 * fixture report's own numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_base_state.h"
#include "cmd/watch/watch_drift.h"
#include "grade/watch_base.h"
#include "th.h"

static void no_figs(struct watch_drift_fig f[WBF_N])
{
	memset(f, 0, WBF_N * sizeof(*f));
}

/* a round whose only figure is the wake-up p99 (and DRAM when ns > 0) */
static void round_of(struct watch_round *r, double t, bool open, double wake_us, double ns,
		     enum mbool huge)
{
	memset(r, 0, sizeof(*r));
	r->unix_time = t;
	r->gate_open = open;
	for (int i = 0; i < WP_COUNT; i++)
		r->probe[i].status = WS_SKIPPED;
	r->wake.samples = 100;
	r->wake.p99_us = mdbl_of(wake_us);
	if (ns > 0) {
		r->probe[WP_DRAM].status = WS_OK;
		r->probe[WP_DRAM].ns = mdbl_of(ns);
		r->probe[WP_DRAM].huge = huge;
	}
}

TH_TEST(watch_drift_wakeup_learnt_from_gate_open_rounds_only)
{
	static struct watch_drift d;
	struct watch_drift_fig f[WBF_N];
	struct watch_round r;
	const struct watch_drift_metric *m = &d.m[WD_WAKEUP];

	no_figs(f);
	watch_drift_init(&d, 3, 0.25, f);
	TH_CHECK(d.learn[WD_WAKEUP]);
	/* a busy start: five skipped rounds with a poisoned p99 teach nothing */
	for (int i = 0; i < 5; i++) {
		round_of(&r, 1000 + i, false, 3000, 0, MB_UNKNOWN);
		watch_drift_update(&d, &r, NULL);
	}
	TH_CHECK(!m->baseline.ok);
	TH_EQ_INT(m->baseline_src, WBS_NONE);
	round_of(&r, 2000, true, 100, 0, MB_UNKNOWN);
	watch_drift_update(&d, &r, NULL);
	round_of(&r, 2001, false, 5000, 0, MB_UNKNOWN); /* skipped between: not learnt */
	watch_drift_update(&d, &r, NULL);
	round_of(&r, 2002, true, 120, 0, MB_UNKNOWN);
	watch_drift_update(&d, &r, NULL);
	TH_CHECK(!m->baseline.ok);
	TH_CHECK(!d.learnt);
	round_of(&r, 2003, true, 90, 0, MB_UNKNOWN);
	watch_drift_update(&d, &r, NULL);
	TH_CHECK(m->baseline.ok);
	TH_NEAR(m->baseline.v, 100, 1e-9); /* median of 100, 120, 90 */
	TH_EQ_INT(m->baseline_src, WBS_ROUNDS);
	TH_NEAR(m->baseline_time, 2003, 1e-9);
	TH_CHECK(d.learnt);
	TH_NEAR(d.fig[WBF_WAKEUP].v.v, 100, 1e-9);
	/* from now on a worse p99, skipped rounds or not, flips it after K */
	for (int i = 0; i < 3; i++) {
		round_of(&r, 3000 + i, false, 400, 0, MB_UNKNOWN);
		watch_drift_update(&d, &r, NULL);
	}
	TH_EQ_INT(m->degraded, MB_TRUE);
}

TH_TEST(watch_drift_env_and_report_baselines_are_not_learnt)
{
	static struct watch_drift d;
	struct watch_drift_fig f[WBF_N];

	no_figs(f);
	f[WBF_WAKEUP] = (struct watch_drift_fig){ mdbl_of(10000), WBS_ENV, 5 };
	f[WBF_FSYNC] = (struct watch_drift_fig){ mdbl_of(5603.3), WBS_REPORT, 7 };
	watch_drift_init(&d, 5, 0.25, f);
	TH_CHECK(!d.learn[WD_WAKEUP]);
	TH_CHECK(!d.learn[WD_FSYNC]);
	TH_CHECK(d.learn[WD_RANDREAD]); /* no figure: learnt */
	TH_EQ_INT(d.m[WD_WAKEUP].baseline_src, WBS_ENV);
	TH_NEAR(d.m[WD_WAKEUP].baseline_time, 5, 1e-9);
	TH_EQ_INT(d.m[WD_FSYNC].baseline_src, WBS_REPORT);
	TH_NEAR(d.m[WD_FSYNC].baseline.v, 5603.3, 1e-9);
}

TH_TEST(watch_drift_dram_like_for_like)
{
	static struct watch_drift d;
	struct watch_drift_fig f[WBF_N];
	struct watch_round r;
	const struct watch_drift_metric *m = &d.m[WD_DRAM];
	FILE *log = tmpfile();

	no_figs(f);
	f[WBF_DRAM] = (struct watch_drift_fig){ mdbl_of(100), WBS_REPORT, 1 };   /* huge pages */
	f[WBF_DRAM_4K] = (struct watch_drift_fig){ mdbl_of(200), WBS_REPORT, 1 };
	watch_drift_init(&d, 3, 0.25, f);
	/* THP never: 4 KiB pages at 190 ns are as the 4k baseline, not 1.9x the huge one */
	for (int i = 0; i < 4; i++) {
		round_of(&r, 10 + i, true, 50, 190, MB_FALSE);
		watch_drift_update(&d, &r, NULL);
	}
	TH_NEAR(m->baseline.v, 200, 1e-9);
	TH_EQ_INT(m->degraded, MB_FALSE);
	TH_NEAR(m->ratio.v, 0.95, 1e-9);
	/* back on huge pages: graded against the huge figure, a new window */
	round_of(&r, 20, true, 50, 190, MB_TRUE);
	watch_drift_update(&d, &r, NULL);
	TH_NEAR(m->baseline.v, 100, 1e-9);
	TH_EQ_INT(m->nvals, 1);
	/* pages unknown: no like-for-like baseline, not graded, said */
	round_of(&r, 30, true, 50, 190, MB_UNKNOWN);
	watch_drift_update(&d, &r, log);
	TH_CHECK(!m->baseline.ok);
	TH_EQ_INT(m->degraded, MB_UNKNOWN);
	if (log) {
		char buf[1024] = "";
		size_t n;

		rewind(log);
		n = fread(buf, 1, sizeof(buf) - 1, log);
		buf[n] = '\0';
		TH_CHECK(strstr(buf, "no like-for-like baseline") != NULL);
		fclose(log);
	}
	/* 4k figure missing: a 4 KiB-page probe is not graded against the huge one */
	f[WBF_DRAM_4K] = (struct watch_drift_fig){ { 0, false }, WBS_NONE, 0 };
	watch_drift_init(&d, 3, 0.25, f);
	for (int i = 0; i < 4; i++) {
		round_of(&r, 40 + i, true, 50, 190, MB_FALSE);
		watch_drift_update(&d, &r, NULL);
	}
	TH_CHECK(!m->baseline.ok);
	TH_EQ_INT(m->degraded, MB_UNKNOWN);
}

TH_TEST(watch_drift_restore_keeps_degraded)
{
	static struct watch_drift d;
	struct watch_drift_fig f[WBF_N];
	struct watch_round r;
	const double v[] = { 90, 400, 410, 420 };
	const struct watch_drift_metric *m = &d.m[WD_WAKEUP];

	no_figs(f);
	f[WBF_WAKEUP] = (struct watch_drift_fig){ mdbl_of(100), WBS_ROUNDS, 1 };
	watch_drift_init(&d, 3, 0.25, f);
	watch_drift_restore(&d, WD_WAKEUP, v, 4, 1, 100.0, -1);
	TH_EQ_INT(m->degraded, MB_TRUE);
	TH_EQ_INT(m->nvals, 3);
	TH_EQ_INT(m->beyond_run, 3);
	TH_NEAR(m->median.v, 410, 1e-9);
	/* one more worse round: still degraded, no recovery needed K rounds to clear */
	round_of(&r, 50, true, 430, 0, MB_UNKNOWN);
	watch_drift_update(&d, &r, NULL);
	TH_EQ_INT(m->degraded, MB_TRUE);
	/* degraded, then one good figure: one is not K, so still degraded after the restart */
	{
		const double mixed[] = { 400, 410, 90 };

		watch_drift_init(&d, 3, 0.25, f);
		watch_drift_restore(&d, WD_WAKEUP, mixed, 3, 1, 100.0, -1);
		TH_EQ_INT(m->degraded, MB_TRUE);
		TH_EQ_INT(m->within_run, 1);
	}
	/* the history's flag against another baseline is not taken: the values decide */
	watch_drift_init(&d, 3, 0.25, f);
	watch_drift_restore(&d, WD_WAKEUP, v, 2, 1, 55.0, -1);
	TH_EQ_INT(m->degraded, MB_UNKNOWN);
	TH_EQ_INT(m->beyond_run, 1);
	/* a recovery run restores within: a good flag from the same baseline */
	{
		const double ok[] = { 100, 101, 99 };

		watch_drift_init(&d, 3, 0.25, f);
		watch_drift_restore(&d, WD_WAKEUP, ok, 3, 0, 100.0, -1);
		TH_EQ_INT(m->degraded, MB_FALSE);
		TH_EQ_INT(m->within_run, 3);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

TH_TEST(watch_base_report_figures)
{
	char path[1024], why[256];
	struct watch_base_report b;
	char *text;

	snprintf(path, sizeof(path), "%s/tests/fixtures/watch/baseline.json", th_srcdir());
	text = slurp(path);
	TH_CHECK(text != NULL);
	if (!text)
		return;
	TH_EQ_INT(watch_base_report_parse(text, &b, why, sizeof(why)), 0);
	free(text);
	/* the report's own numbers: rand.passes[randread-4k-qd1] p99 144384 ns (lat_p99_ms
	 * 0.144384), fsync.dirs[0] p99 5603328 ns, cpu.prime.single 1928.98..., mem.latency
	 * DRAM levels: huge 345.827..., 4k 391.887... */
	TH_NEAR(b.v[WBF_RANDREAD], 144.384, 1e-9);
	TH_NEAR(b.v[WBF_FSYNC], 5603.328, 1e-9);
	TH_NEAR(b.v[WBF_PRIME], 1928.9837534893443, 1e-9);
	TH_NEAR(b.v[WBF_DRAM], 345.8272705078125, 1e-9);
	TH_NEAR(b.v[WBF_DRAM_4K], 391.887939453125, 1e-9);
	TH_CHECK(isnan(b.v[WBF_WAKEUP]));
	TH_NEAR(b.rand_file_bytes, 268435456, 0);
	TH_EQ_STR(b.start_s, "2026-12-02T17:00:19Z");
	TH_NEAR(b.start, 1796230819, 0);
	/* a DRAM figure only in the metrics (no mem.latency entries) is still read */
	TH_EQ_INT(watch_base_report_parse("{\"schema\":\"vpsbench.report/1\",\"metrics\":"
					  "{\"mem_latency_huge_ns\":453.2}}", &b, why, sizeof(why)), 0);
	TH_NEAR(b.v[WBF_DRAM], 453.2, 1e-9);
	TH_CHECK(strstr(b.why[WBF_RANDREAD], "rand module was not run") != NULL);
	/* D3: a report that nulled a disturbed metric: the pass's own figure stands for it, in
	 * the daemon and in --report alike (one reader) */
	TH_EQ_INT(watch_base_report_parse("{\"schema\":\"vpsbench.report/1\",\"metrics\":"
					  "{\"cpu_single_eps\":null,\"mem_latency_huge_ns\":null},"
					  "\"cpu\":{\"prime\":{\"single\":{\"events_per_s\":1234.5}}},"
					  "\"mem\":{\"latency\":[{\"pages\":\"4k\",\"levels_ns\":{\"DRAM\":500}},"
					  "{\"pages\":\"huge\",\"levels_ns\":{\"DRAM\":453.2}}]}}",
					  &b, why, sizeof(why)), 0);
	TH_NEAR(b.v[WBF_PRIME], 1234.5, 1e-9);
	TH_NEAR(b.v[WBF_DRAM], 453.2, 1e-9);
	TH_NEAR(b.v[WBF_DRAM_4K], 500, 1e-9);
	/* --only sysinfo: nothing usable, each figure says why */
	TH_EQ_INT(watch_base_report_parse("{\"schema\":\"vpsbench.report/1\",\"modules\":"
					  "{\"sysinfo\":{\"status\":\"ok\"}},\"metrics\":{\"lat_p99_ms\":null},"
					  "\"metrics_detail\":{\"lat_p99_ms\":{\"why\":\"the rand module was not run\"}}}",
					  &b, why, sizeof(why)), 0);
	for (int i = 0; i < WBF_N; i++)
		TH_CHECK(isnan(b.v[i]));
	TH_EQ_STR(b.why[WBF_RANDREAD], "the rand module was not run (it ran: sysinfo)");
	TH_EQ_STR(b.why[WBF_FSYNC], "the fsync module was not run (it ran: sysinfo)");
	TH_EQ_INT(watch_base_report_parse("{\"schema\":\"other\"}", &b, why, sizeof(why)), -1);
}

TH_TEST(watch_base_state_roundtrip)
{
	static struct watch_drift d;
	struct watch_drift_fig f[WBF_N];
	struct watch_base_saved s;
	char dir[] = "/tmp/vpsbench-unit-XXXXXX", err[512], path[600];

	if (!mkdtemp(dir)) {
		TH_CHECK(0);
		return;
	}
	no_figs(f);
	f[WBF_FSYNC] = (struct watch_drift_fig){ mdbl_of(5603.328), WBS_REPORT, 1796230819 };
	f[WBF_WAKEUP] = (struct watch_drift_fig){ mdbl_of(65.25), WBS_ROUNDS, 1796337650.5 };
	watch_drift_init(&d, 5, 0.25, f);
	TH_EQ_INT(watch_base_state_load(dir, &s, err, sizeof(err)), 1);
	TH_EQ_INT(watch_base_state_save(dir, &d, "da8042fca66cc0f0", "/srv/a \"b\"", err,
					sizeof(err)), 0);
	TH_EQ_INT(watch_base_state_load(dir, &s, err, sizeof(err)), 0);
	TH_EQ_STR(s.report_fnv1a, "da8042fca66cc0f0");
	TH_EQ_STR(s.probe_dir, "/srv/a \"b\"");
	TH_NEAR(s.v[WBF_FSYNC], 5603.328, 1e-9);
	TH_EQ_INT(s.src[WBF_FSYNC], WBS_REPORT);
	TH_NEAR(s.time[WBF_FSYNC], 1796230819, 1e-3);
	TH_NEAR(s.v[WBF_WAKEUP], 65.25, 1e-9);
	TH_EQ_INT(s.src[WBF_WAKEUP], WBS_ROUNDS);
	TH_NEAR(s.time[WBF_WAKEUP], 1796337650.5, 1e-3);
	TH_CHECK(isnan(s.v[WBF_RANDREAD]));
	TH_EQ_INT(s.src[WBF_RANDREAD], WBS_NONE);
	snprintf(path, sizeof(path), "%s/drift_baseline.json", dir);
	unlink(path);
	rmdir(dir);
	/* FNV-1a 64 of "a" (the published test vector) */
	TH_CHECK(watch_base_fnv1a("a", 1) == 0xaf63dc4c8601ec8cULL);
}
