/*
 * grade_collect_disk.c — the disk figures a report grades: sequential
 * write and read, the main random pass's IOPS and its timeline, the qd1
 * read latency, fdatasync latency and the storage profile's cliff. Only
 * complete, direct measurements of a device are graded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade_collect.h"
#include "core/lat_hist.h"
#include "core/plan.h"
#include "core/tail_ratio.h"
#include "core/uncert.h"
#include "report/report.h"

/* Marks m (measured, value kept) disturbed: why_not = "<what>: <what was seen>". */
static void mark_disturbed(struct metric *m, const char *what, const struct pass_io *d)
{
	char buf[320];

	if (!m || !m->measured || m->disturbed || !d->disturbed)
		return;
	m->disturbed = true;
	snprintf(buf, sizeof(buf), "%s%s%s", what, what[0] ? ": " : "", d->why);
	collect_set_why(m, buf); /* cut to fit */
}

static void set_uncert(struct metric *m, double u, const char *fmt, unsigned n)
{
	if (!m || !m->measured)
		return;
	m->uncert = u;
	snprintf(m->uncert_from, sizeof(m->uncert_from), fmt, n);
}

/*
 * The uncertainty of a bytes-over-seconds figure from n per-run (or
 * per-pass) rates: the 95% CI of the rates' mean, scaled by figure / mean
 * (the figure weighs a long run more than the mean does, its relative
 * spread is the same). NAN with fewer than 2 rates.
 */
static double rate_uncert(const double *rate, unsigned n, double figure)
{
	double sum = 0, u = uncert_mean_ci95(rate, n);

	for (unsigned i = 0; i < n; i++)
		sum += rate[i];
	if (!isfinite(u) || n == 0 || sum <= 0)
		return u;
	return u * figure / (sum / n);
}

void collect_seq(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_seq].status != BENCH_NOT_RUN;
	struct metric *w = collect_add(ms, "seq_write_mbps", sel), *r = collect_add(ms, "seq_read_mbps", sel);
	const struct seq_dir_result *d = rep->seq.ndirs ? &rep->seq.dirs[0] : NULL;
	char why[320];

	if (rep->outcome[MOD_seq].status != BENCH_OK || !d || d->status != SEQ_DONE) {
		collect_module_why(rep, MOD_seq, why, sizeof(why));
		if (d && d->status != SEQ_DONE && d->reason[0])
			snprintf(why, sizeof(why), "seq: %s", d->reason);
		collect_set_why(w, why);
		collect_set_why(r, why);
		return;
	}
	if (!storage_class_graded(d->storage.cls)) {
		snprintf(why, sizeof(why), "%s storage, not graded as a disk: %.200s",
			 storage_class_name(d->storage.cls), d->storage.why);
		collect_set_why(w, why);
		collect_set_why(r, why);
		return;
	}
	/* bytes over seconds of all runs, not the mean of their rates (README) */
	if (d->total_mbps.ok) {
		double rate[SEQ_MAX_RUNS];
		char what[32];

		collect_set_value(w, d->total_mbps.v, d->cov.ok ? d->cov.v * 100.0 : -1);
		for (unsigned i = 0; i < d->nruns; i++)
			rate[i] = d->runs[i].mbps;
		set_uncert(w, rate_uncert(rate, d->nruns, d->total_mbps.v), "%u write runs", d->nruns);
		for (unsigned i = 0; i < d->nruns; i++)
			if (d->runs[i].dist.disturbed) {
				snprintf(what, sizeof(what), "write run %u", i + 1);
				mark_disturbed(w, what, &d->runs[i].dist);
			}
	} else {
		collect_set_why(w, "no complete write run");
	}
	if (!d->read.mbps.ok) {
		collect_set_why(r, d->read.reason[0] ? d->read.reason : "the read pass did not run");
	} else if (d->read.direct != MB_TRUE) {
		collect_set_why(r, "buffered read (O_DIRECT refused): not graded as a disk figure");
	} else {
		double rate[SEQ_READ_PASSES];
		char what[32];

		collect_set_value(r, d->read.mbps.v, -1);
		for (unsigned i = 0; i < d->read.npasses; i++)
			rate[i] = d->read.passes[i].mbps;
		set_uncert(r, rate_uncert(rate, d->read.npasses, d->read.mbps.v), "%u read passes",
			   d->read.npasses);
		for (unsigned i = 0; i < d->read.npasses; i++)
			if (d->read.passes[i].dist.disturbed) {
				snprintf(what, sizeof(what), "read pass %u", i + 1);
				mark_disturbed(r, what, &d->read.passes[i].dist);
			}
	}
}

