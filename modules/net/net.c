/*
 * net.c — the net module (opt-in, --net): per server and family, an
 * iperf3 test sending and one receiving (-R), each retried up to
 * NET_BUSY_TRIES times while the server says busy, then TCP connect latency.
 * Every server's failure is its own row; the module fails only when no
 * row could be measured. --net-max-time caps the whole module.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/module.h"
#include "net_priv.h"

#define NET_KILL_SLACK_S   10.0  /* child deadline: test time + this (yabs: timeout 15 for 10 s) */
#define NET_CONNECT_MS     3000
#define NET_BUSY_WAIT_S    2.0   /* yabs sleeps 2 s between tries */
#define NET_REOPEN_WAIT_S  0.5   /* iperf3 -s between two tests */

struct resolved {
	char v4[INET_ADDRSTRLEN], v6[INET6_ADDRSTRLEN];
	char err[128];
};

static bool is_literal(const char *h)
{
	unsigned char b[16];

	return inet_pton(AF_INET, h, b) == 1 || inet_pton(AF_INET6, h, b) == 1;
}

/* Auto family: AI_ADDRCONFIG keeps only the families this host has addresses in. */
static void resolve(const struct net_server *s, bool auto_family, struct resolved *r)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc;

	memset(r, 0, sizeof(*r));
	if (auto_family && !is_literal(s->host))
		hints.ai_flags = AI_ADDRCONFIG;
	rc = getaddrinfo(s->host, NULL, &hints, &res);
	if (rc) {
		snprintf(r->err, sizeof(r->err), "DNS lookup of %s failed: %s", s->host,
			 gai_strerror(rc));
		return;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET && !r->v4[0])
			inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, r->v4,
				  sizeof(r->v4));
		if (ai->ai_family == AF_INET6 && !r->v6[0])
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, r->v6,
				  sizeof(r->v6));
	}
	freeaddrinfo(res);
}

static uint16_t pick_port(const struct net_server *s)
{
	return (uint16_t)(s->port_lo + (uint16_t)(rand() % (s->port_hi - s->port_lo + 1)));
}

/* Sleeps up to sec, returns early (false) when the run is stopped. */
static bool nap(const struct bench_ctx *ctx, double sec)
{
	double end = mono_s() + sec;

	while (mono_s() < end) {
		if (bench_stopped(ctx))
			return false;
		usleep(100000);
	}
	return true;
}

static bool dir_answered(const struct net_dir *d)
{
	return d->status == NET_DONE || d->status == NET_BUSY;
}

/* The server answered a test this run: this row's other direction, or an earlier row of it. */
static bool answered(const struct net_result *res, const struct net_row *row,
		     const struct net_dir *other)
{
	if (dir_answered(other))
		return true;
	for (const struct net_row *r = res->rows; r < row; r++)
		if (!strcmp(r->srv.host, row->srv.host) && r->srv.port_lo == row->srv.port_lo &&
		    (dir_answered(&r->send) || dir_answered(&r->recv)))
			return true;
	return false;
}

static void run_dir(const struct bench_ctx *ctx, struct net_result *res, struct net_row *row,
		    bool reverse, double module_end)
{
	struct net_dir *d = reverse ? &row->recv : &row->send;
	bool server_up = answered(res, row, reverse ? &row->send : &row->recv);
	struct bench_step step = { .module = "net", .ns = (uint64_t)(res->duration_s * 1e9) };
	char what[160];

	snprintf(what, sizeof(what), "iperf3 %s %s (%s, IPv%d)", reverse ? "receive from" : "send to",
		 row->srv.name, row->addr, row->family);
	step.what = what;
	for (d->tries = 0; d->tries < NET_BUSY_TRIES;) {
		struct net_test t = {
			.addr = row->addr, .port = pick_port(&row->srv), .reverse = reverse,
			.streams = res->streams, .duration_s = (unsigned)res->duration_s,
			.deadline_s = res->duration_s + NET_KILL_SLACK_S, .stop = ctx->stop,
		};
		double left = module_end - mono_s();
		int busy;

		if (bench_stopped(ctx)) {
			d->status = NET_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "interrupted");
			return;
		}
		if (left < res->duration_s + 1.0) {
			res->max_time_hit = true;
			if (d->status == NET_BUSY) /* keep "busy" from the earlier tries */
				return;
			d->status = NET_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not started: --net-max-time reached");
			return;
		}
		if (t.deadline_s > left)
			t.deadline_s = left;
		d->tries++;
		bench_progress_step(ctx, &step, 0);
		busy = net_iperf_run(&t, d);
		bench_progress_step(ctx, &step, 1);
		/*
		 * iperf3 -s reopens its listener after each test: a connect in that
		 * window is refused or reset. Once the server answered this run, a
		 * failed try is retried like a busy one; a server that never
		 * answered is not (a closed port stays one "connection refused").
		 */
		if (!busy && !(d->status == NET_FAILED && server_up))
			return;
		if (!busy && d->tries < NET_BUSY_TRIES && !nap(ctx, NET_REOPEN_WAIT_S))
			return;
		if (!busy)
			continue;
		if (d->tries < NET_BUSY_TRIES && !nap(ctx, NET_BUSY_WAIT_S))
			return;
	}
	if (d->status == NET_BUSY)
		snprintf(d->reason, sizeof(d->reason), "server busy on %u tries", d->tries);
}

