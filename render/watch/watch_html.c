/*
 * watch_html.c — `vpsbench watch --report --html FILE`: one self-contained
 * page in the run report's style (render/html's CSS and SVG pieces): the
 * summary table, then per metric a time series over the period with the
 * baseline as a dashed line, the degraded spans shaded and the rounds
 * whose probe was skipped or failed marked on the time axis; the spans
 * and the worst hours as tables. Every string is HTML-escaped.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "render/html/html_chart.h"
#include "render/render.h"
#include "watch_render.h"

#define PLOT_TOP HTML_MT
#define PLOT_BOT (HTML_CH - HTML_MB)

/* the page's own pieces beside html_css(): shading, marks and their legend */
static const char watch_css[] =
	"svg .deg{fill:var(--bad);opacity:.16}svg .skip{stroke:var(--mid);stroke-width:1.5}"
	"svg .fail{stroke:var(--bad);stroke-width:1.5}"
	".lg-deg{background:var(--bad);opacity:.35;height:10px}"
	".lg-skip{background:var(--mid);width:3px;height:10px}.lg-fail{background:var(--bad);width:3px;height:10px}"
	".lg-base{background:repeating-linear-gradient(90deg,var(--fg) 0 5px,transparent 5px 9px);width:18px}";

static void escf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void escf(FILE *f, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	html_esc(f, buf);
}

static void cell(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_esc(f, text);
	fputs("</td>", f);
}

/* the x axis: time in UTC, "HH:MM" within a day, "MM-DD HH:MM" beyond */
static void time_ticks(FILE *f, double t0, double t1)
{
	bool days = t1 - t0 > 24 * 3600;
	char lbl[40], a[40], b[40];

	for (int k = 0; k <= 3; k++) {
		double t = t0 + (t1 - t0) * k / 3;
		time_t s = (time_t)floor(t);
		struct tm tm;
		double xx = html_px(t, t0, t1);

		if (!gmtime_r(&s, &tm) || !strftime(lbl, sizeof(lbl), days ? "%m-%d %H:%M" : "%H:%M", &tm))
			snprintf(lbl, sizeof(lbl), "?");
		/* the first label starts at the axis, clear of the y tick labels left of it */
		if (k == 0)
			html_svg_xtick_anchor(f, xx, xx, "start", lbl);
		else if (k == 3)
			html_svg_xtick_anchor(f, xx, HTML_CW - 2, "end", lbl);
		else
			html_svg_xtick_anchor(f, xx, xx, "middle", lbl);
		if (t1 <= t0)
			break;
	}
	watch_fmt_time(a, sizeof(a), t0, 0);
	watch_fmt_time(b, sizeof(b), t1, 0);
	snprintf(lbl, sizeof(lbl), "UTC, %.10s to %.10s", a, b);
	html_svg_xlabel(f, lbl);
}

static double ymax_of(const struct watch_hist *h, enum watch_metric m)
{
	double hi = h->m[m].baseline;

	for (size_t i = h->first; i < h->n; i++)
		if (isfinite(h->round[i].v[m]) && !(h->round[i].v[m] <= hi))
			hi = h->round[i].v[m];
	return html_nice_ceil(isfinite(hi) ? hi : 1);
}

static void series(FILE *f, const struct watch_hist *h, enum watch_metric m, double t0, double t1,
		   double ymax)
{
	size_t run = 0;

	/* a polyline per run of rounds with a figure: a gap stays a gap */
	for (size_t i = h->first; i <= h->n; i++) {
		bool has = i < h->n && isfinite(h->round[i].v[m]);

		if (has && !run)
			fprintf(f, "<polyline class=\"rd series\" points=\"");
		if (has) {
			fprintf(f, "%s%.1f,%.1f", run ? " " : "", html_px(h->round[i].ts, t0, t1),
				html_py(h->round[i].v[m], 0, ymax));
			run++;
		}
		if (!has && run) {
			fputs("\"/>\n", f);
			/* a lone point draws no line: a dot */
			if (run == 1)
				fprintf(f, "<circle class=\"mk-rd\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
					html_px(h->round[i - 1].ts, t0, t1), html_py(h->round[i - 1].v[m], 0, ymax));
			run = 0;
		}
	}
}