static int pct_index(double p)
{
	for (int i = 0; i < LAT_NPCT; i++)
		if (fabs(lat_default_percentiles[i] - p) < 1e-9)
			return i;
	return -1;
}

/* The main pass: the first complete one at queue depth > 1, 4k preferred. */
static const struct rand_pass_result *main_pass(const struct rand_result *r)
{
	const struct rand_pass_result *any = NULL;

	for (unsigned i = 0; i < r->npass; i++) {
		const struct rand_pass_result *p = &r->pass[i];

		if (p->iodepth <= 1)
			continue;
		if (p->bs == 4096)
			return p;
		if (!any)
			any = p;
	}
	return any;
}

static const struct rand_pass_result *lat_pass(const struct rand_result *r)
{
	for (unsigned i = 0; i < r->npass; i++) {
		const struct rand_pass_result *p = &r->pass[i];

		if (p->rw == RW_RANDREAD && p->iodepth == 1 && p->bs == 4096)
			return p;
	}
	return NULL;
}

static const char *pass_unusable(const struct rand_pass_result *p, char *buf, size_t n)
{
	if (p->status != BENCH_OK) {
		snprintf(buf, n, "pass %s %s%s%s", p->name, bench_status_name(p->status),
			 p->reason[0] ? ": " : "", p->reason);
		return buf;
	}
	if (p->runtime_ms == 0) {
		snprintf(buf, n, "pass %s measured nothing (0 ms)", p->name);
		return buf;
	}
	if (!p->direct) {
		snprintf(buf, n, "pass %s ran buffered (O_DIRECT refused): not graded", p->name);
		return buf;
	}
	if (!storage_class_graded(p->storage.cls)) {
		snprintf(buf, n, "%s storage, not graded as a disk: %.200s",
			 storage_class_name(p->storage.cls), p->storage.why);
		return buf;
	}
	return NULL;
}

/*
 * Per-second total IOPS of a pass: CoV in % and last-third / first-third
 * ratio, with their 95% half-widths, and the CI of the mean of the
 * per-second totals (*u_iops) over *nsec whole seconds.
 */
static void timeline_stats(const struct rand_pass_result *p, double *cov_pct, double *tail,
			   double *u_cov, double *u_tail, double *u_iops, unsigned *nsec)
{
	unsigned n = 0;
	double v[RAND_TL_MAX], sum = 0, var = 0;

	*cov_pct = NAN;
	*tail = NAN;
	*u_cov = *u_tail = *u_iops = NAN;
	*nsec = 0;
	for (int d = 0; d < 2; d++)
		if (p->dir_res[d].present && p->dir_res[d].ntimeline > n)
			n = p->dir_res[d].ntimeline;
	if (n > RAND_TL_MAX)
		n = RAND_TL_MAX;
	for (unsigned i = 0; i < n; i++) {
		v[i] = 0;
		for (int d = 0; d < 2; d++)
			if (p->dir_res[d].present && i < p->dir_res[d].ntimeline)
				v[i] += p->dir_res[d].timeline[i];
		sum += v[i];
	}
	*nsec = n;
	if (n >= 2)
		*u_iops = uncert_mean_ci95(v, n);
	if (n < 3 || sum <= 0)
		return;
	for (unsigned i = 0; i < n; i++)
		var += (v[i] - sum / n) * (v[i] - sum / n);
	*cov_pct = sqrt(var / (n - 1)) / (sum / n) * 100.0;
	/*
	 * The sample CoV's standard error is about CoV / sqrt(2 (n - 1)) (normal
	 * samples); x 1.96 for the 95% half-width every figure carries.
	 */
	*u_cov = 1.96 * *cov_pct / sqrt(2.0 * (n - 1));
	*tail = tail_ratio(v, n);
	if (isfinite(*tail)) {
		unsigned t = n / 3;
		double a = 0, b = 0;

		for (unsigned i = 0; i < t; i++) {
			a += v[n - t + i];
			b += v[i];
		}
		/* last-third mean over first-third mean, each with its own CI (NAN below 2 s each) */
		*u_tail = uncert_ratio(a / t, uncert_mean_ci95(v + n - t, t), b / t,
				       uncert_mean_ci95(v, t));
	}
}

/* The CI of the mean of one direction's per-second I/O counts. */
static double dir_iops_uncert(const struct rand_dir_result *r, unsigned *n)
{
	double v[RAND_TL_MAX];

	*n = r->ntimeline < RAND_TL_MAX ? r->ntimeline : RAND_TL_MAX;
	if (*n < 2)
		return NAN;
	for (unsigned i = 0; i < *n; i++)
		v[i] = r->timeline[i];
	return uncert_mean_ci95(v, *n);
}

/*
 * A latency percentile (ms) from a plat histogram, with its order-statistic
 * interval; too few samples for it: INFINITY and low confidence.
 */
