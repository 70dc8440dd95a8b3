/*
 * test_watch_report.c — `watch --report`'s analysis on the recorded
 * histories of tests/fixtures/watch/ (made by make_fixtures.py there):
 * the exact medians, worst values, span edges and worst hours, so a round
 * in the wrong hour or a span one round off fails; the text summary
 * against tests/golden/watch-*.txt (VPSBENCH_UPDATE_GOLDEN=1 rewrites
 * them; review the diff).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/watch_hist.h"
#include "render/watch/watch_render.h"
#include "th.h"

#define T0 1796083200.0 /* 2026-12-01T00:00:00Z, the fixtures' first round (+0.125 s) */
#define AT(i) (T0 + 900.0 * (i) + 0.125)

static int load(struct watch_hist *h, const char *name, double since)
{
	char dir[512], why[8192];

	memset(h, 0, sizeof(*h));
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/watch/%s", th_srcdir(), name);
	if (watch_hist_load(h, dir, why, sizeof(why)) < 0) {
		th_fail(__FILE__, __LINE__, "%s: %s", name, why);
		return -1;
	}
	watch_hist_analyse(h, since);
	return 0;
}

TH_TEST(watch_flat_figures)
{
	struct watch_hist h;

	if (load(&h, "flat", 0) < 0)
		return;
	TH_EQ_INT(h.n, 48);
	TH_EQ_INT(h.nperiod, 48);
	TH_EQ_INT(h.malformed + h.foreign, 0);
	TH_EQ_INT(h.all_ok, 48);
	TH_NEAR(h.from, AT(0), 1e-6);
	TH_NEAR(h.to, AT(47), 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].median, 75.0, 1e-9);
	TH_NEAR(h.m[WM_FSYNC_P99].median, 610.0, 1e-9);
	/* an even count: the mean of the two middle values */
	TH_NEAR(h.m[WM_PRIME_EPS].median, 4237.0, 1e-9);
	TH_NEAR(h.m[WM_DRAM_NS].median, 190.5, 1e-9);
	TH_NEAR(h.m[WM_WAKEUP_P99].median, 85.0, 1e-9);
	/* worst: the highest latency, the lowest rate, the first round that had it */
	TH_NEAR(h.m[WM_RANDREAD_P99].worst, 76.0, 1e-9);
	TH_NEAR(h.m[WM_RANDREAD_P99].worst_ts, AT(4), 1e-6);
	TH_NEAR(h.m[WM_PRIME_EPS].worst, 4234.0, 1e-9);
	TH_NEAR(h.m[WM_PRIME_EPS].worst_ts, AT(3), 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].baseline, 74.2, 1e-9);
	TH_NEAR(h.m[WM_RANDREAD_P99].worst_ratio, 76.0 / 74.2, 1e-9);
	/* a rate's ratio is baseline/figure: worse is bigger for every metric */
	TH_NEAR(h.m[WM_PRIME_EPS].worst_ratio, 4243.8 / 4234.0, 1e-9);
	for (int m = 0; m < WM_N; m++) {
		TH_EQ_INT(h.m[m].nspans, 0);
		TH_EQ_INT(h.m[m].nflag_known, 48);
		TH_EQ_INT(h.m[m].nhours, 12);
	}
	/* every hour's median is 74.75 or 75.25: the ties go to the earlier hour */
	TH_EQ_INT(h.m[WM_RANDREAD_P99].ntop, 3);
	TH_NEAR(h.m[WM_RANDREAD_P99].top[0].start, T0 + 3 * 3600, 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].top[1].start, T0 + 4 * 3600, 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].top[2].start, T0 + 8 * 3600, 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].top[0].median, 75.25, 1e-9);
	TH_EQ_INT(h.m[WM_RANDREAD_P99].top[0].rounds, 4);
	watch_hist_free(&h);
}

