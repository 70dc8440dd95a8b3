/*
 * net_iperf_data.c — the timed run of one iperf3 test, from TEST_START to
 * the end of its duration: this host writes (normal) or reads (-R) every
 * data stream and counts the bytes, and fills the per-second timeline; the
 * control connection is watched for the server's state bytes meanwhile.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "core/clock.h"
#include "net_priv.h"

#define OPS_PER_WAKE 4    /* reads or writes per ready stream per poll */
#define RECV_IDLE_S 10.0  /* -R: no byte for this long ends the run */

static void count(struct client *c, unsigned i, ssize_t n)
{
	c->bytes[i] += (uint64_t)n;
	c->d->moved += (uint64_t)n;
}

/* The timed run from TEST_START: moves data until duration_s; fills the timeline. */
enum net_try iperf_data_run(struct client *c, double t0, double *t_end)
{
	struct pollfd p[1 + NET_STREAMS_MAX];
	const bool rev = c->t->reverse;
	double end = t0 + c->t->duration_s, last_rx = t0;
	uint64_t total = 0, at_tick = 0;
	struct io io = { .deadline = c->t->end_by, .stop = c->t->stop };

	p[0] = (struct pollfd){ .fd = c->ctl, .events = POLLIN };
	for (unsigned i = 0; i < c->n; i++)
		p[1 + i] = (struct pollfd){ .fd = c->fd[i], .events = rev ? POLLIN : POLLOUT };
	for (;;) {
		double now = mono_s(), next;
		int pr;

		while (c->d->ntl < NET_TL_MAX && now >= t0 + c->d->ntl + 1) {
			c->d->tl_bytes[c->d->ntl++] = total - at_tick;
			at_tick = total;
		}
		if (now >= end)
			break;
		if (now >= c->t->end_by)
			return iperf_io_fail(c, IO_TIMEOUT, &io, 0, "during the test");
		if (c->t->stop && *c->t->stop)
			return iperf_io_fail(c, IO_STOP, &io, 0, "during the test");
		if (rev && now - last_rx > RECV_IDLE_S)
			return iperf_fail(c->d, NET_TRY_TIMEOUT, NET_TIMEOUT,
				    "no data from the server for %.0f s (server stalled)", RECV_IDLE_S);
		next = t0 + c->d->ntl + 1;
		if (next > end)
			next = end;
		if (next - now > 0.2)
			next = now + 0.2;
		pr = poll(p, 1 + c->n, (int)((next - now) * 1000) + 1);
		if (pr < 0 && errno != EINTR)
			return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "poll: %s", strerror(errno));
		if (pr <= 0)
			continue;
		if (p[0].revents) {
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
		for (unsigned i = 0; i < c->n; i++) {
			ssize_t r = 0;

			if (!p[1 + i].revents)
				continue;
			/* a few whole blocks per wake-up: fewer polls per GB, still every stream in turn */
			for (int k = 0; k < OPS_PER_WAKE; k++) {
				r = rev ? recv(c->fd[i], c->buf, IPERF_BLOCK, 0) :
					send(c->fd[i], c->buf, IPERF_BLOCK, MSG_NOSIGNAL);
				if (r <= 0)
					break;
				count(c, i, r);
				total += (uint64_t)r;
				last_rx = now;
				if (r < IPERF_BLOCK)
					break;
			}
			if (r > 0 || (r < 0 && (errno == EAGAIN || errno == EINTR)))
				continue;
			if (r == 0)
				return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED,
					    "server closed data stream %u during the test", i + 1);
			return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "data stream %u: %s", i + 1,
				    strerror(errno));
		}
	}
	*t_end = mono_s();
	return NET_TRY_OK;
}

