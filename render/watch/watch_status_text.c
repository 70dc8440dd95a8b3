/*
 * watch_status_text.c — `vpsbench watch --status` for a person: is a
 * watcher running, the last round, each probe's state and last figure,
 * each drift metric's baseline (value, source, age) and open degraded
 * span, and the last day's skips by kind. The facts come from
 * grade/watch_status.c; unknown is printed "unknown".
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "watch_render.h"

/* "15 min ago", "unknown"; a time ahead of now (clock change) says so */
static void ago(char *buf, size_t n, double age)
{
	char d[40];

	if (!isfinite(age)) {
		snprintf(buf, n, "unknown");
	} else if (age < 0) {
		watch_fmt_dur(d, sizeof(d), -age);
		snprintf(buf, n, "%s ahead of now", d);
	} else {
		watch_fmt_dur(d, sizeof(d), age);
		snprintf(buf, n, "%s ago", d);
	}
}

static void head(FILE *f, const struct watch_status_sum *s, const char *dir)
{
	char t[40], a[64], e[40], st[40];

	watch_fmt_time(t, sizeof(t), s->now, 1);
	fprintf(f, "vpsbench watch status of %s at %s\n", dir, t);
	fputs("Watcher   : ", f);
	if (s->running == WRUN_YES && s->pid > 0)
		fprintf(f, "running (pid %ld holds %s/lock)\n", s->pid, dir);
	else if (s->running == WRUN_YES)
		fprintf(f, "running (a watcher holds %s/lock)\n", dir);
	else if (s->running == WRUN_NO)
		fprintf(f, "not running (%s/lock is free)\n", dir);
	else
		fprintf(f, "unknown (%s)\n", s->run_note);
	watch_fmt_time(t, sizeof(t), s->last_ts, 1);
	ago(a, sizeof(a), s->last_age_s);
	fprintf(f, "Last round: %s, %s (seq ", t, a);
	if (s->last_seq >= 0)
		fprintf(f, "%lld", s->last_seq);
	else
		fputs("unknown", f);
	fprintf(f, "; %zu round%s in the history)\n", s->rounds, s->rounds == 1 ? "" : "s");
	watch_fmt_dur(e, sizeof(e), s->every_s);
	watch_fmt_dur(st, sizeof(st), s->stale_after_s);
	fprintf(f, "Rounds    : every %s (the newest rounds' median interval)\n", e);
	/* a quiet history is news whatever the lock says: a stuck or stopped watcher */
	if (isfinite(s->every_s) && s->last_age_s > 2 * s->every_s + 60) {
		watch_fmt_dur(a, sizeof(a), s->last_age_s);
		fprintf(f, "Note      : no round for %s, %.0f x the interval%s\n", a,
			s->last_age_s / s->every_s, s->running == WRUN_YES ?
			", yet a watcher holds the lock: is it stuck?" : "");
	}
	fprintf(f, "Stale     : a probe with no ok figure for %s (window %u x every x 1.1; %s)\n", st,
		s->window, s->window_given ? "--window" :
		"the watcher's default window: give --window K if it runs with another");
	fputs("Report    : ", f);
	if (s->report_note[0]) {
		fprintf(f, "baseline.json unusable (%s)\n", s->report_note);
	} else {
		watch_fmt_time(t, sizeof(t), s->report_ts, 1);
		ago(a, sizeof(a), s->report_age_s);
		fprintf(f, "baseline.json, a vpsbench run of %s, %s\n",
			isfinite(s->report_ts) ? t : "an unknown date", a);
	}
	if (s->drift_note[0])
		fprintf(f, "Drift base: %s\n", s->drift_note);
}

