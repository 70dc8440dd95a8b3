/*
 * watch_sampler.c — the wake-up sampler thread (watch_sampler.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "cmd/watch/watch_sampler.h"
#include "core/clock.h"

/*
 * One wake-up every PERIOD_NS on an absolute grid (a timed wait to an
 * absolute CLOCK_MONOTONIC time, as clock_nanosleep TIMER_ABSTIME: an
 * hrtimer with the thread's 1 ns slack), all the time the probes are not
 * running: a stall of the host shows whenever it happens, not only in a
 * burst's 10 ms a second. A wake-up costs 26-67 us of CPU on a 2-vCPU VM
 * (the timer's programming traps to the hypervisor), so the period is what keeps the thread at or under 0.1%
 * of a CPU: measured in README ("vpsbench watch", wake-up sampler).
 */
#define PERIOD_NS (WATCH_SAMPLER_PERIOD_MS * 1000000ULL)

static void *sampler_main(void *arg)
{
	struct watch_sampler *s = arg;
	uint64_t target = 0;

	(void)prctl(PR_SET_NAME, "vpsbench-wakeup", 0, 0, 0);
	/* the default 50 us slack would be counted as lateness */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		struct timespec ts;
		uint64_t now;
		unsigned gen;
		int r = 0;

		if (s->paused) {
			while (s->paused && !s->stop)
				pthread_cond_wait(&s->cv, &s->mu);
			target = 0; /* a new grid after a pause */
			continue;
		}
		gen = s->gen;
		now = mono_ns();
		if (!target)
			target = now;
		target += PERIOD_NS;
		if (target <= now) /* woke more than a period late: the next point of the grid ahead */
			target += ((now - target) / PERIOD_NS + 1) * PERIOD_NS;
		ts.tv_sec = (time_t)(target / 1000000000ULL);
		ts.tv_nsec = (long)(target % 1000000000ULL);
		/* a condition variable's timed wait, not clock_nanosleep: stop and pause wake it at once */
		while (!s->stop && s->gen == gen && r != ETIMEDOUT)
			r = pthread_cond_timedwait(&s->cv, &s->mu, &ts);
		now = mono_ns();
		if (r == ETIMEDOUT && !s->paused && s->gen == gen)
			lat_hist_add(&s->h, now > target ? now - target : 0);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int watch_sampler_start(struct watch_sampler *s, char *err, size_t errlen)
{
	pthread_condattr_t ca;
	int r;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->mu, NULL);
	/* the due times are CLOCK_MONOTONIC's (mono_ns) */
	if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&s->cv, &ca)) {
		snprintf(err, errlen, "starting the wake-up sampler: a monotonic condition variable: "
			 "failed");
		pthread_mutex_destroy(&s->mu);
		return -1;
	}
	pthread_condattr_destroy(&ca);
	lat_hist_reset(&s->h);
	r = pthread_create(&s->th, NULL, sampler_main, s);
	if (r) {
		snprintf(err, errlen, "starting the wake-up sampler: pthread_create: %s", strerror(r));
		return -1;
	}
	s->started = true;
	return 0;
}

void watch_sampler_pause(struct watch_sampler *s)
{
	pthread_mutex_lock(&s->mu);
	s->paused = true;
	s->gen++;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void watch_sampler_resume(struct watch_sampler *s)
{
	pthread_mutex_lock(&s->mu);
	s->paused = false;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

void watch_sampler_take(struct watch_sampler *s, struct watch_wakeup *w)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_lock(&s->mu);
	w->samples = s->h.st.n;
	if (w->samples) {
		uint64_t p99 = lat_hist_percentile(&s->h, 99);

		/* a bucket's representative value can pass the exact max */
		w->p99_us = mdbl_of((double)(p99 < s->h.st.max ? p99 : s->h.st.max) / 1000.0);
		w->max_us = mdbl_of((double)s->h.st.max / 1000.0);
	}
	lat_hist_reset(&s->h);
	pthread_mutex_unlock(&s->mu);
}

/* Joins at once: the stop wakes its wait. */
void watch_sampler_stop(struct watch_sampler *s)
{
	if (!s->started)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = true;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->th, NULL);
	s->started = false;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
}
