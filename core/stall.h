/*
 * stall.h — running blocking I/O (write, fsync, read loops) in a worker
 * thread with a deadline, so storage that stalls ends a pass as "timeout"
 * instead of hanging the run. A worker that does not come back is
 * abandoned: its struct (and whatever it points to) is kept allocated for
 * the stuck syscall, never freed.
 */
#ifndef VPSBENCH_STALL_H
#define VPSBENCH_STALL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "module.h"

/* Deadline: at least STALL_GRACE_S, or the time the bytes take at 1 MB/s. */
#define STALL_GRACE_S 30.0
#define STALL_MIN_BPS 1e6

struct stall_worker {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t tid;
	bool done;                  /* under mu */
	volatile sig_atomic_t stop; /* the worker's stop flag, set by the waiter */
	struct bench_ctx ctx;       /* the worker's copy: stop -> .stop; live shared */
	void (*body)(struct stall_worker *w); /* the blocking work */
	struct stall_worker *next;  /* the abandoned list */
};

/*
 * Prepares w (embed it as the FIRST member of the work struct, so the body
 * can cast back). Returns 0 or a positive pthread error.
 */
int stall_init(struct stall_worker *w, const struct bench_ctx *ctx,
	       void (*body)(struct stall_worker *w));

/* Releases what stall_init made; only for a worker that was not abandoned. */
void stall_destroy(struct stall_worker *w);

/*
 * Runs w->body in a thread and waits. Returns 0 when it finished (joined),
 * -ETIMEDOUT after limit_s, -ECANCELED when ctx was stopped and the worker
 * did not return within a second. On either error the worker is detached
 * and abandoned: w and everything it uses must never be freed.
 * Without a thread (pthread_create failed) the body runs here, no deadline.
 */
int stall_run(const struct bench_ctx *ctx, struct stall_worker *w, double limit_s);

/*
 * Seconds bytes of I/O may take: max(STALL_GRACE_S, bytes at 1 MB/s).
 * VPSBENCH_SEQ_DEADLINE_MS replaces it, for the stall tests only.
 */
double stall_deadline_s(uint64_t bytes);

#endif