TH_TEST(watch_degraded_span_and_hours)
{
	struct watch_hist h;
	const struct watch_metric_stat *s;

	if (load(&h, "degraded", 0) < 0)
		return;
	/* history.jsonl.1 (rounds 1-50) read before history.jsonl (51-96) */
	TH_EQ_INT(h.files, 2);
	TH_EQ_INT(h.n, 96);
	TH_EQ_INT(h.round[0].seq, 1);
	TH_EQ_INT(h.round[50].seq, 51);
	s = &h.m[WM_RANDREAD_P99];
	TH_NEAR(s->median, 75.0, 1e-9);
	TH_NEAR(s->worst, 390.0, 1e-9);
	TH_NEAR(s->worst_ts, AT(59), 1e-6);
	/* flagged rounds 44-61 (11:00-15:15), cleared by round 62 (15:30), across the rotation */
	TH_EQ_INT(s->nspans, 1);
	TH_EQ_INT(s->span[0].first, 44);
	TH_EQ_INT(s->span[0].last, 61);
	TH_NEAR(s->span[0].from, AT(44), 1e-6);
	TH_NEAR(s->span[0].to, AT(62), 1e-6);
	TH_CHECK(s->span[0].cleared && !s->span[0].ongoing);
	TH_NEAR(s->degraded_s, 18 * 900.0, 1e-6);
	TH_NEAR(s->span[0].worst_value, 390.0, 1e-9);
	TH_NEAR(s->span[0].worst_ratio, 390.0 / 74.2, 1e-9);
	/* the worst hours: 14:00 (median 375), 13:00 (335), 12:00 (295) */
	TH_EQ_INT(s->nhours, 24);
	TH_EQ_INT(s->ntop, 3);
	TH_NEAR(s->top[0].start, T0 + 14 * 3600, 1e-6);
	TH_NEAR(s->top[0].median, 375.0, 1e-9);
	TH_NEAR(s->top[0].ratio, 375.0 / 74.2, 1e-9);
	TH_NEAR(s->top[1].start, T0 + 13 * 3600, 1e-6);
	TH_NEAR(s->top[2].start, T0 + 12 * 3600, 1e-6);
	/* the steal and wake-up delays of those hours */
	TH_NEAR(s->top[0].steal_pct, 5.0, 1e-9);
	TH_NEAR(s->top[2].steal_pct, 20.0, 1e-9);
	TH_NEAR(s->top[2].steal_max_pct, 20.0, 1e-9);
	TH_NEAR(s->top[0].wakeup_p99_us, 800.0, 1e-9);
	TH_NEAR(s->top[0].wakeup_max_us, 3200.0, 1e-9);
	/* the wake-up metric's baseline comes from the history only */
	TH_NEAR(h.m[WM_WAKEUP_P99].baseline, 85.0, 1e-9);
	TH_EQ_STR(h.m[WM_WAKEUP_P99].baseline_src, "history");
	TH_EQ_INT(h.m[WM_WAKEUP_P99].nspans, 1);
	TH_EQ_INT(h.m[WM_FSYNC_P99].nspans, 0);
	TH_EQ_INT(h.m[WM_FSYNC_P99].nflag_known, 96);
	watch_hist_free(&h);
}

TH_TEST(watch_since)
{
	struct watch_hist h;
	const struct watch_metric_stat *s;

	/* the last 10 h before the newest round (23:45): from 13:45, inside the span */
	if (load(&h, "degraded", 10 * 3600) < 0)
		return;
	TH_EQ_INT(h.first, 55);
	TH_EQ_INT(h.nperiod, 41);
	TH_NEAR(h.from, AT(55), 1e-6);
	s = &h.m[WM_RANDREAD_P99];
	TH_EQ_INT(s->nspans, 1);
	TH_EQ_INT(s->span[0].first, 55);
	TH_NEAR(s->span[0].from, AT(55), 1e-6);
	TH_NEAR(s->span[0].to, AT(62), 1e-6);
	TH_NEAR(s->worst, 390.0, 1e-9);
	TH_NEAR(s->top[0].start, T0 + 14 * 3600, 1e-6);
	TH_NEAR(s->top[1].start, T0 + 13 * 3600, 1e-6);
	TH_EQ_INT(s->top[1].rounds, 1); /* only 13:45 of that hour is in the period */
	/* the analysis can run again on the same history */
	watch_hist_analyse(&h, 6 * 3600);
	TH_EQ_INT(h.first, 71);
	TH_EQ_INT(h.m[WM_RANDREAD_P99].nspans, 0);
	TH_NEAR(h.m[WM_RANDREAD_P99].worst, 75.0, 1e-9);
	watch_hist_free(&h);
}

