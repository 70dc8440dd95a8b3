/*
 * watch_hist_calc.c — the analysis behind `watch --report`: the period,
 * the rounds' outcomes and reasons counted, and per metric the baseline,
 * the median, the worst value, the degraded spans (the daemon's own drift
 * flags, never re-derived) and the worst UTC hours with the steal and the
 * wake-up delays of those hours. Pure: reads struct watch_hist only.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch_hist.h"

double watch_ratio(enum watch_metric m, double v, double base)
{
	if (!isfinite(v) || !isfinite(base) || !(v > 0) || !(base > 0))
		return NAN;
	return watch_metrics[m].rate ? base / v : v / base;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double watch_hist_median(const double *v, size_t n)
{
	double *c, med;

	if (!n)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_dbl);
	med = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return med;
}

/* is a worse than b for metric m (a latency higher, a rate lower) */
static bool worse(enum watch_metric m, double a, double b)
{
	if (!isfinite(b))
		return isfinite(a);
	if (!isfinite(a))
		return false;
	return watch_metrics[m].rate ? a < b : a > b;
}

/* The reason's kind: its text up to the first figure ("busy: load 2.10 >
 * 1.50" is "busy: load"), so rounds skipped for one cause count together. */
static void reason_kind(const char *why, char *kind, size_t n)
{
	size_t k = 0;

	for (; why[k] && k + 1 < n && !isdigit((unsigned char)why[k]); k++)
		kind[k] = why[k];
	while (k > 0 && (kind[k - 1] == ' ' || kind[k - 1] == ':' || kind[k - 1] == '-' ||
			 kind[k - 1] == '(' || kind[k - 1] == '='))
		k--;
	kind[k] = '\0';
	if (!k)
		snprintf(kind, n, "%s", why[0] ? why : "no reason given");
}

static void count_reason(struct watch_probe_stat *ps, const char *why)
{
	char kind[WATCH_REASON_LEN];
	unsigned i;

	reason_kind(why, kind, sizeof(kind));
	for (i = 0; i < ps->nreasons; i++)
		if (!strcmp(ps->reason[i].kind, kind))
			break;
	if (i == ps->nreasons) {
		if (i == WATCH_MAX_REASONS) {
			ps->other++;
			return;
		}
		ps->nreasons++;
		snprintf(ps->reason[i].kind, sizeof(ps->reason[i].kind), "%s", kind);
		snprintf(ps->reason[i].example, sizeof(ps->reason[i].example), "%s",
			 why[0] ? why : "no reason given");
		ps->reason[i].n = 0;
	}
	ps->reason[i].n++;
	/* most frequent first, the earlier seen first among equals */
	while (i > 0 && ps->reason[i].n > ps->reason[i - 1].n) {
		struct watch_reason t = ps->reason[i - 1];

		ps->reason[i - 1] = ps->reason[i];
		ps->reason[i] = t;
		i--;
	}
}

static void probes(struct watch_hist *h)
{
	for (size_t i = h->first; i < h->n; i++) {
		const struct watch_round *r = &h->round[i];
		bool all_ok = true, skip = false, fail = false;

		for (int p = 0; p < WP_N; p++) {
			struct watch_probe_stat *ps = &h->probe[p];

			switch (r->st[p]) {
			case WS_OK:
				ps->ok++;
				break;
			case WS_SKIPPED:
				ps->skipped++;
				skip = true;
				count_reason(ps, r->reason[p]);
				break;
			case WS_FAILED:
				ps->failed++;
				fail = true;
				count_reason(ps, r->reason[p]);
				break;
			default:
				ps->unknown++;
			}
			all_ok = all_ok && r->st[p] == WS_OK;
		}
		h->all_ok += all_ok;
		h->with_fail += fail;
		h->with_skip += skip && !fail;
		if (isfinite(r->write_errors) && !(r->write_errors <= h->write_errors))
			h->write_errors = r->write_errors;
	}
}

