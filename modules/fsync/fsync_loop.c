/*
 * fsync_loop.c — the measured loop of etcd's recipe: write() bs bytes at
 * the end of the file, then fdatasync(), each call timed on the monotonic
 * clock into its own fio-style histogram, until size bytes or cap_ns.
 * The time is checked between iterations with the clock read that ended
 * the previous sync: one fdatasync() may run past the cap, never more.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/io_full.h"
#include "core/live.h"
#include "fsync_loop.h"

#define FSYNC_POOL_BYTES (1u << 20)

static void fsync_body(struct stall_worker *sw);

struct fsync_work *fsync_work_new(const struct bench_ctx *ctx, uint32_t bs, char *err,
				  size_t errlen)
{
	struct fsync_work *w = calloc(1, sizeof(*w));
	struct databuf_rng rng;
	int rc;

	if (!w) {
		snprintf(err, errlen, "cannot allocate the fsync worker: %s", strerror(ENOMEM));
		return NULL;
	}
	w->bs = bs;
	w->nslots = FSYNC_POOL_BYTES / bs ? FSYNC_POOL_BYTES / bs : 1;
	w->pool = malloc(w->nslots * bs);
	if (!w->pool) {
		snprintf(err, errlen, "cannot allocate a %zu-byte data pool: %s", w->nslots * bs,
			 strerror(ENOMEM));
		free(w);
		return NULL;
	}
	if (getrandom(&w->nonce, sizeof(w->nonce), GRND_NONBLOCK) != (ssize_t)sizeof(w->nonce))
		w->nonce = (uint64_t)getpid() << 32 ^ mono_ns();
	databuf_seed(&rng, w->nonce);
	databuf_fill(&rng, w->pool, w->nslots * bs);
	rc = stall_init(&w->sw, ctx, fsync_body);
	if (rc != 0) {
		snprintf(err, errlen, "setting up the fsync worker: %s", strerror(rc));
		free(w->pool);
		free(w);
		return NULL;
	}
	return w;
}

void fsync_work_free(struct fsync_work *w)
{
	if (!w)
		return;
	stall_destroy(&w->sw);
	free(w->pool);
	free(w);
}

/* Block i: a pool slot whose first 8 bytes carry i ^ nonce, so blocks never repeat. */
static const unsigned char *block(struct fsync_work *w, uint64_t i)
{
	unsigned char *p = w->pool + (size_t)(i % w->nslots) * w->bs;
	uint64_t tag = i ^ w->nonce;

	memcpy(p, &tag, w->bs < sizeof(tag) ? w->bs : sizeof(tag));
	return p;
}

static void fsync_body(struct stall_worker *sw)
{
	struct fsync_work *w = (struct fsync_work *)sw;
	struct live_slot *ls = live_slot(&sw->ctx, 0);
	uint64_t off = 0, now, a;
	int rc, e;

	w->t0 = w->t1 = now = mono_ns();
	for (uint64_t i = 0; off + w->bs <= w->size; i++, off += w->bs) {
		if (bench_stopped(&sw->ctx)) {
			w->stopped = true;
			return;
		}
		if (now - w->t0 >= w->cap_ns) {
			w->time_capped = true;
			return;
		}
		const unsigned char *buf = block(w, i);

		a = mono_ns();
		rc = io_write_full(&sw->ctx, w->fd, buf, w->bs);
		now = mono_ns();
		if (rc < 0) {
			w->stopped = rc == -EINTR;
			w->err = w->stopped ? 0 : rc;
			w->err_off = off;
			return;
		}
		lat_hist_add(&w->write_h, now - a);
		w->writes++;
		a = now;
		while ((rc = fdatasync(w->fd)) < 0 && errno == EINTR && !bench_stopped(&sw->ctx))
			;
		e = errno;
		now = mono_ns();
		if (rc < 0) {
			w->stopped = e == EINTR;
			w->err = w->stopped ? 0 : -e;
			w->err_in_sync = true;
			w->err_off = off + w->bs;
			return;
		}
		lat_hist_add(&w->sync_h, now - a);
		w->syncs++;
		w->t1 = now;
		live_publish(ls, 1, w->syncs, off + w->bs);
	}
}
