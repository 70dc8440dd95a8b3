/*
 * live.h — the counters behind the live status line. Measuring threads
 * publish their completed I/Os and bytes per direction into their own
 * cache-line slot with relaxed atomic stores (no locks, no syscalls, no
 * clock reads); render/progress.c samples the slots and draws the line.
 */
#ifndef VPSBENCH_LIVE_H
#define VPSBENCH_LIVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "module.h"

#define LIVE_SLOTS 256      /* --jobs is at most 256: one slot per job */
#define LIVE_TICK_MS 250    /* at most 4 updates a second */

/* One writer per slot; 64-byte aligned so jobs never share a line. */
struct live_slot {
	_Atomic uint64_t ios[2];   /* completed I/Os, [0] read, [1] write */
	_Atomic uint64_t bytes[2]; /* completed bytes */
} __attribute__((aligned(64)));

struct bench_live {
	struct live_slot slot[LIVE_SLOTS];

	/* below: owned by progress.c; the mutex is never taken in an I/O loop */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t tid;
	bool running, quit;
	FILE *out;
	bool tty, color;
	bool quiet;
	const struct bench_ctx *ctx;

	/* the current step, set by the module thread at phase 0 */
	bool active;
	char module[16];
	char what[160];
	uint64_t step_bytes, step_ns, step_ramp_ns;
	double step_t0;            /* monotonic seconds */
	uint64_t prev_ios[2], prev_bytes[2];
	double prev_t;
	double rate_iops[2], rate_bps[2]; /* smoothed over the last ticks */
	bool line_shown;           /* a status line is on the terminal: clear it */

	/* whole-run estimate: work of steps not started yet, per module */
	uint64_t left_bytes[MOD_COUNT];
	uint64_t left_ns[MOD_COUNT];
	double bytes_rate;         /* last measured bytes/s of a byte-counted step, 0 = none */
};

/* Publishing (measuring threads): the slot of job idx, or NULL when nobody watches. */
static inline struct live_slot *live_slot(const struct bench_ctx *ctx, unsigned idx)
{
	return ctx->live && idx < LIVE_SLOTS ? &ctx->live->slot[idx] : NULL;
}

static inline void live_publish(struct live_slot *s, int dir, uint64_t ios, uint64_t bytes)
{
	if (!s)
		return;
	atomic_store_explicit(&s->ios[dir], ios, memory_order_relaxed);
	atomic_store_explicit(&s->bytes[dir], bytes, memory_order_relaxed);
}

#endif
