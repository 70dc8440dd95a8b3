/*
 * fio.c — --format fio: the rand passes in fio's own --output-format=json+
 * envelope, so fio's tools (fio_jsonplus_clat2csv, fio2gnuplot readers,
 * dashboards written for fio) read them. One job per pass and directory,
 * its threads merged as fio's group_reporting does. Matched key by key to
 * fio 3.33's output; what vpsbench does not measure is left out (bw_min and
 * the other per-sample bandwidth figures, ctx/majf/minf, iodepth_submit and
 * iodepth_complete, job_runtime), and lat_ns carries only N and the mean
 * (slat mean + clat mean, exact): its min, max and stddev are null because
 * the sum per I/O is not recorded. Passes that did not run to the end are
 * left out. Each fsync dir that ran to the end is a job too, shaped as fio
 * 3.33 prints etcd's --fdatasync=1 job: "write" (the write() calls, clat_ns
 * with percentiles and bins) and "sync" (lat_ns of the fdatasync() calls,
 * percentiles and bins); its sync.total_ios is the count (fio prints 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/json/json_put.h"
#include "render.h"

#ifdef HAVE_CJSON

static void add_u64(cJSON *o, const char *k, uint64_t v)
{
	cJSON_AddNumberToObject(o, k, (double)v);
}

static void add_stat(cJSON *x, const struct rand_lat *l)
{
	bool n = l->n > 0;

	/* fio writes zeros for a direction with no samples; so does this */
	add_u64(x, "min", n ? l->min : 0);
	add_u64(x, "max", n ? l->max : 0);
	cJSON_AddNumberToObject(x, "mean", n ? l->mean : 0.0);
	cJSON_AddNumberToObject(x, "stddev", n ? l->stddev : 0.0);
	add_u64(x, "N", l->n);
}

/* clat_ns as json+ writes it: stats, percentiles and the non-empty plat bins. */
static int add_clat(cJSON *dir, const struct rand_dir_result *d)
{
	cJSON *x = cJSON_AddObjectToObject(dir, "clat_ns"), *p, *b;
	char k[32];

	if (!x)
		return -1;
	add_stat(x, &d->clat);
	if (!d->clat.n)
		return 0;
	if (!(p = cJSON_AddObjectToObject(x, "percentile")))
		return -1;
	for (int i = 0; i < LAT_NPCT; i++) {
		snprintf(k, sizeof(k), "%f", lat_default_percentiles[i]);
		add_u64(p, k, d->clat_pct[i]);
	}
	if (!(b = cJSON_AddObjectToObject(x, "bins")))
		return -1;
	for (unsigned i = 0; i < LAT_PLAT_NR; i++) {
		if (!d->clat_bins[i])
			continue;
		snprintf(k, sizeof(k), "%llu", (unsigned long long)lat_plat_idx_to_val(i));
		add_u64(b, k, d->clat_bins[i]);
	}
	return 0;
}

static int add_lat_total(cJSON *dir, const struct rand_dir_result *d)
{
	cJSON *x = cJSON_AddObjectToObject(dir, "lat_ns");

	if (!x)
		return -1;
	if (!d->clat.n) {
		add_stat(x, &d->clat);
		return 0;
	}
	cJSON_AddNullToObject(x, "min");
	cJSON_AddNullToObject(x, "max");
	/* the mean of slat + clat is the sum of the means; sync engines have no slat */
	cJSON_AddNumberToObject(x, "mean", d->clat.mean + (d->slat.n ? d->slat.mean : 0.0));
	cJSON_AddNullToObject(x, "stddev");
	add_u64(x, "N", d->clat.n);
	return 0;
}