static void pct_metric(struct metric *m, const uint64_t *bins, uint64_t n, double p, uint64_t v,
		       const char *what)
{
	double u;

	collect_set_value(m, (double)v / 1e6, -1);
	if (!m || !m->measured)
		return;
	u = lat_bins_pct_uncert(bins, n, p, v, NULL, NULL);
	m->uncert = isfinite(u) ? u / 1e6 : u;
	snprintf(m->uncert_from, sizeof(m->uncert_from), "order statistics of %llu %s",
		 (unsigned long long)n, what);
	if (isinf(u)) {
		m->low_confidence = true;
		snprintf(m->caveat, sizeof(m->caveat), "%llu %s, too few for a p%g",
			 (unsigned long long)n, what, p);
	}
}

void collect_rand(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_rand].status != BENCH_NOT_RUN;
	struct metric *iops = collect_add(ms, "rand_iops", sel), *ri = collect_add(ms, "rand_read_iops", sel),
		      *wi = collect_add(ms, "rand_write_iops", sel), *p50 = collect_add(ms, "lat_p50_ms", sel),
		      *p99 = collect_add(ms, "lat_p99_ms", sel), *cov = collect_add(ms, "rand_cov_pct", sel),
		      *tail = collect_add(ms, "rand_tail_ratio", sel);
	const struct rand_pass_result *mp, *lp;
	char why[320];
	int i50 = pct_index(50.0), i99 = pct_index(99.0);

	if (rep->outcome[MOD_rand].status == BENCH_NOT_RUN ||
	    rep->outcome[MOD_rand].status == BENCH_UNAVAIL || rep->rand.npass == 0) {
		collect_module_why(rep, MOD_rand, why, sizeof(why));
		collect_set_why(iops, why);
		collect_set_why(ri, why);
		collect_set_why(wi, why);
		collect_set_why(p50, why);
		collect_set_why(p99, why);
		collect_set_why(cov, why);
		collect_set_why(tail, why);
		return;
	}
	mp = main_pass(&rep->rand);
	if (!mp || pass_unusable(mp, why, sizeof(why))) {
		const char *w = mp ? why : "no pass at queue depth > 1 in this profile";

		collect_set_why(iops, w);
		collect_set_why(ri, w);
		collect_set_why(wi, w);
		collect_set_why(cov, w);
		collect_set_why(tail, w);
	} else {
		double c, t, uc, ut, ui;
		unsigned ns, nd;
		const struct rand_dir_result *r = &mp->dir_res[0], *w = &mp->dir_res[1];

		timeline_stats(mp, &c, &t, &uc, &ut, &ui, &ns);
		collect_set_value(iops, (r->present ? r->iops : 0) + (w->present ? w->iops : 0),
			  isfinite(c) ? c : -1);
		set_uncert(iops, ui, "%u per-second samples", ns);
		if (r->present) {
			collect_set_value(ri, r->iops, isfinite(c) ? c : -1);
			double u = dir_iops_uncert(r, &nd);

			set_uncert(ri, u, "%u per-second samples", nd);
		} else {
			collect_set_why(ri, "the main pass does no reads");
		}
		if (w->present) {
			collect_set_value(wi, w->iops, isfinite(c) ? c : -1);
			double u = dir_iops_uncert(w, &nd);

			set_uncert(wi, u, "%u per-second samples", nd);
		} else {
			collect_set_why(wi, "the main pass does no writes");
		}
		if (isfinite(c)) {
			collect_set_value(cov, c, -1);
			set_uncert(cov, uc, "%u per-second samples", ns);
		} else {
			collect_set_why(cov, "fewer than 3 whole seconds in the timeline");
		}
		if (isfinite(t)) {
			collect_set_value(tail, t, -1);
			set_uncert(tail, ut, "thirds of %u per-second samples", ns);
		} else {
			collect_set_why(tail, "fewer than 3 whole seconds in the timeline");
		}
		if (mp->dist.disturbed) {
			char what[48];

			snprintf(what, sizeof(what), "pass %s", mp->name);
			mark_disturbed(iops, what, &mp->dist);
			mark_disturbed(ri, what, &mp->dist);
			mark_disturbed(wi, what, &mp->dist);
			mark_disturbed(cov, what, &mp->dist);
			mark_disturbed(tail, what, &mp->dist);
		}
	}
	lp = lat_pass(&rep->rand);
	if (!lp || pass_unusable(lp, why, sizeof(why)) || !lp->dir_res[0].total_ios) {
		const char *w = !lp ? "no 4k randread pass at queue depth 1 in this profile" :
			why[0] && pass_unusable(lp, why, sizeof(why)) ? why : "no read completed";

		collect_set_why(p50, w);
		collect_set_why(p99, w);
	} else {
		const struct rand_dir_result *r = &lp->dir_res[0];

		pct_metric(p50, r->clat_bins, r->clat.n, 50.0, r->clat_pct[i50], "reads");
		pct_metric(p99, r->clat_bins, r->clat.n, 99.0, r->clat_pct[i99], "reads");
		if (lp->dist.disturbed) {
			char what[48];

			snprintf(what, sizeof(what), "pass %s", lp->name);
			mark_disturbed(p50, what, &lp->dist);
			mark_disturbed(p99, what, &lp->dist);
		}
	}
}

