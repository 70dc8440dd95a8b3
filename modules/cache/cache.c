/*
 * cache.c — the storage profile's run (--profile storage): the cache
 * cliff (cache_cliff.c), then burst-then-sustained writes (cache_write.c:
 * 4k random qd32, sequential 1 MiB O_DIRECT), all under --storage-max-time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "cache_fio.h"
#include "cache_run.h"

/* Free space kept: 10% and at least 64 MiB (the filesystem's own needs). */
#define MARGIN_MIN (64ULL * CACHE_MiB)

uint64_t cache_fit(int64_t avail)
{
	uint64_t a = avail > 0 ? (uint64_t)avail : 0, m = a / 10;

	m = m < MARGIN_MIN ? MARGIN_MIN : m;
	return a > m ? (a - m) / CACHE_MiB * CACHE_MiB : 0;
}

int cache_seq_io(struct cache_run *cr, uint64_t from, uint64_t to, bool write, uint64_t deadline,
		 char *err, size_t errlen)
{
	struct databuf_rng rng;

	databuf_seed(&rng, mono_ns());
	for (uint64_t off = from; off < to; off += CACHE_CHUNK) {
		ssize_t n;

		if (mono_ns() > deadline || bench_stopped(cr->ctx))
			return 1;
		if (write) {
			databuf_fill(&rng, cr->buf, CACHE_CHUNK);
			n = pwrite(cr->tf.fd, cr->buf, CACHE_CHUNK, (off_t)off);
		} else {
			n = pread(cr->tf.fd, cr->buf, CACHE_CHUNK, (off_t)off);
		}
		if (n != (ssize_t)CACHE_CHUNK) {
			snprintf(err, errlen, "cache: %s at %llu: %s", write ? "write" : "read",
				 (unsigned long long)off, n < 0 ? strerror(errno) : "short transfer");
			return -1;
		}
	}
	return 0;
}

static enum bench_status cache_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	struct cache_result *r = result;
	const struct cache_spec *sp = &ctx->plan->storage;
	struct cache_run cr = {
		.ctx = ctx,
		.sp = sp,
		.dir = ctx->opts->ndirs ? ctx->opts->dirs[0] : ".",
		.tf = { .fd = -1, .slot = -1 },
	};
	char err[200] = "";

	memset(r, 0, sizeof(*r));
	r->knee = -1;
	snprintf(r->dir, sizeof(r->dir), "%s", cr.dir);
	snprintf(r->warm, sizeof(r->warm), "seq");
	r->repeats = 1;
	r->max_time_ns = sp->max_ns;
	cr.t0 = mono_ns();
	cr.deadline = cr.t0 + sp->max_ns;
	cr.avail = testfile_avail_bytes(cr.dir);
	r->free_bytes = cr.avail > 0 ? (uint64_t)cr.avail : 0;
	/* the plan: the cliff gets 60% of the cap, each write test 20% */
	cr.cliff_end = cr.t0 + sp->max_ns / 10 * 6;
	cr.write_ns = sp->max_ns / 5;
	r->planned_ns = sp->max_ns;
	bench_notice(ctx, "storage: cache cliff over up to %u sizes, then sequential and random "
		     "writes: at most %.0f s (--storage-max-time)", sp->nsizes, (double)sp->max_ns / 1e9);
	if (posix_memalign(&cr.buf, 4096, CACHE_CHUNK) || !(cr.h = calloc(1, sizeof(*cr.h)))) {
		free(cr.buf);
		return bench_outcome(out, BENCH_FAIL, "cache: buffers: %s", strerror(ENOMEM));
	}
	if (testfile_create(cr.dir, "cliff", O_DIRECT, &cr.tf, err, sizeof(err)) < 0) {
		free(cr.buf);
		free(cr.h);
		return bench_outcome(out, BENCH_SKIP, "%s", err);
	}
	testfile_unlink_early(&cr.tf);
	bench_progress(ctx, "cache", "cliff", 0);
	cache_cliff(&cr, r);
	cache_fio_equivalent(r, sp->point_ns);
	bench_progress(ctx, "cache", "cliff", 1);
	if (cr.have && !bench_stopped(ctx)) {
		bench_progress(ctx, "cache", "random writes", 0);
		cache_write_rand(&cr, r);
		bench_progress(ctx, "cache", "random writes", 1);
	}
	testfile_remove(&cr.tf);
	if (!bench_stopped(ctx)) {
		bench_progress(ctx, "cache", "sequential writes", 0);
		cache_write_seq(&cr, r);
		bench_progress(ctx, "cache", "sequential writes", 1);
	}
	r->elapsed_s = (double)(mono_ns() - cr.t0) / 1e9;
	free(cr.buf);
	free(cr.h);
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	/* a planned cap, not a failure: the run exits 0, the section says partial */
	if (r->time_capped)
		return bench_outcome(out, BENCH_OK, "partial: --storage-max-time reached");
	return bench_outcome(out, BENCH_OK, "%s", "");
}

const struct bench_module bench_mod_cache = {
	.name = "cache",
	.desc = "storage profile: cache cliff and burst/sustained writes",
	.run = cache_run,
};