TH_TEST(watch_broken_lines_skipped)
{
	struct watch_hist h;

	if (load(&h, "broken", 0) < 0)
		return;
	TH_EQ_INT(h.n, 10);
	TH_EQ_INT(h.malformed, 2); /* the garbage line and the cut last line */
	TH_EQ_INT(h.foreign, 1);
	TH_EQ_INT(h.blank, 1);
	TH_EQ_INT(h.lines, 13);
	TH_CHECK(h.last_line_broken);
	TH_NEAR(h.m[WM_RANDREAD_P99].median, 74.5, 1e-9);
	TH_NEAR(h.m[WM_RANDREAD_P99].worst, 79.0, 1e-9);
	TH_NEAR(h.m[WM_RANDREAD_P99].worst_ts, AT(9), 1e-6);
	TH_NEAR(h.m[WM_RANDREAD_P99].top[0].start, T0 + 2 * 3600, 1e-6);
	watch_hist_free(&h);
}

TH_TEST(watch_skipped_reasons)
{
	struct watch_hist h;
	const struct watch_probe_stat *p;

	if (load(&h, "skipped", 0) < 0)
		return;
	TH_EQ_INT(h.n, 20);
	TH_EQ_INT(h.all_ok, 14);
	TH_EQ_INT(h.with_skip, 5);
	TH_EQ_INT(h.with_fail, 1);
	p = &h.probe[WP_RANDREAD];
	TH_EQ_INT(p->ok, 16);
	TH_EQ_INT(p->skipped, 4);
	TH_EQ_INT(p->nreasons, 2);
	/* counted by kind, the figures left out; the first one kept in full */
	TH_EQ_STR(p->reason[0].kind, "busy: load");
	TH_EQ_INT(p->reason[0].n, 3);
	TH_EQ_STR(p->reason[0].example, "busy: load 2.30 > 1.50");
	TH_EQ_STR(p->reason[1].kind, "busy: cpu");
	TH_EQ_INT(p->reason[1].n, 1);
	TH_EQ_INT(h.probe[WP_PRIME].failed, 1);
	TH_EQ_STR(h.probe[WP_PRIME].reason[0].kind, "sched_setaffinity: Invalid argument");
	TH_EQ_STR(h.probe[WP_DRAM].reason[0].kind, "budget");
	TH_EQ_INT(h.probe[WP_FSYNC].skipped, 1);
	/* skipped rounds have no figure: the median is over the 16 measured */
	TH_EQ_INT(h.m[WM_RANDREAD_P99].nvalues, 16);
	TH_NEAR(h.m[WM_RANDREAD_P99].median, 91.5, 1e-9);
	TH_EQ_INT(h.m[WM_PRIME_EPS].nvalues, 19);
	TH_NEAR(h.m[WM_PRIME_EPS].median, 4109.0, 1e-9);
	/* a null wake-up stays unknown, not 0 */
	TH_EQ_INT(h.m[WM_WAKEUP_P99].nvalues, 19);
	TH_CHECK(isnan(h.round[0].v[WM_WAKEUP_P99]));
	/* drift null in rounds 1-4: the flag is unknown there */
	TH_EQ_INT(h.m[WM_RANDREAD_P99].nflag_known, 16);
	TH_EQ_INT(h.round[0].degraded[WM_RANDREAD_P99], -1);
	TH_EQ_INT(h.m[WM_RANDREAD_P99].top[0].start, T0 + 4 * 3600);
	watch_hist_free(&h);
}

