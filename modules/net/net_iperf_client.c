/*
 * net_iperf_client.c — one iperf3 TCP test, client side, in this thread:
 * control connection and cookie, parameters, N data streams, the timed run
 * (normal: this host writes; -R: it reads), TEST_END, the results exchange
 * and IPERF_DONE. One poll loop over the control and data sockets, all
 * non-blocking; every wait has a deadline (net_iperf_proto.c) and ends the
 * try with a named reason. The figures are the ones iperf3's summary
 * prints: per side, that side's bytes over that side's duration of stream 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "net_priv.h"

#define CONNECT_S   5.0   /* control and each data connection */
#define STATE_S     10.0  /* each state byte before and after the run (3.15+ servers: 10 s reads) */
#define RESULTS_S   10.0  /* the server's results message */
#define CLOSE_S     1.0   /* drain after IPERF_DONE: not an error when it runs out */

enum net_try iperf_fail(struct net_dir *d, enum net_try how, enum net_status st,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->reason, sizeof(d->reason), fmt, ap);
	va_end(ap);
	d->status = st;
	return how;
}

/* A phase's deadline: its own limit, or --net-max-time's end when that comes first. */
static void phase(struct client *c, struct io *io, double limit_s)
{
	double own = mono_s() + limit_s;

	io->deadline = own < c->t->end_by ? own : c->t->end_by;
	io->stop = c->t->stop;
	io->err = 0;
}

/* The try's end after a wait did not complete; what names the wait. */
enum net_try iperf_io_fail(struct client *c, enum io_rc rc, const struct io *io,
			    double limit_s, const char *what)
{
	struct net_dir *d = c->d;

	switch (rc) {
	case IO_OK:
		break;
	case IO_EOF:
		return iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "server closed the connection %s", what);
	case IO_TIMEOUT:
		if (io->deadline >= c->t->end_by)
			return iperf_fail(d, NET_TRY_MAX_TIME, NET_SKIPPED, "cut by --net-max-time %s", what);
		return iperf_fail(d, NET_TRY_TIMEOUT, NET_TIMEOUT, "nothing within %.0f s %s (server stalled)",
			    limit_s, what);
	case IO_STOP:
		return iperf_fail(d, NET_TRY_STOPPED, NET_SKIPPED, "interrupted");
	case IO_ERR:
		if (io->err == ECONNREFUSED)
			return iperf_fail(d, NET_TRY_REFUSED, NET_FAILED, "%s: %s", what, strerror(io->err));
		/* no route, blackhole (EINVAL) and prohibit (EACCES) routes: the family's reach */
		if (io->err == EHOSTUNREACH || io->err == ENETUNREACH || io->err == EINVAL ||
		    io->err == EACCES)
			return iperf_fail(d, NET_TRY_NO_ROUTE, NET_FAILED, "%s: %s", what, strerror(io->err));
		return iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "%s: %s", what, strerror(io->err));
	case IO_TOO_BIG:
		return iperf_fail(d, NET_TRY_LIE, NET_FAILED, "server sent a JSON length of %u bytes %s "
			    "(0 or over the %u-byte limit)", io->len, what, IPERF_JSON_MAX);
	}
	return NET_TRY_FAILED;
}

/* SERVER_ERROR: one int (3.0-3.18 authentication) or two (code, errno). */
static enum net_try server_error(struct client *c, const char *when)
{
	struct io io;
	int32_t code, err;
	enum io_rc rc;
	const char *text;

	phase(c, &io, 2.0);
	rc = iperf_read_full(c->ctl, &code, sizeof(code), &io);
	if (rc != IO_OK)
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "server error %s (no code followed)",
			    when);
	code = (int32_t)ntohl((uint32_t)code);
	text = iperf_error_text(code);
	phase(c, &io, 1.0);
	rc = iperf_read_full(c->ctl, &err, sizeof(err), &io);
	err = rc == IO_OK ? (int32_t)ntohl((uint32_t)err) : 0;
	if (err > 0)
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "server error %d (%s) %s: %s", code,
			    text ? text : "unknown code", when, strerror(err));
	return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "server error %d (%s) %s", code,
		    text ? text : "unknown code", when);
}

/* A state byte other than the one awaited. */
enum net_try iperf_bad_state(struct client *c, signed char st, const char *when)
{
	if (st == IPERF_SERVER_ERROR)
		return server_error(c, when);
	if (st == IPERF_ACCESS_DENIED)
		return iperf_fail(c->d, NET_TRY_BUSY, NET_BUSY, "server busy (access denied)");
	if (st == IPERF_SERVER_TERMINATE)
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "server terminated the test %s", when);
	return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "unexpected state byte %d from the server %s",
		    st, when);
}