static void row_status(struct net_row *row)
{
	const struct net_dir *s = &row->send, *r = &row->recv;

	if (s->status == NET_DONE || r->status == NET_DONE) {
		row->status = NET_DONE;
		return;
	}
	if (s->status == NET_BUSY || r->status == NET_BUSY)
		row->status = NET_BUSY;
	else
		row->status = s->status != NET_NOT_RUN ? s->status : r->status;
	snprintf(row->reason, sizeof(row->reason), "%s",
		 s->reason[0] ? s->reason : r->reason);
}

static struct net_row *add_row(struct net_result *res, const struct net_server *s, int family)
{
	struct net_row *row;

	if (res->nrows >= NET_MAX_ROWS)
		return NULL;
	row = &res->rows[res->nrows++];
	memset(row, 0, sizeof(*row));
	row->srv = *s;
	row->family = family;
	return row;
}

/* Lists the rows: IPv4 first, then IPv6 (as yabs prints its two tables). */
static void plan_rows(const struct bench_ctx *ctx, struct net_result *res,
		      const struct net_server *srv, unsigned nsrv)
{
	const struct bench_opts *o = ctx->opts;
	bool auto_family = !o->net_4 && !o->net_6;
	struct resolved *rs = calloc(nsrv, sizeof(*rs));

	if (!rs) {
		bench_warn(ctx, "net: out of memory resolving the servers");
		return;
	}
	for (unsigned i = 0; i < nsrv; i++)
		resolve(&srv[i], auto_family, &rs[i]);
	for (int fam = 4; fam <= 6; fam += 2) {
		for (unsigned i = 0; i < nsrv; i++) {
			const char *a = fam == 4 ? rs[i].v4 : rs[i].v6;
			bool want = auto_family || (fam == 4 ? o->net_4 : o->net_6);
			bool allowed = fam == 4 ? srv[i].ipv4 : srv[i].ipv6;
			struct net_row *row;

			if (!want || !allowed)
				continue;
			if (!a[0]) {
				bool none = !rs[i].v4[0] && !rs[i].v6[0];
				int first = srv[i].ipv4 ? 4 : 6;

				/* auto: a family the host or server lacks is no row, unless none worked */
				if (auto_family && !(none && fam == first))
					continue;
				if (!(row = add_row(res, &srv[i], fam)))
					break;
				row->status = NET_FAILED;
				snprintf(row->reason, sizeof(row->reason), "%s", rs[i].err[0] ?
					 rs[i].err : fam == 4 ? "no IPv4 address for this host" :
					 "no IPv6 address for this host");
				continue;
			}
			if (!(row = add_row(res, &srv[i], fam)))
				break;
			snprintf(row->addr, sizeof(row->addr), "%s", a);
		}
	}
	free(rs);
}

/* HTTP downloads: --net-url, or the built-in files when no target was given. */
static void run_http(const struct bench_ctx *ctx, struct net_result *res, bool defaults,
		     double module_end)
{
	const struct bench_opts *o = ctx->opts;
	unsigned n = defaults ? net_default_nurls : o->net_url.n;
	struct bench_step step = { .module = "net", .ns = (uint64_t)(res->duration_s * 1e9) };

	for (unsigned i = 0; i < n && res->nhttp < NET_MAX_URLS; i++) {
		struct net_http *h = &res->http[res->nhttp++];
		struct net_http_args a = {
			.url = defaults ? net_default_urls[i].url : o->net_url.v[i],
			.conns = o->net_conns.set ? (unsigned)o->net_conns.v : NET_DEFAULT_CONNS,
			.cap_s = res->duration_s, .cacert = o->cacert, .stop = ctx->stop,
		};
		char what[600];

		memset(h, 0, sizeof(*h));
		snprintf(h->url, sizeof(h->url), "%s", a.url);
		h->conns = a.conns;
		if (bench_stopped(ctx)) {
			h->status = NET_SKIPPED;
			snprintf(h->reason, sizeof(h->reason), "interrupted");
			continue;
		}
		if (module_end - mono_s() < res->duration_s + 1.0) {
			res->max_time_hit = true;
			h->status = NET_SKIPPED;
			snprintf(h->reason, sizeof(h->reason), "not started: --net-max-time reached");
			continue;
		}
		snprintf(what, sizeof(what), "HTTP download %s (%u connections)", a.url, a.conns);
		step.what = what;
		bench_progress_step(ctx, &step, 0);
		net_http_run(&a, h);
		bench_progress_step(ctx, &step, 1);
	}
}