/* the daemon's baseline (the one its drift flags used), else baseline.json's */
static void baseline(struct watch_hist *h, enum watch_metric m)
{
	struct watch_metric_stat *s = &h->m[m];

	s->baseline = NAN;
	s->baseline_src = NULL;
	for (size_t i = h->n; i-- > 0;)
		if (h->round[i].drift_baseline[m] > 0) {
			s->baseline = h->round[i].drift_baseline[m];
			s->baseline_src = "history";
			return;
		}
	if (h->base_json[m] > 0) {
		s->baseline = h->base_json[m];
		s->baseline_src = "baseline.json";
	}
}

static void span_close(struct watch_hist *h, struct watch_metric_stat *s, enum watch_metric m,
		       size_t first, size_t last, size_t end)
{
	struct watch_span sp = { .first = first, .last = last, .worst_ratio = NAN, .worst_value = NAN };
	double drift = NAN;

	sp.from = h->round[first].ts;
	sp.cleared = end < h->n && h->round[end].degraded[m] == 0;
	sp.ongoing = end == h->n;
	sp.to = sp.cleared ? h->round[end].ts : h->round[last].ts;
	for (size_t i = first; i <= last; i++) {
		double r = watch_ratio(m, h->round[i].v[m], s->baseline);

		if (worse(m, h->round[i].v[m], sp.worst_value))
			sp.worst_value = h->round[i].v[m];
		if (isfinite(r) && !(r <= sp.worst_ratio))
			sp.worst_ratio = r;
		if (isfinite(h->round[i].drift_ratio[m]) && !(h->round[i].drift_ratio[m] <= drift))
			drift = h->round[i].drift_ratio[m];
	}
	/* no figure of the span against a known baseline: the daemon's own ratio */
	if (!isfinite(sp.worst_ratio))
		sp.worst_ratio = drift;
	s->degraded_s += sp.to - sp.from;
	if (s->nspans < WATCH_MAX_SPANS)
		s->span[s->nspans] = sp;
	s->nspans++;
}

static void spans(struct watch_hist *h, enum watch_metric m)
{
	struct watch_metric_stat *s = &h->m[m];
	size_t start = 0;
	bool in = false;

	for (size_t i = h->first; i < h->n; i++) {
		int d = h->round[i].degraded[m];

		s->nflag_known += d >= 0;
		if (d == 1 && !in) {
			in = true;
			start = i;
		} else if (d != 1 && in) {
			in = false;
			span_close(h, s, m, start, i - 1, i);
		}
	}
	if (in)
		span_close(h, s, m, start, h->n - 1, h->n);
}

struct slot {
	double hour, ts;
	size_t i;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->hour != y->hour)
		return x->hour < y->hour ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* is hour a worse than hour b (ranked by the ratio, or by the figure without a baseline) */
static bool hour_worse(enum watch_metric m, const struct watch_hour *a, const struct watch_hour *b)
{
	if (isfinite(a->ratio) || isfinite(b->ratio)) {
		if (a->ratio != b->ratio)
			return isfinite(a->ratio) && !(a->ratio <= b->ratio);
	} else if (a->median != b->median) {
		return worse(m, a->median, b->median);
	}
	return a->start < b->start;
}

static void hour_fill(const struct watch_hist *h, enum watch_metric m, const struct slot *sl,
		      size_t n, double base, double *tmp, struct watch_hour *out)
{
	double steal = 0;
	unsigned nsteal = 0;

	memset(out, 0, sizeof(*out));
	out->start = sl[0].hour;
	out->steal_max_pct = out->wakeup_p99_us = out->wakeup_max_us = NAN;
	for (size_t k = 0; k < n; k++) {
		const struct watch_round *r = &h->round[sl[k].i];

		out->rounds++;
		if (isfinite(r->v[m]))
			tmp[out->nvalues++] = r->v[m];
		if (isfinite(r->steal_pct)) {
			steal += r->steal_pct;
			nsteal++;
			if (!(r->steal_pct <= out->steal_max_pct))
				out->steal_max_pct = r->steal_pct;
		}
		if (isfinite(r->v[WM_WAKEUP_P99]) && !(r->v[WM_WAKEUP_P99] <= out->wakeup_p99_us))
			out->wakeup_p99_us = r->v[WM_WAKEUP_P99];
		if (isfinite(r->wakeup_max_us) && !(r->wakeup_max_us <= out->wakeup_max_us))
			out->wakeup_max_us = r->wakeup_max_us;
	}
	out->steal_pct = nsteal ? steal / nsteal : NAN;
	out->median = watch_hist_median(tmp, out->nvalues);
	out->ratio = watch_ratio(m, out->median, base);
}

