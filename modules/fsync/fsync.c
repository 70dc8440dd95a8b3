/*
 * fsync.c — the fsync module: etcd's fdatasync recipe in each --dir. A
 * fresh test file (unlinked at once, preallocated as fio does), buffered
 * 2300-byte sequential writes each followed by fdatasync(); the default
 * run takes a time-capped sample (3 s), --profile etcd the whole 22 MiB.
 * The figures of a directory that is not a block device's (tmpfs, or
 * syncs no device completes that fast) are kept and marked, not graded.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "core/fsinfo.h"
#include "core/plan.h"
#include "core/stall.h"
#include "core/testfile.h"
#include "fsync.h"
#include "fsync_loop.h"

static bool is_nospace(int e)
{
	return e == ENOSPC || e == EDQUOT;
}

__attribute__((format(printf, 3, 4)))
static void dir_status(struct fsync_dir_result *r, enum bench_status st, const char *fmt, ...)
{
	va_list ap;

	r->status = st;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/* "aborted: no space left on MOUNT" (the mount point when known, else the dir). */
static void nospace(struct fsync_dir_result *r, const char *dir)
{
	dir_status(r, BENCH_FAIL, "aborted: no space left on %.200s",
		   r->mountpoint[0] ? r->mountpoint : dir);
}

/* Figures from the worker's histograms; the storage rule on the measured p50. */
static void fill_figures(const struct bench_ctx *ctx, struct fsync_dir_result *r,
			 const struct fsync_work *w)
{
	int i50 = fsync_pct_index(50.0);

	r->writes = w->writes;
	r->syncs = w->syncs;
	r->bytes = w->writes * r->bs;
	r->runtime_ns = w->t1 - w->t0;
	r->syncs_per_s = r->runtime_ns ? (double)r->syncs * 1e9 / (double)r->runtime_ns : 0;
	r->time_capped = w->time_capped;
	r->p99_low_confidence = fsync_p99_low_confidence(r->syncs);
	fsync_lat_from_hist(&r->sync, &w->sync_h);
	fsync_lat_from_hist(&r->write, &w->write_h);
	/* a sync that reached a device takes a write to it: none completes in 5 us */
	if (r->syncs && storage_class_graded(r->storage.cls) &&
	    r->sync.pct[i50] < STORAGE_MEMORY_P50_NS) {
		r->storage.cls = STORAGE_MEMORY;
		snprintf(r->storage.why, sizeof(r->storage.why), "fdatasync() returned in %.1f us "
			 "(p50), below the %.0f us a write to any block device takes: not the device",
			 (double)r->sync.pct[i50] / 1e3, (double)STORAGE_MEMORY_P50_NS / 1e3);
		bench_warn(ctx, "fsync: %s: %s; its figures are not graded as a disk's", r->dir,
			   r->storage.why);
	}
}

/* fio lays a write job's file out with fallocate(fd, 0, 0, size): the same here. */
static int preallocate(struct fsync_dir_result *r, int fd)
{
	if (fallocate(fd, 0, 0, (off_t)r->size_bytes) == 0) {
		r->preallocated = true;
		return 0;
	}
	if (errno == EOPNOTSUPP || errno == ENOSYS)
		return 0; /* fio goes on without it too */
	return -errno;
}

/* The test file, the loop in a worker with a deadline, the outcome. */
static void measure(const struct bench_ctx *ctx, struct fsync_dir_result *r, const char *dir)
{
	struct testfile tf;
	struct pass_io_dev iodev;
	struct pass_io_snap snap;
	struct fsync_work *w;
	struct bench_step step;
	char err[384], what[PATH_MAX + 64];
	double limit_s;
	int rc;

	rc = testfile_create(dir, "fsync", 0, &tf, err, sizeof(err));
	if (rc < 0) {
		if (is_nospace(-rc))
			nospace(r, dir);
		else
			dir_status(r, rc == -EROFS || rc == -EACCES || rc == -EPERM ? BENCH_SKIP :
				   BENCH_FAIL, "%s", err);
		return;
	}
	(void)testfile_unlink_early(&tf); /* kill -9 leaves nothing; else removed below */
	rc = preallocate(r, tf.fd);
	if (rc < 0) {
		if (is_nospace(-rc))
			nospace(r, dir);
		else
			dir_status(r, BENCH_FAIL, "fallocate of %.200s (%" PRIu64 " bytes) failed: %s",
				   tf.path, r->size_bytes, strerror(-rc));
		testfile_remove(&tf);
		return;
	}
	w = fsync_work_new(ctx, r->bs, err, sizeof(err));
	if (!w) {
		dir_status(r, BENCH_FAIL, "%s", err);
		testfile_remove(&tf);
		return;
	}
	w->fd = tf.fd;
	w->size = r->size_bytes;
	w->cap_ns = r->time_cap_ns;
	snprintf(what, sizeof(what), "fdatasync after %u-byte writes in %s", r->bs, dir);
	step = (struct bench_step){ .module = "fsync", .what = what, .slots = 1 };
	if (r->full)
		step.bytes = r->size_bytes;
	else
		step.ns = r->time_cap_ns;
	limit_s = (double)r->time_cap_ns / 1e9 + stall_deadline_s(0);
	pass_io_dev_for(ctx->root, dir, &iodev);
	pass_io_begin(ctx->root, &iodev, &snap);
	bench_progress_step(ctx, &step, 0);
	rc = stall_run(ctx, &w->sw, limit_s);
	bench_progress_step(ctx, &step, 1);
	if (rc == 0)
		pass_io_end(ctx->root, &iodev, &snap, 0, w->writes * r->bs, w->syncs, 0, &r->dist);
	else
		pass_io_drop(&snap);
	if (rc != 0) {
		/* the worker may still be inside write() or fdatasync(): leave it its fd and w */
		tf.fd = -1;
		testfile_remove(&tf);
		if (rc == -ETIMEDOUT)
			dir_status(r, BENCH_FAIL, "timeout: a write() or fdatasync() in %.200s did not "
				   "return within %.0f s", dir, limit_s);
		else
			dir_status(r, BENCH_INCOMPLETE, "interrupted inside a stalled write() or "
				   "fdatasync(): no figures");
		return;
	}
	fill_figures(ctx, r, w);
	if (w->err) {
		if (is_nospace(-w->err))
			nospace(r, dir);
		else
			dir_status(r, BENCH_FAIL, "%s of %.200s at offset %" PRIu64 " failed: %s",
				   w->err_in_sync ? "fdatasync" : "write", tf.path, w->err_off,
				   strerror(-w->err));
	} else if (w->stopped) {
		dir_status(r, BENCH_INCOMPLETE, "interrupted after %" PRIu64 " syncs: partial "
			   "figures", r->syncs);
	} else {
		dir_status(r, BENCH_OK, "%s", "");
	}
	fsync_work_free(w);
	testfile_remove(&tf);
}

