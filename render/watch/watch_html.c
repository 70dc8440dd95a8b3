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
#include <stdlib.h>
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
	".lg-base{background:repeating-linear-gradient(90deg,var(--fg) 0 5px,transparent 5px 9px);width:18px}"
	/* a figure's header on one line: wrapped word by word in a narrow column it stood taller than the rows */
	"th.n{white-space:nowrap}"
	"svg .clip{fill:var(--bad)}.lg-clip{width:0;height:0;background:none;border:5px solid transparent;"
	"border-bottom:7px solid var(--bad);border-top:0}";

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

/* the figure's height in viewBox units: on the axis, or on its top edge when clipped */
static double yy_of(const struct watch_yaxis *ax, double v)
{
	return PLOT_BOT - watch_yaxis_frac(ax, v) * (PLOT_BOT - PLOT_TOP);
}

/* the figures of the period, for the axis rule (NAN kept: the rule skips them) */
static struct watch_yaxis axis_of(const struct watch_hist *h, enum watch_metric m)
{
	struct watch_yaxis ax;
	size_t n = h->n - h->first;
	double *v = malloc((n ? n : 1) * sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = h->round[h->first + i].v[m];
	watch_yaxis_pick(&ax, v, v ? n : 0, h->m[m].baseline);
	free(v);
	return ax;
}

/* grid lines and labels: quarters of a linear axis; 1, 2, 5 x 10^k of a log one,
 * the decades only where those would crowd (a label is about 14 units high) */
static void yticks(FILE *f, const struct watch_yaxis *ax)
{
	char num[40];

	if (ax->scale != WY_LOG) {
		for (int k = 0; k <= 4; k++) {
			fmt_num2str(num, sizeof(num), ax->hi * k / 4, false, NULL);
			html_svg_ytick(f, ax->hi * k / 4, 0, ax->hi, num);
		}
		return;
	}
	double per_decade = (PLOT_BOT - PLOT_TOP) / (log10(ax->hi) - log10(ax->lo));
	bool all = per_decade * log10(2.5) >= 16; /* 2 to 5: the closest pair */

	for (double p = pow(10, floor(log10(ax->lo))); p <= ax->hi * (1 + 1e-9); p *= 10)
		for (int k = 0; k < 3; k++) {
			double t = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
			bool end = fabs(t / ax->lo - 1) < 1e-9 || fabs(t / ax->hi - 1) < 1e-9;

			if (t < ax->lo * (1 - 1e-9) || t > ax->hi * (1 + 1e-9) || (!all && k && !end))
				continue;
			/* the ends are labelled; a decade too close to a labelled end is not */
			if (!all && !end && k == 0 && (fabs(log10(t / ax->lo)) * per_decade < 16 ||
						       fabs(log10(ax->hi / t)) * per_decade < 16))
				continue;
			fmt_num2str(num, sizeof(num), t, false, NULL);
			html_svg_ytick(f, watch_yaxis_frac(ax, t), 0, 1, num);
		}
}

static void series(FILE *f, const struct watch_hist *h, enum watch_metric m, double t0, double t1,
		   const struct watch_yaxis *ax)
{
	size_t run = 0;

	/* a polyline per run of rounds with a figure: a gap stays a gap */
	for (size_t i = h->first; i <= h->n; i++) {
		bool has = i < h->n && isfinite(h->round[i].v[m]);

		if (has && !run)
			fprintf(f, "<polyline class=\"rd series\" points=\"");
		if (has) {
			fprintf(f, "%s%.1f,%.1f", run ? " " : "", html_px(h->round[i].ts, t0, t1),
				yy_of(ax, h->round[i].v[m]));
			run++;
		}
		if (!has && run) {
			fputs("\"/>\n", f);
			/* a lone point draws no line: a dot */
			if (run == 1)
				fprintf(f, "<circle class=\"mk-rd\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
					html_px(h->round[i - 1].ts, t0, t1), yy_of(ax, h->round[i - 1].v[m]));
			run = 0;
		}
	}
}

/* the figures above a clipped axis: a triangle on the top edge each, the
 * largest labelled above the plot ("↑ 60000 µs"), clear of the y title */
static void clipped_marks(FILE *f, const struct watch_hist *h, enum watch_metric m, double t0, double t1,
			  const struct watch_yaxis *ax)
{
	double xmax = NAN;
	char v[48];

	for (size_t i = h->first; i < h->n; i++) {
		double x = html_px(h->round[i].ts, t0, t1), y = h->round[i].v[m];

		if (!(y > ax->hi))
			continue;
		fprintf(f, "<polygon class=\"clip\" data-value=\"%g\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
			y, x - 4, PLOT_TOP + 1, x + 4, PLOT_TOP + 1, x, PLOT_TOP - 6);
		if (y == ax->clipped_max && !isfinite(xmax))
			xmax = x;
	}
	if (!isfinite(xmax))
		return;
	watch_fmt_unit(v, sizeof(v), m, ax->clipped_max, 1);
	fprintf(f, "<text class=\"clip-lbl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		fmin(fmax(xmax, HTML_ML + 80), HTML_CW - HTML_MR - 70), PLOT_TOP - 10);
	escf(f, "\xe2\x86\x91 %s", v);
	fputs("</text>\n", f);
}

static void chart(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_info *mi = &watch_metrics[m];
	const struct watch_metric_stat *s = &h->m[m];
	double t0 = h->from, t1 = h->to > h->from ? h->to : h->from + 1;
	struct watch_yaxis ax = axis_of(h, m);
	unsigned nskip = 0, nfail = 0;
	char lbl[200], v[48], r[48];

	snprintf(lbl, sizeof(lbl), "%s (%s) over time, %s is better%s", mi->label, mi->unit,
		 mi->rate ? "higher" : "lower", ax.scale == WY_LOG ? ", logarithmic axis" :
		 ax.scale == WY_CLIPPED ? ", axis clipped" : "");
	html_svg_open(f, "wseries", lbl);
	fprintf(f, "<desc data-scale=\"%s\" data-lo=\"%g\" data-hi=\"%g\"></desc>\n",
		watch_yscale_names[ax.scale], ax.lo, ax.hi);
	yticks(f, &ax);
	html_svg_ylabel(f, !strcmp(mi->unit, "us") ? "µs" : mi->unit);
	time_ticks(f, t0, t1);
	for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++) {
		double x0 = html_px(s->span[k].from, t0, t1), x1 = html_px(s->span[k].to, t0, t1);

		fprintf(f, "<rect class=\"deg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0,
			PLOT_TOP, fmax(x1 - x0, 2), PLOT_BOT - PLOT_TOP);
	}
	if (isfinite(s->baseline)) {
		double yy = yy_of(&ax, s->baseline);

		fprintf(f, "<line class=\"avg base\" data-baseline=\"%g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/>\n", s->baseline, HTML_ML, yy, HTML_CW - HTML_MR, yy);
	}
	series(f, h, m, t0, t1, &ax);
	if (ax.scale == WY_CLIPPED)
		clipped_marks(f, h, m, t0, t1, &ax);
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
		fprintf(f, "<span class=\"lg lg-skip\"></span>skipped (%u)", nskip);
	if (nfail)
		fprintf(f, "<span class=\"lg lg-fail\"></span>failed (%u)", nfail);
	fputs("</p>\n", f);
	/* the axis rule that applied, so a flat line or a short bar is read right */
	if (ax.scale == WY_CLIPPED) {
		watch_fmt_unit(v, sizeof(v), m, ax.hi, 1);
		watch_fmt_unit(r, sizeof(r), m, ax.clipped_max, 1);
		fprintf(f, "<p class=\"note axis\"><span class=\"lg lg-clip\"></span>");
		escf(f, "y axis clipped at %s (%.1f\xc3\x97 the 95th percentile or the baseline, rounded up): %u figure%s "
		     "above it drawn on the top edge, the largest %s.", v, WATCH_CLIP_AT, ax.nclipped,
		     ax.nclipped == 1 ? "" : "s", r);
		fputs("</p>\n", f);
	} else if (ax.scale == WY_LOG) {
		fputs("<p class=\"note axis\">", f);
		escf(f, "y axis logarithmic: the figures span more than %.0f\xc3\x97 (largest/smallest).",
		     WATCH_LOG_SPAN);
		fputs("</p>\n", f);
	}
}

static void spans_table(FILE *f, const struct watch_hist *h, enum watch_metric m)
{
	const struct watch_metric_stat *s = &h->m[m];
	char a[40], b[40], d[40], r[40], w[48];

	if (!s->nspans)
		return;
	fputs("<div class=\"scroll\"><table><tr><th>degraded from</th><th>to (UTC)</th><th class=\"n\">for</th>"
	      "<th class=\"n\">worst</th><th class=\"n\">worst, \xc3\x97 worse than baseline</th></tr>\n", f);
	for (unsigned k = 0; k < s->nspans && k < WATCH_MAX_SPANS; k++) {
		const struct watch_span *sp = &s->span[k];

		watch_fmt_time(a, sizeof(a), sp->from, 0);
		watch_fmt_time(b, sizeof(b), sp->to, 0);
		watch_fmt_dur(d, sizeof(d), sp->to - sp->from);
		watch_fmt_times(r, sizeof(r), sp->worst_ratio, 1);
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
	fputs("<div class=\"scroll\"><table><tr><th>worst hours (UTC)</th><th class=\"n\">median</th>"
	      "<th class=\"n\">\xc3\x97 worse than baseline</th><th class=\"n\">steal mean / max</th>"
	      "<th class=\"n\">wake-up p99 / max</th></tr>\n", f);
	for (unsigned k = 0; k < s->ntop; k++) {
		const struct watch_hour *hr = &s->top[k];

		watch_fmt_time(t, sizeof(t), hr->start, 0);
		watch_fmt_unit(v, sizeof(v), m, hr->median, 1);
		watch_fmt_times(r, sizeof(r), hr->ratio, 1);
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

	fputs("<div class=\"card\"><div class=\"scroll\"><table>\n<tr><th>metric</th><th class=\"n\">baseline</th>"
	      "<th class=\"n\">median</th><th class=\"n\">worst</th><th>when (UTC)</th>"
	      "<th class=\"n\">worst, \xc3\x97 worse than baseline</th><th class=\"n\">degraded for</th></tr>\n", f);
	for (int m = 0; m < WM_N; m++) {
		const struct watch_metric_stat *s = &h->m[m];

		watch_fmt_unit(b, sizeof(b), (enum watch_metric)m, s->baseline, 1);
		watch_fmt_unit(v, sizeof(v), (enum watch_metric)m, s->median, 1);
		watch_fmt_unit(w, sizeof(w), (enum watch_metric)m, s->worst, 1);
		watch_fmt_time(t, sizeof(t), s->worst_ts, 0);
		watch_fmt_times(r, sizeof(r), s->worst_ratio, 1);
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
		cell(f, s->nspans ? "n t0" : "n", d);
		fputs("</tr>\n", f);
	}
	fputs("</table></div><p class=\"note\">Every ratio on this page reads \xc3\x97 worse than baseline, "
	      "worse is bigger: a latency's figure/baseline, a rate's baseline/figure; 1.00\xc3\x97 is the "
	      "baseline, under 1.00\xc3\x97 better.</p></div>\n", f);
}

static void probes(FILE *f, const struct watch_hist *h)
{
	char why[1400];
	bool any = false;

	fputs("<div class=\"card\"><div class=\"scroll\"><table>\n<tr><th>probe</th><th class=\"n\">ok</th>"
	      "<th class=\"n\">skipped</th><th class=\"n\">failed</th></tr>\n", f);
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
	/* the y-axis rule of watch_yaxis_pick, stated where the charts start */
	fprintf(f, "<p class=\"note\" id=\"axis-rule\">Charts: the y axis runs from 0 to the largest "
		"figure, unless that is more than %.0f\xc3\x97 the series' 95th percentile (or its baseline, "
		"when higher): then it stops at %.1f\xc3\x97 that, rounded up, and the figures above are drawn "
		"on its top edge as <span class=\"lg lg-clip\"></span>, the largest labelled (\xe2\x86\x91). "
		"Otherwise, when the largest figure is more than %.0f\xc3\x97 the smallest, the axis is "
		"logarithmic. Each chart says when it is clipped or logarithmic.</p>\n", WATCH_CLIP_OVER,
		WATCH_CLIP_AT, WATCH_LOG_SPAN);
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