static void hours(struct watch_hist *h, enum watch_metric m, struct slot *sl, double *tmp)
{
	struct watch_metric_stat *s = &h->m[m];
	size_t n = h->n - h->first;

	for (size_t k = 0; k < n; k++) {
		sl[k].i = h->first + k;
		sl[k].ts = h->round[sl[k].i].ts;
		sl[k].hour = floor(sl[k].ts / 3600) * 3600;
	}
	qsort(sl, n, sizeof(*sl), cmp_slot);
	for (size_t a = 0, b; a < n; a = b) {
		struct watch_hour hr;

		for (b = a + 1; b < n && sl[b].hour == sl[a].hour; b++)
			;
		hour_fill(h, m, sl + a, b - a, s->baseline, tmp, &hr);
		if (!hr.nvalues)
			continue;
		s->nhours++;
		/* insert into the worst-first list */
		unsigned k = s->ntop < WATCH_TOP_HOURS ? s->ntop++ : WATCH_TOP_HOURS;

		if (k == WATCH_TOP_HOURS) {
			if (!hour_worse(m, &hr, &s->top[WATCH_TOP_HOURS - 1]))
				continue;
			k = WATCH_TOP_HOURS - 1;
		}
		while (k > 0 && hour_worse(m, &hr, &s->top[k - 1])) {
			s->top[k] = s->top[k - 1];
			k--;
		}
		s->top[k] = hr;
	}
}

static void metric(struct watch_hist *h, enum watch_metric m, double *vals)
{
	struct watch_metric_stat *s = &h->m[m];
	size_t n = 0;

	s->median = s->worst = s->worst_ts = NAN;
	baseline(h, m);
	for (size_t i = h->first; i < h->n; i++) {
		double v = h->round[i].v[m];

		if (!isfinite(v))
			continue;
		vals[n++] = v;
		if (worse(m, v, s->worst)) {
			s->worst = v;
			s->worst_ts = h->round[i].ts;
		}
	}
	s->nvalues = (unsigned)n;
	s->median = watch_hist_median(vals, n);
	s->worst_ratio = watch_ratio(m, s->worst, s->baseline);
	s->median_ratio = watch_ratio(m, s->median, s->baseline);
	spans(h, m);
}

void watch_hist_analyse(struct watch_hist *h, double since_s)
{
	size_t n;
	double *vals;
	struct slot *sl;

	h->since_s = since_s;
	h->first = h->nperiod = 0;
	h->from = h->to = h->write_errors = NAN;
	h->all_ok = h->with_skip = h->with_fail = 0;
	memset(h->probe, 0, sizeof(h->probe));
	memset(h->m, 0, sizeof(h->m));
	for (int m = 0; m < WM_N; m++)
		h->m[m].baseline = h->m[m].median = h->m[m].worst = h->m[m].worst_ts =
			h->m[m].worst_ratio = h->m[m].median_ratio = NAN;
	if (!h->n)
		return;
	/* the period ends at the newest round, so a report of a stopped watcher still
	 * covers its last days */
	h->to = h->round[0].ts;
	for (size_t i = 1; i < h->n; i++)
		h->to = fmax(h->to, h->round[i].ts);
	if (since_s > 0)
		while (h->first < h->n && h->round[h->first].ts < h->to - since_s)
			h->first++;
	n = h->nperiod = h->n - h->first;
	h->from = h->round[h->first].ts;
	probes(h);
	vals = malloc(n * sizeof(*vals));
	sl = malloc(n * sizeof(*sl));
	for (int m = 0; m < WM_N; m++) {
		if (!vals || !sl) {
			/* no memory for the figures: they stay unknown rather than wrong */
			baseline(h, (enum watch_metric)m);
			continue;
		}
		metric(h, (enum watch_metric)m, vals);
		hours(h, (enum watch_metric)m, sl, vals);
	}
	free(vals);
	free(sl);
}
