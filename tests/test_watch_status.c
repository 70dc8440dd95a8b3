/*
 * test_watch_status.c — `watch --status`'s facts (grade/watch_status.c) on
 * the recorded history of tests/fixtures/watch/status/ (made by
 * make_status.py there, which says what each round holds): each probe's
 * state and last figure, the baselines' sources and ages, the open span,
 * the last day's skips by kind, all against a fixed "now"; the lock seen
 * held and free; drift_baseline.json read; the text against
 * tests/golden/watch-status.txt (VPSBENCH_UPDATE_GOLDEN=1 rewrites it).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "grade/watch_hist.h"
#include "grade/watch_status.h"
#include "render/watch/watch_render.h"
#include "th.h"

#define T0 1796083200.0 /* 2026-12-01T00:00:00Z */
#define AT(i) (T0 + 900.0 * (i) + 0.125)
#define NOW (AT(119) + 120.0) /* two minutes after the newest round */

static int gather(struct watch_hist *h, struct watch_status_sum *s, double now, unsigned window,
		  bool given)
{
	char dir[512], why[8192];

	memset(h, 0, sizeof(*h));
	watch_status_init(s);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/watch/status", th_srcdir());
	if (watch_hist_load(h, dir, why, sizeof(why)) < 0) {
		th_fail(__FILE__, __LINE__, "%s", why);
		return -1;
	}
	TH_EQ_INT(watch_status_drift_file(s, dir), 0); /* none there */
	watch_status_lock(s, dir);
	watch_status_build(s, h, now, window, given);
	return 0;
}

TH_TEST(watch_status_rounds_and_stale_threshold)
{
	struct watch_hist h;
	struct watch_status_sum s;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	TH_EQ_INT(s.rounds, 120);
	TH_EQ_INT(s.last_seq, 120);
	TH_NEAR(s.last_ts, AT(119), 1e-6);
	TH_NEAR(s.last_age_s, 120.0, 1e-6);
	/* intervals 860..940 s: the median, not the newest (round 119: 940 s) */
	TH_NEAR(s.every_s, 900.0, 1e-9);
	/* 5 x 900 s, x 1.1 for the jitter, as /metrics' probe_stale */
	TH_NEAR(s.stale_after_s, 4950.0, 1e-9);
	TH_CHECK(!s.window_given);
	/* no lock file in the fixture: unknown, not "not running" */
	TH_EQ_INT(s.running, WRUN_UNKNOWN);
	TH_CHECK(strstr(s.run_note, "no lock file") != NULL);
	TH_EQ_STR(s.report_start, "2026-11-30T23:40:00Z");
	TH_NEAR(s.report_ts, T0 - 20 * 60, 1e-6);
	TH_NEAR(s.report_age_s, NOW - (T0 - 20 * 60), 1e-6);
	watch_hist_free(&h);
}

