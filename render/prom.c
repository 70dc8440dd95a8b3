/*
 * prom.c — --format prom: the Prometheus text exposition format, for
 * node_exporter's textfile collector. vpsbench_ prefix, base units
 * (bytes, seconds, bytes per second, ratios), one sample per series,
 * every family's samples together under its HELP and TYPE lines. Only
 * figures of passes that ran to the end are written; an unknown value
 * has no sample. The "direct" label says whether the I/O bypassed the
 * page cache, so buffered figures never pass for direct ones.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_put.h"
#include "render.h"

struct prom {
	FILE *f;
	const struct bench_report *rep;
	const char *family; /* current family, for its header */
	int err;
};

/* Shortest of %.15g / %.17g that reads back as the same double. */
static void put_number(struct prom *p, double v)
{
	char buf[40];

	prom_number(buf, sizeof(buf), v);
	if (fprintf(p->f, "%s\n", buf) < 0)
		p->err = -1;
}

static void family(struct prom *p, const char *name, const char *type, const char *help)
{
	p->family = name;
	if (fprintf(p->f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type) < 0)
		p->err = -1;
}

/*
 * One sample: name suffix ("" or "_sum"...), then label pairs as
 * key, value, ..., NULL, then the value.
 */
static void sample(struct prom *p, const char *suffix, double v, ...)
{
	const char *k, *val;
	bool first = true;
	va_list ap;

	fprintf(p->f, "%s%s", p->family, suffix);
	va_start(ap, v);
	while ((k = va_arg(ap, const char *)) != NULL) {
		val = va_arg(ap, const char *);
		fprintf(p->f, "%s%s=\"", first ? "{" : ",", k);
		prom_put_escaped(p->f, val ? val : "");
		fputc('"', p->f);
		first = false;
	}
	va_end(ap);
	fputs(first ? " " : "} ", p->f);
	put_number(p, v);
}

static const char *mb_label(enum mbool b)
{
	return b == MB_TRUE ? "true" : b == MB_FALSE ? "false" : "unknown";
}

static const char *const dir_names[2] = { "read", "write" };

static bool seq_has(const struct bench_report *rep)
{
	return render_section_ran(rep, MOD_seq) && rep->seq.ndirs > 0;
}

static bool rand_has(const struct bench_report *rep)
{
	return render_section_ran(rep, MOD_rand) && rep->rand.npass > 0;
}

static bool rand_done(const struct rand_pass_result *r)
{
	return r->status == BENCH_OK;
}

/* A prometheus label name from a --label key: label_ + key, other chars as _. */
static void put_label_name(FILE *f, const char *key)
{
	fputs("label_", f);
	for (; *key; key++)
		fputc((*key >= 'A' && *key <= 'Z') || (*key >= 'a' && *key <= 'z') ||
		      (*key >= '0' && *key <= '9') ? *key : '_', f);
}

/* vpsbench_node_info{label="NAME",label_dc="fra1"} 1, only when --label was given. */
static void node_family(struct prom *p)
{
	const struct bench_labels *l = &p->rep->labels;
	bool first = true;

	if (!labels_any(l))
		return;
	family(p, "vpsbench_node_info", "gauge",
	       "the node's --label name and key=value labels (always 1)");
	fputs("vpsbench_node_info{", p->f);
	if (l->name[0]) {
		fputs("label=\"", p->f);
		prom_put_escaped(p->f, l->name);
		fputc('"', p->f);
		first = false;
	}
	for (unsigned i = 0; i < l->n; i++) {
		if (!first)
			fputc(',', p->f);
		put_label_name(p->f, l->key[i]);
		fputs("=\"", p->f);
		prom_put_escaped(p->f, l->val[i]);
		fputc('"', p->f);
		first = false;
	}
	fputs("} ", p->f);
	put_number(p, 1);
}

static bool storage_capped(const struct bench_report *rep);

static void run_families(struct prom *p, const struct bench_plan *plan)
{
	const struct bench_report *rep = p->rep;

	family(p, "vpsbench_info", "gauge", "vpsbench version and profile of this report (always 1)");
	sample(p, "", 1, "version", VPSBENCH_VERSION, "profile", plan->profile, NULL);
	node_family(p);
	family(p, "vpsbench_run_start_timestamp_seconds", "gauge",
	       "wall clock start of the run, seconds since the epoch");
	sample(p, "", (double)rep->start_real.tv_sec + rep->start_real.tv_nsec / 1e9, NULL);
	family(p, "vpsbench_run_duration_seconds", "gauge", "wall time of the whole run, seconds");
	sample(p, "", rep->elapsed_s, NULL);
	family(p, "vpsbench_run_complete", "gauge",
	       "1 when no signal stopped the run and no time cap cut a part short, 0 when its figures are partial");
	sample(p, "", rep->interrupted || storage_capped(rep) ? 0 : 1, NULL);

	family(p, "vpsbench_module_ok", "gauge",
	       "1 when the module ran to completion, 0 when it was skipped, failed, stopped or cut short by its time cap");
	for (int i = 0; i < MOD_COUNT; i++) {
		/* the storage part a cap cut short: "ok" for the exit code, "incomplete" here */
		bool capped = i == MOD_cache && storage_capped(rep);

		if (rep->outcome[i].status != BENCH_NOT_RUN)
			sample(p, "", rep->outcome[i].status == BENCH_OK && !capped, "module",
			       bench_modules[i]->name, "status",
			       bench_status_name(capped ? BENCH_INCOMPLETE : rep->outcome[i].status), NULL);
	}
	family(p, "vpsbench_module_duration_seconds", "gauge", "wall time each module took, seconds");
	for (int i = 0; i < MOD_COUNT; i++)
		if (rep->outcome[i].status != BENCH_NOT_RUN)
			sample(p, "", rep->outcome[i].seconds, "module", bench_modules[i]->name, NULL);
}