/* "read"/"write"/"trim": d NULL for a direction the pass does not have. */
static int add_dir(cJSON *job, const char *key, const struct rand_dir_result *d,
		   uint64_t runtime_ms)
{
	/* an absent direction prints as the zero result, made on the heap (17 KB of rodata otherwise) */
	struct rand_dir_result *none = NULL;
	cJSON *x = cJSON_AddObjectToObject(job, key), *s;
	uint64_t bw = 0;
	int rc = -1;

	if (!x)
		return -1;
	if (!d || !d->present) {
		if (!(none = calloc(1, sizeof(*none))))
			return -1;
		d = none;
	}
	/* fio: integer B/s from 1000 * bytes / runtime_ms, KiB/s from that */
	if (runtime_ms && d->present)
		bw = 1000 * d->io_bytes / runtime_ms;
	add_u64(x, "io_bytes", d->io_bytes);
	add_u64(x, "io_kbytes", d->io_bytes >> 10);
	add_u64(x, "bw_bytes", bw);
	add_u64(x, "bw", bw / 1024);
	cJSON_AddNumberToObject(x, "iops", d->iops);
	add_u64(x, "runtime", d->present ? runtime_ms : 0);
	add_u64(x, "total_ios", d->total_ios);
	add_u64(x, "short_ios", d->short_ios);
	add_u64(x, "drop_ios", 0);
	if (!(s = cJSON_AddObjectToObject(x, "slat_ns")))
		goto out;
	add_stat(s, &d->slat);
	if (add_clat(x, d) < 0 || add_lat_total(x, d) < 0)
		goto out;
	rc = 0;
out:
	free(none);
	return rc;
}

/* fio's stat_calc_dist/stat_calc_lat: percent of total, a non-empty share at least floor. */
static double share(uint64_t n, uint64_t total, double floor)
{
	double v;

	if (!total)
		return 0.0;
	v = 100.0 * (double)n / (double)total;
	return n && v < floor ? floor : v;
}

static int add_depths(cJSON *job, const struct rand_pass_result *p)
{
	static const char *const lv[RAND_QD_LEVELS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const unit[3] = { "latency_ns", "latency_us", "latency_ms" };
	uint64_t total = 0, ios = p->dir_res[RD].clat.n + p->dir_res[WR].clat.n;
	cJSON *x;

	for (int i = 0; i < RAND_QD_LEVELS; i++)
		total += p->qd_level[i];
	if (!(x = cJSON_AddObjectToObject(job, "iodepth_level")))
		return -1;
	for (int i = 0; i < RAND_QD_LEVELS; i++)
		cJSON_AddNumberToObject(x, lv[i], share(p->qd_level[i], total, 0.1));
	for (int u = 0; u < 3; u++) {
		unsigned n = u == 2 ? LAT_RANGE_NR - 20 : 10;

		if (!(x = cJSON_AddObjectToObject(job, unit[u])))
			return -1;
		for (unsigned i = 0; i < n; i++) {
			unsigned r = (unsigned)u * 10 + i;

			cJSON_AddNumberToObject(x, lat_range_label[r],
						share(p->dir_res[RD].clat_range[r] +
						      p->dir_res[WR].clat_range[r], ios, 0.01));
		}
	}
	return 0;
}

static void add_opt(cJSON *o, const char *k, const char *fmt, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	cJSON_AddStringToObject(o, k, buf);
}

/* fio's "job options": every value a string, as fio writes them; the
 * planned runtime and ramp (the measured runtime is read.runtime). */
static int add_job_options(cJSON *job, const struct rand_pass_result *p,
			   const struct bench_plan *plan)
{
	cJSON *o = cJSON_AddObjectToObject(job, "job options");
	const struct rand_pass_spec *sp = NULL;

	if (!o)
		return -1;
	for (unsigned i = 0; i < plan->nrand && !sp; i++)
		if (!strcmp(plan->rand[i].name, p->name))
			sp = &plan->rand[i];
	cJSON_AddStringToObject(o, "name", p->name);
	if (p->dir)
		cJSON_AddStringToObject(o, "directory", p->dir);
	cJSON_AddStringToObject(o, "ioengine", p->engine[0] ? p->engine : "unknown");
	cJSON_AddStringToObject(o, "rw", rand_rw_names[p->rw]);
	if (p->rw == RW_RANDRW)
		add_opt(o, "rwmixread", "%llu", p->rwmixread);
	add_opt(o, "bs", "%llu", p->bs);
	add_opt(o, "iodepth", "%llu", p->iodepth_used ? p->iodepth_used : p->iodepth);
	add_opt(o, "numjobs", "%llu", p->jobs);
	add_opt(o, "size", "%llu", (unsigned long long)p->size_bytes);
	if (sp) {
		add_opt(o, "runtime", "%llums", (unsigned long long)(sp->runtime_ns / 1000000));
		add_opt(o, "ramp_time", "%llums", (unsigned long long)(sp->ramp_ns / 1000000));
	}
	cJSON_AddStringToObject(o, "time_based", "1");
	add_opt(o, "direct", "%llu", p->direct);
	if (p->rate_iops)
		add_opt(o, "rate_iops", "%llu", (unsigned long long)p->rate_iops);
	if (p->zero_data)
		cJSON_AddStringToObject(o, "zero_buffers", "1");
	return 0;
}

static cJSON *job_json(const struct rand_pass_result *p, const struct bench_plan *plan,
		       int groupid)
{
	cJSON *j = cJSON_CreateObject(), *c;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "jobname", p->name);
	cJSON_AddNumberToObject(j, "groupid", groupid);
	cJSON_AddNumberToObject(j, "error", 0);
	cJSON_AddNumberToObject(j, "eta", 0);
	cJSON_AddNumberToObject(j, "elapsed", (double)((p->ramp_ms + p->runtime_ms + 999) / 1000));
	if (add_job_options(j, p, plan) < 0 ||
	    add_dir(j, "read", &p->dir_res[RD], p->runtime_ms) < 0 ||
	    add_dir(j, "write", &p->dir_res[WR], p->runtime_ms) < 0 ||
	    add_dir(j, "trim", NULL, 0) < 0)
		goto fail;
	if (!(c = cJSON_AddObjectToObject(j, "sync")))
		goto fail;
	add_u64(c, "total_ios", 0);
	if (!(c = cJSON_AddObjectToObject(c, "lat_ns")))
		goto fail;
	add_stat(c, &(struct rand_lat){ 0 });
	json_add_mdbl(j, "usr_cpu", p->usr_pct);
	json_add_mdbl(j, "sys_cpu", p->sys_pct);
	if (add_depths(j, p) < 0)
		goto fail;
	cJSON_AddNumberToObject(j, "latency_depth", p->iodepth_used ? p->iodepth_used : p->iodepth);
	return j;
fail:
	cJSON_Delete(j);
	return NULL;
}

