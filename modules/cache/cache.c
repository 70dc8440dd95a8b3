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
#include "core/rand_engine.h"
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

/* The random write test's least time: cache_write.c skips it below this. */
#define RAND_WRITE_MIN_NS 2000000000ULL
/* what passes between this split and cache_write.c's own reading of the clock */
#define RAND_WRITE_SLACK_NS 20000000ULL

/*
 * Why the cliff's qd32 ran shallower than 32 (psync: io_uring and libaio
 * refused; libaio: aio-max-nr): one more open of the engine on the
 * cliff's file, its fallback reason kept (cache_io.c's open drops it).
 */
static void engine_why(struct cache_run *cr, struct cache_result *r)
{
	struct rand_io *io = calloc(32, sizeof(*io));
	struct rand_io **done = calloc(32, sizeof(*done));
	void *bufs = NULL;
	struct rand_engine e = { .fd = cr->tf.fd, .depth = 32, .bs = 4096, .ios = io, .done = done };
	char why[192] = "";

	if (!io || !done || posix_memalign(&bufs, 4096, 32 * 4096))
		goto cleanup;
	for (unsigned i = 0; i < 32; i++)
		io[i].buf = (char *)bufs + (size_t)i * 4096;
	if (rand_engine_open(cr->ctx->plan->engine, cr->ctx->root, &e, why, sizeof(why)) == 0) {
		if (strcmp(e.ops->name, r->engine) || e.depth != r->depth)
			snprintf(why, sizeof(why), "%s at depth %u on a later try", e.ops->name, e.depth);
		rand_engine_close(&e);
	}
	snprintf(r->engine_why, sizeof(r->engine_why), "%.127s", why);
cleanup:
	free(bufs);
	free(io);
	free(done);
}

/* A step of the live line with its planned time, so the ETA counts it. */
static void step(const struct bench_ctx *ctx, const char *what, uint64_t ns, int phase)
{
	struct bench_step st = { .module = "cache", .what = what, .ns = ns };

	bench_progress_step(ctx, &st, phase);
}

/*
 * The write tests' time after the cliff: each its share (20% of the cap,
 * or --storage-write-time); when the cap ended the cliff, half of what is
 * left each, so a short cap is used to its end. Below the random test's
 * least time, the sequential test gets it all and the random one says why.
 */