TH_TEST(watch_status_probes)
{
	struct watch_hist h;
	struct watch_status_sum s;
	const struct watch_status_probe *p;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	p = &s.probe[WP_RANDREAD];
	TH_EQ_INT(p->state, WPS_OK);
	TH_NEAR(p->ok_ts, AT(119), 1e-6);
	TH_NEAR(p->value, 240.0, 1e-9);
	/* fsync skipped in 117-119, last ok 116: 47 min ago, inside 5 x 15 min */
	p = &s.probe[WP_FSYNC];
	TH_EQ_INT(p->state, WPS_SKIPPED);
	TH_EQ_INT(p->latest, WS_SKIPPED);
	TH_EQ_STR(p->reason, "busy: load 1.90 > 1.50");
	TH_NEAR(p->ok_ts, AT(116), 1e-6);
	TH_NEAR(p->ok_age_s, 3 * 900.0 + 120.0, 1e-6);
	TH_NEAR(p->value, 620.0, 1e-9);
	p = &s.probe[WP_PRIME];
	TH_EQ_INT(p->state, WPS_FAILED);
	TH_EQ_STR(p->reason, "sched_setaffinity: Invalid argument");
	TH_NEAR(p->value, 4202.0, 1e-9);
	TH_NEAR(p->ok_ts, AT(118), 1e-6);
	/* dram skipped since round 100: its last ok (99) is 5 h old, stale whatever the skips say */
	p = &s.probe[WP_DRAM];
	TH_EQ_INT(p->state, WPS_STALE);
	TH_EQ_INT(p->latest, WS_SKIPPED);
	TH_NEAR(p->ok_ts, AT(99), 1e-6);
	TH_NEAR(p->ok_age_s, 20 * 900.0 + 120.0, 1e-6);
	TH_NEAR(p->value, 191.0, 1e-9);
	watch_hist_free(&h);

	/* a wider window: the 5 h are inside 25 x 15 min, so dram is only skipped */
	if (gather(&h, &s, NOW, 25, true) < 0)
		return;
	TH_NEAR(s.stale_after_s, 25 * 900.0 * 1.1, 1e-9);
	TH_EQ_INT(s.probe[WP_DRAM].state, WPS_SKIPPED);
	TH_CHECK(s.window_given);
	watch_hist_free(&h);

	/* a day later every figure is stale, the newest outcome kept beside it */
	if (gather(&h, &s, NOW + 86400, 5, false) < 0)
		return;
	for (int i = 0; i < WP_N; i++)
		TH_EQ_INT(s.probe[i].state, WPS_STALE);
	TH_EQ_INT(s.probe[WP_PRIME].latest, WS_FAILED);
	watch_hist_free(&h);
}

TH_TEST(watch_status_baselines)
{
	struct watch_hist h;
	struct watch_status_sum s;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	/* the history's drift baseline is baseline.json's: the report's time */
	/* 74.2 in the history, 74.24 in baseline.json (74240 ns): one figure, the report's */
	TH_NEAR(s.base[WM_RANDREAD_P99].value, 74.24, 1e-9);
	TH_EQ_STR(s.base[WM_RANDREAD_P99].from, "baseline.json");
	TH_EQ_STR(s.base[WM_RANDREAD_P99].source, "report");
	TH_NEAR(s.base[WM_RANDREAD_P99].age_s, NOW - (T0 - 20 * 60), 1e-6);
	TH_NEAR(s.base[WM_PRIME_EPS].value, 4243.8, 1e-9);
	/* wake-up: learnt, 85.0 then 120.0 from round 60: the newest, aged from round 60 */
	TH_NEAR(s.base[WM_WAKEUP_P99].value, 120.0, 1e-9);
	TH_EQ_STR(s.base[WM_WAKEUP_P99].from, "history");
	TH_NEAR(s.base[WM_WAKEUP_P99].time, AT(60), 1e-6);
	TH_NEAR(s.base[WM_WAKEUP_P99].age_s, NOW - AT(60), 1e-6);
	watch_hist_free(&h);
}