/* The write() side of an fsync job: fio's "write" of a sync-engine job. */
static int add_fsync_write(cJSON *job, const struct fsync_dir_result *d)
{
	cJSON *x = cJSON_AddObjectToObject(job, "write"), *s;
	uint64_t ms = d->runtime_ns / 1000000, bw = ms ? 1000 * d->bytes / ms : 0;

	if (!x)
		return -1;
	add_u64(x, "io_bytes", d->bytes);
	add_u64(x, "io_kbytes", d->bytes >> 10);
	add_u64(x, "bw_bytes", bw);
	add_u64(x, "bw", bw / 1024);
	cJSON_AddNumberToObject(x, "iops", ms ? 1000.0 * (double)d->writes / (double)ms : 0.0);
	add_u64(x, "runtime", ms);
	add_u64(x, "total_ios", d->writes);
	add_u64(x, "short_ios", 0);
	add_u64(x, "drop_ios", 0);
	if (!(s = cJSON_AddObjectToObject(x, "slat_ns")))
		return -1;
	add_stat(s, &(struct rand_lat){ 0 });
	json_add_fsync_lat(x, "clat_ns", &d->write);
	/* as the rand jobs: the mean of a sync engine's lat is its clat's */
	if (!(s = cJSON_AddObjectToObject(x, "lat_ns")))
		return -1;
	cJSON_AddNullToObject(s, "min");
	cJSON_AddNullToObject(s, "max");
	cJSON_AddNumberToObject(s, "mean", d->write.mean);
	cJSON_AddNullToObject(s, "stddev");
	add_u64(s, "N", d->write.n);
	return 0;
}

