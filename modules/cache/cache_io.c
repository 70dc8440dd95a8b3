/*
 * cache_io.c — 4k random I/O at a queue depth through core's engines.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/rand_engine.h"
#include "cache_io.h"

#define BS 4096u

/* This thread's CPU seconds (user + system); the I/O loop runs on it. */
static double thread_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return NAN;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int cache_rand_io(const struct bench_ctx *ctx, int fd, uint64_t size, unsigned depth, bool write,
		  uint64_t ns, struct cache_io_stat *st, struct lat_hist *h, struct cache_io_tl *tl,
		  char *err, size_t errlen)
{
	struct rand_engine e = { 0 };
	struct rand_io *io = calloc(depth, sizeof(*io));
	struct rand_io **done = calloc(depth, sizeof(*done));
	void *bufs = NULL;
	struct databuf_rng rng;
	char why[192];
	int rc = -ENOMEM;
	unsigned inflight = 0;
	uint64_t nblocks = size / BS, t0, end, bytes = 0, next_s, sbytes = 0, next_sub = 0;
	uint64_t *ios = &st->ios;
	double cpu0;

	memset(st, 0, sizeof(*st));
	st->cpu_s = NAN;
	if (tl)
		tl->n = tl->nsub = 0;
	if (!io || !done || posix_memalign(&bufs, 4096, (size_t)depth * BS)) {
		snprintf(err, errlen, "cache: buffers: %s", strerror(ENOMEM));
		goto cleanup;
	}
	databuf_seed(&rng, (uint64_t)mono_ns());
	databuf_fill(&rng, bufs, (size_t)depth * BS); /* random data, never zeros */
	for (unsigned i = 0; i < depth; i++)
		io[i].buf = (char *)bufs + (size_t)i * BS;
	e.fd = fd;
	e.depth = depth;
	e.bs = BS;
	e.ios = io;
	e.done = done;
	rc = rand_engine_open(ctx->plan ? ctx->plan->engine : ENGINE_AUTO, ctx->root, &e, why, sizeof(why));
	if (rc < 0) {
		snprintf(err, errlen, "cache: I/O engine: %s", why[0] ? why : strerror(-rc));
		goto cleanup;
	}
	snprintf(st->engine, sizeof(st->engine), "%s", e.ops->name);
	st->depth = e.depth; /* what the engine allows: psync runs at 1 */
	cpu0 = thread_cpu_s();
	t0 = mono_ns();
	end = t0 + ns;
	next_s = t0 + 1000000000ULL;
	if (tl && tl->sub)
		next_sub = t0 + tl->sub_ns;
	for (unsigned i = 0; i < e.depth; i++) {
		io[i].off = (databuf_next(&rng) % nblocks) * BS;
		io[i].len = BS;
		io[i].ddir = write;
		io[i].idx = (uint16_t)i;
		io[i].t_issue = mono_ns();
		e.ops->queue(&e, &io[i]);
		inflight++;
	}
	while (inflight) {
		int n = e.ops->submit(&e);

		if (n < 0) {
			rc = n;
			snprintf(err, errlen, "cache: submit: %s", strerror(-n));
			goto close;
		}
		n = e.ops->reap(&e, true, 100000000ULL);
		if (n < 0) {
			rc = n;
			snprintf(err, errlen, "cache: reap: %s", strerror(-n));
			goto close;
		}
		uint64_t now = mono_ns();

		while (tl && now >= next_s && tl->n < tl->max) {
			tl->v[tl->n++] = (double)bytes;
			bytes = 0;
			next_s += 1000000000ULL;
		}
		while (tl && tl->sub && now >= next_sub && tl->nsub < tl->submax) {
			tl->sub[tl->nsub++] = (double)sbytes;
			sbytes = 0;
			next_sub += tl->sub_ns;
		}
		for (int i = 0; i < n; i++) {
			struct rand_io *d = e.done[i];

			inflight--;
			if (d->res < 0) {
				rc = d->res;
				snprintf(err, errlen, "cache: 4k %s at %llu: %s", write ? "write" : "read",
					 (unsigned long long)d->off, strerror(-d->res));
				goto drain;
			}
			(*ios)++;
			bytes += BS;
			sbytes += BS;
			if (h)
				lat_hist_add(h, now - d->t_issue);
			if (now < end && !bench_stopped(ctx)) {
				d->off = (databuf_next(&rng) % nblocks) * BS;
				d->len = BS;
				d->xfer = 0;
				d->t_issue = mono_ns();
				e.ops->queue(&e, d);
				inflight++;
			}
		}
	}
	st->secs = (double)(mono_ns() - t0) / 1e9;
	st->cpu_s = thread_cpu_s() - cpu0;
	rc = 0;
	goto close;
drain:
	while (inflight) {
		int n = e.ops->reap(&e, true, 1000000000ULL);

		if (n <= 0)
			break;
		inflight -= (unsigned)n;
	}
close:
	rand_engine_close(&e);
cleanup:
	if (!inflight)
		free(bufs);
	free(io);
	free(done);
	return rc;
}