static void writes(struct cache_run *cr, struct cache_result *r)
{
	const struct cache_spec *sp = cr->sp;
	uint64_t now = mono_ns(), left = cr->deadline > now ? cr->deadline - now : 0;
	uint64_t share = sp->write_ns ? sp->write_ns : sp->max_ns / 5;
	uint64_t each = r->time_capped && !sp->write_ns ? left / 2 : share < left / 2 ? share : left / 2;

	/* a short cap's 20% below the random test's least time: the least time, when it is left */
	if (!sp->write_ns && each < RAND_WRITE_MIN_NS + RAND_WRITE_SLACK_NS &&
	    left / 2 >= RAND_WRITE_MIN_NS + RAND_WRITE_SLACK_NS)
		each = RAND_WRITE_MIN_NS + RAND_WRITE_SLACK_NS;

	if (bench_stopped(cr->ctx)) {
		/* a signal: the random test is not run */
	} else if (!cr->have) {
		r->rnd.status = BENCH_SKIP;
		snprintf(r->rnd.kind, sizeof(r->rnd.kind), "rand-4k");
		snprintf(r->rnd.reason, sizeof(r->rnd.reason), "no region: the cliff laid out no file (%s)",
			 r->time_capped ? "time cap" : "no room");
	} else if (each >= RAND_WRITE_MIN_NS + RAND_WRITE_SLACK_NS) {
		cr->write_ns = each;
		step(cr->ctx, "random writes", each, 0);
		cache_write_rand(cr, r);
		step(cr->ctx, "random writes", each, 1);
	} else {
		struct cache_burst *b = &r->rnd;

		b->status = BENCH_SKIP;
		snprintf(b->kind, sizeof(b->kind), "rand-4k");
		if (sp->write_ns && sp->write_ns < RAND_WRITE_MIN_NS + RAND_WRITE_SLACK_NS) {
			snprintf(b->reason, sizeof(b->reason), "--storage-write-time %.1f s: less than the "
				 "2 s the random write test needs", (double)sp->write_ns / 1e9);
		} else {
			snprintf(b->reason, sizeof(b->reason),
				 "time cap: %.1f s of the %.0f s budget left after the cliff, less than 2 x 2 s "
				 "for both write tests", (double)left / 1e9, (double)r->planned_ns / 1e9);
			r->time_capped = true;
			each = left;
		}
	}
	{
		/* freeing a big file's extents takes seconds: timed here, reserved by the sequential test */
		uint64_t t = mono_ns(), have = cr->have;

		testfile_remove(&cr->tf);
		if (have >= 64 * CACHE_MiB)
			cr->remove_ns_per_byte = (double)(mono_ns() - t) / (double)have;
	}
	if (bench_stopped(cr->ctx))
		return;
	now = mono_ns();
	left = cr->deadline > now ? cr->deadline - now : 0;
	cr->write_ns = r->time_capped && !sp->write_ns ? left : each < left ? each : left;
	step(cr->ctx, "sequential writes", cr->write_ns, 0);
	cache_write_seq(cr, r);
	step(cr->ctx, "sequential writes", cr->write_ns, 1);
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
	snprintf(r->warm, sizeof(r->warm), "%s", cache_warm_names[sp->warm]);
	r->repeats = sp->repeats;
	r->max_time_ns = sp->max_ns;
	/* the cliff gets 60% of the cap, the write tests the rest or --storage-write-time each */
	r->planned_ns = plan_storage_ns(sp);
	cr.t0 = mono_ns();
	cr.deadline = cr.t0 + r->planned_ns;
	cr.cliff_end = cr.t0 + plan_storage_cliff_ns(sp);
	cr.write_ns = sp->write_ns ? sp->write_ns : sp->max_ns / 5;
	cr.avail = testfile_avail_bytes(cr.dir);
	r->free_bytes = cr.avail > 0 ? (uint64_t)cr.avail : 0;
	bench_notice(ctx, "storage: cache cliff over up to %u sizes, then random and sequential "
		     "writes: at most %.0f s (%s)", sp->nsizes, (double)r->planned_ns / 1e9,
		     sp->write_ns ? "60% of --storage-max-time + 2 x --storage-write-time" : "--storage-max-time");
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
	step(ctx, "cliff", cr.cliff_end - cr.t0, 0);
	cache_cliff(&cr, r);
	cache_fio_equivalent(r, sp->point_ns);
	step(ctx, "cliff", cr.cliff_end - cr.t0, 1);
	/* qd32 ran shallower than asked: say why (psync asked for, or the engines' refusals) */
	if (!strcmp(r->engine, "psync") && ctx->plan->engine == ENGINE_PSYNC)
		snprintf(r->engine_why, sizeof(r->engine_why), "--engine psync");
	else if (r->engine[0] && r->depth < 32)
		engine_why(&cr, r);
	writes(&cr, r); /* removes the cliff's file */
	r->elapsed_s = (double)(mono_ns() - cr.t0) / 1e9;
	free(cr.buf);
	free(cr.h);
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	/* a planned cap, not a failure: the run exits 0; the section and prom say partial */
	if (r->time_capped)
		return bench_outcome(out, BENCH_OK, "partial: --storage-max-time reached");
	return bench_outcome(out, BENCH_OK, "%s", "");
}

const struct bench_module bench_mod_cache = {
	.name = "cache",
	.desc = "storage profile: cache cliff and burst/sustained writes",
	.run = cache_run,
};
