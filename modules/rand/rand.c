/*
 * rand.c — the rand module: for every --dir, one laid-out test file and
 * the plan's passes on it, each run by 'jobs' threads (rand_job.c) and
 * merged the way fio's group_reporting does.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/fsinfo.h"
#include "core/options.h"
#include "core/live.h"
#include "rand_job.h"
#include "rand_layout.h"
#include "rand_verify.h"

/* hard deadline past ramp + runtime, plus twice what is out takes at the rate seen (rand_job.c) */
#define GRACE_NS (10ULL * 1000000000ULL)
#define VERIFY_CHUNK (1u << 20)
#define RAND_PROBE_READS 64u /* 4k O_DIRECT reads of the physical check */

static void lat_out(struct rand_lat *o, const struct lat_stat *s)
{
	o->n = s->n;
	o->min = s->n ? s->min : 0;
	o->max = s->n ? s->max : 0;
	o->mean = s->mean;
	o->stddev = lat_stat_stddev(s);
}

static void fill_spec(struct rand_pass_result *res, const struct rand_pass_spec *sp,
		      const char *dir, unsigned jobs, bool zero)
{
	snprintf(res->name, sizeof(res->name), "%s", sp->name);
	res->dir = dir;
	res->rw = sp->rw;
	res->rwmixread = sp->rwmixread;
	res->bs = sp->bs;
	res->iodepth = sp->iodepth;
	res->iodepth_used = sp->iodepth;
	res->jobs = jobs;
	res->rate_iops = sp->rate_iops;
	res->rate_iops_write = sp->rate_iops_write;
	res->ramp_ms = sp->ramp_ns / 1000000ULL;
	res->size_bytes = sp->size;
	res->zero_data = zero;
	res->dir_res[RD].present = sp->rw != RW_RANDWRITE;
	res->dir_res[WR].present = sp->rw != RW_RANDREAD;
}

