/*
 * grade_metrics.c — which figures of a report are graded, and why one
 * is not (not run, buffered instead of direct, failed, not a device).
 * Only complete, direct measurements of a device (or of storage that
 * cannot be told apart) are graded: a partial, buffered, memory-backed,
 * cached or network figure is never passed off as a disk figure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"
#include "core/lat_hist.h"
#include "core/plan.h"
#include "core/tail_ratio.h"
#include "report/report.h"

static struct metric *add(struct metric_set *ms, const char *name, bool selected)
{
	struct metric *m = metric_add(ms, name);

	if (m)
		m->selected = selected;
	return m;
}

static void set_value(struct metric *m, double v, double spread_pct)
{
	if (!m)
		return;
	if (!isfinite(v)) {
		snprintf(m->why_not, sizeof(m->why_not), "no finite value was measured");
		return;
	}
	m->value = v;
	m->measured = true;
	m->spread_pct = spread_pct;
}

/* Reasons come from longer module texts: cut them to fit, on purpose. */
static void set_why(struct metric *m, const char *why)
{
	size_t n;

	if (!m)
		return;
	n = strnlen(why, sizeof(m->why_not) - 1);
	memcpy(m->why_not, why, n);
	m->why_not[n] = '\0';
}

static const char *module_why(const struct bench_report *rep, int id, char *buf, size_t n)
{
	const struct mod_outcome *o = &rep->outcome[id];

	if (o->status == BENCH_NOT_RUN)
		snprintf(buf, n, "the %s module was not run", bench_modules[id]->name);
	else
		snprintf(buf, n, "%s %s%s%s", bench_modules[id]->name, bench_status_name(o->status),
			 o->reason[0] ? ": " : "", o->reason);
	return buf;
}

static void collect_seq(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_seq].status != BENCH_NOT_RUN;
	struct metric *w = add(ms, "seq_write_mbps", sel), *r = add(ms, "seq_read_mbps", sel);
	const struct seq_dir_result *d = rep->seq.ndirs ? &rep->seq.dirs[0] : NULL;
	char why[320];

	if (rep->outcome[MOD_seq].status != BENCH_OK || !d || d->status != SEQ_DONE) {
		module_why(rep, MOD_seq, why, sizeof(why));
		if (d && d->status != SEQ_DONE && d->reason[0])
			snprintf(why, sizeof(why), "seq: %s", d->reason);
		set_why(w, why);
		set_why(r, why);
		return;
	}
	if (!storage_class_graded(d->storage.cls)) {
		snprintf(why, sizeof(why), "%s storage, not graded as a disk: %.200s",
			 storage_class_name(d->storage.cls), d->storage.why);
		set_why(w, why);
		set_why(r, why);
		return;
	}
	/* bytes over seconds of all runs, not the mean of their rates (README) */
	if (d->total_mbps.ok)
		set_value(w, d->total_mbps.v, d->cov.ok ? d->cov.v * 100.0 : -1);
	else
		set_why(w, "no complete write run");
	if (!d->read.mbps.ok)
		set_why(r, d->read.reason[0] ? d->read.reason : "the read pass did not run");
	else if (d->read.direct != MB_TRUE)
		set_why(r, "buffered read (O_DIRECT refused): not graded as a disk figure");
	else
		set_value(r, d->read.mbps.v, -1);
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