/*
 * fsync: the first dir's fdatasync latency. No tiers (the fit-for rules
 * read fsync_p99_ms); a sample under FSYNC_MIN_SYNCS_P99 syncs is still a
 * figure, its low confidence is in the report (p99_low_confidence).
 */
void collect_fsync(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_fsync].status != BENCH_NOT_RUN;
	struct metric *p50 = collect_add(ms, "fsync_p50_ms", sel), *p99 = collect_add(ms, "fsync_p99_ms", sel);
	const struct fsync_dir_result *d = rep->fsync.ndirs ? &rep->fsync.dirs[0] : NULL;
	int i50 = pct_index(50.0), i99 = pct_index(99.0);
	char why[320];

	if (!d || rep->outcome[MOD_fsync].status == BENCH_NOT_RUN ||
	    rep->outcome[MOD_fsync].status == BENCH_UNAVAIL) {
		collect_module_why(rep, MOD_fsync, why, sizeof(why));
	} else if (d->status != BENCH_OK) {
		snprintf(why, sizeof(why), "fsync %.80s %s%s%.200s", d->dir, bench_status_name(d->status),
			 d->reason[0] ? ": " : "", d->reason);
	} else if (!storage_class_graded(d->storage.cls)) {
		snprintf(why, sizeof(why), "%s storage, not graded as a disk: %.200s",
			 storage_class_name(d->storage.cls), d->storage.why);
	} else if (d->sync.n == 0) {
		snprintf(why, sizeof(why), "no fdatasync() completed");
	} else {
		pct_metric(p50, d->sync.bins, d->sync.n, 50.0, d->sync.pct[i50], "syncs");
		pct_metric(p99, d->sync.bins, d->sync.n, 99.0, d->sync.pct[i99], "syncs");
		mark_disturbed(p50, "fsync pass", &d->dist);
		mark_disturbed(p99, "fsync pass", &d->dist);
		if (p99 && d->p99_low_confidence && !p99->low_confidence) {
			/* shown beside any rule answer built on it (the etcd rule) */
			p99->low_confidence = true;
			snprintf(p99->caveat, sizeof(p99->caveat), "%llu syncs sampled, fewer than %u",
				 (unsigned long long)d->sync.n, (unsigned)FSYNC_MIN_SYNCS_P99);
		}
		return;
	}
	collect_set_why(p50, why);
	collect_set_why(p99, why);
}

/*
 * storage profile: the cliff's knee and the sustained sequential write
 * rate. No tiers; null with the reason when not measured or no knee.
 */
void collect_cache(const struct bench_report *rep, struct metric_set *ms)
{
	const struct cache_result *r = &rep->cache;
	bool sel = rep->outcome[MOD_cache].status != BENCH_NOT_RUN;
	struct metric *k = collect_add(ms, "storage_cliff_gib", sel), *w = collect_add(ms, "storage_sustained_write_mbps", sel);
	char why[320];

	if (!sel || rep->outcome[MOD_cache].status != BENCH_OK) {
		collect_module_why(rep, MOD_cache, why, sizeof(why));
		collect_set_why(k, why);
		collect_set_why(w, why);
		return;
	}
	if (r->knee >= 0) {
		collect_set_value(k, (double)r->points[r->knee].size / (double)(1ULL << 30), -1);
	} else {
		snprintf(why, sizeof(why), "no cache effect up to %.2f GiB",
			 (double)r->measured_up_to / (double)(1ULL << 30));
		collect_set_why(k, why);
	}
	/* all bytes over the real time: a test under 1 s has its figure too */
	if (r->seq.status == BENCH_OK && r->seq.bytes && r->seq.secs > 0)
		collect_set_value(w, r->seq.sustained_bps / 1e6, -1);
	else
		collect_set_why(w, r->seq.reason[0] ? r->seq.reason : "sequential write test not run");
}

const struct rand_pass_result *grade_main_pass(const struct rand_result *r)
{
	return main_pass(r);
}

const struct rand_pass_result *grade_lat_pass(const struct rand_result *r)
{
	return lat_pass(r);
}