TH_TEST(watch_status_drift_baseline_json)
{
	struct watch_hist h;
	struct watch_status_sum s;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	/* base units and the metrics' label names; its figures win over the history's */
	watch_status_init(&s);
	TH_EQ_INT(watch_status_drift_parse(&s, "{\"metrics\":{\"wakeup_p99\":{\"value\":9.15e-05,"
					       "\"unit\":\"seconds\",\"source\":\"rounds\",\"measured_at\":"
					       "1796090000},\"prime\":{\"value\":4100,\"unit\":"
					       "\"events/s\",\"source\":\"report\",\"measured_at\":"
					       "\"2026-11-30T23:40:00Z\"}}}"), 0);
	TH_CHECK(s.drift_file);
	watch_status_build(&s, &h, NOW, 5, false);
	TH_NEAR(s.base[WM_WAKEUP_P99].value, 91.5, 1e-9);
	TH_EQ_STR(s.base[WM_WAKEUP_P99].from, "drift_baseline.json");
	TH_EQ_STR(s.base[WM_WAKEUP_P99].source, "rounds");
	TH_NEAR(s.base[WM_WAKEUP_P99].age_s, NOW - 1796090000.0, 1e-6);
	TH_NEAR(s.base[WM_PRIME_EPS].value, 4100.0, 1e-9);
	TH_NEAR(s.base[WM_PRIME_EPS].time, T0 - 20 * 60, 1e-6);
	/* the metrics it lacks come from the history and baseline.json as before */
	TH_EQ_STR(s.base[WM_RANDREAD_P99].from, "baseline.json");
	/* the history's names, an unknown time: null, not 0 */
	watch_status_init(&s);
	TH_EQ_INT(watch_status_drift_parse(&s, "{\"dram_ns\":{\"value\":200,\"unit\":\"ns\"}}"), 0);
	watch_status_build(&s, &h, NOW, 5, false);
	TH_NEAR(s.base[WM_DRAM_NS].value, 200.0, 1e-9);
	TH_CHECK(isnan(s.base[WM_DRAM_NS].time) && isnan(s.base[WM_DRAM_NS].age_s));
	/* the daemon's own file: schema, the history's names, a "none" entry with a null value */
	watch_status_init(&s);
	TH_EQ_INT(watch_status_drift_parse(&s, "{\"schema\":\"vpsbench-watch-baseline-1\","
					       "\"report_fnv1a\":\"0123456789abcdef\",\"written\":"
					       "\"2026-12-01T00:00:00Z\",\"metrics\":{\"wakeup_p99_us\":{"
					       "\"value\":88.25,\"unit\":\"us\",\"source\":\"rounds\","
					       "\"measured_at\":1796084100.000,\"measured\":"
					       "\"2026-12-01T00:15:00Z\"},\"fsync_p99_us\":{\"value\":null,"
					       "\"unit\":\"us\",\"source\":\"none\",\"measured_at\":null,"
					       "\"measured\":null}}}"), 0);
	watch_status_build(&s, &h, NOW, 5, false);
	TH_NEAR(s.base[WM_WAKEUP_P99].value, 88.25, 1e-9);
	TH_NEAR(s.base[WM_WAKEUP_P99].time, AT(1) - 0.125, 1e-6);
	TH_EQ_STR(s.base[WM_WAKEUP_P99].source, "rounds");
	/* no figure there: the history's and baseline.json's as before */
	TH_EQ_STR(s.base[WM_FSYNC_P99].from, "baseline.json");
	TH_NEAR(s.base[WM_FSYNC_P99].value, 618.496, 1e-9);
	watch_status_init(&s);
	TH_EQ_INT(watch_status_drift_parse(&s, "[1,2"), -1);
	TH_CHECK(strstr(s.drift_note, "drift_baseline.json") != NULL);
	watch_hist_free(&h);
}

TH_TEST(watch_status_open_spans)
{
	struct watch_hist h;
	struct watch_status_sum s;
	const struct watch_status_drift *d;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	/* 40-45 closed; 110-119 open: since round 110, the daemon's ratios up to 2.2 */
	d = &s.drift[WM_RANDREAD_P99];
	TH_EQ_INT(d->degraded, 1);
	TH_CHECK(d->open);
	TH_NEAR(d->open_since, AT(110), 1e-6);
	TH_EQ_INT(d->open_rounds, 10);
	TH_NEAR(d->open_for_s, NOW - AT(110), 1e-6);
	TH_NEAR(d->open_worst_ratio, 2.2, 1e-9);
	TH_EQ_INT(s.drift[WM_FSYNC_P99].degraded, 0);
	TH_CHECK(!s.drift[WM_FSYNC_P99].open);
	/* the wake-up flag is null in the newest round: unknown, not ok */
	TH_EQ_INT(s.drift[WM_WAKEUP_P99].degraded, -1);
	TH_CHECK(!s.drift[WM_WAKEUP_P99].open);
	TH_NEAR(s.drift[WM_WAKEUP_P99].ratio, 0.75, 1e-9);
	watch_hist_free(&h);
}