static void sys_families(struct prom *p)
{
	const struct sysinfo *si = &p->rep->sys;

	if (!render_section_ran(p->rep, MOD_sysinfo))
		return;
	if (si->cpu.online.ok) {
		family(p, "vpsbench_cpu_online", "gauge", "online CPUs");
		sample(p, "", (double)si->cpu.online.v, NULL);
	}
	if (si->cpu.usable.ok) {
		family(p, "vpsbench_cpu_usable", "gauge", "CPUs in the affinity mask of the run");
		sample(p, "", (double)si->cpu.usable.v, NULL);
	}
	if (si->cpu.freq_mhz.ok) {
		family(p, "vpsbench_cpu_frequency_hertz", "gauge", "CPU frequency, hertz");
		sample(p, "", si->cpu.freq_mhz.v * 1e6, "source", si->cpu.freq_source, NULL);
	}
	if (si->mem.ram_total.ok) {
		family(p, "vpsbench_memory_total_bytes", "gauge", "RAM, bytes");
		sample(p, "", (double)si->mem.ram_total.v, NULL);
	}
	if (si->mem.swap_total.ok) {
		family(p, "vpsbench_swap_total_bytes", "gauge", "swap, bytes");
		sample(p, "", (double)si->mem.swap_total.v, NULL);
	}
	if (si->ndirs) {
		family(p, "vpsbench_dir_info", "gauge",
		       "each tested directory's filesystem and device (always 1)");
		for (unsigned i = 0; i < si->ndirs; i++) {
			const struct fs_info *fs = &si->dirs[i].fs;

			sample(p, "", 1, "dir", si->dirs[i].arg,
			       "fstype", fs->mount_known && fs->fstype[0] ? fs->fstype : "unknown",
			       "device", fs->mount_known && fs->device[0] ? fs->device : "unknown",
			       "storage_class", storage_class_name(fs->storage.cls), NULL);
		}
	}
}

static void io_families(struct prom *p)
{
	const struct bench_report *rep = p->rep;
	const struct seq_result *s = &rep->seq;
	const struct rand_result *r = &rep->rand;
	bool hs = seq_has(rep), hr = rand_has(rep);

	if (!hs && !hr)
		return;
	family(p, "vpsbench_pass_ok", "gauge",
	       "1 when the pass ran to the end, 0 otherwise (then it has no figures here)");
	for (unsigned i = 0; hs && i < s->ndirs; i++)
		sample(p, "", s->dirs[i].status == SEQ_DONE, "pass", "seq", "dir", s->dirs[i].dir, NULL);
	for (unsigned i = 0; hr && i < r->npass; i++)
		sample(p, "", rand_done(&r->pass[i]), "pass", r->pass[i].name, "dir",
		       r->pass[i].dir ? r->pass[i].dir : "", NULL);

	family(p, "vpsbench_throughput_bytes_per_second", "gauge",
	       "bytes per second: seq = the write runs' bytes over their seconds (graded) and the read; rand = fio bw");
	for (unsigned i = 0; hs && i < s->ndirs; i++) {
		const struct seq_dir_result *d = &s->dirs[i];

		if (d->status != SEQ_DONE)
			continue;
		if (d->total_mbps.ok)
			sample(p, "", d->total_mbps.v * 1e6, "pass", "seq", "direction", "write", "dir",
			       d->dir, "direct", mb_label(d->direct), NULL);
		if (d->read.mbps.ok)
			sample(p, "", d->read.mbps.v * 1e6, "pass", "seq", "direction", "read", "dir",
			       d->dir, "direct", mb_label(d->read.direct), NULL);
	}
	for (unsigned i = 0; hr && i < r->npass; i++) {
		const struct rand_pass_result *x = &r->pass[i];

		for (int k = 0; rand_done(x) && k < 2; k++)
			if (x->dir_res[k].present)
				sample(p, "", x->dir_res[k].bw_bytes, "pass", x->name, "direction",
				       dir_names[k], "dir", x->dir ? x->dir : "", "direct",
				       x->direct ? "true" : "false", NULL);
	}

	if (hs) {
		family(p, "vpsbench_seq_write_cov_ratio", "gauge",
		       "spread of the seq write runs: sample stddev / mean");
		for (unsigned i = 0; i < s->ndirs; i++)
			if (s->dirs[i].status == SEQ_DONE && s->dirs[i].cov.ok)
				sample(p, "", s->dirs[i].cov.v, "pass", "seq", "dir", s->dirs[i].dir, NULL);
	}
	if (!hr)
		return;
	family(p, "vpsbench_iops", "gauge", "I/O operations per second (fio: 1000 * ios / runtime_ms)");
	for (unsigned i = 0; i < r->npass; i++) {
		const struct rand_pass_result *x = &r->pass[i];

		for (int k = 0; rand_done(x) && k < 2; k++)
			if (x->dir_res[k].present)
				sample(p, "", x->dir_res[k].iops, "pass", x->name, "direction",
				       dir_names[k], "dir", x->dir ? x->dir : "", "direct",
				       x->direct ? "true" : "false", NULL);
	}
	family(p, "vpsbench_completion_latency_seconds", "summary",
	       "completion latency (fio clat) of each I/O, seconds");
	for (unsigned i = 0; i < r->npass; i++) {
		static const double q[] = { 50.0, 90.0, 99.0, 99.9 };
		static const char *const qn[] = { "0.5", "0.9", "0.99", "0.999" };
		const struct rand_pass_result *x = &r->pass[i];

		for (int k = 0; rand_done(x) && k < 2; k++) {
			const struct rand_dir_result *d = &x->dir_res[k];
			const char *dir = x->dir ? x->dir : "", *direct = x->direct ? "true" : "false";

			if (!d->present || d->clat.n == 0)
				continue;
			for (size_t j = 0; j < sizeof(q) / sizeof(q[0]); j++)
				for (int m = 0; m < LAT_NPCT; m++)
					if (lat_default_percentiles[m] == q[j])
						sample(p, "", d->clat_pct[m] / 1e9, "pass", x->name,
						       "direction", dir_names[k], "dir", dir, "direct",
						       direct, "quantile", qn[j], NULL);
			sample(p, "_sum", d->clat.mean * (double)d->clat.n / 1e9, "pass", x->name,
			       "direction", dir_names[k], "dir", dir, "direct", direct, NULL);
			sample(p, "_count", (double)d->clat.n, "pass", x->name, "direction",
			       dir_names[k], "dir", dir, "direct", direct, NULL);
		}
	}
}