/* Reads and throws away what a data stream holds; false on its end or an error. */
static bool drain(struct client *c, unsigned i)
{
	ssize_t r = recv(c->fd[i], c->buf, IPERF_BLOCK, 0);

	if (r > 0) {
		c->d->moved += (uint64_t)r;
		return true;
	}
	return r < 0 && (errno == EAGAIN || errno == EINTR);
}

/*
 * Waits for the state byte want, limit_s at most; in reverse mode the data
 * streams are drained meanwhile (a server blocked on full pipes cannot see
 * TEST_END). A stream that ends is closed.
 */
static enum net_try wait_state(struct client *c, signed char want, double limit_s,
			       const char *when)
{
	struct pollfd p[1 + NET_STREAMS_MAX];
	bool drain_streams = c->t->reverse;
	struct io io;

	phase(c, &io, limit_s);
	for (;;) {
		double left = io.deadline - mono_s();
		unsigned np = 1;
		signed char st;
		ssize_t r;
		int pr;

		if (c->t->stop && *c->t->stop)
			return iperf_io_fail(c, IO_STOP, &io, limit_s, when);
		if (left <= 0)
			return iperf_io_fail(c, IO_TIMEOUT, &io, limit_s, when);
		p[0] = (struct pollfd){ .fd = c->ctl, .events = POLLIN };
		for (unsigned i = 0; drain_streams && i < c->n; i++)
			p[np++] = (struct pollfd){ .fd = c->fd[i], .events = POLLIN };
		pr = poll(p, np, left > 0.2 ? 200 : (int)(left * 1000) + 1);
		if (pr < 0 && errno != EINTR) {
			io.err = errno;
			return iperf_io_fail(c, IO_ERR, &io, limit_s, "poll");
		}
		if (pr <= 0)
			continue;
		for (unsigned i = 1; i < np; i++)
			if (p[i].revents && !drain(c, i - 1) && c->fd[i - 1] >= 0) {
				close(c->fd[i - 1]);
				c->fd[i - 1] = -1;
			}
		if (!p[0].revents)
			continue;
		r = recv(c->ctl, &st, 1, 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			io.err = errno;
			return iperf_io_fail(c, IO_ERR, &io, limit_s, "reading the control connection");
		}
		if (r == 0)
			return iperf_io_fail(c, IO_EOF, &io, limit_s, when);
		if (st == want)
			return NET_TRY_OK;
		/* TEST_RUNNING follows TEST_START at once: not a breach while waiting past it */
		if (st == IPERF_TEST_RUNNING && want != IPERF_TEST_START)
			continue;
		return iperf_bad_state(c, st, when);
	}
}

static int tcp_info(int fd, struct tcp_info *ti)
{
	socklen_t l = sizeof(*ti);

	memset(ti, 0, sizeof(*ti));
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &l);
}

/* Connects the control connection (stream 0) or data stream n; what names it in a reason. */
static enum net_try connect_to(struct client *c, int *fd, unsigned n, const char *what)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct io io;
	enum io_rc rc;
	bool ctl = fd == &c->ctl;
	double lim = ctl && c->t->connect_s > 0 ? c->t->connect_s : CONNECT_S;

	memset(&ss, 0, sizeof(ss));
	if (c->t->family == 6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(c->t->port);
		sl = sizeof(*a);
		if (inet_pton(AF_INET6, c->t->addr, &a->sin6_addr) != 1)
			goto bad;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(c->t->port);
		sl = sizeof(*a);
		if (inet_pton(AF_INET, c->t->addr, &a->sin_addr) != 1)
			goto bad;
	}
	phase(c, &io, lim);
	*fd = iperf_connect((struct sockaddr *)&ss, sl, &io, &rc);
	if (*fd >= 0)
		return NET_TRY_OK;
	/* no answer yet: a connect timeout, not a stall (that is a wait after the server answered);
	 * at the control connection the server, or the whole family, may be out of reach */
	if (rc == IO_TIMEOUT && io.deadline < c->t->end_by) {
		if (ctl)
			return iperf_fail(c->d, NET_TRY_CONN_TIMEOUT, NET_TIMEOUT,
					  "connect timed out after %.0f s", lim);
		return iperf_fail(c->d, NET_TRY_TIMEOUT, NET_TIMEOUT,
				  "connect of data stream %u timed out after %.0f s", n, lim);
	}
	return iperf_io_fail(c, rc, &io, lim, what);
