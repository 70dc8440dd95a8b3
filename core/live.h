/*
 * progress.h — the live status line. Measuring threads publish their
 * completed I/Os and bytes per direction into their own cache-line slot
 * with relaxed atomic stores (no locks, no syscalls, no clock reads);
 * a progress thread samples the slots 4 times a second and draws one
 * line per pass on stderr when it is a terminal.
 */
#ifndef VPSBENCH_PROGRESS_H
#define VPSBENCH_PROGRESS_H

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

/*
 * Sets up l for a run of ctx's plan: out is stderr, tty whether it is a
 * terminal, color whether colors are allowed there. Starts the drawing
 * thread on a terminal (plain lines when it cannot start). Returns 0, or
 * -errno when the lock cannot be set up: then leave ctx->live NULL.
 */
int progress_start(struct bench_live *l, const struct bench_ctx *ctx, FILE *out, bool tty,
		   bool color, bool quiet);

/* The ctx->progress hook: phase 0 = step starts, 1 = ends. */
void progress_step(const struct bench_ctx *ctx, const struct bench_step *step, int phase);

/* bench.c, after a module returned: its planned work that did not start is dropped. */
void progress_module_done(struct bench_live *l, int mod);

/* Stops the thread and clears the status line; before the report prints. */
void progress_stop(struct bench_live *l);

/* --- pure helpers, unit-tested --- */

/* "01m:05s", "1h02m:03s"; "--m:--s" when s is negative or not finite. */
void progress_fmt_eta(char *buf, size_t n, double s);

/*
 * One status line, cut to width columns (no control codes): module,
 * step, percent, rates, ETA of the step and of the whole run; NAN = unknown.
 */
void progress_fmt_line(char *buf, size_t n, unsigned width, const char *module, const char *what,
		       double pct, const double iops[2], const double bps[2], bool ramp,
		       double eta_step, double eta_total);

/* Planned work of a module from the plan: bytes (seq, layout) and ns (rand passes). */
void progress_plan_work(const struct bench_ctx *ctx, int mod, uint64_t *bytes, uint64_t *ns);

#endif
