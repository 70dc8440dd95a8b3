/*
 * watch_text.c — `vpsbench watch --report`: a plain-text summary a customer
 * can paste into a support ticket: the period, the rounds and why probes
 * were skipped or failed, then per metric the baseline, the median, the
 * worst value and when, the degraded spans and the worst hours with the
 * steal and wake-up delays of those hours. Unknown stays "unknown".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "watch_render.h"

static void period(FILE *f, const struct watch_hist *h)
{
	char a[40], b[40], d[40], s[40];

	watch_fmt_time(a, sizeof(a), h->from, 1);
	watch_fmt_time(b, sizeof(b), h->to, 1);
	watch_fmt_dur(d, sizeof(d), h->to - h->from);
	fprintf(f, "Period    : %s to %s (%s)", a, b, d);
	if (h->since_s > 0) {
		watch_fmt_dur(s, sizeof(s), h->since_s);
		fprintf(f, ", the last %s of the history (--since)", s);
	} else {
		fputs(", the whole history", f);
	}
	fputc('\n', f);
}

static void baseline_line(FILE *f, const struct watch_hist *h)
{
	fputs("Baseline  : ", f);
	if (h->baseline_note[0])
		fprintf(f, "baseline.json unusable (%s); the history's own baselines where it has them\n",
			h->baseline_note);
	else
		fprintf(f, "baseline.json, a vpsbench run of %s\n",
			h->baseline_time[0] ? h->baseline_time : "an unknown date");
}

static void rounds(FILE *f, const struct watch_hist *h)
{
	unsigned other = (unsigned)h->nperiod - h->all_ok - h->with_skip - h->with_fail;
	char iv[40];
	double ivs = NAN;

	/* the newest round's interval: what the watcher was asked to keep */
	for (size_t i = h->n; i-- > h->first;)
		if (isfinite(h->round[i].interval_s)) {
			ivs = h->round[i].interval_s;
			break;
		}
	watch_fmt_dur(iv, sizeof(iv), ivs);
	fprintf(f, "Rounds    : %zu (every %s): %u with every probe ok, %u with a probe skipped, "
		"%u with a probe failed", h->nperiod, iv, h->all_ok, h->with_skip, h->with_fail);
	if (other)
		fprintf(f, ", %u with a probe's outcome unknown", other);
	fputc('\n', f);
	fprintf(f, "History   : %u file%s, %u line%s", h->files, h->files == 1 ? "" : "s", h->lines,
		h->lines == 1 ? "" : "s");
	if (h->malformed || h->foreign) {
		fprintf(f, "; skipped: %u malformed", h->malformed);
		if (h->last_line_broken)
			fputs(" (the last line is incomplete)", f);
		if (h->foreign)
			fprintf(f, ", %u not a vpsbench-watch-1 line", h->foreign);
	} else {
		fputs(", none skipped", f);
	}
	fputc('\n', f);
	if (isfinite(h->write_errors) && h->write_errors > 0)
		fprintf(f, "Write errs: the watcher could not write %.0f round%s to the history "
			"(they are missing here)\n", h->write_errors, h->write_errors == 1 ? "" : "s");
	if (h->nperiod < WATCH_SHORT_ROUNDS)
		fprintf(f, "Note      : the history is too short to judge: %zu round%s (at least %d, the "
			"watcher's default window, make a median worth reading)\n", h->nperiod,
			h->nperiod == 1 ? "" : "s", WATCH_SHORT_ROUNDS);
}

static void probes(FILE *f, const struct watch_hist *h)
{
	char why[1400];

	fputs("\nProbe runs      ok  skipped   failed\n", f);
	for (int p = 0; p < WP_N; p++) {
		const struct watch_probe_stat *ps = &h->probe[p];

		fprintf(f, "  %-10s %6u  %7u  %7u", watch_hist_probe_names[p], ps->ok, ps->skipped, ps->failed);
		if (ps->unknown)
			fprintf(f, "  (%u not in the line)", ps->unknown);
		fputc('\n', f);
	}
	for (int p = 0; p < WP_N; p++) {
		const struct watch_probe_stat *ps = &h->probe[p];

		if (!ps->skipped && !ps->failed)
			continue;
		watch_fmt_reasons(why, sizeof(why), ps);
		fprintf(f, "  %s not run or failed, by reason: %s\n", watch_hist_probe_names[p], why);
	}
}

static void headline(FILE *f, const struct watch_hist *h)
{
	bool any = false;
	char d[40], r[40];

	fputs("\nDegraded  : ", f);
	for (int m = 0; m < WM_N; m++) {
		const struct watch_metric_stat *s = &h->m[m];

		if (!s->nspans)
			continue;
		watch_fmt_dur(d, sizeof(d), s->degraded_s);
		double worst = NAN;

		for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++)
			if (!(s->span[k].worst_ratio <= worst))
				worst = s->span[k].worst_ratio;
		watch_fmt_times(r, sizeof(r), worst, 0);
		fprintf(f, "%s%s %s in %u span%s (up to %s worse than baseline)", any ? "; " : "", watch_metrics[m].label, d,
			s->nspans, s->nspans == 1 ? "" : "s", r);
		any = true;
	}
	if (!any)
		fputs("none flagged by the watcher", f);
	fputc('\n', f);
	fputs("            (every ratio here reads \"x worse than baseline\", worse is bigger: latency = "
	      "figure/baseline, rate = baseline/figure; 1.00x = as the baseline, under 1.00x = better)\n", f);
}

