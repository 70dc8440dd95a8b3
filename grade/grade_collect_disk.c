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
#include "report/report.h"

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
	if (d->total_mbps.ok)
		collect_set_value(w, d->total_mbps.v, d->cov.ok ? d->cov.v * 100.0 : -1);
	else
		collect_set_why(w, "no complete write run");
	if (!d->read.mbps.ok)
		collect_set_why(r, d->read.reason[0] ? d->read.reason : "the read pass did not run");
	else if (d->read.direct != MB_TRUE)
		collect_set_why(r, "buffered read (O_DIRECT refused): not graded as a disk figure");
	else
		collect_set_value(r, d->read.mbps.v, -1);
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

/* Per-second total IOPS of a pass: CoV in % and last-third / first-third ratio. */
static void timeline_stats(const struct rand_pass_result *p, double *cov_pct, double *tail)
{
	unsigned n = 0;
	double v[RAND_TL_MAX], sum = 0, var = 0;

	*cov_pct = NAN;
	*tail = NAN;
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
	if (n < 3 || sum <= 0)
		return;
	for (unsigned i = 0; i < n; i++)
		var += (v[i] - sum / n) * (v[i] - sum / n);
	*cov_pct = sqrt(var / (n - 1)) / (sum / n) * 100.0;
	*tail = tail_ratio(v, n);
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
		double c, t;
		const struct rand_dir_result *r = &mp->dir_res[0], *w = &mp->dir_res[1];

		timeline_stats(mp, &c, &t);
		collect_set_value(iops, (r->present ? r->iops : 0) + (w->present ? w->iops : 0),
			  isfinite(c) ? c : -1);
		if (r->present)
			collect_set_value(ri, r->iops, isfinite(c) ? c : -1);
		else
			collect_set_why(ri, "the main pass does no reads");
		if (w->present)
			collect_set_value(wi, w->iops, isfinite(c) ? c : -1);
		else
			collect_set_why(wi, "the main pass does no writes");
		if (isfinite(c))
			collect_set_value(cov, c, -1);
		else
			collect_set_why(cov, "fewer than 3 whole seconds in the timeline");
		if (isfinite(t))
			collect_set_value(tail, t, -1);
		else
			collect_set_why(tail, "fewer than 3 whole seconds in the timeline");
	}
	lp = lat_pass(&rep->rand);
	if (!lp || pass_unusable(lp, why, sizeof(why)) || !lp->dir_res[0].total_ios) {
		const char *w = !lp ? "no 4k randread pass at queue depth 1 in this profile" :
			why[0] && pass_unusable(lp, why, sizeof(why)) ? why : "no read completed";

		collect_set_why(p50, w);
		collect_set_why(p99, w);
	} else {
		collect_set_value(p50, (double)lp->dir_res[0].clat_pct[i50] / 1e6, -1);
		collect_set_value(p99, (double)lp->dir_res[0].clat_pct[i99] / 1e6, -1);
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
		collect_set_value(p50, (double)d->sync.pct[i50] / 1e6, -1);
		collect_set_value(p99, (double)d->sync.pct[i99] / 1e6, -1);
		if (p99 && d->p99_low_confidence) {
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
	if (r->seq.status == BENCH_OK && r->seq.n)
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