/* The fsync module: dirs that ran to the end; the sync latency as a summary. */
static void fsync_families(struct prom *p)
{
	static const double q[] = { 50.0, 90.0, 99.0, 99.9 };
	static const char *const qn[] = { "0.5", "0.9", "0.99", "0.999" };
	const struct fsync_result *r = &p->rep->fsync;
	bool any = false;

	for (unsigned i = 0; render_section_ran(p->rep, MOD_fsync) && i < r->ndirs; i++)
		any = any || (r->dirs[i].status == BENCH_OK && r->dirs[i].sync.n);
	if (!any)
		return;
	family(p, "vpsbench_fsync_latency_seconds", "summary",
	       "fdatasync() after each 2300-byte buffered write (etcd's fio recipe), seconds");
	for (unsigned i = 0; i < r->ndirs; i++) {
		const struct fsync_dir_result *d = &r->dirs[i];

		if (d->status != BENCH_OK || !d->sync.n)
			continue;
		for (size_t j = 0; j < sizeof(q) / sizeof(q[0]); j++)
			sample(p, "", (double)d->sync.pct[fsync_pct_index(q[j])] / 1e9, "dir", d->dir,
			       "quantile", qn[j], NULL);
		sample(p, "_sum", d->sync.mean * (double)d->sync.n / 1e9, "dir", d->dir, NULL);
		sample(p, "_count", (double)d->sync.n, "dir", d->dir, NULL);
	}
	family(p, "vpsbench_fsync_low_confidence", "gauge",
	       "1 when fewer than 1000 syncs stand behind the p99");
	for (unsigned i = 0; i < r->ndirs; i++)
		if (r->dirs[i].status == BENCH_OK && r->dirs[i].sync.n)
			sample(p, "", r->dirs[i].p99_low_confidence ? 1 : 0, "dir", r->dirs[i].dir, NULL);
}

/* A capped storage part: its figures are partial (module_ok 0, run_complete 0). */
static bool storage_capped(const struct bench_report *rep)
{
	return render_section_ran(rep, MOD_cache) && rep->cache.time_capped;
}

/* "size" label of a cliff point: its bytes */
static const char *size_label(char *buf, size_t n, uint64_t size)
{
	snprintf(buf, n, "%llu", (unsigned long long)size);
	return buf;
}

/* One gauge family over the measured cliff points: v(point) per size, no sample where NAN. */
static void cliff_family(struct prom *p, const char *name, const char *help,
			 double (*v)(const struct cache_point *))
{
	const struct cache_result *r = &p->rep->cache;
	char sz[32];
	bool any = false;

	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *c = &r->points[i];

		if (c->status != BENCH_OK || !isfinite(v(c)))
			continue;
		if (!any)
			family(p, name, "gauge", help);
		any = true;
		sample(p, "", v(c), "dir", r->dir, "size", size_label(sz, sizeof(sz), c->size), NULL);
	}
}

static double pt_iops(const struct cache_point *c) { return c->iops32; }
static double pt_iops_lo(const struct cache_point *c) { return c->iops32_lo; }
static double pt_iops_hi(const struct cache_point *c) { return c->iops32_hi; }
static double pt_p50(const struct cache_point *c) { return c->p50_1_ns / 1e9; }
static double pt_p99(const struct cache_point *c) { return c->p99_1_ns / 1e9; }
static double pt_p50_lo(const struct cache_point *c) { return c->p50_1_lo_ns / 1e9; }
static double pt_p50_hi(const struct cache_point *c) { return c->p50_1_hi_ns / 1e9; }
static double pt_nrep(const struct cache_point *c) { return c->nrep; }
static double pt_cpu(const struct cache_point *c) { return c->cpu_share; }
static double pt_cpu_bound(const struct cache_point *c) { return c->cpu_bound; }

