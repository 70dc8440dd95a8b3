/*
 * stall.c — the worker/waiter pair behind every stall deadline.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "stall.h"

#define STALL_WAKE_NS 200000000L /* the waiter checks for signals this often */
#define STALL_STOP_WAIT_S 1.0    /* after a signal: a worker stuck longer is abandoned */

/* Abandoned workers: kept reachable (not reported as leaks), never freed. */
static struct stall_worker *stall_abandoned;

double stall_deadline_s(uint64_t bytes)
{
	const char *env = getenv("VPSBENCH_SEQ_DEADLINE_MS");
	double s = (double)bytes / STALL_MIN_BPS;

	if (env && *env) {
		char *end;
		unsigned long long ms = strtoull(env, &end, 10);

		if (*end == '\0' && ms > 0)
			return (double)ms / 1000.0;
	}
	return s > STALL_GRACE_S ? s : STALL_GRACE_S;
}

int stall_init(struct stall_worker *w, const struct bench_ctx *ctx,
	       void (*body)(struct stall_worker *w))
{
	pthread_condattr_t ca;
	int rc;

	rc = pthread_condattr_init(&ca);
	if (rc)
		return rc;
	rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc)
		return rc;
	rc = pthread_mutex_init(&w->mu, NULL);
	if (rc) {
		pthread_cond_destroy(&w->cv);
		return rc;
	}
	w->done = false;
	w->stop = 0;
	w->ctx = *ctx;
	w->ctx.stop = &w->stop;
	w->body = body;
	w->next = NULL;
	return 0;
}

void stall_destroy(struct stall_worker *w)
{
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
}

static void *stall_thread(void *arg)
{
	struct stall_worker *w = arg;

	w->body(w);
	pthread_mutex_lock(&w->mu);
	w->done = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int stall_run(const struct bench_ctx *ctx, struct stall_worker *w, double limit_s)
{
	double start = mono_s(), give_up = 0;
	int wr = 0;

	if (pthread_create(&w->tid, NULL, stall_thread, w) != 0) {
		/* no thread: do it here, without the deadline, rather than not at all */
		w->ctx.stop = ctx->stop;
		w->body(w);
		return 0;
	}
	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		double t = mono_s();
		struct timespec ts;

		if (bench_stopped(ctx) && !w->stop) {
			__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
			give_up = t + STALL_STOP_WAIT_S;
		}
		if (w->stop && t >= give_up) {
			wr = -ECANCELED;
			break;
		}
		if (!w->stop && t - start >= limit_s) {
			wr = -ETIMEDOUT;
			break;
		}
		if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
			break; /* cannot happen; then just wait for the worker */
		ts.tv_nsec += STALL_WAKE_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		(void)pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	while (wr == 0 && !w->done)
		pthread_cond_wait(&w->cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
	if (wr == 0) {
		pthread_join(w->tid, NULL);
		return 0;
	}
	/* the worker stops at its next check if the syscall ever returns */
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	(void)pthread_detach(w->tid);
	w->next = stall_abandoned;
	stall_abandoned = w;
	return wr;
}