static void spans(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_stat *s = &h->m[m];
	char a[40], b[40], d[40], r[40], w[48];

	if (!s->nflag_known) {
		fputs("  degraded  : unknown (no round of the period carries the watcher's flag)\n", f);
		return;
	}
	if (!s->nspans) {
		fprintf(f, "  degraded  : never (%u round%s flagged not degraded)\n", s->nflag_known,
			s->nflag_known == 1 ? "" : "s");
		return;
	}
	watch_fmt_dur(d, sizeof(d), s->degraded_s);
	fprintf(f, "  degraded  : %u span%s, %s in all\n", s->nspans, s->nspans == 1 ? "" : "s", d);
	for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++) {
		const struct watch_span *sp = &s->span[k];

		watch_fmt_time(a, sizeof(a), sp->from, 0);
		watch_fmt_time(b, sizeof(b), sp->to, 0);
		watch_fmt_dur(d, sizeof(d), sp->to - sp->from);
		watch_fmt_times(r, sizeof(r), sp->worst_ratio, 0);
		watch_fmt_unit(w, sizeof(w), m, sp->worst_value, 0);
		fprintf(f, "    %s to %s UTC (%s%s): %u round%s, worst %s, %s worse than baseline\n", a, b, d,
			sp->ongoing ? ", still degraded at the end" : sp->cleared ? "" : ", end unknown",
			(unsigned)(sp->last - sp->first + 1), sp->last == sp->first ? "" : "s", w, r);
	}
	if (s->nspans > WATCH_MAX_SPANS)
		fprintf(f, "    ... and %u more\n", s->nspans - WATCH_MAX_SPANS);
}

static void hours(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_stat *s = &h->m[m];
	char t[40], v[48], r[40], st[40], sm[40], wp[48], wm[48];

	if (s->nhours < 2) {
		fprintf(f, "  worst hours: too short to rank (figures in %u hour%s, 2 needed)\n", s->nhours,
			s->nhours == 1 ? "" : "s");
		return;
	}
	/* hours no worse than the baseline are no evidence: one line says so */
	if (s->top[0].ratio <= 1.0) {
		watch_fmt_time(t, sizeof(t), s->top[0].start, 0);
		watch_fmt_times(r, sizeof(r), s->top[0].ratio, 0);
		fprintf(f, "  worst hours: none worse than the baseline (the worst, %s UTC: %s worse than "
			"baseline)\n", t, r);
		return;
	}
	fprintf(f, "  worst hours (UTC; the hour's median, x worse than baseline, steal mean/max, "
		"wake-up p99/max):\n");
	for (unsigned k = 0; k < s->ntop; k++) {
		const struct watch_hour *hr = &s->top[k];

		watch_fmt_time(t, sizeof(t), hr->start, 0);
		watch_fmt_unit(v, sizeof(v), m, hr->median, 0);
		watch_fmt_times(r, sizeof(r), hr->ratio, 0);
		watch_fmt_val(st, sizeof(st), hr->steal_pct);
		watch_fmt_val(sm, sizeof(sm), hr->steal_max_pct);
		watch_fmt_unit(wp, sizeof(wp), WM_WAKEUP_P99, hr->wakeup_p99_us, 0);
		watch_fmt_unit(wm, sizeof(wm), WM_WAKEUP_P99, hr->wakeup_max_us, 0);
		fprintf(f, "    %s  %s  %s worse  steal %s%s/%s%s  wake-up %s/%s  (%u round%s)\n", t, v, r,
			st, isfinite(hr->steal_pct) ? "%" : "", sm, isfinite(hr->steal_max_pct) ? "%" : "", wp, wm,
			hr->rounds, hr->rounds == 1 ? "" : "s");
	}
}

static void metric(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_info *mi = &watch_metrics[m];
	const struct watch_metric_stat *s = &h->m[m];
	char b[48], v[48], vs[96], t[40];

	fprintf(f, "\n%s (%s, %s is better)\n", mi->label, mi->name, mi->rate ? "higher" : "lower");
	watch_fmt_unit(b, sizeof(b), m, s->baseline, 0);
	if (s->baseline_src)
		fprintf(f, "  baseline  : %s (%s)\n", b, !strcmp(s->baseline_src, "history") ?
			(m == WM_WAKEUP_P99 ? "the watcher's first rounds" : "as the watcher used it") :
			"baseline.json");
	else
		fprintf(f, "  baseline  : unknown\n");
	if (!s->nvalues) {
		fputs("  figures   : none in the period (not measured, skipped or failed)\n", f);
		spans(f, h, m);
		return;
	}
	watch_fmt_unit(v, sizeof(v), m, s->median, 0);
	watch_fmt_vs(vs, sizeof(vs), m, s->median, s->baseline);
	fprintf(f, "  median    : %s over %u round%s, %s\n", v, s->nvalues, s->nvalues == 1 ? "" : "s", vs);
	watch_fmt_unit(v, sizeof(v), m, s->worst, 0);
	watch_fmt_vs(vs, sizeof(vs), m, s->worst, s->baseline);
	watch_fmt_time(t, sizeof(t), s->worst_ts, 1);
	fprintf(f, "  worst     : %s at %s, %s\n", v, t, vs);
	spans(f, h, m);
	hours(f, h, m);
}

int watch_text(FILE *f, const struct watch_hist *h)
{
	fputs("vpsbench watch report\n", f);
	if (!h->nperiod) {
		fputs("No round in the history.\n", f);
		return ferror(f) ? -1 : 0;
	}
	period(f, h);
	baseline_line(f, h);
	rounds(f, h);
	headline(f, h);
	probes(f, h);
	for (int m = 0; m < WM_N; m++)
		metric(f, h, (enum watch_metric)m);
	return ferror(f) ? -1 : 0;
}
