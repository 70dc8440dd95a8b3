/*
 * watch_fmt.c — figures, times and durations of the watch report, one
 * wording for the text summary and the HTML page.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "watch_render.h"

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
	double q, pct, r = watch_ratio(m, v, base);

	if (!isfinite(r)) {
		snprintf(buf, n, isfinite(v) ? "baseline unknown" : "unknown");
		return;
	}
	q = v / base;
	pct = (q - 1) * 100;
	if (fabs(pct) < 0.5)
		snprintf(buf, n, "%.2fx the baseline (within 0.5%%)", q);
	else
		snprintf(buf, n, "%.2fx the baseline (%+.0f%%, %s)", q, pct, r > 1 ? "worse" : "better");
}

void watch_fmt_ratio(char *buf, size_t n, double r)
{
	if (isfinite(r))
		snprintf(buf, n, "%.2f", r);
	else
		snprintf(buf, n, "unknown");
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