static void pass_status(struct rand_pass_result *res, enum bench_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pass_status(struct rand_pass_result *res, enum bench_status st, const char *fmt, ...)
{
	va_list ap;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
}

static bool is_nospace(int neg_errno)
{
	return neg_errno == -ENOSPC || neg_errno == -EDQUOT;
}

/* "aborted: no space left on <mount>" names the mount, or the dir when unknown. */
static void nospace_status(const struct bench_ctx *ctx, struct rand_pass_result *res,
			   const char *dir)
{
	struct fs_info fi;
	bool known = fsinfo_for_path(ctx->root, dir, &fi) == 0 && fi.mount_known;

	pass_status(res, BENCH_FAIL, "aborted: no space left on %s", known ? fi.mountpoint : dir);
}

/* A pass that ended in an error or a timeout reports no figure at all. */
static void drop_figures(struct rand_pass_result *res)
{
	for (int d = 0; d < 2; d++) {
		bool present = res->dir_res[d].present;

		memset(&res->dir_res[d], 0, sizeof(res->dir_res[d]));
		res->dir_res[d].present = present;
	}
	res->runtime_ms = 0;
	res->usr_pct = res->sys_pct = res->iodepth_avg = (struct mdbl){ 0, false };
	memset(res->qd_level, 0, sizeof(res->qd_level));
}

/* Reads every block of the pass back and checks stamps, checksums and generations. */
static int verify_pass(struct rand_file *f, uint64_t nblocks, uint32_t bs, const uint32_t *vgen,
		       struct rand_verify_result *v, const struct bench_ctx *ctx)
{
	uint32_t chunk = VERIFY_CHUNK - VERIFY_CHUNK % bs;
	unsigned char *buf;
	uint64_t total = nblocks * bs;

	if (chunk < bs)
		chunk = bs;
	if (posix_memalign((void **)&buf, 4096, chunk))
		return -ENOMEM;
	v->ran = true;
	for (uint64_t off = 0; off < total; off += chunk) {
		size_t len = total - off < chunk ? (size_t)(total - off) : chunk;
		size_t got = 0;

		if (bench_stopped(ctx))
			break;
		while (got < len) {
			ssize_t r = pread(f->tf.fd, buf + got, len - got, (off_t)(off + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				int e = r < 0 ? errno : EIO;

				free(buf);
				return -e;
			}
			got += (size_t)r;
		}
		for (size_t o = 0; o < len; o += bs) {
			uint64_t b = (off + o) / bs;
			enum rand_vres vr = rand_check_block(buf + o, bs, off + o, vgen[b]);

			v->blocks++;
			if (vr == RV_OK)
				continue;
			v->bad++;
			if (vr == RV_CORRUPT)
				v->corrupt++;
			else if (vr == RV_MISPLACED)
				v->misplaced++;
			else
				v->lost++;
			if (v->nkept < RAND_VERIFY_KEEP) {
				v->bad_off[v->nkept] = off + o;
				v->bad_kind[v->nkept] = vr == RV_CORRUPT ? 'c' : vr == RV_MISPLACED ? 'm' : 'l';
				v->nkept++;
			}
		}
	}
	free(buf);
	return 0;
}

static void merge_jobs(struct rand_pass_result *res, struct rand_job *jv, unsigned jobs,
		       struct lat_hist *hist)
{
	uint64_t rt_ns = 0, qd_n = 0;
	double usr = 0, sys = 0, job_s = 0, qd_sum = 0;
	const struct rand_job *first = NULL, *last = NULL;
	struct lat_stat slat[2];
	bool cpu_ok = true;

	memset(slat, 0, sizeof(slat));
	lat_hist_reset(&hist[0]);
	lat_hist_reset(&hist[1]);
	snprintf(res->engine, sizeof(res->engine), "%s", jv[0].engine);
	res->iodepth_used = jv[0].depth_used;
	for (unsigned i = 0; i < jobs; i++) {
		struct rand_job *j = &jv[i];

		if (j->runtime_ns > rt_ns)
			rt_ns = j->runtime_ns;
		if (j->depth_used && j->depth_used < res->iodepth_used)
			res->iodepth_used = j->depth_used;
		if (!res->engine_fallback[0] && j->fallback[0])
			snprintf(res->engine_fallback, sizeof(res->engine_fallback), "%s", j->fallback);
		if (!res->engine_note[0] && j->note[0])
			snprintf(res->engine_note, sizeof(res->engine_note), "%s", j->note);
		if (strcmp(j->engine, jv[0].engine) && j->engine[0]) {
			size_t n = strlen(res->engine_fallback);

			snprintf(res->engine_fallback + n, sizeof(res->engine_fallback) - n,
				 "%sjob %u used %s", n ? "; " : "", i, j->engine);
		}
		for (int d = 0; d < 2; d++) {
			struct rand_dir_result *dr = &res->dir_res[d];

			lat_hist_merge(&hist[d], &j->clat[d]);
			lat_stat_merge(&slat[d], &j->slat[d]);
			dr->io_bytes += j->bytes[d];
			dr->total_ios += j->ios[d];
			dr->short_ios += j->short_ios[d];
			for (unsigned s = 0; s < RAND_TL_MAX; s++)
				dr->timeline[s] += j->tl[d][s];
		}
		for (int l = 0; l < RAND_QD_LEVELS; l++)
			res->qd_level[l] += j->qd_level[l];
		qd_sum += j->qd_sum;
		qd_n += j->qd_n;
		cpu_ok = cpu_ok && j->cpu_ok;
		if (j->cpu_ok && (!first || j->cpu_t0 < first->cpu_t0))
			first = j;
		if (j->cpu_ok && (!last || j->cpu_t1 > last->cpu_t1))
			last = j;
		job_s += (double)j->runtime_ns / 1e9;
	}
	/* fio: runtime is the max over jobs, in ms rounded up */
	res->runtime_ms = (rt_ns + 999999ULL) / 1000000ULL;
	for (int d = 0; d < 2; d++) {
		struct rand_dir_result *dr = &res->dir_res[d];
		unsigned ntl = (unsigned)(res->runtime_ms / 1000);

		if (res->runtime_ms) {
			dr->iops = 1000.0 * (double)dr->total_ios / (double)res->runtime_ms;
			dr->bw_bytes = 1000.0 * (double)dr->io_bytes / (double)res->runtime_ms;
		}
		lat_out(&dr->clat, &hist[d].st);
		lat_out(&dr->slat, &slat[d]);
		for (int p = 0; p < LAT_NPCT; p++)
			dr->clat_pct[p] = lat_hist_percentile(&hist[d], lat_default_percentiles[p]);
		memcpy(dr->clat_bins, hist[d].bucket, sizeof(dr->clat_bins));
		memcpy(dr->clat_range, hist[d].range, sizeof(dr->clat_range));
		/* whole seconds only: a last partial second would look like a drop */
		if (ntl == 0 && res->runtime_ms)
			ntl = 1;
		dr->ntimeline = ntl < RAND_TL_MAX ? ntl : RAND_TL_MAX;
	}
	/*
	 * The process's CPU from the first job's window start to the last one's
	 * end (RUSAGE_SELF: io-wq workers included), per job-second as fio's
	 * per-job cpu line: 100% is one CPU busy per job.
	 */
	if (cpu_ok && first && last) {
		usr = last->usr1_s - first->usr0_s;
		sys = last->sys1_s - first->sys0_s;
	}
	if (cpu_ok && first && last && job_s > 0) {
		res->usr_pct = mdbl_of(100.0 * usr / job_s);
		res->sys_pct = mdbl_of(100.0 * sys / job_s);
	}
	if (qd_n)
		res->iodepth_avg = mdbl_of(qd_sum / (double)qd_n);
}

static void run_pass(const struct bench_ctx *ctx, struct rand_file *f,
		     const struct rand_pass_spec *spec, const char *dir,
		     const struct pass_io_dev *iodev, struct rand_pass_result *res)
{
	struct pass_io_snap snap;
	uint64_t own[2] = { 0, 0 }, own_ios = 0;
	const struct bench_plan *plan = ctx->plan;
	struct rand_pass_spec sp = *spec;
	unsigned jobs = sp.jobs ? sp.jobs : ctx->cpus_usable, created = 0;
	struct rand_job *jv = NULL;
	struct lat_hist *hist = NULL;
	struct rand_job_cfg cfg;
	struct rand_gate gate;
	uint64_t nblocks;
	bool direct_off = false, stopped = false, timed_out = false;
	char why[160] = "", what[128];
	struct bench_step step;
	int err_job = -1;

	if (sp.size > f->size)
		sp.size = f->size;
	nblocks = sp.size / sp.bs;
	if (plan->verify && nblocks < jobs)
		jobs = (unsigned)nblocks; /* each job needs its own blocks */
	fill_spec(res, &sp, dir, jobs, plan->zero_buffers);
	res->layout_seconds = f->layout_s;
	res->size_bytes = sp.size;
	if (nblocks == 0) {
		pass_status(res, BENCH_SKIP, "test file (%llu bytes) smaller than bs",
			    (unsigned long long)f->size);
		return;
	}
	/* O_DIRECT, unless the fs refuses it for this block size */
	res->direct = f->direct && rand_file_direct_ok(f, sp.bs, why, sizeof(why));
	if (f->direct && !res->direct) {
		if (rand_file_set_direct(f, false) == 0)
			direct_off = true;
		snprintf(res->direct_reason, sizeof(res->direct_reason), "%s", why);
	} else if (!f->direct) {
		snprintf(res->direct_reason, sizeof(res->direct_reason), "%s", f->direct_reason);
	}
	if (!res->direct) {
		rand_file_drop_cache(f);
		bench_warn(ctx, "rand %s in %s ran buffered (page cache), not O_DIRECT: %s", sp.name,
			    dir, res->direct_reason);
	}

	memset(&cfg, 0, sizeof(cfg));
	memset(&gate, 0, sizeof(gate));
	jv = calloc(jobs, sizeof(*jv));
	hist = calloc(2, sizeof(*hist));
	if (plan->verify) {
		cfg.vgen = calloc(nblocks, sizeof(*cfg.vgen));
		cfg.vbusy = calloc(nblocks, 1);
	}
	if (!jv || !hist || (plan->verify && (!cfg.vgen || !cfg.vbusy))) {
		pass_status(res, BENCH_FAIL, "out of memory for %u jobs", jobs);
		goto out;
	}
	if (pthread_mutex_init(&gate.mu, NULL) || pthread_cond_init(&gate.cv, NULL)) {
		pass_status(res, BENCH_FAIL, "cannot initialise the start gate");
		goto out;
	}
	cfg.ctx = ctx;
	cfg.spec = &sp;
	cfg.fd = f->tf.fd;
	cfg.jobs = jobs;
	cfg.nblocks = nblocks;
	cfg.engine = plan->engine;
	cfg.zero_buffers = plan->zero_buffers;
	cfg.nonce = f->nonce;
	cfg.verify = plan->verify;
	cfg.grace_ns = GRACE_NS;
	cfg.gate = &gate;

	snprintf(what, sizeof(what), "%s in %s", sp.name, dir);
	step = (struct bench_step){ .module = "rand", .what = what, .ns = sp.ramp_ns + sp.runtime_ns,
				    .ramp_ns = sp.ramp_ns, .slots = jobs };
	pass_io_begin(ctx->root, iodev, &snap);
	bench_progress_step(ctx, &step, 0);
	for (unsigned i = 0; i < jobs; i++) {
		int r;

		jv[i].idx = i;
		jv[i].cfg = &cfg;
		r = pthread_create(&jv[i].tid, NULL, rand_job_main, &jv[i]);
		if (r) {
			pass_status(res, BENCH_FAIL, "pthread_create (job %u of %u): %s", i, jobs,
				    strerror(r));
			break;
		}
		created++;
	}
	pthread_mutex_lock(&gate.mu);
	while (gate.ready < created)
		pthread_cond_wait(&gate.cv, &gate.mu);
	gate.abort = created < jobs;
	for (unsigned i = 0; i < created; i++)
		if (jv[i].err)
			gate.abort = true; /* one job could not start: none runs */
	gate.go = true;
	pthread_cond_broadcast(&gate.cv);
	pthread_mutex_unlock(&gate.mu);
	for (unsigned i = 0; i < created; i++)
		pthread_join(jv[i].tid, NULL);
	for (unsigned i = 0; i < created; i++)
		for (int d = 0; d < 2; d++)
			own[d] += jv[i].bytes[d] + jv[i].ramp_bytes[d],
			own_ios += jv[i].ios[d] + jv[i].ramp_ios[d];
	/* direct I/O of at most 64 KiB: one request each (else the count is not judged) */
	pass_io_end(ctx->root, iodev, &snap, own[RD], own[WR], 0,
		    res->direct && sp.bs <= 65536 ? own_ios : 0, &res->dist);
	bench_progress_step(ctx, &step, 1);
	pthread_cond_destroy(&gate.cv);
	pthread_mutex_destroy(&gate.mu);
	if (created < jobs)
		goto out;

	merge_jobs(res, jv, jobs, hist);
	for (unsigned i = 0; i < jobs; i++) {
		if (jv[i].err && err_job < 0)
			err_job = (int)i;
		stopped = stopped || jv[i].stopped;
		timed_out = timed_out || jv[i].timed_out;
	}
	if (err_job >= 0 && !jv[err_job].engine[0]) {
		/* the engine could not be opened: explicit engine refused or not built */
		pass_status(res, jv[err_job].err == -ENOSYS && strstr(jv[err_job].errmsg, "built without") ?
			    BENCH_UNAVAIL : BENCH_FAIL, "%s", jv[err_job].errmsg);
		goto out;
	}
	if (timed_out) {
		const char *why = "timeout: I/O still outstanding after the runtime ended";

		for (unsigned i = 0; i < jobs; i++)
			if (jv[i].timed_out && jv[i].errmsg[0]) {
				why = jv[i].errmsg;
				break;
			}
		pass_status(res, BENCH_FAIL, "%s", why);
		drop_figures(res);
		goto out;
	}
	if (err_job >= 0) {
		if (is_nospace(jv[err_job].err))
			nospace_status(ctx, res, dir);
		else
			pass_status(res, BENCH_FAIL, "job %d: %s", err_job, jv[err_job].errmsg);
		drop_figures(res);
		goto out;
	}
	if (stopped || bench_stopped(ctx)) {
		pass_status(res, BENCH_INCOMPLETE, "interrupted: partial figures");
		goto out;
	}
	pass_status(res, BENCH_OK, "%s", "");
	if (plan->verify && res->dir_res[WR].present) {
		struct rand_verify_result *v = &res->verify;
		int r = verify_pass(f, nblocks, sp.bs, cfg.vgen, v, ctx);

		if (r < 0)
			pass_status(res, BENCH_FAIL, "verify read-back: %s", strerror(-r));
		else if (v->bad)
			pass_status(res, BENCH_FAIL,
				    "verify: %llu of %llu blocks bad (corrupt %llu, misplaced %llu, "
				    "lost %llu), first at offset %llu",
				    (unsigned long long)v->bad, (unsigned long long)v->blocks,
				    (unsigned long long)v->corrupt, (unsigned long long)v->misplaced,
				    (unsigned long long)v->lost, (unsigned long long)v->bad_off[0]);
		else if (bench_stopped(ctx))
			pass_status(res, BENCH_INCOMPLETE, "interrupted during verify");
	}
out:
	if (direct_off)
		(void)rand_file_set_direct(f, true); /* the next pass probes again */
	free(cfg.vgen);
	free(cfg.vbusy);
	free(hist);
	free(jv);
}

static uint32_t plan_max_bs(const struct bench_plan *plan, uint64_t *max_size)
{
	uint32_t bs = 0;

	*max_size = 0;
	for (unsigned i = 0; i < plan->nrand; i++) {
		if (plan->rand[i].bs > bs)
			bs = plan->rand[i].bs;
		if (plan->rand[i].size > *max_size)
			*max_size = plan->rand[i].size;
	}
	return bs;
}

static struct rand_pass_result *new_result(struct rand_result *rr)
{
	struct rand_pass_result *r;

	if (rr->npass >= RAND_MAX_RESULTS)
		return NULL;
	r = &rr->pass[rr->npass++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* Every pass of a dir that cannot run at all gets the same status. */
static void dir_status(const struct bench_ctx *ctx, struct rand_result *rr, const char *dir,
		       const struct storage_verdict *sv, enum bench_status st, const char *reason)
{
	const struct bench_plan *plan = ctx->plan;

	for (unsigned p = 0; p < plan->nrand; p++) {
		struct rand_pass_result *res = new_result(rr);
		unsigned jobs = plan->rand[p].jobs ? plan->rand[p].jobs : ctx->cpus_usable;

		if (!res)
			return;
		fill_spec(res, &plan->rand[p], dir, jobs, plan->zero_buffers);
		res->storage = *sv;
		pass_status(res, st, "%s", reason);
	}
}

/* The physical check on the laid-out file, before any pass reads it. */
static void probe_dir(const struct bench_ctx *ctx, struct rand_file *f, const char *dir,
		      struct storage_verdict *sv)
{
	bool graded = storage_class_graded(sv->cls);
	int rc;

	if (!f->direct)
		return;
	rc = storage_probe_direct(f->tf.fd, f->size, RAND_PROBE_READS, sv);
	if (rc < 0)
		bench_warn(ctx, "rand: %s: O_DIRECT 4k probe read failed: %s", dir, strerror(-rc));
	else if (graded && !storage_class_graded(sv->cls))
		bench_warn(ctx, "rand: %s: %s; its figures are not graded as a disk's", dir, sv->why);
}

/*
 * The same check on the measured figure: a direct 4k randread pass at qd1
 * whose clat p50 no block device reaches marks every pass of the dir.
 */
static void lat_check(const struct bench_ctx *ctx, struct rand_result *rr, unsigned first,
		      const char *dir)
{
	int i50 = -1;

	for (int k = 0; k < LAT_NPCT; k++)
		if (lat_default_percentiles[k] == 50.0)
			i50 = k;
	for (unsigned i = first; i50 >= 0 && i < rr->npass; i++) {
		const struct rand_pass_result *p = &rr->pass[i];
		uint64_t p50 = p->dir_res[RD].clat_pct[i50];

		if (p->status != BENCH_OK || !p->direct || p->rw != RW_RANDREAD || p->iodepth != 1 ||
		    p->bs != 4096 || !p->dir_res[RD].total_ios || p50 >= STORAGE_MEMORY_P50_NS ||
		    !storage_class_graded(p->storage.cls))
			continue;
		char name[sizeof(p->name)];

		snprintf(name, sizeof(name), "%s", p->name); /* p is among those rewritten */
		for (unsigned j = first; j < rr->npass; j++) {
			struct storage_verdict *sv = &rr->pass[j].storage;

			sv->cls = STORAGE_MEMORY;
			sv->probe_p50_ns = mu64_of(p50);
			snprintf(sv->why, sizeof(sv->why), "served from memory, not the device: pass %s "
				 "(O_DIRECT 4k reads at qd1) took %.1f us (p50), below the %.0f us no "
				 "block device beats", name, (double)p50 / 1e3,
				 (double)STORAGE_MEMORY_P50_NS / 1e3);
		}
		bench_warn(ctx, "rand: %s: %s; its figures are not graded as a disk's", dir,
			    rr->pass[first].storage.why);
		return;
	}
}

static void run_dir(const struct bench_ctx *ctx, struct rand_result *rr, const char *dir)
{
	const struct bench_plan *plan = ctx->plan;
	uint64_t want, size;
	uint32_t maxbs = plan_max_bs(plan, &want);
	int64_t avail = testfile_avail_bytes(dir);
	struct statvfs sv;
	struct rand_file f;
	struct fs_info fi;
	struct pass_io_dev iodev;
	char err[384], what[PATH_MAX + 16];
	struct bench_step step;
	unsigned first;
	int r;

	if (fsinfo_for_path(ctx->root, dir, &fi) < 0)
		memset(&fi, 0, sizeof(fi)); /* the no-space message reads mount_known */
	if (!storage_class_graded(fi.storage.cls))
		bench_warn(ctx, "rand: %s is %s (%s): its figures are not graded as a disk's", dir,
			    storage_class_name(fi.storage.cls), fi.storage.why);
	/* ramfs reports no blocks at all: free space unknown, not zero */
	if (statvfs(dir, &sv) == 0 && sv.f_blocks == 0)
		avail = -1;
	size = rand_file_fit(want, avail, maxbs);
	size -= size % 4096; /* O_DIRECT layout in whole pages */
	if (size < RAND_MIN_FILE) {
		snprintf(err, sizeof(err), "not enough free space in %s (%lld bytes free)", dir,
			 (long long)avail);
		dir_status(ctx, rr, dir, &fi.storage, BENCH_SKIP, err);
		return;
	}
	if (size < want)
		bench_warn(ctx, "rand: test file in %s scaled down from %llu MiB to %llu MiB to fit "
			    "the free space", dir, (unsigned long long)(want >> 20),
			    (unsigned long long)(size >> 20));
	snprintf(what, sizeof(what), "layout in %s", dir);
	step = (struct bench_step){ .module = "rand", .what = what, .bytes = size, .slots = 1 };
	bench_progress_step(ctx, &step, 0);
	r = rand_file_create(ctx, dir, size, &f, err, sizeof(err));
	bench_progress_step(ctx, &step, 1);
	if (r < 0 && is_nospace(r))
		snprintf(err, sizeof(err), "aborted: no space left on %.300s",
			 fi.mount_known ? fi.mountpoint : dir);
	if (r < 0) {
		dir_status(ctx, rr, dir, &fi.storage, r == -ECANCELED ? BENCH_INCOMPLETE :
			   r == -EROFS || r == -EACCES || r == -EPERM ? BENCH_SKIP : BENCH_FAIL, err);
		return;
	}
	if (f.tf.nocow < 0)
		bench_warn(ctx, "rand: %s: btrfs NOCOW could not be set on the test file (%s): on "
			    "kernel 6.14+ O_DIRECT writes with data checksums are buffered", dir,
			    strerror(-f.tf.nocow));
	probe_dir(ctx, &f, dir, &fi.storage);
	pass_io_dev_for(ctx->root, dir, &iodev);
	first = rr->npass;
	for (unsigned p = 0; p < plan->nrand; p++) {
		struct rand_pass_result *res = new_result(rr);

		if (!res) {
			bench_warn(ctx, "rand: more than %d passes x dirs, the rest was not run",
				    RAND_MAX_RESULTS);
			break;
		}
		bench_phase(ctx, "rand-pass", p + 1);
		if (bench_stopped(ctx)) {
			fill_spec(res, &plan->rand[p], dir, plan->rand[p].jobs, plan->zero_buffers);
			pass_status(res, BENCH_INCOMPLETE, "not started: interrupted");
			continue;
		}
		res->storage = fi.storage;
		run_pass(ctx, &f, &plan->rand[p], dir, &iodev, res);
	}
	rand_file_close(&f);
	lat_check(ctx, rr, first, dir);
}

static enum bench_status rand_run(const struct bench_ctx *ctx, void *result,
				  struct mod_outcome *out)
{
	struct rand_result *rr = result;
	const struct bench_opts *o = ctx->opts;
	unsigned ndirs = o->ndirs ? o->ndirs : 1, n[BENCH_INCOMPLETE + 1] = { 0 };
	const struct rand_pass_result *first_bad = NULL;

	memset(rr, 0, sizeof(*rr));
	if (ctx->plan->nrand == 0)
		return bench_outcome(out, BENCH_SKIP, "the profile has no random I/O passes");
	for (unsigned d = 0; d < ndirs; d++)
		run_dir(ctx, rr, o->ndirs ? o->dirs[d] : ".");
	for (unsigned i = 0; i < rr->npass; i++) {
		const struct rand_pass_result *r = &rr->pass[i];

		n[r->status]++;
		if (r->status != BENCH_OK && (!first_bad || (r->status == BENCH_FAIL &&
							      first_bad->status != BENCH_FAIL)))
			first_bad = r;
	}
	if (n[BENCH_FAIL])
		return bench_outcome(out, BENCH_FAIL, "%u of %u passes failed; first: %s: %s",
				     n[BENCH_FAIL], rr->npass, first_bad->name, first_bad->reason);
	if (n[BENCH_INCOMPLETE])
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted: partial figures");
	if (!n[BENCH_OK] && first_bad)
		return bench_outcome(out, first_bad->status, "%s", first_bad->reason);
	if (first_bad)
		return bench_outcome(out, BENCH_OK, "%u of %u passes did not run; first: %s: %s",
				     rr->npass - n[BENCH_OK], rr->npass, first_bad->name,
				     first_bad->reason);
	return bench_outcome(out, BENCH_OK, NULL);
}

const struct bench_module bench_mod_rand = {
	.name = "rand",
	.desc = "fio-style random I/O: 4k randread/randwrite/randrw, io_uring or libaio, O_DIRECT",
	.run = rand_run,
};
