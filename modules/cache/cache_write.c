/*
 * cache_write.c — burst then sustained writes: 4k random at qd32 over the
 * cliff's file, sequential 1 MiB O_DIRECT into a fresh one, each with a
 * per-second timeline and its change point.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "cache_change.h"
#include "cache_run.h"

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

void cache_write_rand(struct cache_run *cr, struct cache_result *r)
{
	struct cache_burst *b = &r->rnd;
	uint64_t left = cr->deadline > mono_ns() ? cr->deadline - mono_ns() : 0;
	uint64_t ns = left / 2 < cr->write_ns ? left / 2 : cr->write_ns;
	struct cache_io_tl tl = { .v = b->tl, .max = CACHE_TL_MAX };
	char err[200] = "";

	snprintf(b->kind, sizeof(b->kind), "rand-4k");
	b->bs = 4096;
	b->depth = 32;
	b->region = cr->have;
	snprintf(b->region_why, sizeof(b->region_why), "the cliff's file (its largest size)");
	if (ns < 2000000000ULL) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "time cap reached");
		r->time_capped = true;
	} else if (cache_rand_io(cr->ctx, cr->tf.fd, cr->have, 32, true, ns, &b->io, NULL, &tl, err,
				 sizeof(err)) < 0) {
		b->status = BENCH_FAIL;
		snprintf(b->reason, sizeof(b->reason), "%.150s", err);
	} else {
		b->n = tl.n;
		b->status = BENCH_OK;
		finish_burst(b);
	}
}

/* Sequential 1 MiB O_DIRECT writes into a fresh file: until the deadline or cap. */
void cache_write_seq(struct cache_run *cr, struct cache_result *r)
{
	struct cache_burst *b = &r->seq;
	const struct cache_spec *sp = cr->sp;
	uint64_t cap = cache_fit(testfile_avail_bytes(cr->dir));
	/* its share of the cap, or what is left of it */
	uint64_t deadline = mono_ns() + cr->write_ns < cr->deadline ? mono_ns() + cr->write_ns : cr->deadline;
	struct testfile tf;
	struct databuf_rng rng;
	char err[200];
	uint64_t t0, next, bytes = 0, off = 0;

	if (sp->write_size && sp->write_size < cap)
		cap = sp->write_size / CACHE_MiB * CACHE_MiB;
	snprintf(b->kind, sizeof(b->kind), "seq-1m");
	b->bs = CACHE_CHUNK;
	b->depth = 1;
	b->region = cap;
	snprintf(b->region_why, sizeof(b->region_why), "a fresh file, up to the free space or --storage-write-size");
	snprintf(b->io.engine, sizeof(b->io.engine), "psync");
	b->io.depth = 1;
	if (cap < CACHE_CHUNK) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "less than 1 MiB of free space after the margin");
		return;
	}
	if (testfile_create(cr->dir, "burst", O_DIRECT, &tf, err, sizeof(err)) < 0) {
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
		if (now > deadline || bench_stopped(cr->ctx))
			break;
		if (off + CACHE_CHUNK > cap) {
			b->size_capped = true;
			break;
		}
		databuf_fill(&rng, cr->buf, CACHE_CHUNK);
		ssize_t n = pwrite(tf.fd, cr->buf, CACHE_CHUNK, (off_t)off);

		if (n != (ssize_t)CACHE_CHUNK) {
			b->status = BENCH_FAIL;
			snprintf(b->reason, sizeof(b->reason), "cache: write at %llu: %s",
				 (unsigned long long)off, n < 0 ? strerror(errno) : "short");
			break;
		}
		off += CACHE_CHUNK;
		bytes += CACHE_CHUNK;
	}
	testfile_remove(&tf);
	finish_burst(b);
}
