/*
 * cache.c — the storage profile's run: the cache cliff (4k random reads
 * at qd32 and qd1 over growing working sets, each after one warm pass),
 * then burst-then-sustained writes (sequential 1 MiB O_DIRECT, 4k random
 * qd32) with a per-second timeline, all under --storage-max-time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/lat_hist.h"
#include "core/plan.h"
#include "core/testfile.h"
#include "cache.h"
#include "cache_detect.h"
#include "cache_io.h"

#define MiB (1ULL << 20)
#define CHUNK MiB
/* Free space kept: 10% and at least 64 MiB (the filesystem's own needs). */
#define MARGIN_MIN (64ULL * MiB)

static uint64_t fit(int64_t avail)
{
	uint64_t a = avail > 0 ? (uint64_t)avail : 0, m = a / 10;

	m = m < MARGIN_MIN ? MARGIN_MIN : m;
	return a > m ? (a - m) / MiB * MiB : 0;
}

/* Extends the file from *have to want with random data (1 MiB O_DIRECT writes), or reads it (warm). */
static int seq_io(int fd, void *buf, uint64_t from, uint64_t to, bool write, uint64_t deadline,
		  const struct bench_ctx *ctx, char *err, size_t errlen)
{
	struct databuf_rng rng;

	databuf_seed(&rng, mono_ns());
	for (uint64_t off = from; off < to; off += CHUNK) {
		ssize_t n;

		if (mono_ns() > deadline || bench_stopped(ctx))
			return 1;
		if (write) {
			databuf_fill(&rng, buf, CHUNK);
			n = pwrite(fd, buf, CHUNK, (off_t)off);
		} else {
			n = pread(fd, buf, CHUNK, (off_t)off);
		}
		if (n != (ssize_t)CHUNK) {
			snprintf(err, errlen, "cache: %s at %llu: %s", write ? "write" : "read",
				 (unsigned long long)off, n < 0 ? strerror(errno) : "short transfer");
			return -1;
		}
	}
	return 0;
}

static void finish_burst(struct cache_burst *b)
{
	struct cache_change c;

	b->bytes = 0;
	for (unsigned i = 0; i < b->n; i++)
		b->bytes += (uint64_t)b->tl[i];
	b->secs = b->n;
	cache_change_point(b->tl, b->n, 1.0, &c);
	b->found = c.found;
	b->change_s = c.index;
	b->burst_bps = c.burst_rate;
	b->sustained_bps = c.sustained_rate;
	b->burst_bytes = c.burst_amount;
	b->recovered = c.recovered;
}

/* Sequential 1 MiB O_DIRECT writes into a fresh file: until the deadline or cap. */
static void seq_burst(const struct bench_ctx *ctx, const char *dir, uint64_t cap, uint64_t deadline,
		      void *buf, struct cache_burst *b)
{
	struct testfile tf;
	struct databuf_rng rng;
	char err[200];
	uint64_t t0, next, bytes = 0, off = 0;

	snprintf(b->kind, sizeof(b->kind), "seq-1m");
	b->bs = CHUNK;
	b->depth = 1;
	if (cap < CHUNK) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "less than 1 MiB of free space after the margin");
		return;
	}
	if (testfile_create(dir, "burst", O_DIRECT, &tf, err, sizeof(err)) < 0) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "%.150s", err);
		return;
	}
	testfile_unlink_early(&tf);
	databuf_seed(&rng, mono_ns());
	t0 = mono_ns();
	next = t0 + 1000000000ULL;
	b->status = BENCH_OK;
	while (b->n < CACHE_TL_MAX) {
		uint64_t now = mono_ns();

		if (now >= next) {
			b->tl[b->n++] = (double)bytes;
			bytes = 0;
			next += 1000000000ULL;
			continue;
		}
		if (now > deadline || bench_stopped(ctx))
			break;
		if (off + CHUNK > cap) {
			b->size_capped = true;
			break;
		}
		databuf_fill(&rng, buf, CHUNK);
		ssize_t n = pwrite(tf.fd, buf, CHUNK, (off_t)off);

		if (n != (ssize_t)CHUNK) {
			b->status = BENCH_FAIL;
			snprintf(b->reason, sizeof(b->reason), "cache: write at %llu: %s",
				 (unsigned long long)off, n < 0 ? strerror(errno) : "short");
			break;
		}
		off += CHUNK;
		bytes += CHUNK;
	}
	testfile_remove(&tf);
	finish_burst(b);
}