static enum bench_status net_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	const struct bench_opts *o = ctx->opts;
	struct net_result *res = result;
	struct net_server *srv;
	unsigned nsrv = 0, ndone = 0, nbusy = 0, ntests;
	bool defaults;
	double module_end;
	char err[256];

	memset(res, 0, sizeof(*res));
	res->streams = o->net_streams.set ? (unsigned)o->net_streams.v : NET_DEFAULT_STREAMS;
	res->duration_s = o->net_time_ns.set ? (double)(o->net_time_ns.v / 1000000000ULL) :
		NET_DEFAULT_TIME_S;
	res->max_time_s = o->net_max_time_ns.set ? (double)o->net_max_time_ns.v / 1e9 :
		NET_DEFAULT_MAX_TIME_S;
	res->want4 = o->net_4;
	res->want6 = o->net_6;
	module_end = mono_s() + res->max_time_s;
	srand((unsigned)(time(NULL) ^ getpid()));

	/* the built-in lists only when no target was given at all */
	defaults = !o->net_server.n && !o->net_url.n;
	srv = calloc(o->net_server.n ? o->net_server.n : net_default_nservers, sizeof(*srv));
	if (!srv)
		return bench_outcome(out, BENCH_FAIL, "out of memory");
	if (!defaults && !o->net_server.n) {
		/* --net-url only: no iperf3 rows */
	} else if (o->net_server.n) {
		for (unsigned i = 0; i < o->net_server.n; i++)
			if (net_parse_server(o->net_server.v[i], &srv[nsrv], err, sizeof(err)) == 0)
				nsrv++;
	} else {
		res->defaults_used = true;
		memcpy(srv, net_default_servers, net_default_nservers * sizeof(*srv));
		nsrv = net_default_nservers;
	}
	plan_rows(ctx, res, srv, nsrv);
	free(srv);

	for (unsigned i = 0; i < res->nrows; i++) {
		struct net_row *row = &res->rows[i];

		if (row->status == NET_FAILED)
			continue;
		if (bench_stopped(ctx))
			break;
		run_dir(ctx, res, row, false, module_end);
		run_dir(ctx, res, row, true, module_end);
		row_status(row);
	}
	/*
	 * Latency last: each probe is a control connection the iperf3 server
	 * drops, and the server reopens its listener after it, resetting a test
	 * that connected meanwhile. After all tests, no test follows a probe.
	 */
	for (unsigned i = 0; i < res->nrows && !bench_stopped(ctx); i++)
		if (res->rows[i].addr[0])
			net_latency(res->rows[i].addr, res->rows[i].family,
				    pick_port(&res->rows[i].srv), NET_CONNECT_MS, &res->rows[i]);
	run_http(ctx, res, defaults, module_end);
	for (unsigned i = 0; i < res->nrows; i++) {
		ndone += res->rows[i].status == NET_DONE;
		nbusy += res->rows[i].status == NET_BUSY;
	}
	for (unsigned i = 0; i < res->nhttp; i++)
		ndone += res->http[i].status == NET_DONE;
	ntests = res->nrows + res->nhttp;
	if (res->max_time_hit)
		bench_warn(ctx, "net: --net-max-time (%.0f s) reached: some tests were not started",
			   res->max_time_s);
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	if (!ntests)
		return bench_outcome(out, BENCH_FAIL, "no server to test");
	if (!ndone)
		return bench_outcome(out, BENCH_FAIL, "nothing could be measured (%u of %u tests busy)",
				     nbusy, ntests);
	if (ndone < ntests)
		return bench_outcome(out, BENCH_OK, "%u of %u tests not measured", ntests - ndone,
				     ntests);
	return bench_outcome(out, BENCH_OK, NULL);
}

const char *net_status_name(enum net_status st)
{
	switch (st) {
	case NET_NOT_RUN: return "not_run";
	case NET_DONE:    return "ok";
	case NET_BUSY:    return "busy";
	case NET_FAILED:  return "failed";
	case NET_TIMEOUT: return "timeout";
	case NET_SKIPPED: return "skipped";
	}
	return "unknown";
}

const struct bench_module bench_mod_net = {
	.name = "net",
	.desc = "network (opt-in, --net): iperf3 send/receive, TCP connect latency, HTTP downloads",
#ifndef HAVE_LIBIPERF
	.unavailable = "built without libiperf",
#elif !defined(HAVE_CJSON)
	.unavailable = "built without cJSON",
#endif
	.run = net_run,
};