static void run_dir(const struct bench_ctx *ctx, struct fsync_result *res, const char *dir,
		    unsigned idx)
{
	const struct fsync_spec *sp = &ctx->plan->fsync;
	struct fsync_dir_result *r = &res->dirs[res->ndirs++];
	int64_t avail = testfile_avail_bytes(dir);
	struct statvfs sv;
	struct fs_info fi;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->full = sp->full;
	r->bs = sp->bs;
	r->time_cap_ns = sp->time_ns;
	if (fsinfo_for_path(ctx->root, dir, &fi) == 0) {
		snprintf(r->fstype, sizeof(r->fstype), "%s", fi.fstype);
		if (fi.mount_known)
			snprintf(r->mountpoint, sizeof(r->mountpoint), "%s", fi.mountpoint);
		r->storage = fi.storage;
	}
	if (!storage_class_graded(r->storage.cls))
		bench_warn(ctx, "fsync: %s is %s (%s): its figures are shown, not graded as a disk's",
			   dir, storage_class_name(r->storage.cls), r->storage.why);
	/* ramfs reports no blocks at all: free space unknown, not zero */
	if (statvfs(dir, &sv) == 0 && sv.f_blocks == 0)
		avail = -1;
	r->size_bytes = fsync_fit_size(sp->size, avail, sp->bs, &r->scaled_down);
	if (r->size_bytes == 0) {
		dir_status(r, BENCH_SKIP, "not enough free space in %.200s (%lld bytes free)", dir,
			   (long long)avail);
		return;
	}
	if (r->scaled_down)
		bench_warn(ctx, "fsync: %s: writes capped at %" PRIu64 " bytes to fit the free space",
			   dir, r->size_bytes);
	bench_phase(ctx, "fsync", idx + 1);
	if (bench_stopped(ctx)) {
		dir_status(r, BENCH_INCOMPLETE, "not started: interrupted");
		return;
	}
	measure(ctx, r, dir);
}

static enum bench_status fsync_run(const struct bench_ctx *ctx, void *result,
				   struct mod_outcome *out)
{
	struct fsync_result *res = result;
	const struct bench_opts *o = ctx->opts;
	unsigned ndirs = o->ndirs ? o->ndirs : 1, n[BENCH_INCOMPLETE + 1] = { 0 };
	const struct fsync_dir_result *first_bad = NULL;

	memset(res, 0, sizeof(*res));
	for (unsigned d = 0; d < ndirs && d < FSYNC_MAX_DIRS; d++)
		run_dir(ctx, res, o->ndirs ? o->dirs[d] : ".", d);
	for (unsigned i = 0; i < res->ndirs; i++) {
		const struct fsync_dir_result *r = &res->dirs[i];

		n[r->status]++;
		if (r->status != BENCH_OK && (!first_bad || (r->status == BENCH_FAIL &&
							      first_bad->status != BENCH_FAIL)))
			first_bad = r;
	}
	if (n[BENCH_FAIL])
		return bench_outcome(out, BENCH_FAIL, "%s: %s", first_bad->dir, first_bad->reason);
	if (n[BENCH_INCOMPLETE])
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted: partial figures");
	if (!n[BENCH_OK] && first_bad)
		return bench_outcome(out, first_bad->status, "%s", first_bad->reason);
	if (first_bad)
		return bench_outcome(out, BENCH_OK, "%u of %u dirs did not run; first: %s: %s",
				     res->ndirs - n[BENCH_OK], res->ndirs, first_bad->dir,
				     first_bad->reason);
	return bench_outcome(out, BENCH_OK, NULL);
}

const struct bench_module bench_mod_fsync = {
	.name = "fsync",
	.desc = "etcd's fdatasync recipe: 2300-byte buffered writes, each followed by fdatasync()",
	.run = fsync_run,
};