static void collect_rand(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_rand].status != BENCH_NOT_RUN;
	struct metric *iops = add(ms, "rand_iops", sel), *ri = add(ms, "rand_read_iops", sel),
		      *wi = add(ms, "rand_write_iops", sel), *p50 = add(ms, "lat_p50_ms", sel),
		      *p99 = add(ms, "lat_p99_ms", sel), *cov = add(ms, "rand_cov_pct", sel),
		      *tail = add(ms, "rand_tail_ratio", sel);
	const struct rand_pass_result *mp, *lp;
	char why[320];
	int i50 = pct_index(50.0), i99 = pct_index(99.0);

	if (rep->outcome[MOD_rand].status == BENCH_NOT_RUN ||
	    rep->outcome[MOD_rand].status == BENCH_UNAVAIL || rep->rand.npass == 0) {
		module_why(rep, MOD_rand, why, sizeof(why));
		set_why(iops, why);
		set_why(ri, why);
		set_why(wi, why);
		set_why(p50, why);
		set_why(p99, why);
		set_why(cov, why);
		set_why(tail, why);
		return;
	}
	mp = main_pass(&rep->rand);
	if (!mp || pass_unusable(mp, why, sizeof(why))) {
		const char *w = mp ? why : "no pass at queue depth > 1 in this profile";

		set_why(iops, w);
		set_why(ri, w);
		set_why(wi, w);
		set_why(cov, w);
		set_why(tail, w);
	} else {
		double c, t;
		const struct rand_dir_result *r = &mp->dir_res[0], *w = &mp->dir_res[1];

		timeline_stats(mp, &c, &t);
		set_value(iops, (r->present ? r->iops : 0) + (w->present ? w->iops : 0),
			  isfinite(c) ? c : -1);
		if (r->present)
			set_value(ri, r->iops, isfinite(c) ? c : -1);
		else
			set_why(ri, "the main pass does no reads");
		if (w->present)
			set_value(wi, w->iops, isfinite(c) ? c : -1);
		else
			set_why(wi, "the main pass does no writes");
		if (isfinite(c))
			set_value(cov, c, -1);
		else
			set_why(cov, "fewer than 3 whole seconds in the timeline");
		if (isfinite(t))
			set_value(tail, t, -1);
		else
			set_why(tail, "fewer than 3 whole seconds in the timeline");
	}
	lp = lat_pass(&rep->rand);
	if (!lp || pass_unusable(lp, why, sizeof(why)) || !lp->dir_res[0].total_ios) {
		const char *w = !lp ? "no 4k randread pass at queue depth 1 in this profile" :
			why[0] && pass_unusable(lp, why, sizeof(why)) ? why : "no read completed";

		set_why(p50, w);
		set_why(p99, w);
	} else {
		set_value(p50, (double)lp->dir_res[0].clat_pct[i50] / 1e6, -1);
		set_value(p99, (double)lp->dir_res[0].clat_pct[i99] / 1e6, -1);
	}
}

/*
 * fsync: the first dir's fdatasync latency. No tiers (the fit-for rules
 * read fsync_p99_ms); a sample under FSYNC_MIN_SYNCS_P99 syncs is still a
 * figure, its low confidence is in the report (p99_low_confidence).
 */
static void collect_fsync(const struct bench_report *rep, struct metric_set *ms)
{
	bool sel = rep->outcome[MOD_fsync].status != BENCH_NOT_RUN;
	struct metric *p50 = add(ms, "fsync_p50_ms", sel), *p99 = add(ms, "fsync_p99_ms", sel);
	const struct fsync_dir_result *d = rep->fsync.ndirs ? &rep->fsync.dirs[0] : NULL;
	int i50 = pct_index(50.0), i99 = pct_index(99.0);
	char why[320];

	if (!d || rep->outcome[MOD_fsync].status == BENCH_NOT_RUN ||
	    rep->outcome[MOD_fsync].status == BENCH_UNAVAIL) {
		module_why(rep, MOD_fsync, why, sizeof(why));
	} else if (d->status != BENCH_OK) {
		snprintf(why, sizeof(why), "fsync %.80s %s%s%.200s", d->dir, bench_status_name(d->status),
			 d->reason[0] ? ": " : "", d->reason);
	} else if (!storage_class_graded(d->storage.cls)) {
		snprintf(why, sizeof(why), "%s storage, not graded as a disk: %.200s",
			 storage_class_name(d->storage.cls), d->storage.why);
	} else if (d->sync.n == 0) {
		snprintf(why, sizeof(why), "no fdatasync() completed");
	} else {
		set_value(p50, (double)d->sync.pct[i50] / 1e6, -1);
		set_value(p99, (double)d->sync.pct[i99] / 1e6, -1);
		if (p99 && d->p99_low_confidence) {
			/* shown beside any rule answer built on it (the etcd rule) */
			p99->low_confidence = true;
			snprintf(p99->caveat, sizeof(p99->caveat), "%llu syncs sampled, fewer than %u",
				 (unsigned long long)d->sync.n, (unsigned)FSYNC_MIN_SYNCS_P99);
		}
		return;
	}
	set_why(p50, why);
	set_why(p99, why);
}