TH_TEST(watch_status_last_day_skips)
{
	struct watch_hist h;
	struct watch_status_sum s;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	/* rounds 24-119; the load skips of 5-10 and the failure of 3 are older */
	TH_NEAR(s.day_from, NOW - 86400, 1e-6);
	TH_EQ_INT(s.day_rounds, 96);
	TH_EQ_INT(s.day_rounds_skipped, 28);
	TH_EQ_INT(s.day_skips[WSK_LOAD], 4 * 4 + 3);
	TH_EQ_INT(s.day_skips[WSK_CPU], 4);
	TH_EQ_INT(s.day_skips[WSK_PSI], 4);
	TH_EQ_INT(s.day_skips[WSK_BUDGET], 20);
	TH_EQ_INT(s.day_skips[WSK_HUNG], 1);
	TH_EQ_INT(s.day_skips[WSK_STOPPED], 0);
	TH_EQ_INT(s.day_skips[WSK_OTHER], 1);
	TH_EQ_INT(s.day_failed, 1);
	watch_hist_free(&h);
	/* 20 rounds later the window has moved: 80 rounds left, round 24-43's skips gone */
	if (gather(&h, &s, NOW + 20 * 900, 5, false) < 0)
		return;
	TH_EQ_INT(s.day_rounds, 76);
	TH_EQ_INT(s.day_skips[WSK_LOAD], 3);
	watch_hist_free(&h);
	TH_EQ_INT(watch_skip_kind_of("busy: psi cpu some 35% > 20%"), WSK_PSI);
	TH_EQ_INT(watch_skip_kind_of("budget: 1.0% of wall time used"), WSK_BUDGET);
	TH_EQ_INT(watch_skip_kind_of(""), WSK_OTHER);
}

TH_TEST(watch_status_lock_seen)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512], path[600];
	struct watch_status_sum s;
	int fd;

	snprintf(dir, sizeof(dir), "%s/vpsbench-status-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		th_fail(__FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	TH_CHECK(fd >= 0);
	if (fd >= 0) {
		watch_status_init(&s);
		watch_status_lock(&s, dir);
		TH_EQ_INT(s.running, WRUN_NO);
		/* another open file description holds it, as a watcher would */
		TH_EQ_INT(flock(fd, LOCK_EX | LOCK_NB), 0);
		watch_status_init(&s);
		watch_status_lock(&s, dir);
		TH_EQ_INT(s.running, WRUN_YES);
		/* the holder named: this process */
		TH_EQ_INT(s.pid, getpid());
		/* the look left the watcher's lock alone */
		TH_EQ_INT(flock(fd, LOCK_EX | LOCK_NB), 0);
		close(fd);
		watch_status_init(&s);
		watch_status_lock(&s, dir);
		TH_EQ_INT(s.running, WRUN_NO);
	}
	unlink(path);
	rmdir(dir);
}

