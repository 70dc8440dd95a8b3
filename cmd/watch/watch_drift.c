/*
 * watch_drift.c — the drift state of each watched metric (watch_drift.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/watch/watch_drift.h"

const char *const watch_drift_names[WD_COUNT] = {
	"randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us",
};

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

_Static_assert((int)WD_COUNT == WATCH_BASE_METRICS && (int)WD_DRAM == WBF_DRAM &&
	       (int)WD_WAKEUP == WBF_WAKEUP, "the drift metrics are watch_base's first figures");
_Static_assert((int)WBS_REPORT == WBS_REPORT && (int)WBS_ROUNDS == WBS_ROUNDS &&
	       (int)WBS_ENV == WBS_ENV, "one list of baseline sources");

static void use_fig(struct watch_drift_metric *m, const struct watch_drift_fig *f)
{
	static const struct mdbl none = { 0, false };

	m->baseline = f && f->v.ok ? f->v : none;
	m->baseline_src = f && f->v.ok ? f->src : WBS_NONE;
	m->baseline_time = f && f->v.ok ? f->time : 0;
}

void watch_drift_init(struct watch_drift *d, unsigned window, double margin,
		      const struct watch_drift_fig fig[WBF_N])
{
	memset(d, 0, sizeof(*d));
	d->window = window < 1 ? 1 : window > WATCH_MAX_WINDOW ? WATCH_MAX_WINDOW : window;
	d->margin = margin;
	d->dram_huge = MB_UNKNOWN;
	for (int i = 0; i < WBF_N; i++)
		if (fig[i].v.ok && fig[i].v.v > 0)
			d->fig[i] = fig[i];
	for (int i = 0; i < WD_COUNT; i++) {
		d->m[i].degraded = MB_UNKNOWN;
		if (i == WD_DRAM)
			continue; /* huge or 4k: the first DRAM figure says which */
		use_fig(&d->m[i], &d->fig[i]);
		d->learn[i] = !d->m[i].baseline.ok && (i == WD_WAKEUP || i == WD_RANDREAD);
	}
}

/* DRAM like for like: the report's huge-page figure for a probe on huge pages, its 4 KiB-page
 * one for a probe on 4 KiB pages, none when the probe cannot say; a change of pages starts the
 * window again (the values before are not comparable). */
static void dram_pick(struct watch_drift *d, enum mbool huge, FILE *log)
{
	struct watch_drift_metric *m = &d->m[WD_DRAM];
	const struct watch_drift_fig *f = huge == MB_TRUE ? &d->fig[WBF_DRAM] :
					  huge == MB_FALSE ? &d->fig[WBF_DRAM_4K] : NULL;

	if (d->dram_picked && huge == d->dram_huge)
		return;
	if (d->dram_picked) {
		m->nvals = m->head = m->beyond_run = m->within_run = 0;
		m->degraded = MB_UNKNOWN;
		m->ratio = m->median = (struct mdbl){ 0, false };
		if (log)
			fprintf(log, "vpsbench: watch: dram_ns: the probe now runs on %s pages: its "
				"window starts again\n", huge == MB_TRUE ? "huge" :
				huge == MB_FALSE ? "4 KiB" : "unknown");
	}
	d->dram_picked = true;
	d->dram_huge = huge;
	use_fig(m, f);
	if (!m->baseline.ok && log)
		fprintf(log, "vpsbench: watch: dram_ns: no like-for-like baseline: the probe ran on "
			"%s pages and the baseline has no figure for them; not graded\n",
			huge == MB_TRUE ? "huge" : huge == MB_FALSE ? "4 KiB" : "unknown");
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

static void push(struct watch_drift_metric *m, unsigned k, double v)
{
	m->vals[m->head] = v;
	m->head = (m->head + 1) % k;
	if (m->nvals < k)
		m->nvals++;
	m->median = mdbl_of(watch_median(m->vals, m->nvals));
}

static bool beyond(const struct watch_drift *d, int id, double v)
{
	return ratio_of(id, v, d->m[id].baseline.v) > 1 + d->margin;
}

/* the median of the first K gate-open values becomes the baseline */
static void learn(struct watch_drift *d, int i, const struct watch_round *r, double v, FILE *log)
{
	struct watch_drift_metric *m = &d->m[i];

	if (!r->gate_open || m->nfirst >= WATCH_MAX_WINDOW)
		return;
	m->first[m->nfirst++] = v;
	if (m->nfirst < d->window)
		return;
	d->fig[i].v = mdbl_of(watch_median(m->first, m->nfirst));
	d->fig[i].src = WBS_ROUNDS;
	d->fig[i].time = r->unix_time;
	use_fig(m, &d->fig[i]);
	d->learnt = true;
	if (log)
		fprintf(log, "vpsbench: watch: %s baseline %.1f learnt: the median of the first %u "
			"rounds the gate let run\n", watch_drift_names[i], m->baseline.v, m->nfirst);
}

void watch_drift_restore(struct watch_drift *d, int id, const double *v, unsigned n, int flag,
			 double hist_base, int dram_huge)
{
	struct watch_drift_metric *m = &d->m[id];
	unsigned k = d->window;

	if (id == WD_DRAM) {
		if (dram_huge < 0)
			return; /* values of unknown pages: nothing like for like to restore */
		dram_pick(d, dram_huge ? MB_TRUE : MB_FALSE, NULL);
	}
	if (n > k) {
		v += n - k;
		n = k;
	}
	for (unsigned j = 0; j < n; j++)
		if (v[j] > 0)
			push(m, k, v[j]);
	if (!m->baseline.ok || !m->nvals)
		return;
	m->ratio = mdbl_of(ratio_of(id, m->median.v, m->baseline.v));
	m->beyond_run = m->within_run = 0;
	for (unsigned j = n; j-- > 0;) {
		bool b = beyond(d, id, v[j]);

		if (b && !m->within_run)
			m->beyond_run++;
		else if (!b && !m->beyond_run)
			m->within_run++;
		else
			break;
	}
	/* the flag the history last wrote, when it was graded against this baseline (the
	 * history keeps one decimal) */
	if (flag >= 0 && isfinite(hist_base) && fabs(hist_base - m->baseline.v) <= 0.051)
		m->degraded = flag ? MB_TRUE : MB_FALSE;
	else if (m->beyond_run >= k)
		m->degraded = MB_TRUE;
	else if (m->within_run >= k)
		m->degraded = MB_FALSE;
}

void watch_drift_update(struct watch_drift *d, const struct watch_round *r, FILE *log)
{
	unsigned k = d->window;

	for (int i = 0; i < WD_COUNT; i++) {
		struct watch_drift_metric *m = &d->m[i];
		struct mdbl v = value_of(r, i);
		enum mbool was;

		if (!v.ok || !(v.v > 0))
			continue;
		if (i == WD_DRAM)
			dram_pick(d, r->probe[WP_DRAM].huge, log);
		was = m->degraded;
		push(m, k, v.v);
		if (d->learn[i] && !m->baseline.ok)
			learn(d, i, r, v.v, log);
		if (!m->baseline.ok)
			continue;
		m->ratio = mdbl_of(ratio_of(i, m->median.v, m->baseline.v));
		if (beyond(d, i, v.v)) {
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
