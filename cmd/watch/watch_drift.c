/*
 * watch_drift.c — the drift state of each watched metric (watch_drift.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/watch/watch_drift.h"

const char *const watch_drift_names[WD_COUNT] = {
	"randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us",
};

const char *const watch_base_src_names[WB_COUNT] = { "none", "report", "rounds", "env" };

static const bool is_rate[WD_COUNT] = { false, false, true, false, false };

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double watch_median(const double *v, unsigned n)
{
	double s[WATCH_MAX_WINDOW];

	if (n == 0)
		return 0;
	if (n > WATCH_MAX_WINDOW)
		n = WATCH_MAX_WINDOW;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

void watch_drift_init(struct watch_drift *d, unsigned window, double margin,
		      const struct mdbl baseline[WD_COUNT])
{
	memset(d, 0, sizeof(*d));
	d->window = window < 1 ? 1 : window > WATCH_MAX_WINDOW ? WATCH_MAX_WINDOW : window;
	d->margin = margin;
	for (int i = 0; i < WD_COUNT; i++) {
		if (baseline[i].ok && baseline[i].v > 0)
			d->m[i].baseline = baseline[i];
		d->m[i].degraded = MB_UNKNOWN;
	}
}

static struct mdbl value_of(const struct watch_round *r, int id)
{
	static const struct mdbl none = { 0, false };
	const struct watch_probe_result *p;

	switch (id) {
	case WD_RANDREAD:
	case WD_FSYNC:
		p = &r->probe[id == WD_RANDREAD ? WP_RANDREAD : WP_FSYNC];
		return p->status == WS_OK ? p->p99_us : none;
	case WD_PRIME:
		p = &r->probe[WP_PRIME];
		return p->status == WS_OK ? p->eps : none;
	case WD_DRAM:
		p = &r->probe[WP_DRAM];
		return p->status == WS_OK ? p->ns : none;
	default:
		return r->wake.samples ? r->wake.p99_us : none;
	}
}

static double ratio_of(int id, double v, double base)
{
	return is_rate[id] ? base / v : v / base;
}

void watch_drift_update(struct watch_drift *d, const struct watch_round *r, FILE *log)
{
	unsigned k = d->window;

	for (int i = 0; i < WD_COUNT; i++) {
		struct watch_drift_metric *m = &d->m[i];
		struct mdbl v = value_of(r, i);
		enum mbool was = m->degraded;

		if (!v.ok || !(v.v > 0))
			continue;
		m->vals[m->head] = v.v;
		m->head = (m->head + 1) % k;
		if (m->nvals < k)
			m->nvals++;
		m->median = mdbl_of(watch_median(m->vals, m->nvals));
		if (i == WD_WAKEUP && !m->baseline.ok) {
			m->first[m->nfirst++] = v.v;
			if (m->nfirst >= k)
				m->baseline = mdbl_of(watch_median(m->first, m->nfirst));
		}
		if (!m->baseline.ok)
			continue;
		m->ratio = mdbl_of(ratio_of(i, m->median.v, m->baseline.v));
		if (ratio_of(i, v.v, m->baseline.v) > 1 + d->margin) {
			m->beyond_run++;
			m->within_run = 0;
		} else {
			m->within_run++;
			m->beyond_run = 0;
		}
		if (m->degraded == MB_UNKNOWN)
			m->degraded = MB_FALSE;
		if (m->beyond_run >= k)
			m->degraded = MB_TRUE;
		else if (m->within_run >= k)
			m->degraded = MB_FALSE;
		if (log && was != MB_UNKNOWN && was != m->degraded)
			fprintf(log, "vpsbench: watch: %s %s: median %.1f of the last %u against "
				"baseline %.1f (ratio %.2f, margin %.2f)\n", watch_drift_names[i],
				m->degraded == MB_TRUE ? "degraded" : "recovered", m->median.v,
				m->nvals, m->baseline.v, m->ratio.v, d->margin);
		else if (log && was == MB_UNKNOWN && m->degraded == MB_TRUE)
			fprintf(log, "vpsbench: watch: %s degraded: median %.1f of the last %u against "
				"baseline %.1f (ratio %.2f, margin %.2f)\n", watch_drift_names[i],
				m->median.v, m->nvals, m->baseline.v, m->ratio.v, d->margin);
	}
	if (log)
		fflush(log);
}