/*
 * storage profile: the cliff's knee and the sustained sequential write
 * rate. No tiers; null with the reason when not measured or no knee.
 */
static void collect_cache(const struct bench_report *rep, struct metric_set *ms)
{
	const struct cache_result *r = &rep->cache;
	bool sel = rep->outcome[MOD_cache].status != BENCH_NOT_RUN;
	struct metric *k = add(ms, "storage_cliff_gib", sel), *w = add(ms, "storage_sustained_write_mbps", sel);
	char why[320];

	if (!sel || rep->outcome[MOD_cache].status != BENCH_OK) {
		module_why(rep, MOD_cache, why, sizeof(why));
		set_why(k, why);
		set_why(w, why);
		return;
	}
	if (r->knee >= 0) {
		set_value(k, (double)r->points[r->knee].size / (double)(1ULL << 30), -1);
	} else {
		snprintf(why, sizeof(why), "no cache effect up to %.2f GiB",
			 (double)r->measured_up_to / (double)(1ULL << 30));
		set_why(k, why);
	}
	if (r->seq.status == BENCH_OK && r->seq.n)
		set_value(w, r->seq.sustained_bps / 1e6, -1);
	else
		set_why(w, r->seq.reason[0] ? r->seq.reason : "sequential write test not run");
}

/*
 * net: the best measured server per direction (the closest server shows the
 * port's capacity). Busy, failed and timed-out rows are never graded; the
 * metrics exist only when --net ran the module, so offline reports keep
 * their shape.
 */
static void collect_net(const struct bench_report *rep, struct metric_set *ms)
{
	const struct net_result *r = &rep->net;
	struct metric *snd, *rcv;
	double best[2] = { -1, -1 };
	char why[320];

	if (rep->outcome[MOD_net].status == BENCH_NOT_RUN)
		return;
	snd = add(ms, "net_send_mbit_s", true);
	rcv = add(ms, "net_recv_mbit_s", true);
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_dir *d[2] = { &r->rows[i].send, &r->rows[i].recv };

		for (int k = 0; k < 2; k++)
			if (d[k]->status == NET_DONE && d[k]->bps.ok && d[k]->bps.v / 1e6 > best[k])
				best[k] = d[k]->bps.v / 1e6;
	}
	module_why(rep, MOD_net, why, sizeof(why));
	if (best[0] >= 0)
		set_value(snd, best[0], -1);
	else
		set_why(snd, r->nrows ? "no server measured sending (busy or failed)" : why);
	if (best[1] >= 0)
		set_value(rcv, best[1], -1);
	else
		set_why(rcv, r->nrows ? "no server measured receiving (busy or failed)" : why);
}

const struct rand_pass_result *grade_main_pass(const struct rand_result *r)
{
	return main_pass(r);
}

const struct rand_pass_result *grade_lat_pass(const struct rand_result *r)
{
	return lat_pass(r);
}

const struct grade *grade_get(const struct grade_result *g, const char *metric)
{
	for (unsigned i = 0; i < g->n; i++)
		if (strcmp(g->g[i].metric, metric) == 0)
			return &g->g[i];
	return NULL;
}

void grade_warn(struct bench_report *rep)
{
	const struct grade *t = grade_get(&rep->grade, "rand_tail_ratio");
	const struct rand_pass_result *mp = grade_main_pass(&rep->rand);

	if (t && mp && strcmp(t->tier, "drop") == 0)
		report_warn(rep, "rand %s in %s: IOPS dropped during the pass (last third at %.0f%% of "
			    "the first third): %s", mp->name, mp->dir ? mp->dir : "?", t->value * 100,
			    t->meaning);
}

/* A pass that did not get its CPU: why its figures are shown but not graded, else NULL. */
static const char *disturbed_why(const struct pass_cpu *c, const char *pass, char *buf, size_t n)
{
	if (!c->disturbed)
		return NULL;
	snprintf(buf, n, "the %s got %.0f%% of its CPU time (below %.0f%%): shown, not graded",
		 pass, c->share.v * 100, PASS_CPU_SHARE_MIN * 100);
	return buf;
}