static enum bench_status cache_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	struct cache_result *r = result;
	const struct cache_spec *sp = &ctx->plan->storage;
	const char *dir = ctx->opts->ndirs ? ctx->opts->dirs[0] : ".";
	struct testfile tf = { .fd = -1, .slot = -1 };
	void *buf = NULL;
	char err[200] = "";
	uint64_t t0 = mono_ns(), deadline = t0 + sp->max_ns, have = 0, cliff_end, write_ns;
	struct lat_hist *h = NULL;
	int64_t avail;

	memset(r, 0, sizeof(*r));
	r->knee = -1;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->max_time_ns = sp->max_ns;
	avail = testfile_avail_bytes(dir);
	r->free_bytes = avail > 0 ? (uint64_t)avail : 0;
	/* the plan: the cliff gets 60% of the cap, each write test 20% */
	cliff_end = t0 + sp->max_ns / 10 * 6;
	write_ns = sp->max_ns / 5;
	r->planned_ns = sp->max_ns;
	bench_notice(ctx, "storage: cache cliff over up to %u sizes, then sequential and random "
		     "writes: at most %.0f s (--storage-max-time)", sp->nsizes, (double)sp->max_ns / 1e9);
	if (posix_memalign(&buf, 4096, CHUNK) || !(h = calloc(1, sizeof(*h)))) {
		free(buf);
		return bench_outcome(out, BENCH_FAIL, "cache: buffers: %s", strerror(ENOMEM));
	}
	if (testfile_create(dir, "cliff", O_DIRECT, &tf, err, sizeof(err)) < 0) {
		free(buf);
		free(h);
		return bench_outcome(out, BENCH_SKIP, "%s", err);
	}
	testfile_unlink_early(&tf);
	bench_progress(ctx, "cache", "cliff", 0);
	for (unsigned i = 0; i < sp->nsizes && r->npoints < CACHE_MAX_SIZES; i++) {
		struct cache_point *p = &r->points[r->npoints];
		uint64_t size = sp->sizes[i], room = fit(avail) + have;
		int rc;

		p->size = size;
		if (size > room) {
			p->status = BENCH_SKIP;
			snprintf(p->reason, sizeof(p->reason), "%llu MiB free after the margin: less than %llu MiB",
				 (unsigned long long)(room / MiB), (unsigned long long)(size / MiB));
			r->npoints++;
			break;
		}
		if (mono_ns() + 2 * sp->point_ns > cliff_end) {
			/* the cliff's share of the cap ran out before its last size: partial */
			r->time_capped = true;
			break;
		}
		r->npoints++;
		rc = seq_io(tf.fd, buf, have, size, true, cliff_end, ctx, err, sizeof(err));
		if (rc == 0)
			rc = seq_io(tf.fd, buf, 0, size, false, cliff_end, ctx, err, sizeof(err));
		if (rc != 0) {
			p->status = rc > 0 ? BENCH_INCOMPLETE : BENCH_FAIL;
			snprintf(p->reason, sizeof(p->reason), "%.150s", rc > 0 ? "time cap during layout" : err);
			r->time_capped |= rc > 0;
			break;
		}
		have = size;
		if (cache_rand_io(ctx, tf.fd, size, 32, false, sp->point_ns, &p->ios32, &p->secs32, NULL,
				  NULL, 0, NULL, err, sizeof(err)) < 0 ||
		    (lat_hist_reset(h), cache_rand_io(ctx, tf.fd, size, 1, false, sp->point_ns, &p->ios1,
						      &p->secs1, h, NULL, 0, NULL, err, sizeof(err))) < 0) {
			p->status = BENCH_FAIL;
			snprintf(p->reason, sizeof(p->reason), "%.150s", err);
			break;
		}
		p->iops32 = p->secs32 > 0 ? (double)p->ios32 / p->secs32 : 0;
		p->p50_1_ns = lat_hist_percentile(h, 50.0);
		p->p99_1_ns = lat_hist_percentile(h, 99.0);
		p->status = bench_stopped(ctx) ? BENCH_INCOMPLETE : BENCH_OK;
		r->measured_up_to = size;
		if (bench_stopped(ctx))
			break;
	}
	bench_progress(ctx, "cache", "cliff", 1);
	{
		double v[CACHE_MAX_SIZES];
		unsigned n = 0;

		while (n < r->npoints && r->points[n].status == BENCH_OK) {
			v[n] = r->points[n].iops32;
			n++;
		}
		r->knee = cache_knee(v, n);
	}
	/* random writes over the cliff's file (laid out: no holes) */
	if (have && !bench_stopped(ctx)) {
		uint64_t ios;
		double secs;
		uint64_t left = deadline > mono_ns() ? deadline - mono_ns() : 0;
		uint64_t ns = left / 2 < write_ns ? left / 2 : write_ns;

		bench_progress(ctx, "cache", "random writes", 0);
		snprintf(r->rnd.kind, sizeof(r->rnd.kind), "rand-4k");
		r->rnd.bs = 4096;
		r->rnd.depth = 32;
		if (ns < 2000000000ULL) {
			r->rnd.status = BENCH_SKIP;
			snprintf(r->rnd.reason, sizeof(r->rnd.reason), "time cap reached");
			r->time_capped = true;
		} else if (cache_rand_io(ctx, tf.fd, have, 32, true, ns, &ios, &secs, NULL, r->rnd.tl,
					 CACHE_TL_MAX, &r->rnd.n, err, sizeof(err)) < 0) {
			r->rnd.status = BENCH_FAIL;
			snprintf(r->rnd.reason, sizeof(r->rnd.reason), "%.150s", err);
		} else {
			r->rnd.status = BENCH_OK;
			finish_burst(&r->rnd);
		}
		bench_progress(ctx, "cache", "random writes", 1);
	}
	testfile_remove(&tf);
	if (!bench_stopped(ctx)) {
		uint64_t cap = fit(testfile_avail_bytes(dir));
		/* its share of the cap, or what is left of it */
		uint64_t end = mono_ns() + write_ns < deadline ? mono_ns() + write_ns : deadline;

		if (sp->write_size && sp->write_size < cap)
			cap = sp->write_size / MiB * MiB;
		bench_progress(ctx, "cache", "sequential writes", 0);
		seq_burst(ctx, dir, cap, end, buf, &r->seq);
		bench_progress(ctx, "cache", "sequential writes", 1);
	}
	r->elapsed_s = (double)(mono_ns() - t0) / 1e9;
	free(buf);
	free(h);
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