static void probes(FILE *f, const struct watch_status_sum *s)
{
	fprintf(f, "\n%-9s %-8s %-17s %-16s %s\n", "Probe", "State", "Last ok figure", "Last ok",
		"Newest round");
	for (int p = 0; p < WP_N; p++) {
		const struct watch_status_probe *ps = &s->probe[p];
		char v[48], a[64];

		watch_fmt_unit(v, sizeof(v), ps->metric, ps->value, 0);
		if (isfinite(ps->ok_ts))
			ago(a, sizeof(a), ps->ok_age_s);
		else
			snprintf(a, sizeof(a), "none in history");
		fprintf(f, "%-9s %-8s %-17s %-16s ", watch_hist_probe_names[p],
			watch_pstate_names[ps->state], isfinite(ps->ok_ts) ? v : "none", a);
		switch (ps->latest) {
		case WS_OK:
			fputs("ok\n", f);
			break;
		case WS_SKIPPED:
		case WS_FAILED:
			fprintf(f, "%s (%s)\n", ps->latest == WS_SKIPPED ? "skipped" : "failed",
				ps->reason[0] ? ps->reason : "no reason given");
			break;
		default:
			fputs("unknown\n", f);
		}
	}
}

static void base_src(char *buf, size_t n, const struct watch_status_base *b)
{
	if (!b->from)
		snprintf(buf, n, "none");
	else if (!strcmp(b->from, "history"))
		snprintf(buf, n, "the watcher's own (history)");
	else if (b->source[0])
		snprintf(buf, n, "%s (%s)", b->source, b->from);
	else
		snprintf(buf, n, "%s", b->from);
}

static void metrics(FILE *f, const struct watch_status_sum *s)
{
	bool learnt = false;

	fprintf(f, "\n%-19s %-15s %-29s %-16s %s\n", "Metric", "Baseline", "Source", "Age",
		"Drift");
	for (int m = 0; m < WM_N; m++) {
		const struct watch_status_base *b = &s->base[m];
		const struct watch_status_drift *d = &s->drift[m];
		char v[48], src[64], a[64], r[40], t[40], dur[40];

		watch_fmt_unit(v, sizeof(v), (enum watch_metric)m, b->value, 0);
		base_src(src, sizeof(src), b);
		learnt |= b->from && !strcmp(b->from, "history");
		ago(a, sizeof(a), b->age_s);
		fprintf(f, "%-19s %-15s %-29s %-16s ", watch_metrics[m].label, v, src, a);
		if (d->open) {
			watch_fmt_time(t, sizeof(t), d->open_since, 1);
			watch_fmt_dur(dur, sizeof(dur), d->open_for_s);
			watch_fmt_ratio(r, sizeof(r), d->open_worst_ratio);
			fprintf(f, "degraded since %s (%s, %u round%s), worst ratio %s\n", t, dur,
				d->open_rounds, d->open_rounds == 1 ? "" : "s", r);
		} else {
			watch_fmt_ratio(r, sizeof(r), d->ratio);
			fprintf(f, "%s (ratio %s)\n", d->degraded == 0 ? "ok" : "unknown", r);
		}
	}
	if (learnt)
		fputs("(a baseline from the history: its age counts from the first round that used it)\n", f);
}

static void skips(FILE *f, const struct watch_status_sum *s)
{
	char t[40];

	watch_fmt_time(t, sizeof(t), s->day_from, 1);
	fprintf(f, "\nLast 24 h  : since %s: %u round%s, %u with a probe skipped; skipped probe runs:",
		t, s->day_rounds, s->day_rounds == 1 ? "" : "s", s->day_rounds_skipped);
	for (int k = 0; k < WSK_N; k++)
		fprintf(f, "%s %s %u", k ? "," : "", watch_skip_kind_names[k], s->day_skips[k]);
	fprintf(f, "; failed probe runs: %u\n", s->day_failed);
}

int watch_status_text(FILE *f, const struct watch_status_sum *s, const char *dir)
{
	head(f, s, dir);
	probes(f, s);
	metrics(f, s);
	skips(f, s);
	return ferror(f) ? -1 : 0;
}
