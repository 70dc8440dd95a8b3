/*
 * watch_sampler.h — the wake-up sampler of `vpsbench watch`: a thread
 * ("vpsbench-wakeup") that wakes every WATCH_SAMPLER_PERIOD_MS on an
 * absolute timer (pthread_cond_timedwait to an absolute CLOCK_MONOTONIC time, timer
 * slack 1 ns) all the time between probe rounds, and records how late each
 * wake-up came (woken minus due) in fio's histogram; paused while the
 * probes run (they are the load, not the host's); p99 and max per round
 * interval.
 */
#ifndef VPSBENCH_WATCH_SAMPLER_H
#define VPSBENCH_WATCH_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>

#include "cmd/watch/watch_round.h"
#include "core/lat_hist.h"

#define WATCH_SAMPLER_PERIOD_MS 100ULL

struct watch_sampler {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool started, stop, paused;
	unsigned gen;               /* raised by each pause: a sleep across one is not counted */
	struct lat_hist h;          /* since the last take */
};

/* Starts the thread. 0, or -1 with err. */
int watch_sampler_start(struct watch_sampler *s, char *err, size_t errlen);
void watch_sampler_pause(struct watch_sampler *s);
void watch_sampler_resume(struct watch_sampler *s);
/* The interval's p99, max and count into w; the histogram starts over. */
void watch_sampler_take(struct watch_sampler *s, struct watch_wakeup *w);
void watch_sampler_stop(struct watch_sampler *s);

#endif