static void collect_cpu_scaling(const struct bench_report *rep, struct metric *sc,
				struct metric *pc)
{
	const struct cpu_result *c = &rep->cpu;
	const struct mu64 *cores = &rep->sys.cpu.physical_cores;
	char why[160];
	unsigned on;

	if (!c->scaling.ok) {
		set_why(sc, "a prime pass did not finish");
		set_why(pc, "a prime pass did not finish");
		return;
	}
	if (c->multi.threads < 2) {
		set_why(sc, "one effective CPU: no scaling to measure");
		set_why(pc, "one effective CPU: no scaling to measure");
		return;
	}
	if (c->single.cpu.disturbed || c->multi.cpu.disturbed) {
		set_why(sc, "a prime pass did not get its CPU: shown, not graded");
		set_why(pc, "a prime pass did not get its CPU: shown, not graded");
		return;
	}
	/* more than x threads cannot come from the threads: one of the passes was disturbed */
	if (c->scaling.v > c->multi.threads * 1.05) {
		snprintf(why, sizeof(why), "%.2fx on %u threads is above the thread count: "
			 "measurement disturbed, not graded", c->scaling.v, c->multi.threads);
		set_why(sc, why);
		set_why(pc, why);
		return;
	}
	set_value(sc, c->scaling.v, -1);
	if (!cores->ok) {
		set_why(pc, "physical cores unknown (sysinfo not run, or no sysfs topology)");
		return;
	}
	on = cores->v < c->multi.threads ? (unsigned)cores->v : c->multi.threads;
	set_value(pc, c->scaling.v / on, -1);
}

static void collect_cpu(const struct bench_report *rep, struct metric_set *ms)
{
	const struct cpu_result *c = &rep->cpu;
	bool sel = rep->outcome[MOD_cpu].status != BENCH_NOT_RUN;
	struct metric *s = add(ms, "cpu_single_eps", sel), *m = add(ms, "cpu_multi_eps", sel),
		      *sc = add(ms, "cpu_scaling", sel), *st = add(ms, "cpu_steal_pct", sel),
		      *pc = add(ms, "cpu_scaling_per_core", sel);
	char why[320];

	if (rep->outcome[MOD_cpu].status != BENCH_OK) {
		module_why(rep, MOD_cpu, why, sizeof(why));
		set_why(s, why);
		set_why(m, why);
		set_why(sc, why);
		set_why(st, why);
		set_why(pc, why);
		return;
	}
	if (!c->single.eps.ok)
		set_why(s, "the 1-thread pass counted no event");
	else if (disturbed_why(&c->single.cpu, "1-thread prime pass", why, sizeof(why)))
		set_why(s, why);
	else
		set_value(s, c->single.eps.v, -1);
	if (!c->multi.eps.ok)
		set_why(m, "the N-thread pass counted no event");
	else if (disturbed_why(&c->multi.cpu, "N-thread prime pass", why, sizeof(why)))
		set_why(m, why);
	else
		set_value(m, c->multi.eps.v, -1);
	collect_cpu_scaling(rep, sc, pc);
	if (c->steal_pct.ok)
		set_value(st, c->steal_pct.v, -1);
	else
		set_why(st, "/proc/stat unreadable or without a steal field: unknown");
}

/* The N-thread run when there is one, else the 1-thread run. */
static const struct mem_stream *mem_all_threads(const struct mem_result *m)
{
	return m->st[1].present ? &m->st[1] : m->st[0].present ? &m->st[0] : NULL;
}

static void mem_bw(struct metric *x, const struct mem_stream *s, int k, const char *capped)
{
	char why[160];

	if (capped)
		set_why(x, capped);
	else if (!s || !s->mbps[k].ok)
		set_why(x, "the STREAM run has no figure");
	else if (!s->validated)
		set_why(x, "the STREAM check failed");
	else if (disturbed_why(&s->cpu, s->threads > 1 ? "N-thread STREAM run" : "1-thread STREAM run",
			       why, sizeof(why)))
		set_why(x, why);
	else
		set_value(x, s->mbps[k].v, -1);
}

