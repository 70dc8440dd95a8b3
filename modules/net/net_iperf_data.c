/*
 * net_iperf_data.c — the timed run of one iperf3 test, from TEST_START to
 * the end of its duration, as iperf3 >= 3.16 runs it: a thread per data
 * stream writes (normal) or reads (-R) its own socket and counts its bytes;
 * this thread watches the control connection for the server's state bytes,
 * the stop flag and --net-max-time, fills the per-second timeline from the
 * counts' sum, and stops and joins every stream thread before it returns.
 * The client's own CPU time over the run says whether it limited the figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "core/cgroup_limits.h"
#include "core/clock.h"
#include "net_priv.h"

#define RECV_IDLE_S 10.0    /* -R: no byte for this long ends the run */
#define WATCH_MS 200        /* the stop flag and the timeline: looked at least this often */
#define STREAM_WAIT_MS 50   /* a stream thread waiting for its socket sees the end this soon */
#define CPU_BOUND_FRAC 0.9  /* of one CPU (a stream thread) or of the usable CPUs (all) */

enum stream_end { RUNNING = 0, PEER_CLOSED, FAILED };

struct stream {
	pthread_t tid;
	int fd;
	bool rev;
	char *buf;                /* normal: the shared block (only read); -R: its own */
	const atomic_bool *run;
	_Atomic uint64_t bytes;   /* relaxed: the watcher only sums it */
	_Atomic int end;          /* enum stream_end; err is set before it (release) */
	int err;
	double cpu_s;             /* the thread's CPU time, set before it returns (read after join) */
};

static double cpu_clock_s(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One stream: whole blocks until the run ends or the socket fails. The
 * socket blocks meanwhile, as iperf3's stream threads have it (one call per
 * block, not send, EAGAIN and poll), with a timeout so the thread sees the
 * end within STREAM_WAIT_MS; non-blocking again before the thread ends.
 */
static void *stream_main(void *arg)
{
	struct stream *s = arg;
	struct timeval tv = { .tv_usec = STREAM_WAIT_MS * 1000 };
	double c0 = cpu_clock_s(CLOCK_THREAD_CPUTIME_ID);
	int end = RUNNING, fl = fcntl(s->fd, F_GETFL);

	if (fl < 0 || setsockopt(s->fd, SOL_SOCKET, s->rev ? SO_RCVTIMEO : SO_SNDTIMEO, &tv,
				 sizeof(tv)) < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		end = FAILED;
	while (end == RUNNING && atomic_load_explicit(s->run, memory_order_relaxed)) {
		ssize_t r = s->rev ? recv(s->fd, s->buf, IPERF_BLOCK, 0) :
			send(s->fd, s->buf, IPERF_BLOCK, MSG_NOSIGNAL);

		if (r > 0)
			atomic_fetch_add_explicit(&s->bytes, (uint64_t)r, memory_order_relaxed);
		else if (r == 0)
			end = PEER_CLOSED;
		else if (errno != EAGAIN && errno != EINTR)
			end = FAILED;
	}
	if (end == FAILED)
		s->err = errno;
	/* the drain after -R and the close expect it non-blocking: a failure here is the stream's */
	if (fl >= 0 && fcntl(s->fd, F_SETFL, fl) < 0 && end == RUNNING) {
		end = FAILED;
		s->err = errno;
	}
	s->cpu_s = c0 < 0 ? -1 : cpu_clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	atomic_store_explicit(&s->end, end, memory_order_release);
	return NULL;
}

/* The CPUs this process may use: its affinity mask, less a cgroup quota. */
static double usable_cpus(void)
{
	struct cgroup_cpu_quota q;
	cpu_set_t set;
	double n = 1;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	cgroup_cpu_quota("", &q);
	return q.limited && q.cpus > 0 && q.cpus < n ? q.cpus : n;
}

/* From TEST_START until the duration: the control connection, the limits, the timeline. */
static enum net_try watch(struct client *c, struct stream *s, double t0, double *t_end)
{
	struct pollfd p = { .fd = c->ctl, .events = POLLIN };
	const bool rev = c->t->reverse;
	double end = t0 + c->t->duration_s, last_rx = t0;
	uint64_t seen = 0, at_tick = 0;
	struct io io = { .deadline = c->t->end_by, .stop = c->t->stop };

	for (;;) {
		double now = mono_s(), next;
		uint64_t total = 0;
		int pr;

		for (unsigned i = 0; i < c->n; i++)
			total += atomic_load_explicit(&s[i].bytes, memory_order_relaxed);
		if (total != seen)
			last_rx = now;
		seen = total;
		while (c->d->ntl < NET_TL_MAX && now >= t0 + c->d->ntl + 1) {
			c->d->tl_bytes[c->d->ntl++] = total - at_tick;
			at_tick = total;
		}
		if (now >= end) {
			*t_end = now;
			return NET_TRY_OK;
		}
		if (now >= c->t->end_by)
			return iperf_io_fail(c, IO_TIMEOUT, &io, 0, "during the test");
		if (c->t->stop && *c->t->stop)
			return iperf_io_fail(c, IO_STOP, &io, 0, "during the test");
		if (rev && now - last_rx > RECV_IDLE_S)
			return iperf_fail(c->d, NET_TRY_TIMEOUT, NET_TIMEOUT,
				    "no data from the server for %.0f s (server stalled)", RECV_IDLE_S);
		for (unsigned i = 0; i < c->n; i++) {
			int e = atomic_load_explicit(&s[i].end, memory_order_acquire);

			if (e == PEER_CLOSED)
				return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED,
					    "server closed data stream %u during the test", i + 1);
			if (e == FAILED)
				return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "data stream %u: %s",
					    i + 1, strerror(s[i].err));
		}
		next = t0 + c->d->ntl + 1;
		if (next > end)
			next = end;
		pr = poll(&p, 1, next - now > WATCH_MS / 1e3 ? WATCH_MS : (int)((next - now) * 1000) + 1);
		if (pr < 0 && errno != EINTR)
			return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "poll: %s", strerror(errno));
		if (pr > 0) {
			signed char st;
			ssize_t r = recv(c->ctl, &st, 1, 0);

			if (r == 0)
				return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED,
					    "server closed the control connection during the test");
			if (r < 0 && errno != EAGAIN && errno != EINTR)
				return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED,
					    "reading the control connection: %s", strerror(errno));
			if (r == 1 && st != IPERF_TEST_RUNNING)
				return iperf_bad_state(c, st, "during the test");
		}
	}
}