static void chart(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_info *mi = &watch_metrics[m];
	const struct watch_metric_stat *s = &h->m[m];
	double t0 = h->from, t1 = h->to > h->from ? h->to : h->from + 1, ymax = ymax_of(h, m);
	unsigned nskip = 0, nfail = 0;
	char lbl[200], num[40];

	snprintf(lbl, sizeof(lbl), "%s (%s) over time, %s is better", mi->label, mi->unit,
		 mi->rate ? "higher" : "lower");
	html_svg_open(f, "wseries", lbl);
	for (int k = 1; k <= 4; k++) {
		fmt_num2str(num, sizeof(num), ymax * k / 4, false, NULL);
		html_svg_ytick(f, ymax * k / 4, 0, ymax, num);
	}
	html_svg_ytick(f, 0, 0, ymax, "0");
	html_svg_ylabel(f, !strcmp(mi->unit, "us") ? "µs" : mi->unit);
	time_ticks(f, t0, t1);
	for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++) {
		double x0 = html_px(s->span[k].from, t0, t1), x1 = html_px(s->span[k].to, t0, t1);

		fprintf(f, "<rect class=\"deg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0,
			PLOT_TOP, fmax(x1 - x0, 2), PLOT_BOT - PLOT_TOP);
	}
	if (isfinite(s->baseline)) {
		double yy = html_py(s->baseline, 0, ymax);

		fprintf(f, "<line class=\"avg base\" data-baseline=\"%g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/>\n", s->baseline, HTML_ML, yy, HTML_CW - HTML_MR, yy);
	}
	series(f, h, m, t0, t1, ymax);
	/* the rounds whose probe did not run, as ticks rising from the time axis */
	if (mi->probe != WP_N)
		for (size_t i = h->first; i < h->n; i++) {
			enum watch_status st = h->round[i].st[mi->probe];
			double xx = html_px(h->round[i].ts, t0, t1);

			if (st != WS_SKIPPED && st != WS_FAILED)
				continue;
			nskip += st == WS_SKIPPED;
			nfail += st == WS_FAILED;
			fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
				st == WS_SKIPPED ? "skip" : "fail", xx, PLOT_BOT - 9, xx, PLOT_BOT);
		}
	fputs("</svg>\n", f);
	fputs("<p class=\"note\"><span class=\"lg lg-rd\"></span>each round", f);
	if (isfinite(s->baseline))
		fputs("<span class=\"lg lg-base\"></span>baseline", f);
	if (s->nspans)
		fputs("<span class=\"lg lg-deg\"></span>degraded", f);
	if (nskip)
		escf(f, "<span class=\"lg lg-skip\"></span>skipped (%u)", nskip);
	if (nfail)
		escf(f, "<span class=\"lg lg-fail\"></span>failed (%u)", nfail);
	fputs("</p>\n", f);
}