bad:
	return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "not a numeric IPv%d address: %s",
		    c->t->family, c->t->addr);
}

/* Control connection, cookie, parameters, streams; returns at TEST_START. */
static enum net_try set_up(struct client *c, const char *cookie)
{
	struct tcp_info ti;
	struct io io;
	enum net_try r;
	enum io_rc rc;
	char *params;
	int one = 1;

	if ((r = connect_to(c, &c->ctl, 0, "connecting")) != NET_TRY_OK)
		return r;
	/* the round trip of this connection's handshake: no extra connections for latency */
	if (tcp_info(c->ctl, &ti) == 0 && ti.tcpi_rtt > 0)
		c->d->rtt_ms = mdbl_of(ti.tcpi_rtt / 1e3);
	if (setsockopt(c->ctl, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "TCP_NODELAY: %s", strerror(errno));
	phase(c, &io, STATE_S);
	if ((rc = iperf_write_all(c->ctl, cookie, IPERF_COOKIE_LEN, &io)) != IO_OK)
		return iperf_io_fail(c, rc, &io, STATE_S, "sending the cookie");
	if ((r = wait_state(c, IPERF_PARAM_EXCHANGE, STATE_S, "before the parameter exchange")))
		return r;
	if (!(params = iperf_params_json(c->t->streams, c->t->duration_s, c->t->reverse)))
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "building the parameters: out of memory");
	phase(c, &io, STATE_S);
	rc = iperf_send_json(c->ctl, params, &io);
	free(params);
	if (rc != IO_OK)
		return iperf_io_fail(c, rc, &io, STATE_S, "sending the parameters");
	c->open = true;
	if ((r = wait_state(c, IPERF_CREATE_STREAMS, STATE_S, "after the parameters")))
		return r;
	for (unsigned i = 0; i < c->t->streams; i++) {
		char what[48];

		snprintf(what, sizeof(what), "connecting data stream %u", i + 1);
		if ((r = connect_to(c, &c->fd[i], i + 1, what)) != NET_TRY_OK)
			return r;
		c->n++;
		phase(c, &io, STATE_S);
		if ((rc = iperf_write_all(c->fd[i], cookie, IPERF_COOKIE_LEN, &io)) != IO_OK)
			return iperf_io_fail(c, rc, &io, STATE_S, what);
	}
	return wait_state(c, IPERF_TEST_START, STATE_S, "after opening the streams");
}

/* From TEST_END to IPERF_DONE: our results, the server's, the clean end. */
static enum net_try finish(struct client *c, double secs, const int64_t *rtx)
{
	struct iperf_local_stream ls[NET_STREAMS_MAX];
	struct iperf_peer_results *pr = NULL;
	struct io io;
	enum net_try r;
	enum io_rc rc;
	signed char done = IPERF_DONE;
	char *json = NULL, why[160];

	if ((r = wait_state(c, IPERF_EXCHANGE_RESULTS, STATE_S, "after TEST_END")))
		return r;
	for (unsigned i = 0; i < c->n; i++)
		ls[i] = (struct iperf_local_stream){ .bytes = c->bytes[i],
			.retransmits = c->t->reverse || !c->rtx_ok ? -1 : rtx[i], .seconds = secs };
	if (!(json = iperf_results_json(ls, c->n, !c->t->reverse, c->rtx_ok)))
		return iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "building the results: out of memory");
	phase(c, &io, STATE_S);
	rc = iperf_send_json(c->ctl, json, &io);
	free(json);
	json = NULL;
	if (rc != IO_OK)
		return iperf_io_fail(c, rc, &io, STATE_S, "sending the results");
	phase(c, &io, RESULTS_S);
	if ((rc = iperf_recv_json(c->ctl, &json, IPERF_JSON_MAX, &io)) != IO_OK)
		return iperf_io_fail(c, rc, &io, RESULTS_S, "in the middle of the server's results");
	if (!(pr = malloc(sizeof(*pr)))) {
		r = iperf_fail(c->d, NET_TRY_FAILED, NET_FAILED, "reading the results: out of memory");
		goto out;
	}
	if (iperf_parse_results(json, c->n, pr, why, sizeof(why)) < 0) {
		r = iperf_fail(c->d, NET_TRY_LIE, NET_FAILED, "%s", why);
		goto out;
	}
	if ((r = wait_state(c, IPERF_DISPLAY_RESULTS, STATE_S, "after the results")))
		goto out;
	phase(c, &io, STATE_S);
	if ((rc = iperf_write_all(c->ctl, &done, 1, &io)) != IO_OK) {
		r = iperf_io_fail(c, rc, &io, STATE_S, "sending IPERF_DONE");
		goto out;
	}
	c->open = false;
	r = iperf_figures(c, pr, secs, rtx);