/* Per vCPU: the N-thread Triad / N, and that over the 1-thread Triad. */
static void mem_per_vcpu(const struct mem_result *m, const struct metric *t1,
			 const struct metric *tn, struct metric *pv, struct metric *eff)
{
	if (!m->st[1].present || m->st[1].threads < 2) {
		set_why(pv, "no multi-thread STREAM run (one effective CPU)");
		set_why(eff, "no multi-thread STREAM run (one effective CPU)");
		return;
	}
	if (!tn || !tn->measured) {
		set_why(pv, tn ? tn->why_not : "not measured");
		set_why(eff, tn ? tn->why_not : "not measured");
		return;
	}
	set_value(pv, tn->value / m->st[1].threads, -1);
	if (!t1 || !t1->measured || !(t1->value > 0))
		set_why(eff, t1 && t1->why_not[0] ? t1->why_not : "no 1-thread Triad");
	else
		set_value(eff, tn->value / m->st[1].threads / t1->value, -1);
}

static void collect_mem(const struct bench_report *rep, struct metric_set *ms)
{
	const struct mem_result *m = &rep->mem;
	bool sel = rep->outcome[MOD_mem].status != BENCH_NOT_RUN;
	struct metric *tr = add(ms, "mem_triad_mbps", sel), *t1 = add(ms, "mem_triad_1t_mbps", sel),
		      *cp = add(ms, "mem_copy_mbps", sel), *lat[2] = { add(ms, "mem_latency_ns", sel),
		      add(ms, "mem_latency_huge_ns", sel) }, *pv = add(ms, "mem_triad_per_vcpu_mbps", sel),
		      *eff = add(ms, "mem_scaling_eff", sel);
	const char *capped = m->capped ? "arrays smaller than 4x LLC: figures include cache" : NULL;
	char why[320];

	if (rep->outcome[MOD_mem].status != BENCH_OK) {
		module_why(rep, MOD_mem, why, sizeof(why));
		set_why(tr, why);
		set_why(t1, why);
		set_why(cp, why);
		set_why(lat[0], why);
		set_why(lat[1], why);
		set_why(pv, why);
		set_why(eff, why);
		return;
	}
	mem_bw(tr, mem_all_threads(m), MEM_TRIAD, capped);
	mem_bw(cp, mem_all_threads(m), MEM_COPY, capped);
	mem_bw(t1, m->st[0].present ? &m->st[0] : NULL, MEM_TRIAD, capped);
	mem_per_vcpu(m, t1, m->st[1].present ? tr : NULL, pv, eff);
	for (int k = 0; k < 2; k++) {
		const struct mem_curve *c = &m->lat[k];

		if (!c->present)
			set_why(lat[k], c->reason[0] ? c->reason : "not measured");
		else if (k == 1 && c->huge_used != MB_TRUE)
			set_why(lat[k], "no huge pages backed the buffer");
		else if (!c->level_ns[MEM_DRAM].ok && m->capped)
			set_why(lat[k], "the curve did not reach 4x LLC (arrays capped)");
		else if (!c->level_ns[MEM_DRAM].ok)
			set_why(lat[k], "no point of the curve at 4x LLC or more");
		else
			set_value(lat[k], c->level_ns[MEM_DRAM].v, -1);
	}
	/* a chase that did not get its CPU: shown in the mem section, not graded */
	for (int k = 0; k < 2; k++)
		if (lat[k] && lat[k]->measured && m->lat[k].cpu.disturbed) {
			lat[k]->measured = false;
			set_why(lat[k], "the latency chase did not get its CPU: shown, not graded");
		}
}

void grade_collect(const struct bench_report *rep, const struct bench_plan *plan,
		   struct metric_set *ms)
{
	(void)plan;
	memset(ms, 0, sizeof(*ms));
	collect_seq(rep, ms);
	collect_rand(rep, ms);
	collect_fsync(rep, ms);
	collect_cache(rep, ms);
	collect_cpu(rep, ms);
	collect_mem(rep, ms);
	collect_net(rep, ms);
}