static void spans_table(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_stat *s = &h->m[m];
	char a[40], b[40], d[40], r[40], w[48];

	if (!s->nspans)
		return;
	fputs("<div class=\"scroll\"><table><tr><th>degraded from</th><th>to (UTC)</th><th>for</th>"
	      "<th>worst</th><th>ratio</th></tr>\n", f);
	for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++) {
		const struct watch_span *sp = &s->span[k];

		watch_fmt_time(a, sizeof(a), sp->from, 0);
		watch_fmt_time(b, sizeof(b), sp->to, 0);
		watch_fmt_dur(d, sizeof(d), sp->to - sp->from);
		watch_fmt_ratio(r, sizeof(r), sp->worst_ratio);
		watch_fmt_unit(w, sizeof(w), m, sp->worst_value, 1);
		fputs("<tr class=\"span\">", f);
		cell(f, NULL, a);
		if (sp->ongoing)
			strncat(b, " (still degraded)", sizeof(b) - strlen(b) - 1);
		cell(f, NULL, b);
		cell(f, "n", d);
		cell(f, "n", w);
		cell(f, "n t0", r);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void hours_table(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_stat *s = &h->m[m];
	char t[40], v[48], r[40], st[112], wp[48], wm[48], x[40];

	if (s->nhours < 2) {
		fputs("<p class=\"note\">Too short to rank hours (figures in fewer than 2 hours).</p>\n", f);
		return;
	}
	fputs("<div class=\"scroll\"><table><tr><th>worst hours (UTC)</th><th>median</th><th>ratio</th>"
	      "<th>steal mean / max</th><th>wake-up p99 / max</th></tr>\n", f);
	for (unsigned k = 0; k < s->ntop; k++) {
		const struct watch_hour *hr = &s->top[k];

		watch_fmt_time(t, sizeof(t), hr->start, 0);
		watch_fmt_unit(v, sizeof(v), m, hr->median, 1);
		watch_fmt_ratio(r, sizeof(r), hr->ratio);
		watch_fmt_val(x, sizeof(x), hr->steal_pct);
		watch_fmt_val(wp, sizeof(wp), hr->steal_max_pct);
		snprintf(st, sizeof(st), "%s%s / %s%s", x, isfinite(hr->steal_pct) ? "%" : "", wp,
			 isfinite(hr->steal_max_pct) ? "%" : "");
		watch_fmt_unit(wp, sizeof(wp), WM_WAKEUP_P99, hr->wakeup_p99_us, 1);
		watch_fmt_unit(wm, sizeof(wm), WM_WAKEUP_P99, hr->wakeup_max_us, 1);
		fputs("<tr class=\"hour\">", f);
		cell(f, NULL, t);
		cell(f, "n", v);
		cell(f, hr->ratio > 1 + 1e-9 ? "n t1" : "n", r);
		cell(f, "n", st);
		fputs("<td class=\"n\">", f);
		escf(f, "%s / %s", wp, wm);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void summary(FILE *f, const struct watch_hist *h)
{
	char b[48], v[48], w[48], t[40], r[40], d[40];

	fputs("<div class=\"card\"><div class=\"scroll\"><table>\n<tr><th>metric</th><th>baseline</th>"
	      "<th>median</th><th>worst</th><th>when (UTC)</th><th>worst ratio</th><th>degraded for</th></tr>\n", f);
	for (int m = 0; m < WM_N; m++) {
		const struct watch_metric_stat *s = &h->m[m];

		watch_fmt_unit(b, sizeof(b), (enum watch_metric)m, s->baseline, 1);
		watch_fmt_unit(v, sizeof(v), (enum watch_metric)m, s->median, 1);
		watch_fmt_unit(w, sizeof(w), (enum watch_metric)m, s->worst, 1);
		watch_fmt_time(t, sizeof(t), s->worst_ts, 0);
		watch_fmt_ratio(r, sizeof(r), s->worst_ratio);
		if (!s->nflag_known)
			snprintf(d, sizeof(d), "unknown");
		else if (!s->nspans)
			snprintf(d, sizeof(d), "never");
		else
			watch_fmt_dur(d, sizeof(d), s->degraded_s);
		fprintf(f, "<tr data-metric=\"%s\"><th>", watch_metrics[m].name);
		html_esc(f, watch_metrics[m].label);
		fputs("</th>", f);
		cell(f, "n", b);
		cell(f, "n", v);
		cell(f, "n", w);
		cell(f, NULL, s->nvalues ? t : "unknown");
		cell(f, s->worst_ratio > 1 + 1e-9 ? "n t1" : "n", r);
		cell(f, s->nspans ? "t0" : NULL, d);
		fputs("</tr>\n", f);
	}
	fputs("</table></div><p class=\"note\">Ratio: times worse than the baseline (a latency: "
	      "figure/baseline; a rate: baseline/figure); 1.00 is the baseline.</p></div>\n", f);
}

static void probes(FILE *f, const struct watch_hist *h)
{
	char why[1400];
	bool any = false;

	fputs("<div class=\"card\"><div class=\"scroll\"><table>\n<tr><th>probe</th><th>ok</th>"
	      "<th>skipped</th><th>failed</th></tr>\n", f);
	for (int p = 0; p < WP_N; p++)
		fprintf(f, "<tr><th>%s</th><td class=\"n\">%u</td><td class=\"n\">%u</td>"
			"<td class=\"n%s\">%u</td></tr>\n", watch_hist_probe_names[p], h->probe[p].ok,
			h->probe[p].skipped, h->probe[p].failed ? " t0" : "", h->probe[p].failed);
	fputs("</table></div>\n", f);
	for (int p = 0; p < WP_N; p++) {
		if (!h->probe[p].skipped && !h->probe[p].failed)
			continue;
		if (!any)
			fputs("<ul class=\"warn\">\n", f);
		any = true;
		watch_fmt_reasons(why, sizeof(why), &h->probe[p]);
		fprintf(f, "<li>%s not run or failed: ", watch_hist_probe_names[p]);
		html_esc(f, why);
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
	fputs("</div>\n", f);
}

static void meta(FILE *f, const struct watch_hist *h)
{
	char a[40], b[40], d[40], s[40];

	watch_fmt_time(a, sizeof(a), h->from, 1);
	watch_fmt_time(b, sizeof(b), h->to, 1);
	watch_fmt_dur(d, sizeof(d), h->to - h->from);
	fputs("<p class=\"meta\">", f);
	escf(f, "%s to %s (%s", a, b, d);
	if (h->since_s > 0) {
		watch_fmt_dur(s, sizeof(s), h->since_s);
		escf(f, ", the last %s of the history", s);
	}
	escf(f, "); %zu rounds: %u with every probe ok, %u with a probe skipped, %u with a probe failed. ",
	     h->nperiod, h->all_ok, h->with_skip, h->with_fail);
	if (h->baseline_note[0])
		escf(f, "Baseline: baseline.json unusable (%s).", h->baseline_note);
	else
		escf(f, "Baseline: a vpsbench run of %s.", h->baseline_time[0] ? h->baseline_time : "unknown date");
	fputs("</p>\n", f);
	if (h->malformed || h->foreign)
		fprintf(f, "<p class=\"note\">%u malformed line%s and %u foreign line%s skipped%s.</p>\n",
			h->malformed, h->malformed == 1 ? "" : "s", h->foreign, h->foreign == 1 ? "" : "s",
			h->last_line_broken ? " (the last line is incomplete)" : "");
	if (h->nperiod < WATCH_SHORT_ROUNDS)
		fprintf(f, "<p class=\"note t1\">The history is too short to judge: %zu round%s (at least %d "
			"make a median worth reading).</p>\n", h->nperiod, h->nperiod == 1 ? "" : "s",
			WATCH_SHORT_ROUNDS);
}

int watch_html(FILE *f, const struct watch_hist *h)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>vpsbench watch report</title>\n<style>%s%s</style>\n</head><body><main>\n"
		"<h1>vpsbench watch report</h1>\n", html_css(), watch_css);
	if (!h->nperiod) {
		fputs("<p class=\"meta\">No round in the history.</p>\n</main></body></html>\n", f);
		return ferror(f) ? -1 : 0;
	}
	meta(f, h);
	fputs("<section id=\"summary\"><h2>Summary</h2>\n", f);
	summary(f, h);
	fputs("</section>\n<section id=\"probes\"><h2>Probe rounds</h2>\n", f);
	probes(f, h);
	fputs("</section>\n", f);
	for (int m = 0; m < WM_N; m++) {
		const struct watch_metric_info *mi = &watch_metrics[m];
		const struct watch_metric_stat *s = &h->m[m];

		fprintf(f, "<section id=\"%s\" class=\"metric\"><h2>", mi->name);
		html_esc(f, mi->label);
		fputs("</h2>\n<div class=\"card\">\n", f);
		if (!s->nvalues)
			fputs("<p class=\"note\">No figure in the period (not measured, skipped or failed).</p>\n", f);
		else
			chart(f, h, (enum watch_metric)m);
		spans_table(f, h, (enum watch_metric)m);
		if (s->nvalues)
			hours_table(f, h, (enum watch_metric)m);
		fputs("</div></section>\n", f);
	}
	fputs("</main></body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