static cJSON *fsync_job_json(const struct fsync_dir_result *d, int groupid)
{
	static const char *const unit[3] = { "latency_ns", "latency_us", "latency_ms" };
	cJSON *j = cJSON_CreateObject(), *o, *c;

	if (!j)
		return NULL;
	cJSON_AddStringToObject(j, "jobname", "fsync");
	cJSON_AddNumberToObject(j, "groupid", groupid);
	cJSON_AddNumberToObject(j, "error", 0);
	cJSON_AddNumberToObject(j, "eta", 0);
	cJSON_AddNumberToObject(j, "elapsed", (double)((d->runtime_ns + 999999999) / 1000000000));
	if (!(o = cJSON_AddObjectToObject(j, "job options")))
		goto fail;
	cJSON_AddStringToObject(o, "name", "fsync");
	cJSON_AddStringToObject(o, "directory", d->dir);
	cJSON_AddStringToObject(o, "ioengine", "sync");
	cJSON_AddStringToObject(o, "rw", "write");
	cJSON_AddStringToObject(o, "fdatasync", "1");
	add_opt(o, "bs", "%llu", d->bs);
	add_opt(o, "size", "%llu", (unsigned long long)d->size_bytes);
	add_opt(o, "runtime", "%llums", (unsigned long long)(d->time_cap_ns / 1000000));
	if (add_dir(j, "read", NULL, 0) < 0 || add_fsync_write(j, d) < 0 ||
	    add_dir(j, "trim", NULL, 0) < 0)
		goto fail;
	if (!(c = cJSON_AddObjectToObject(j, "sync")))
		goto fail;
	add_u64(c, "total_ios", d->syncs);
	json_add_fsync_lat(c, "lat_ns", &d->sync);
	/* fio's latency_ns/us/ms of a write job: the write() calls */
	for (int u = 0; u < 3; u++) {
		unsigned n = u == 2 ? LAT_RANGE_NR - 20 : 10;

		if (!(o = cJSON_AddObjectToObject(j, unit[u])))
			goto fail;
		for (unsigned i = 0; i < n; i++)
			cJSON_AddNumberToObject(o, lat_range_label[u * 10 + i],
						share(d->write.range[u * 10 + i], d->write.n, 0.01));
	}
	cJSON_AddNumberToObject(j, "latency_depth", 1);
	return j;
fail:
	cJSON_Delete(j);
	return NULL;
}

char *render_fio(const struct bench_report *rep, const struct bench_plan *plan)
{
	cJSON *root = cJSON_CreateObject(), *g, *jobs, *j;
	char when[64] = "";
	char *out = NULL;
	struct tm tm;
	time_t t0 = rep->start_real.tv_sec;
	int groupid = 0;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "fio version", "vpsbench-" VPSBENCH_VERSION);
	cJSON_AddNumberToObject(root, "timestamp", (double)t0);
	cJSON_AddNumberToObject(root, "timestamp_ms",
				(double)t0 * 1000.0 + (double)(rep->start_real.tv_nsec / 1000000));
	/* fio: ctime() without its newline */
	if (localtime_r(&t0, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	cJSON_AddStringToObject(root, "time", when);
	if (!(g = cJSON_AddObjectToObject(root, "global options")))
		goto out;
	/* what every job below shares: the profile, and group_reporting's merge */
	cJSON_AddStringToObject(g, "profile", plan->profile);
	cJSON_AddStringToObject(g, "group_reporting", "1");
	if (!(jobs = cJSON_AddArrayToObject(root, "jobs")))
		goto out;
	for (unsigned i = 0; render_section_ran(rep, MOD_rand) && i < rep->rand.npass; i++) {
		const struct rand_pass_result *p = &rep->rand.pass[i];

		if (p->status != BENCH_OK)
			continue;
		if (!(j = job_json(p, plan, groupid++)) || !cJSON_AddItemToArray(jobs, j)) {
			cJSON_Delete(j);
			goto out;
		}
	}
	for (unsigned i = 0; render_section_ran(rep, MOD_fsync) && i < rep->fsync.ndirs; i++) {
		const struct fsync_dir_result *d = &rep->fsync.dirs[i];

		if (d->status != BENCH_OK || !d->sync.n)
			continue;
		if (!(j = fsync_job_json(d, groupid++)) || !cJSON_AddItemToArray(jobs, j)) {
			cJSON_Delete(j);
			goto out;
		}
	}
	out = cJSON_Print(root);
out:
	cJSON_Delete(root);
	return out;
}

#else

char *render_fio(const struct bench_report *rep, const struct bench_plan *plan)
{
	(void)rep;
	(void)plan;
	return NULL;
}

#endif