TH_TEST(watch_parse_line)
{
	struct watch_round r;

	TH_EQ_INT(watch_hist_parse_line("not json", &r), -1);
	TH_EQ_INT(watch_hist_parse_line("[1,2]", &r), -1);
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-2\",\"unix\":1}", &r), -2);
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\"}", &r), -2);
	/* "time" stands in for a missing "unix" */
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\",\"time\":\"2026-12-02T17:00:00Z\","
					 "\"probes\":{\"randread\":{\"status\":\"failed\",\"reason\":\"pread: "
					 "Input/output error\",\"p99_us\":null}},\"drift\":{\"dram_ns\":"
					 "{\"degraded\":true,\"ratio\":1.5}}}", &r), 0);
	TH_NEAR(r.ts, 1796230800.0, 1e-6);
	TH_EQ_INT(r.st[WP_RANDREAD], WS_FAILED);
	TH_EQ_STR(r.reason[WP_RANDREAD], "pread: Input/output error");
	TH_EQ_INT(r.st[WP_FSYNC], WS_NONE);
	TH_CHECK(isnan(r.v[WM_RANDREAD_P99]));
	TH_CHECK(isnan(r.steal_pct));
	TH_CHECK(isnan(r.psi_io_pct)); /* a line from before PSI io: unknown, not 0 */
	TH_EQ_INT(r.degraded[WM_DRAM_NS], 1);
	TH_EQ_INT(r.degraded[WM_FSYNC_P99], -1);
	TH_NEAR(r.drift_ratio[WM_DRAM_NS], 1.5, 1e-12);
	TH_EQ_INT(watch_hist_parse_line("{\"schema\":\"vpsbench-watch-1\",\"unix\":1,\"deltas\":"
					 "{\"psi_io_some_pct\":12.5,\"steal_s\":0.2}}", &r), 0);
	TH_NEAR(r.psi_io_pct, 12.5, 1e-12);
	TH_NEAR(watch_ratio(WM_PRIME_EPS, 2000, 4000), 2.0, 1e-12);
	TH_NEAR(watch_ratio(WM_DRAM_NS, 300, 200), 1.5, 1e-12);
	TH_CHECK(isnan(watch_ratio(WM_DRAM_NS, 300, NAN)));
	TH_CHECK(isnan(watch_hist_median(NULL, 0)));
}