/* Per measured size (gauges, not a summary: the medians over the repeats of each run's percentile). */
static const struct {
	const char *name, *help;
	double (*v)(const struct cache_point *);
} cliff_fams[] = {
	{ "vpsbench_storage_cliff_iops",
	  "4k random read IOPS at qd32 over a working set of size bytes, after a warm pass: the median of the repeats", pt_iops },
	{ "vpsbench_storage_cliff_iops_min", "the lowest repeat's qd32 IOPS at the size", pt_iops_lo },
	{ "vpsbench_storage_cliff_iops_max", "the highest repeat's qd32 IOPS at the size", pt_iops_hi },
	{ "vpsbench_storage_cliff_qd1_p50_seconds", "4k random read p50 at qd1 at the size, seconds: the median of the repeats", pt_p50 },
	{ "vpsbench_storage_cliff_qd1_p99_seconds", "4k random read p99 at qd1 at the size, seconds: the median of the repeats", pt_p99 },
	{ "vpsbench_storage_cliff_qd1_p50_min_seconds", "the lowest repeat's qd1 p50 at the size, seconds", pt_p50_lo },
	{ "vpsbench_storage_cliff_qd1_p50_max_seconds", "the highest repeat's qd1 p50 at the size, seconds", pt_p50_hi },
	{ "vpsbench_storage_cliff_repeats", "measurements behind the size's figures", pt_nrep },
	{ "vpsbench_storage_cliff_cpu_share_ratio", "the qd32 loop's CPU time over its wall time (the largest repeat's, 0-1)", pt_cpu },
	{ "vpsbench_storage_cliff_cpu_bound", "1 when the loop, not the disk, may have set the pace", pt_cpu_bound },
};

/* Sizes not measured: skipped points (their reason) and the plan's sizes the run never reached. */
static void cliff_skipped(struct prom *p, const struct bench_plan *plan)
{
	const struct cache_result *r = &p->rep->cache;
	const struct cache_spec *sp = &plan->storage;
	const char *why = r->time_capped ? "not reached: time cap" : "not reached";
	char sz[32];
	bool any = false;

	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *c = &r->points[i];

		if (c->status == BENCH_OK)
			continue;
		if (!any)
			family(p, "vpsbench_storage_cliff_skipped", "gauge",
			       "1 per cliff size not measured, with its status and reason (skip: no room or the time cap)");
		any = true;
		sample(p, "", 1, "dir", r->dir, "size", size_label(sz, sizeof(sz), c->size), "status",
		       bench_status_name(c->status), "reason", c->reason[0] ? c->reason : bench_status_name(c->status),
		       NULL);
		if (c->status == BENCH_SKIP && !r->time_capped)
			why = "not reached: a smaller size did not fit";
	}
	if (p->rep->interrupted)
		why = "not reached: interrupted";
	for (unsigned i = 0; i < sp->nsizes; i++) {
		bool seen = false;

		for (unsigned j = 0; j < r->npoints && !seen; j++)
			seen = r->points[j].size == sp->sizes[i];
		if (seen || (r->npoints && sp->sizes[i] < r->points[r->npoints - 1].size))
			continue;
		if (!any)
			family(p, "vpsbench_storage_cliff_skipped", "gauge",
			       "1 per cliff size not measured, with its status and reason (skip: no room or the time cap)");
		any = true;
		sample(p, "", 1, "dir", r->dir, "size", size_label(sz, sizeof(sz), sp->sizes[i]), "status",
		       bench_status_name(BENCH_SKIP), "reason", why, NULL);
	}
}

static const char *const knee_by_names[] = { "none", "iops", "latency", "both" };