TH_TEST(watch_status_one_round)
{
	struct watch_hist h;
	struct watch_status_sum s;
	struct watch_round r;

	memset(&h, 0, sizeof(h));
	for (int m = 0; m < WM_N; m++)
		h.base_json[m] = NAN;
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\",\"seq\":1,\"unix\":1000,"
					 "\"interval_s\":null,\"probes\":{\"randread\":{\"status\":"
					 "\"ok\",\"p99_us\":80}}}", &r), 0);
	h.round = &r;
	h.n = h.cap = 1;
	watch_status_init(&s);
	watch_status_build(&s, &h, 1000 + 86400, 5, false);
	/* no interval yet: how often is unknown, so nothing can be called stale */
	TH_CHECK(isnan(s.every_s) && isnan(s.stale_after_s));
	TH_EQ_INT(s.probe[WP_RANDREAD].state, WPS_OK);
	TH_EQ_INT(s.probe[WP_FSYNC].state, WPS_UNKNOWN);
	TH_CHECK(isnan(s.probe[WP_FSYNC].ok_ts));
	TH_CHECK(isnan(s.base[WM_RANDREAD_P99].value) && !s.base[WM_RANDREAD_P99].from);
	TH_EQ_INT(s.drift[WM_RANDREAD_P99].degraded, -1);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &n, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void golden(bool json, const char *name)
{
	struct watch_hist h;
	struct watch_status_sum s;
	char path[512], *buf = NULL, *want;
	size_t n = 0;
	FILE *f;

	if (gather(&h, &s, NOW, 5, false) < 0)
		return;
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (!f)
		return;
	/* a fixed name: the golden must not carry the checkout's path */
	TH_EQ_INT(json ? watch_status_json(f, &s, "/var/lib/vpsbench") :
			 watch_status_text(f, &s, "/var/lib/vpsbench"), 0);
	TH_EQ_INT(fclose(f), 0);
	watch_hist_free(&h);
	snprintf(path, sizeof(path), "%s/tests/golden/%s", th_srcdir(), name);
	if (getenv("VPSBENCH_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		TH_CHECK(f && fputs(buf, f) >= 0 && fclose(f) == 0);
	} else if (!(want = slurp(path))) {
		th_fail(__FILE__, __LINE__, "%s: cannot read the golden file", path);
	} else {
		if (strcmp(want, buf))
			th_fail(__FILE__, __LINE__, "%s differs; got:\n%s", path, buf);
		free(want);
	}
	free(buf);
}

TH_TEST(watch_status_golden)
{
	golden(false, "watch-status.txt");
	golden(true, "watch-status.json");
}

TH_TEST(watch_status_quiet_history_said)
{
	struct watch_hist h;
	struct watch_status_sum s;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	/* a day without a round: said in words, not only in the ages */
	if (gather(&h, &s, NOW + 86400, 5, false) < 0)
		return;
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (f) {
		TH_EQ_INT(watch_status_text(f, &s, "/x"), 0);
		TH_EQ_INT(fclose(f), 0);
		TH_CHECK(strstr(buf, "\nNote      : no round for 1 d 0 h, 96 x the interval\n") != NULL);
		TH_CHECK(strstr(buf, "\ndram      stale    191.0 ns") != NULL);
		free(buf);
	}
	watch_hist_free(&h);
}

TH_TEST(watch_status_skip_kind_from_line)
{
	struct watch_hist h;
	struct watch_status_sum s;
	struct watch_round r[2];

	/* the line's "skip" wins over the reason's words; a kind it does not know is other */
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\",\"seq\":1,\"unix\":1000,"
					 "\"probes\":{\"randread\":{\"status\":\"skipped\",\"reason\":"
					 "\"busy: load 3.00 > 1.50\",\"skip\":\"budget\"},\"fsync\":{"
					 "\"status\":\"skipped\",\"reason\":\"busy: load 3.00 > 1.50\"},"
					 "\"prime\":{\"status\":\"skipped\",\"reason\":\"x\",\"skip\":"
					 "\"later\"}}}", &r[0]), 0);
	TH_EQ_STR(r[0].skip[WP_RANDREAD], "budget");
	TH_EQ_STR(r[0].skip[WP_FSYNC], "");
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\",\"seq\":2,\"unix\":1100,"
					 "\"interval_s\":100,\"probes\":{\"dram\":{\"status\":\"skipped\","
					 "\"reason\":\"\",\"skip\":\"hung\"}}}", &r[1]), 0);
	memset(&h, 0, sizeof(h));
	for (int m = 0; m < WM_N; m++)
		h.base_json[m] = NAN;
	h.round = r;
	h.n = h.cap = 2;
	watch_status_init(&s);
	watch_status_build(&s, &h, 1200, 5, false);
	TH_EQ_INT(s.day_rounds, 2);
	TH_EQ_INT(s.day_skips[WSK_BUDGET], 1);
	TH_EQ_INT(s.day_skips[WSK_LOAD], 1);
	TH_EQ_INT(s.day_skips[WSK_OTHER], 1);
	TH_EQ_INT(s.day_skips[WSK_HUNG], 1);
	TH_EQ_INT(s.day_rounds_skipped, 2);
}
