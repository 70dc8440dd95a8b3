/*
 * watch_fmt.c — figures, times and durations of the watch report, one
 * wording for the text summary and the HTML page.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/html/html_chart.h"
#include "watch_render.h"

const char *const watch_yscale_names[3] = { "linear", "clipped", "log" };

void watch_fmt_time(char *buf, size_t n, double ts, int with_zone)
{
	struct tm tm;
	time_t t = (time_t)floor(ts);

	if (!isfinite(ts) || !gmtime_r(&t, &tm) ||
	    !strftime(buf, n, with_zone ? "%Y-%m-%d %H:%M UTC" : "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, n, "unknown");
}

void watch_fmt_dur(char *buf, size_t n, double s)
{
	long long m;

	if (!isfinite(s) || s < 0) {
		snprintf(buf, n, "unknown");
		return;
	}
	if (s < 60) {
		snprintf(buf, n, s < 10 ? "%.1f s" : "%.0f s", s);
		return;
	}
	m = (long long)floor(s / 60 + 0.5);
	if (m < 60)
		snprintf(buf, n, "%lld min", m);
	else if (m < 24 * 60)
		snprintf(buf, n, "%lld h %lld min", m / 60, m % 60);
	else
		snprintf(buf, n, "%lld d %lld h", m / (24 * 60), (m % (24 * 60) + 30) / 60);
}

void watch_fmt_val(char *buf, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(buf, n, "unknown");
	else if (fabs(v) >= 10000)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.1f", v);
}

void watch_fmt_unit(char *buf, size_t n, enum watch_metric m, double v, int micro)
{
	char num[40];
	const char *u = watch_metrics[m].unit;

	if (!isfinite(v)) {
		snprintf(buf, n, "unknown");
		return;
	}
	watch_fmt_val(num, sizeof(num), v);
	snprintf(buf, n, "%s %s", num, micro && !strcmp(u, "us") ? "µs" : u);
}

void watch_fmt_vs(char *buf, size_t n, enum watch_metric m, double v, double base)
{
	double r = watch_ratio(m, v, base);

	if (!isfinite(r))
		snprintf(buf, n, isfinite(v) ? "baseline unknown" : "unknown");
	else
		watch_fmt_worse(buf, n, r, 0);
}

void watch_fmt_ratio(char *buf, size_t n, double r)
{
	if (isfinite(r))
		snprintf(buf, n, "%.2f", r);
	else
		snprintf(buf, n, "unknown");
}

void watch_fmt_times(char *buf, size_t n, double r, int utf8)
{
	if (isfinite(r))
		snprintf(buf, n, "%.2f%s", r, utf8 ? "\xc3\x97" : "x");
	else
		snprintf(buf, n, "unknown");
}

void watch_fmt_worse(char *buf, size_t n, double r, int utf8)
{
	char t[40];

	if (!isfinite(r)) {
		snprintf(buf, n, "unknown");
		return;
	}
	watch_fmt_times(t, sizeof(t), r, utf8);
	/* one direction only: a better figure is a ratio under 1, said so, never inverted */
	snprintf(buf, n, "%s worse than baseline%s", t,
		 fabs(r - 1) < 0.005 ? " (as the baseline)" : r < 1 ? " (better)" : "");
}

void watch_fmt_reasons(char *buf, size_t n, const struct watch_probe_stat *ps)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < ps->nreasons && len < n; i++) {
		const struct watch_reason *r = &ps->reason[i];
		int k;

		if (strcmp(r->kind, r->example))
			k = snprintf(buf + len, n - len, "%s%s x%u (e.g. \"%s\")", i ? "; " : "", r->kind,
				     r->n, r->example);
		else
			k = snprintf(buf + len, n - len, "%s%s x%u", i ? "; " : "", r->kind, r->n);
		if (k < 0)
			return;
		len += (size_t)k;
	}
	if (ps->other && len < n)
		snprintf(buf + len, n - len, "%sother reasons x%u", len ? "; " : "", ps->other);
}

/* 1, 2 or 5 x 10^k at or below v (v > 0): the log axis' bottom */
static double floor125(double v)
{
	static const double m[] = { 5, 2, 1 };
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * p <= v * (1 + 1e-12))
			return m[i] * p;
	return p / 2;
}

/* 1, 2 or 5 x 10^k at or above v (v > 0): the log axis' top */
static double ceil125(double v)
{
	static const double m[] = { 1, 2, 5, 10 };
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * p >= v * (1 - 1e-12))
			return m[i] * p;
	return 10 * p;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void watch_yaxis_pick(struct watch_yaxis *ax, const double *v, size_t n, double baseline)
{
	double *s = n ? malloc(n * sizeof(*s)) : NULL;
	double lo, hi;
	size_t k = 0;

	*ax = (struct watch_yaxis){ .scale = WY_LINEAR, .lo = 0, .ref = NAN, .clipped_max = NAN };
	for (size_t i = 0; s && i < n; i++)
		if (isfinite(v[i]))
			s[k++] = v[i];
	if (!k) {
		/* no figure (or no memory for the copy): the baseline alone, or 0..1 */
		ax->hi = html_nice_ceil(isfinite(baseline) ? baseline : 1);
		free(s);
		return;
	}
	qsort(s, k, sizeof(*s), cmp_dbl);
	ax->ref = s[(size_t)floor(0.95 * (double)(k - 1))];
	if (isfinite(baseline) && baseline > ax->ref)
		ax->ref = baseline;
	if (ax->ref > 0 && s[k - 1] > WATCH_CLIP_OVER * ax->ref) {
		ax->scale = WY_CLIPPED;
		ax->hi = html_nice_ceil(WATCH_CLIP_AT * ax->ref);
		for (size_t i = 0; i < k; i++)
			ax->nclipped += s[i] > ax->hi;
		ax->clipped_max = s[k - 1];
		free(s);
		return;
	}
	lo = s[0];
	hi = s[k - 1];
	if (isfinite(baseline)) {
		lo = fmin(lo, baseline);
		hi = fmax(hi, baseline);
	}
	free(s);
	if (lo > 0 && hi > WATCH_LOG_SPAN * lo) {
		ax->scale = WY_LOG;
		ax->lo = floor125(lo);
		ax->hi = ceil125(hi);
		return;
	}
	ax->hi = html_nice_ceil(hi);
}

double watch_yaxis_frac(const struct watch_yaxis *ax, double v)
{
	double f;

	if (!(ax->hi > ax->lo))
		return 0;
	if (ax->scale == WY_LOG)
		f = v > 0 ? (log10(v) - log10(ax->lo)) / (log10(ax->hi) - log10(ax->lo)) : 0;
	else
		f = (v - ax->lo) / (ax->hi - ax->lo);
	return f > 1 ? 1 : f > 0 ? f : 0;
}