/* The part: its cap, budget and time used, the incomplete mark, the engine, the knee. */
static void storage_part(struct prom *p)
{
	const struct cache_result *r = &p->rep->cache;
	char d[16];
	unsigned measured = 0;

	family(p, "vpsbench_storage_incomplete", "gauge",
	       "1 when --storage-max-time cut the storage part short (its figures are partial), else 0");
	sample(p, "", r->time_capped, "dir", r->dir, NULL);
	family(p, "vpsbench_storage_max_time_seconds", "gauge", "--storage-max-time, seconds");
	sample(p, "", (double)r->max_time_ns / 1e9, "dir", r->dir, NULL);
	family(p, "vpsbench_storage_budget_seconds", "gauge",
	       "the storage part's planned time and cap (with --storage-write-time: 60% of the cap + 2 x the write time), seconds");
	sample(p, "", (double)r->planned_ns / 1e9, "dir", r->dir, NULL);
	family(p, "vpsbench_storage_elapsed_seconds", "gauge", "time the storage part used, seconds");
	sample(p, "", r->elapsed_s, "dir", r->dir, NULL);
	if (r->engine[0]) {
		family(p, "vpsbench_storage_engine_info", "gauge",
		       "the I/O engine each storage test ran on and the depth it ran at (psync: 1, not 32); always 1");
		snprintf(d, sizeof(d), "%u", r->depth);
		sample(p, "", 1, "dir", r->dir, "part", "cliff", "engine", r->engine, "depth", d, NULL);
		for (int k = 0; k < 2; k++) {
			const struct cache_burst *b = k ? &r->rnd : &r->seq;

			if (b->status != BENCH_OK || !b->io.engine[0])
				continue;
			snprintf(d, sizeof(d), "%u", b->io.depth);
			sample(p, "", 1, "dir", r->dir, "part", b->kind, "engine", b->io.engine, "depth", d, NULL);
		}
	}
	for (unsigned i = 0; i < r->npoints; i++)
		measured += r->points[i].status == BENCH_OK;
	/* a knee needs two sizes: with fewer it is unknown, no sample */
	if (measured >= 2) {
		family(p, "vpsbench_storage_knee_found", "gauge",
		       "1 when the cliff found a cache knee in the medians, 0 when not (2 sizes or more measured)");
		sample(p, "", r->knee >= 0, "dir", r->dir, NULL);
	}
	if (r->knee >= 0 && r->knee < (int)r->npoints) {
		family(p, "vpsbench_storage_knee_bytes", "gauge",
		       "the largest working set served from a cache, bytes; by: the figure that showed it (iops, latency, both)");
		sample(p, "", (double)r->points[r->knee].size, "dir", r->dir, "by",
		       knee_by_names[r->knee_by <= CACHE_KNEE_BOTH ? r->knee_by : 0], NULL);
	}
	if (r->measured_up_to) {
		family(p, "vpsbench_storage_measured_up_to_bytes", "gauge", "the largest cliff size measured, bytes");
		sample(p, "", (double)r->measured_up_to, "dir", r->dir, NULL);
	}
}

/* One write-test family: v(test) per measured test. */
static void write_family(struct prom *p, const char *name, const char *help,
			 double (*v)(const struct cache_burst *))
{
	const struct cache_result *r = &p->rep->cache;
	bool any = false;

	for (int k = 0; k < 2; k++) {
		const struct cache_burst *b = k ? &r->rnd : &r->seq;

		if (b->status != BENCH_OK || !b->n || !isfinite(v(b)))
			continue;
		if (!any)
			family(p, name, "gauge", help);
		any = true;
		sample(p, "", v(b), "dir", r->dir, "test", b->kind, NULL);
	}
}

static double wr_bytes(const struct cache_burst *b) { return (double)b->bytes; }
static double wr_secs(const struct cache_burst *b) { return b->secs; }
static double wr_region(const struct cache_burst *b) { return b->region ? (double)b->region : NAN; }
static double wr_drop(const struct cache_burst *b) { return b->found; }
static double wr_change(const struct cache_burst *b) { return b->found ? b->change_s : NAN; }
static double wr_burst_bytes(const struct cache_burst *b) { return b->found ? b->burst_bytes : NAN; }

static const struct {
	const char *name, *help;
	double (*v)(const struct cache_burst *);
} write_fams[] = {
	{ "vpsbench_storage_write_burst_bytes", "bytes written at the burst rate before the drop", wr_burst_bytes },
	{ "vpsbench_storage_write_drop", "1 when the rate dropped and stayed down, 0 when not", wr_drop },
	{ "vpsbench_storage_write_change_seconds", "second of the test at which the last drop came", wr_change },
	{ "vpsbench_storage_write_region_bytes", "bytes of the region the test wrote over", wr_region },
	{ "vpsbench_storage_write_bytes", "bytes the test wrote in its timeline", wr_bytes },
	{ "vpsbench_storage_write_seconds", "the test's timeline, seconds", wr_secs },
};

/* The storage profile: the part, cliff points with their spread, each write test. */
static void cache_families(struct prom *p, const struct bench_plan *plan)
{
	const struct cache_result *r = &p->rep->cache;
	bool any = false;

	if (!render_section_ran(p->rep, MOD_cache))
		return;
	storage_part(p);
	for (size_t i = 0; i < sizeof(cliff_fams) / sizeof(cliff_fams[0]); i++)
		cliff_family(p, cliff_fams[i].name, cliff_fams[i].help, cliff_fams[i].v);
	cliff_skipped(p, plan);
	any = false;
	for (int k = 0; k < 2; k++) {
		const struct cache_burst *b = k ? &r->rnd : &r->seq;

		if (b->status != BENCH_OK || !b->n)
			continue;
		if (!any)
			family(p, "vpsbench_storage_write_bytes_per_second", "gauge",
			       "write rates (seq-1m O_DIRECT, rand-4k qd32), bytes/s: burst, and sustained (the floor after the last drop)");
		any = true;
		sample(p, "", b->burst_bps, "dir", r->dir, "test", b->kind, "phase", "burst", NULL);
		sample(p, "", b->sustained_bps, "dir", r->dir, "test", b->kind, "phase", "sustained", NULL);
	}
	for (size_t i = 0; i < sizeof(write_fams) / sizeof(write_fams[0]); i++)
		write_family(p, write_fams[i].name, write_fams[i].help, write_fams[i].v);
	any = false;
	for (int k = 0; k < 2; k++) {
		const struct cache_burst *b = k ? &r->rnd : &r->seq;

		if (b->status == BENCH_OK || b->status == BENCH_NOT_RUN)
			continue;
		if (!any)
			family(p, "vpsbench_storage_write_skipped", "gauge",
			       "1 per write test that did not run to the end, with its status and reason");
		any = true;
		sample(p, "", 1, "dir", r->dir, "test", b->kind[0] ? b->kind : (k ? "rand-4k" : "seq-1m"),
		       "status", bench_status_name(b->status), "reason", b->reason, NULL);
	}
}