TH_TEST(watch_baseline_json)
{
	double b[WM_N];
	char when[32], why[256];

	TH_EQ_INT(watch_hist_baseline_parse("{\"schema\":\"other\"}", b, when, sizeof(when), why,
					    sizeof(why)), -1);
	TH_CHECK(strstr(why, "not a vpsbench report") != NULL);
	TH_EQ_INT(watch_hist_baseline_parse("{\"schema\":\"vpsbench.report/1\",\"metrics\":{"
					    "\"fsync_p99_ms\":2.5,\"cpu_single_eps\":null}}", b, when,
					    sizeof(when), why, sizeof(why)), 0);
	TH_NEAR(b[WM_FSYNC_P99], 2500.0, 1e-9);
	TH_CHECK(isnan(b[WM_PRIME_EPS]));
	TH_CHECK(isnan(b[WM_RANDREAD_P99]));
	TH_CHECK(isnan(b[WM_WAKEUP_P99]));
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

static void golden(const char *fixture, double since, const char *name)
{
	struct watch_hist h;
	char path[512], *buf = NULL, *want;
	size_t n = 0;
	FILE *f;

	if (load(&h, fixture, since) < 0)
		return;
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (!f)
		return;
	TH_EQ_INT(watch_text(f, &h), 0);
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

TH_TEST(watch_text_golden)
{
	golden("degraded", 0, "watch-degraded.txt");
	golden("skipped", 0, "watch-skipped.txt");
	golden("broken", 0, "watch-broken.txt");
	golden("flat", 2 * 3600, "watch-flat-since.txt");
}

/* the y-axis rule of the page (watch_yaxis_pick): one outlier clips, a
 * regime more than 20x apart goes logarithmic, else linear from 0 */
TH_TEST(watch_yaxis_rule)
{
	double v[40];
	struct watch_yaxis ax;

	for (int i = 0; i < 40; i++)
		v[i] = 70 + i % 10; /* 70 .. 79 */
	watch_yaxis_pick(&ax, v, 40, 74.2);
	TH_EQ_INT(ax.scale, WY_LINEAR);
	TH_NEAR(ax.lo, 0, 1e-12);
	TH_NEAR(ax.hi, 100, 1e-9);
	TH_EQ_INT(ax.nclipped, 0);
	TH_NEAR(watch_yaxis_frac(&ax, 75), 0.75, 1e-12);
	/* one outlier: the 95th percentile (sorted[floor(0.95 * 39)] = 79) x 1.5, rounded up to 200 */
	v[7] = 60000;
	watch_yaxis_pick(&ax, v, 40, 74.2);
	TH_EQ_INT(ax.scale, WY_CLIPPED);
	TH_NEAR(ax.ref, 79, 1e-9);
	TH_NEAR(ax.hi, 200, 1e-9);
	TH_EQ_INT(ax.nclipped, 1);
	TH_NEAR(ax.clipped_max, 60000, 1e-9);
	TH_NEAR(watch_yaxis_frac(&ax, 60000), 1.0, 1e-12); /* on the top edge */
	TH_NEAR(watch_yaxis_frac(&ax, 79), 79.0 / 200, 1e-12);
	/* exactly 3x the reference is not an outlier; just above is */
	v[7] = 3 * 79;
	watch_yaxis_pick(&ax, v, 40, NAN);
	TH_EQ_INT(ax.scale, WY_LINEAR);
	TH_NEAR(ax.hi, 250, 1e-9);
	v[7] = 3 * 79 + 0.1;
	watch_yaxis_pick(&ax, v, 40, NAN);
	TH_EQ_INT(ax.scale, WY_CLIPPED);
	/* a baseline above the 95th percentile is the reference (a rate's baseline) */
	v[7] = 1000;
	watch_yaxis_pick(&ax, v, 40, 300);
	TH_EQ_INT(ax.scale, WY_CLIPPED);
	TH_NEAR(ax.ref, 300, 1e-9);
	TH_NEAR(ax.hi, 500, 1e-9);
	/* half the rounds 50x worse: no outlier but a regime, logarithmic on 1-2-5 ends */
	for (int i = 20; i < 40; i++)
		v[i] = 50 * (70 + i % 10);
	watch_yaxis_pick(&ax, v, 40, 74.2);
	TH_EQ_INT(ax.scale, WY_LOG);
	TH_NEAR(ax.lo, 50, 1e-9);
	TH_NEAR(ax.hi, 5000, 1e-9);
	TH_NEAR(watch_yaxis_frac(&ax, 500), 0.5, 1e-12);
	/* a zero figure: no log axis */
	v[0] = 0;
	watch_yaxis_pick(&ax, v, 40, NAN);
	TH_EQ_INT(ax.scale, WY_LINEAR);
	/* unknown figures are left out; none at all: the baseline's axis */
	for (int i = 0; i < 40; i++)
		v[i] = NAN;
	watch_yaxis_pick(&ax, v, 40, 74.2);
	TH_EQ_INT(ax.scale, WY_LINEAR);
	TH_NEAR(ax.hi, 100, 1e-9);
	TH_CHECK(isnan(ax.ref));
}

/* one ratio direction in every wording: worse is bigger, a rate inverted */
TH_TEST(watch_ratio_words)
{
	char b[96];

	watch_fmt_vs(b, sizeof(b), WM_PRIME_EPS, 2000, 4000);
	TH_EQ_STR(b, "2.00x worse than baseline");
	watch_fmt_vs(b, sizeof(b), WM_PRIME_EPS, 5000, 4000);
	TH_EQ_STR(b, "0.80x worse than baseline (better)");
	watch_fmt_vs(b, sizeof(b), WM_RANDREAD_P99, 390, 74.2);
	TH_EQ_STR(b, "5.26x worse than baseline");
	watch_fmt_vs(b, sizeof(b), WM_DRAM_NS, 190.5, 190);
	TH_EQ_STR(b, "1.00x worse than baseline (as the baseline)");
	watch_fmt_vs(b, sizeof(b), WM_DRAM_NS, 190, NAN);
	TH_EQ_STR(b, "baseline unknown");
	watch_fmt_times(b, sizeof(b), 5.26, 1);
	TH_EQ_STR(b, "5.26\xc3\x97");
	watch_fmt_worse(b, sizeof(b), NAN, 1);
	TH_EQ_STR(b, "unknown");
}