out:
	free(pr);
	free(json);
	return r;
}

/*
 * Shut down the write side and read to the end (3.21 closes in sync); not
 * an error when slow, never past --net-max-time's end. A test this side
 * abandons (interrupted, or cut by the cap) is first ended with
 * CLIENT_TERMINATE, as iperf3's client does on SIGINT: the server then
 * ends it cleanly instead of logging an unexpected close.
 */
static void close_all(struct client *c, enum net_try how)
{
	signed char term = IPERF_CLIENT_TERMINATE;

	if (c->open && c->ctl >= 0 && (how == NET_TRY_STOPPED || how == NET_TRY_MAX_TIME) &&
	    send(c->ctl, &term, 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
		/* best effort, never waited for: the server then sees only the close */
	}
	for (unsigned i = 0; i < c->n; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	c->n = 0;
	if (c->ctl >= 0) {
		struct io io = { .deadline = mono_s() + CLOSE_S, .stop = c->t->stop };
		char b[256];

		if (io.deadline > c->t->end_by)
			io.deadline = c->t->end_by;

		if (shutdown(c->ctl, SHUT_WR) == 0)
			while (iperf_read_full(c->ctl, b, sizeof(b), &io) == IO_OK)
				;
		close(c->ctl);
		c->ctl = -1;
	}
}

enum net_try net_iperf_run(const struct net_test *t, struct net_dir *d)
{
	struct client *c = calloc(1, sizeof(*c));
	char cookie[IPERF_COOKIE_LEN];
	int64_t rtx[NET_STREAMS_MAX] = { 0 };
	double t0, t_end = 0;
	enum net_try r;

	/* this try's figures start unknown; moved and tries add up over tries */
	d->bps = d->sender_bps = d->seconds = d->sender_seconds = d->tail_ratio = (struct mdbl){ 0 };
	d->cpu_share = (struct mdbl){ 0 };
	d->bytes = d->sender_bytes = d->retransmits = (struct mu64){ 0 };
	d->ntl = 0;
	d->drop = d->cpu_bound = MB_UNKNOWN;
	d->implausible = false;
	d->reason[0] = d->note[0] = '\0';
	d->port = t->port;
	if (!c)
		return iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "out of memory");
	c->t = t;
	c->d = d;
	c->ctl = -1;
	if (t->streams < 1 || t->streams > NET_STREAMS_MAX || t->duration_s < 1) {
		r = iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "bad test: %u streams, %u s", t->streams,
			 t->duration_s);
		goto out;
	}
	if (!(c->buf = malloc(IPERF_BLOCK))) {
		r = iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "out of memory");
		goto out;
	}
	/* the payload is never checked; a pattern, not zeros a compressing path would flatter */
	for (size_t i = 0; i < IPERF_BLOCK; i++)
		c->buf[i] = (char)(i * 2654435761u >> 13);
	if (iperf_make_cookie(cookie) < 0) {
		r = iperf_fail(d, NET_TRY_FAILED, NET_FAILED, "getrandom: %s", strerror(errno));
		goto out;
	}
	if ((r = set_up(c, cookie)) != NET_TRY_OK)
		goto out;
	t0 = mono_s();
	c->rtx_ok = !t->reverse;
	for (unsigned i = 0; i < c->n && c->rtx_ok; i++) {
		struct tcp_info ti;

		if (tcp_info(c->fd[i], &ti) < 0)
			c->rtx_ok = false;
		c->rtx0[i] = ti.tcpi_total_retrans;
	}
	if ((r = iperf_data_run(c, t0, &t_end)) != NET_TRY_OK)
		goto out;
	for (unsigned i = 0; i < c->n && c->rtx_ok; i++) {
		struct tcp_info ti;

		if (tcp_info(c->fd[i], &ti) < 0)
			c->rtx_ok = false;
		rtx[i] = (int64_t)ti.tcpi_total_retrans - c->rtx0[i];
	}
	{
		struct io io;
		signed char end = IPERF_TEST_END;
		enum io_rc rc;

		phase(c, &io, STATE_S);
		if ((rc = iperf_write_all(c->ctl, &end, 1, &io)) != IO_OK) {
			r = iperf_io_fail(c, rc, &io, STATE_S, "sending TEST_END");
			goto out;
		}
	}
	r = finish(c, t_end - t0, rtx);
out:
	if (c) {
		close_all(c, r);
		free(c->buf);
	}
	free(c);
	return r;
}