/* The cpu module: complete passes only; steal as a ratio (base unit). */
static void cpu_families(struct prom *p)
{
	const struct cpu_result *c = &p->rep->cpu;
	const struct cpu_prime_pass *pp[2] = { &c->single, &c->multi };
	const struct cpu_crypto_pass *cp[4] = { &c->aes1, &c->aesn, &c->sha1, &c->shan };
	static const char *const alg[4] = { "aes-256-gcm", "aes-256-gcm", "sha256", "sha256" };
	char th[16];
	bool any = false;

	if (!render_section_ran(p->rep, MOD_cpu))
		return;
	for (int i = 0; i < 2; i++) {
		if (!pp[i]->eps.ok || !pp[i]->complete)
			continue;
		if (!any)
			family(p, "vpsbench_cpu_prime_events_per_second", "gauge",
			       "sysbench-comparable prime events per second");
		any = true;
		snprintf(th, sizeof(th), "%u", pp[i]->threads);
		sample(p, "", pp[i]->eps.v, "threads", th, "pass", i ? "multi" : "single", NULL);
	}
	if (c->scaling.ok) {
		family(p, "vpsbench_cpu_prime_scaling_ratio", "gauge",
		       "N-thread / 1-thread prime events per second");
		sample(p, "", c->scaling.v, NULL);
	}
	any = false;
	for (int i = 0; i < 4; i++) {
		if (!cp[i]->mbps.ok)
			continue;
		if (!any)
			family(p, "vpsbench_cpu_crypto_bytes_per_second", "gauge",
			       "libcrypto EVP throughput on 16 KiB buffers, bytes per second");
		any = true;
		snprintf(th, sizeof(th), "%u", cp[i]->threads);
		sample(p, "", cp[i]->mbps.v * 1e6, "algorithm", alg[i], "threads", th, "pass",
		       i % 2 ? "multi" : "single", NULL);
	}
	if (c->steal_pct.ok) {
		family(p, "vpsbench_cpu_steal_ratio", "gauge",
		       "share of CPU time stolen by the hypervisor during the cpu module (0-1)");
		sample(p, "", c->steal_pct.v / 100.0, NULL);
	}
	if (c->throttled_periods.ok) {
		family(p, "vpsbench_cpu_throttled_periods", "gauge",
		       "cgroup CPU quota periods throttled during the cpu module");
		sample(p, "", (double)c->throttled_periods.v, NULL);
	}
	if (c->throttled_s.ok) {
		family(p, "vpsbench_cpu_throttled_seconds", "gauge",
		       "throttled run-queue time during the cpu module, seconds, summed over CPUs");
		sample(p, "", c->throttled_s.v, NULL);
	}
}

/* mem: STREAM-variant rates per kernel and thread count, latency plateaus, cache-heavy sysbench-style rates. */
static void mem_families(struct prom *p)
{
	const struct mem_result *m = &p->rep->mem;
	char th[16];

	if (!render_section_ran(p->rep, MOD_mem) || !m->array_bytes)
		return;
	family(p, "vpsbench_mem_array_bytes", "gauge",
	       "bytes per STREAM array; capped=1: smaller than 4x LLC, figures include cache");
	sample(p, "", (double)m->array_bytes, "capped", m->capped ? "1" : "0", NULL);
	if (m->st[0].present) {
		family(p, "vpsbench_mem_stream_bytes_per_second", "gauge",
		       "based on a variant of the STREAM benchmark: best of the reps after the first, STREAM's words per element");
		for (int t = 0; t < 2; t++)
			for (int k = 0; k < MEM_NKERNELS && m->st[t].present; k++) {
				if (!m->st[t].mbps[k].ok)
					continue;
				snprintf(th, sizeof(th), "%u", m->st[t].threads);
				sample(p, "", m->st[t].mbps[k].v * 1e6, "kernel", mem_kernel_names[k],
				       "threads", th, NULL);
			}
	}
	if (m->lat[0].present || m->lat[1].present) {
		family(p, "vpsbench_mem_latency_seconds", "gauge",
		       "pointer-chase load-to-use latency of each plateau");
		for (int c = 0; c < 2; c++)
			for (int l = 0; l < MEM_NLEVELS && m->lat[c].present; l++)
				if (m->lat[c].level_ns[l].ok)
					sample(p, "", m->lat[c].level_ns[l].v / 1e9, "pages",
					       m->lat[c].huge ? "huge" : "4k", "level", mem_level_names[l], NULL);
	}
	if (m->sb.read_mibps.ok || m->sb.write_mibps.ok) {
		family(p, "vpsbench_mem_sysbench_bytes_per_second", "gauge",
		       "sysbench-memory-style 1 MiB blocks, 1 thread: cache-heavy");
		if (m->sb.read_mibps.ok)
			sample(p, "", m->sb.read_mibps.v * 1048576.0, "op", "read", NULL);
		if (m->sb.write_mibps.ok)
			sample(p, "", m->sb.write_mibps.v * 1048576.0, "op", "write", NULL);
	}
	family(p, "vpsbench_mem_oversell_signs", "gauge",
	       "memory signs of this guest seen during the mem module (KSM, swap, swap-in, memory pressure): its own state, not a measure of the host");
	sample(p, "", m->signs.nflags, NULL);
}