/*
 * The client's CPU over the run (its stream threads and this one, user and
 * system) and whether it was the limit: a stream thread busy for
 * CPU_BOUND_FRAC of the wall time, or all of them for that share of the
 * usable CPUs.
 */
static void cpu_figures(struct net_dir *d, const struct stream *s, unsigned n, double own_s,
			double wall_s)
{
	double sum = own_s, top = 0;

	for (unsigned i = 0; i < n; i++) {
		if (s[i].cpu_s < 0)
			return;
		sum += s[i].cpu_s;
		if (s[i].cpu_s > top)
			top = s[i].cpu_s;
	}
	if (own_s < 0 || !(wall_s > 0))
		return;
	d->cpu_share = mdbl_of(sum / wall_s);
	d->cpu_bound = top >= CPU_BOUND_FRAC * wall_s || sum >= CPU_BOUND_FRAC * usable_cpus() * wall_s ?
		MB_TRUE : MB_FALSE;
}

/* The timed run from TEST_START: moves data until duration_s; fills the timeline. */
enum net_try iperf_data_run(struct client *c, double t0, double *t_end)
{
	struct stream *s = calloc(c->n, sizeof(*s));
	atomic_bool run = true;
	sigset_t all, old;
	unsigned started = 0;
	double own0 = cpu_clock_s(CLOCK_THREAD_CPUTIME_ID), own1;
	enum net_try r = NET_TRY_OK;
	int e = 0;

	c->d->cpu_share = (struct mdbl){ 0 };
	c->d->cpu_bound = MB_UNKNOWN;
	if (!s)
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "starting the streams: out of memory");
	/* signals go to this thread, whose poll they cut short; the streams never see them */
	sigfillset(&all);
	if ((e = pthread_sigmask(SIG_BLOCK, &all, &old)) != 0) {
		free(s);
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "pthread_sigmask: %s", strerror(e));
	}
	for (; started < c->n; started++) {
		struct stream *x = &s[started];

		x->fd = c->fd[started];
		x->rev = c->t->reverse;
		x->run = &run;
		x->buf = x->rev ? malloc(IPERF_BLOCK) : c->buf;
		if (!x->buf) {
			e = ENOMEM;
			break;
		}
		if ((e = pthread_create(&x->tid, NULL, stream_main, x)) != 0) {
			if (x->rev)
				free(x->buf);
			break;
		}
	}
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL); /* cannot fail: a valid how and set */
	if (started < c->n)
		r = iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "starting the thread of data stream "
			 "%u of %u: %s", started + 1, c->n, strerror(e));
	else
		r = watch(c, s, t0, t_end);
	atomic_store_explicit(&run, false, memory_order_relaxed);
	for (unsigned i = 0; i < started; i++) {
		uint64_t b;

		/* a join cannot fail on a joinable thread of ours; none outlives the run */
		(void)pthread_join(s[i].tid, NULL);
		if (r == NET_TRY_OK && atomic_load_explicit(&s[i].end, memory_order_acquire) == FAILED)
			r = iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "data stream %u at the end: %s",
				 i + 1, strerror(s[i].err));
		b = atomic_load_explicit(&s[i].bytes, memory_order_relaxed);
		c->bytes[i] += b;
		c->d->moved += b;
		if (s[i].rev)
			free(s[i].buf);
	}
	own1 = cpu_clock_s(CLOCK_THREAD_CPUTIME_ID);
	if (r == NET_TRY_OK)
		cpu_figures(c->d, s, c->n, own0 < 0 || own1 < 0 ? -1 : own1 - own0, mono_s() - t0);
	free(s);
	return r;
}
