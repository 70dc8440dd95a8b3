/*
 * watch_probe_worker.c — the disk probes' thread (watch_probe_worker.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_probe_worker.h"
#include "core/clock.h"

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *worker_main(void *arg)
{
	struct watch_probe_worker *wk = arg;

	char err[256];
	int r;

	(void)prctl(PR_SET_NAME, "vpsbench-disk", 0, 0, 0);
	r = watch_probes_engine_open(wk->probes, err, sizeof(err));
	pthread_mutex_lock(&wk->mu);
	wk->open_rc = r < 0 ? -1 : 1;
	if (r < 0) {
		snprintf(wk->open_err, sizeof(wk->open_err), "%s", err);
		wk->quit = true;
	}
	pthread_cond_broadcast(&wk->cv);
	for (;;) {
		struct watch_probe_result res;
		uint64_t t0, ns;
		int job;

		while (!wk->quit && !(wk->busy && wk->job >= 0))
			pthread_cond_wait(&wk->cv, &wk->mu);
		if (wk->quit && !wk->busy)
			break;
		job = wk->job;
		ns = wk->job_ns;
		pthread_mutex_unlock(&wk->mu);

		memset(&res, 0, sizeof(res));
		t0 = mono_ns();
		if (job == WP_RANDREAD)
			watch_probe_randread(wk->probes, ns, &res);
		else
			watch_probe_fsync(wk->probes, ns, &res);
		if (res.status != WS_SKIPPED)
			res.duration_s = mdbl_of((double)(mono_ns() - t0) / 1e9);

		pthread_mutex_lock(&wk->mu);
		wk->res = res;
		wk->busy = false;
		wk->job = -1;
		{
			uint64_t one = 1;

			/* a full counter (never: one a job) still leaves it readable */
			if (write(wk->done_fd, &one, sizeof(one)) < 0)
				(void)0;
		}
		if (wk->quit)
			break;
	}
	pthread_mutex_unlock(&wk->mu);
	return NULL;
}

int watch_probe_worker_start(struct watch_probe_worker *wk, struct watch_probes *p, char *err,
			     size_t errlen)
{
	int r;

	memset(wk, 0, sizeof(*wk));
	wk->job = -1;
	wk->probes = p;
	p->stop = &wk->cancel;
	wk->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wk->done_fd < 0) {
		snprintf(err, errlen, "starting the disk probe thread: eventfd: %s", strerror(errno));
		return -1;
	}
	pthread_mutex_init(&wk->mu, NULL);
	pthread_cond_init(&wk->cv, NULL);
	r = pthread_create(&wk->th, NULL, worker_main, wk);
	if (r) {
		snprintf(err, errlen, "starting the disk probe thread: pthread_create: %s",
			 strerror(r));
		close(wk->done_fd);
		wk->done_fd = -1;
		pthread_mutex_destroy(&wk->mu);
		pthread_cond_destroy(&wk->cv);
		return -1;
	}
	wk->started = true;
	/* the engine opened there (quick: no I/O) */
	pthread_mutex_lock(&wk->mu);
	while (!wk->open_rc)
		pthread_cond_wait(&wk->cv, &wk->mu);
	pthread_mutex_unlock(&wk->mu);
	if (wk->open_rc < 0) {
		snprintf(err, errlen, "%s", wk->open_err);
		watch_probe_worker_stop(wk, 0);
		return -1;
	}
	return 0;
}

static void drain(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) > 0)
		;
}

/* Waits until the job ends, the deadline (mono ns) or stop_fd: 0 ended, 1 deadline, 2 stop. */
static int wait_job(struct watch_probe_worker *wk, uint64_t deadline, int stop_fd)
{
	for (;;) {
		struct pollfd pf[2] = { { wk->done_fd, POLLIN, 0 }, { stop_fd, POLLIN, 0 } };
		uint64_t now;
		bool busy;
		int ms;

		pthread_mutex_lock(&wk->mu);
		busy = wk->busy;
		pthread_mutex_unlock(&wk->mu);
		if (!busy)
			return 0;
		now = mono_ns();
		if (now >= deadline)
			return 1;
		ms = (int)((deadline - now + 999999) / 1000000);
		if (poll(pf, stop_fd >= 0 ? 2 : 1, ms) < 0 && errno != EINTR)
			return 1; /* (not seen: poll on two valid fds) */
		if (stop_fd >= 0 && (pf[1].revents & POLLIN))
			return 2;
		drain(wk->done_fd);
	}
}

void watch_probe_worker_run(struct watch_probe_worker *wk, int job, uint64_t ns,
			    uint64_t timeout_ns, int stop_fd, struct watch_probe_result *r)
{
	int w;

	memset(r, 0, sizeof(*r));
	pthread_mutex_lock(&wk->mu);
	if (wk->busy) {
		char when[32];
		time_t sec = (time_t)wk->job_start_unix;
		struct tm tm;

		if (!gmtime_r(&sec, &tm) || !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
			snprintf(when, sizeof(when), "%.0f", wk->job_start_unix);
		r->status = WS_SKIPPED;
		r->skip = WR_HUNG;
		snprintf(r->reason, sizeof(r->reason),
			 "hung: the %s probe started at %s has not returned (%.1f s ago)",
			 watch_probe_names[wk->job], when,
			 (double)(mono_ns() - wk->job_start_mono) / 1e9);
		pthread_mutex_unlock(&wk->mu);
		return;
	}
	drain(wk->done_fd);
	wk->busy = true;
	wk->abandoned = false;
	wk->job = job;
	wk->job_ns = ns;
	wk->job_start_unix = unix_now();
	wk->job_start_mono = mono_ns();
	wk->cancel = 0;
	pthread_cond_signal(&wk->cv);
	pthread_mutex_unlock(&wk->mu);

	w = wait_job(wk, wk->job_start_mono + timeout_ns, stop_fd);
	pthread_mutex_lock(&wk->mu);
	if (w == 0 || !wk->busy) {
		*r = wk->res;
	} else {
		/* it ends at its next I/O's return, if that ever comes; its result is dropped */
		wk->cancel = 1;
		wk->abandoned = true;
		r->status = WS_FAILED;
		r->duration_s = mdbl_of((double)(mono_ns() - wk->job_start_mono) / 1e9);
		if (w == 2)
			snprintf(r->reason, sizeof(r->reason), "interrupted");
		else
			snprintf(r->reason, sizeof(r->reason), "timed out after %.3g s (--probe-timeout)",
				 (double)timeout_ns / 1e9);
	}
	pthread_mutex_unlock(&wk->mu);
}

bool watch_probe_worker_stop(struct watch_probe_worker *wk, uint64_t wait_ns)
{
	uint64_t deadline = mono_ns() + wait_ns;
	bool busy;

	if (!wk->started)
		return true;
	pthread_mutex_lock(&wk->mu);
	wk->quit = true;
	wk->cancel = 1;
	pthread_cond_signal(&wk->cv);
	pthread_mutex_unlock(&wk->mu);
	wait_job(wk, deadline, -1);
	pthread_mutex_lock(&wk->mu);
	busy = wk->busy;
	pthread_mutex_unlock(&wk->mu);
	if (busy)
		return false; /* stuck in the kernel: not joined, the exit ends it */
	pthread_join(wk->th, NULL);
	wk->started = false;
	close(wk->done_fd);
	pthread_mutex_destroy(&wk->mu);
	pthread_cond_destroy(&wk->cv);
	return true;
}