/* net (--net): per server, family and direction; busy or failed rows have status only. */
static void net_families(struct prom *p)
{
	const struct net_result *r = &p->rep->net;
	static const char *const dn[2] = { "send", "recv" };

	if (!render_section_ran(p->rep, MOD_net) || !r->nrows)
		return;
	family(p, "vpsbench_net_ok", "gauge",
	       "1 when the iperf3 test measured a figure; status says busy, failed, timeout");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		const struct net_dir *d[2] = { &w->send, &w->recv };

		for (int k = 0; k < 2; k++)
			sample(p, "", d[k]->status == NET_DONE, "provider", w->srv.name, "host",
			       w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4", "direction",
			       dn[k], "status", net_status_name(d[k]->status), NULL);
	}
	family(p, "vpsbench_net_throughput_bytes_per_second", "gauge",
	       "iperf3 receiver-side throughput (bits per second / 8)");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		const struct net_dir *d[2] = { &w->send, &w->recv };

		for (int k = 0; k < 2; k++)
			if (d[k]->status == NET_DONE && d[k]->bps.ok)
				sample(p, "", d[k]->bps.v / 8.0, "provider", w->srv.name, "host",
				       w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4",
				       "direction", dn[k], NULL);
	}
	family(p, "vpsbench_net_implausible", "gauge",
	       "1 when the throughput is above what the interface or this host's own count allows (not graded)");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		const struct net_dir *d[2] = { &w->send, &w->recv };

		for (int k = 0; k < 2; k++)
			if (d[k]->status == NET_DONE)
				sample(p, "", d[k]->implausible, "provider", w->srv.name, "host",
				       w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4",
				       "direction", dn[k], NULL);
	}
	family(p, "vpsbench_net_retransmits", "gauge", "TCP retransmits of the iperf3 sender");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		const struct net_dir *d[2] = { &w->send, &w->recv };

		for (int k = 0; k < 2; k++)
			if (d[k]->status == NET_DONE && d[k]->retransmits.ok)
				sample(p, "", (double)d[k]->retransmits.v, "provider", w->srv.name,
				       "host", w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4",
				       "direction", dn[k], NULL);
	}
	family(p, "vpsbench_net_moved_bytes", "gauge",
	       "bytes this host wrote or read on iperf3 data streams, every try (data use)");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		const struct net_dir *d[2] = { &w->send, &w->recv };

		for (int k = 0; k < 2; k++)
			sample(p, "", (double)d[k]->moved, "provider", w->srv.name, "host",
			       w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4", "direction",
			       dn[k], NULL);
	}
	family(p, "vpsbench_net_moved_bytes_total", "gauge",
	       "bytes moved by all iperf3 tests of the run (data use)");
	sample(p, "", (double)r->moved, NULL);
	family(p, "vpsbench_net_connect_latency_seconds", "gauge",
	       "round trip of the iperf3 control connection (TCP_INFO after its connect)");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];

		if (w->latency_ms.ok)
			sample(p, "", w->latency_ms.v / 1e3, "provider", w->srv.name, "host",
			       w->srv.host, "mode", w->family == 6 ? "IPv6" : "IPv4", NULL);
	}
}

/* HTTP downloads: average and steady rate per URL, partial="true" when capped. */
static void net_http_families(struct prom *p)
{
	const struct net_result *r = &p->rep->net;

	if (!render_section_ran(p->rep, MOD_net) || !r->nhttp)
		return;
	family(p, "vpsbench_net_http_bytes_per_second", "gauge",
	       "HTTP download rate: kind=average (whole transfer) or steady (after the warm-up)");
	for (unsigned i = 0; i < r->nhttp; i++) {
		const struct net_http *h = &r->http[i];
		const char *part = h->capped ? "true" : "false";

		if (h->status != NET_DONE)
			continue;
		if (h->avg_mbit_s.ok)
			sample(p, "", h->avg_mbit_s.v * 1e6 / 8, "url", h->url, "kind", "average",
			       "partial", part, NULL);
		if (h->steady_mbit_s.ok)
			sample(p, "", h->steady_mbit_s.v * 1e6 / 8, "url", h->url, "kind", "steady",
			       "partial", part, NULL);
	}
}

/*
 * The grades with the marks every format carries: the tier (rank, the
 * number of tiers, borderline and the best tier a borderline interval
 * reaches), each figure's 95% uncertainty, the disturbed flag of every
 * measured figure and the weak figures. A borderline figure's tier label
 * is its "between good and ideal" text, never a single tier word.
 */
static void grade_families(struct prom *p)
{
	const struct grade_result *g = &p->rep->grade;
	bool any = false;

	if (!g->graded)
		return;
	if (g->n) {
		family(p, "vpsbench_grade_rank", "gauge",
		       "tier of each graded metric: 0 = worst tier, tiers - 1 = best; borderline: the worse side");
		for (unsigned i = 0; i < g->n; i++) {
			const struct grade *x = &g->g[i];

			sample(p, "", x->rank, "metric", x->metric, "tier",
			       x->borderline ? (x->between[0] ? x->between : "borderline") : x->tier, NULL);
		}
		family(p, "vpsbench_grade_tiers", "gauge",
		       "number of tiers of each graded metric's scale (rank tiers - 1 = best)");
		for (unsigned i = 0; i < g->n; i++)
			sample(p, "", g->g[i].ntiers, "metric", g->g[i].metric, NULL);
		family(p, "vpsbench_grade_borderline", "gauge",
		       "1 when the figure is within its 95% uncertainty of a tier bound: no tier named, never weak");
		for (unsigned i = 0; i < g->n; i++)
			sample(p, "", g->g[i].borderline ? 1 : 0, "metric", g->g[i].metric, NULL);
		family(p, "vpsbench_grade_rank_high", "gauge",
		       "the best tier the figure's 95% interval reaches (= rank unless borderline)");
		for (unsigned i = 0; i < g->n; i++)
			sample(p, "", g->g[i].borderline ? g->g[i].rank_hi : g->g[i].rank, "metric",
			       g->g[i].metric, NULL);
	}
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (!m->measured || !isfinite(m->uncert))
			continue;
		if (!any)
			family(p, "vpsbench_metric_uncertainty", "gauge",
			       "half-width of the figure's 95% interval, in the unit its metric name ends with; "
			       "no sample when unknown or unbounded");
		any = true;
		sample(p, "", m->uncert, "metric", m->name, NULL);
	}
	any = false;
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (!m->measured)
			continue;
		if (!any)
			family(p, "vpsbench_metric_disturbed", "gauge",
			       "1 when the measured figure was disturbed (shown, not graded, out of the verdict)");
		any = true;
		sample(p, "", m->disturbed ? 1 : 0, "metric", m->name, NULL);
	}
	if (g->nweak) {
		family(p, "vpsbench_weak", "gauge",
		       "1 per figure robustly in its metric's worst tier (the verdict's weak figures)");
		for (unsigned k = 0; k < g->nweak && k < GRADE_MAX_WEAK; k++)
			if (g->weak[k] >= 0 && (unsigned)g->weak[k] < g->n)
				sample(p, "", 1, "metric", g->g[g->weak[k]].metric, NULL);
		family(p, "vpsbench_weak_ln_distance", "gauge",
		       "|ln(value / bound of the tier above)| of each weak figure: the same for half and double");
		for (unsigned k = 0; k < g->nweak && k < GRADE_MAX_WEAK; k++)
			if (g->weak[k] >= 0 && (unsigned)g->weak[k] < g->n)
				sample(p, "", g->weak_ln[k], "metric", g->g[g->weak[k]].metric, NULL);
	}
	if (g->nreq) {
		family(p, "vpsbench_requirement_passed", "gauge", "1 when the --require expression held");
		for (unsigned i = 0; i < g->nreq; i++)
			sample(p, "", g->req[i].passed, "expr", g->req[i].req.text, NULL);
	}
}

/*
 * Health first: vpsbench_health_ok 1 only when every check ran and none
 * found a problem; one vpsbench_health_problem{check} 1 per problem, and
 * vpsbench_health_not_run{check} 1 per check that could not run. The fit-for
 * answers: 1 yes, 0 no, no sample when unknown.
 */
static void health_families(struct prom *p)
{
	const struct health_result *h = &p->rep->health;
	const struct grade_result *g = &p->rep->grade;

	if (h->assessed && h->n) {
		family(p, "vpsbench_health_ok", "gauge",
		       "1 when every health check ran and none found a problem");
		sample(p, "", h->nproblems == 0 && h->nnot_run == 0, NULL);
		if (h->nproblems) {
			family(p, "vpsbench_health_problem", "gauge", "1 per health check that found a problem");
			for (unsigned i = 0; i < h->n; i++)
				if (h->c[i].state == HEALTH_PROBLEM)
					sample(p, "", 1, "check", h->c[i].check, NULL);
		}
		if (h->nnot_run) {
			family(p, "vpsbench_health_not_run", "gauge", "1 per health check that could not run");
			for (unsigned i = 0; i < h->n; i++)
				if (h->c[i].state == HEALTH_NOT_RUN)
					sample(p, "", 1, "check", h->c[i].check, NULL);
		}
	}
	for (unsigned i = 0, first = 1; g->graded && i < g->nfit; i++) {
		if (g->fit[i].answer == FIT_UNKNOWN)
			continue;
		if (first) {
			family(p, "vpsbench_fit", "gauge",
			       "1 when the fit-for rule holds, 0 when not; no sample when not measured");
			first = 0;
		}
		sample(p, "", g->fit[i].answer == FIT_YES, "rule", g->fit[i].rule.rule,
		       "low_confidence", g->fit[i].low_confidence ? "true" : "false", NULL);
	}
}

int render_prom(FILE *f, const struct bench_report *rep, const struct bench_plan *plan)
{
	struct prom p = { f, rep, NULL, 0 };

	health_families(&p);
	run_families(&p, plan);
	sys_families(&p);
	io_families(&p);
	fsync_families(&p);
	cache_families(&p, plan);
	cpu_families(&p);
	mem_families(&p);
	net_families(&p);
	net_http_families(&p);
	grade_families(&p);
	if (render_place_prom(f, &rep->place) < 0)
		p.err = -1;
	return p.err || ferror(f) ? -1 : 0;
}
