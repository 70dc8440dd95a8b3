/*
 * net.c — the net module (opt-in, --net): per server and family, an
 * iperf3 test sending and one receiving (-R) through the native client
 * (net_iperf_client.c), 1 s apart as yabs does. A try that found the
 * server busy, ran out of time or received nothing is retried up to
 * NET_BUSY_TRIES times, 2 s apart; refused or unreachable is not. The
 * row's latency is its control connection's round trip (no extra
 * connections). A family is planned only where this host has a usable
 * address and a default route (sysinfo's, through the ctx). Every
 * server's failure is its own row; the module fails only when no row
 * could be measured. --net-max-time caps the whole module.
 */
#include <arpa/inet.h>
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/module.h"
#include "core/tail_ratio.h"
#include "net_priv.h"

#define NET_RETRY_WAIT_S   2.0   /* yabs sleeps 2 s between tries */
#define NET_DIR_WAIT_S     1.0   /* yabs: "a breather" between send and receive */
#define NET_REOPEN_WAIT_S  0.5   /* iperf3 -s reopens its listener after a test */
#define NET_TRY_SLACK_S    25.0  /* a try's own waits beyond its run (connects, states, results) */

struct resolved {
	char v4[INET_ADDRSTRLEN], v6[INET6_ADDRSTRLEN];
	char err[128];
};

static bool is_literal(const char *h)
{
	unsigned char b[16];

	return inet_pton(AF_INET, h, b) == 1 || inet_pton(AF_INET6, h, b) == 1;
}

/* Both families' first address; the host's own usability is decided by sysinfo, not here. */
static void resolve(const struct net_server *s, struct resolved *r)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc;

	memset(r, 0, sizeof(*r));
	if (is_literal(s->host))
		hints.ai_flags = AI_NUMERICHOST;
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
		usleep(50000);
	}
	return true;
}

static bool dir_answered(const struct net_dir *d)
{
	return d->status == NET_DONE || d->status == NET_BUSY;
}

/* The server answered a test this run in this family: this row's other direction, or an earlier row. */
static bool answered(const struct net_result *res, const struct net_row *row,
		     const struct net_dir *other)
{
	if (dir_answered(other))
		return true;
	for (const struct net_row *r = res->rows; r < row; r++)
		if (r->family == row->family && !strcmp(r->srv.host, row->srv.host) &&
		    r->srv.port_lo == row->srv.port_lo &&
		    (dir_answered(&r->send) || dir_answered(&r->recv)))
			return true;
	return false;
}

/* The drop rule of the disk passes (core/tail_ratio.h) on this direction's timeline. */
static void dir_tail(struct net_dir *d)
{
	double v[NET_TL_MAX], t;

	for (unsigned i = 0; i < d->ntl; i++)
		v[i] = (double)d->tl_bytes[i];
	t = tail_ratio(v, d->ntl);
	if (!isnan(t)) {
		d->tail_ratio = mdbl_of(t);
		d->drop = mbool_of(t < TAIL_DROP_RATIO);
	}
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
			.addr = row->addr, .family = row->family, .port = pick_port(&row->srv),
			.reverse = reverse, .streams = res->streams,
			.duration_s = (unsigned)res->duration_s, .end_by = module_end, .stop = ctx->stop,
		};
		enum net_try how;

		if (bench_stopped(ctx)) {
			d->status = NET_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "interrupted");
			return;
		}
		if (module_end - mono_s() < res->duration_s + 1.0) {
			res->max_time_hit = true;
			if (d->tries) /* keep what the earlier tries found */
				return;
			d->status = NET_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not started: --net-max-time reached");
			return;
		}
		d->tries++;
		bench_progress_step(ctx, &step, 0);
		how = net_iperf_run(&t, d);
		bench_progress_step(ctx, &step, 1);
		switch (how) {
		case NET_TRY_OK:
			dir_tail(d);
			return;
		case NET_TRY_MAX_TIME:
			res->max_time_hit = true;
			return;
		case NET_TRY_STOPPED:
		case NET_TRY_FAILED:
			return;
		case NET_TRY_REFUSED:
			/* refused right after a test: the listener was reopening; else final */
			if (!server_up || d->tries >= NET_BUSY_TRIES || !nap(ctx, NET_REOPEN_WAIT_S))
				return;
			break;
		case NET_TRY_BUSY:
		case NET_TRY_TIMEOUT:
		case NET_TRY_ZERO:
			if (d->tries >= NET_BUSY_TRIES || !nap(ctx, NET_RETRY_WAIT_S))
				break;
			continue;
		}
	}
	if (d->status == NET_BUSY)
		snprintf(d->reason, sizeof(d->reason), "server busy on %u tries", d->tries);
	else if (d->tries > 1 && d->status != NET_DONE) {
		char last[sizeof(d->reason)];

		snprintf(last, sizeof(last), "%s", d->reason);
		snprintf(d->reason, sizeof(d->reason), "%u tries, last: %.120s", d->tries, last);
	}
}

static void row_status(struct net_row *row)
{
	const struct net_dir *s = &row->send, *r = &row->recv;
	const struct net_dir *both[2] = { s, r };

	row->lat_ok = 0;
	for (int k = 0; k < 2; k++)
		if (both[k]->rtt_ms.ok) {
			if (!row->lat_ok || both[k]->rtt_ms.v < row->latency_ms.v)
				row->latency_ms = both[k]->rtt_ms;
			row->lat_ok++;
		}
	if (!row->lat_ok)
		snprintf(row->lat_reason, sizeof(row->lat_reason), "no control connection (%.100s)",
			 s->reason[0] ? s->reason : r->reason);
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

/* A row that is not run: its reason, no figure. */
static void no_row(struct net_result *res, const struct net_server *s, int fam, const char *why)
{
	struct net_row *row = add_row(res, s, fam);

	if (!row)
		return;
	row->status = NET_FAILED;
	snprintf(row->reason, sizeof(row->reason), "%s", why);
	snprintf(row->lat_reason, sizeof(row->lat_reason), "not run");
}

/*
 * Lists the rows: IPv4 first, then IPv6 (as yabs prints its two tables).
 * Auto family: the built-in list gets a family only where this host can
 * use it (yabs checks connectivity per family); a server given by the user
 * gets a row saying why it was not run. --net-4 / --net-6 force a family;
 * a host without it still gets the row's reason, and nothing is sent.
 */
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
		resolve(&srv[i], &rs[i]);
	for (int fam = 4; fam <= 6; fam += 2) {
		enum mbool host = fam == 4 ? ctx->host_ipv4 : ctx->host_ipv6;

		for (unsigned i = 0; i < nsrv; i++) {
			const char *a = fam == 4 ? rs[i].v4 : rs[i].v6;
			bool want = auto_family || (fam == 4 ? o->net_4 : o->net_6);
			bool allowed = fam == 4 ? srv[i].ipv4 : srv[i].ipv6;
			bool none = !rs[i].v4[0] && !rs[i].v6[0];
			int first = srv[i].ipv4 ? 4 : 6;
			char why[160];
			struct net_row *row;

			if (!want || !allowed)
				continue;
			if (rs[i].err[0]) {
				/* one row for a name that does not resolve */
				if (fam == first || !auto_family)
					no_row(res, &srv[i], fam, rs[i].err);
				continue;
			}
			if (!a[0]) {
				if (auto_family && !(none && fam == first))
					continue;
				snprintf(why, sizeof(why), "%s has no IPv%d address (no %s record)",
					 srv[i].host, fam, fam == 4 ? "A" : "AAAA");
				no_row(res, &srv[i], fam, why);
				continue;
			}
			if (host == MB_FALSE) {
				if (auto_family && res->defaults_used)
					continue;
				snprintf(why, sizeof(why), "this host has no usable IPv%d (a global "
					 "address and a default route): not run", fam);
				no_row(res, &srv[i], fam, why);
				continue;
			}
			if (!(row = add_row(res, &srv[i], fam)))
				break;
			snprintf(row->addr, sizeof(row->addr), "%s", a);
		}
	}
	free(rs);
}

static void fmt_bytes(char *buf, size_t n, double b)
{
	if (b >= 1e9)
		snprintf(buf, n, "%.1f GB", b / 1e9);
	else
		snprintf(buf, n, "%.0f MB", b / 1e6);
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
	unsigned nsrv = 0, ndone = 0, nbusy = 0, ntests, nrun = 0;
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
	res->quick = o->net_quick;
	snprintf(res->region, sizeof(res->region), "%s", o->net_region ? o->net_region : "");
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
		for (unsigned i = 0; i < net_default_nservers; i++)
			if ((!o->net_quick || net_default_servers[i].quick) &&
			    net_region_match(&net_default_servers[i], o->net_region))
				srv[nsrv++] = net_default_servers[i];
	}
	plan_rows(ctx, res, srv, nsrv);
	free(srv);

	for (unsigned i = 0; i < res->nrows; i++)
		nrun += res->rows[i].status != NET_FAILED;
	res->planned_tests = nrun * 2;
	if (nrun) {
		char gb[32];

		/* metered plans: what is about to be sent, before the first byte */
		fmt_bytes(gb, sizeof(gb), nrun * 2 * res->duration_s * 1e9 / 8);
		bench_notice(ctx, "net: iperf3 with %u server%s (per family) x 2 directions x %.0f s "
			     "= %.0f s at full speed, %u streams (at 1 Gbit/s about %s)", nrun,
			     nrun == 1 ? "" : "s", res->duration_s, nrun * 2 * res->duration_s,
			     res->streams, gb);
	}
	for (unsigned i = 0; i < res->nrows; i++) {
		struct net_row *row = &res->rows[i];

		if (row->status == NET_FAILED)
			continue;
		if (bench_stopped(ctx))
			break;
		run_dir(ctx, res, row, false, module_end);
		if (!nap(ctx, NET_DIR_WAIT_S))
			break;
		run_dir(ctx, res, row, true, module_end);
		row_status(row);
		res->moved += row->send.moved + row->recv.moved;
	}
	run_http(ctx, res, defaults, module_end);
	for (unsigned i = 0; i < res->nrows; i++) {
		ndone += res->rows[i].status == NET_DONE;
		nbusy += res->rows[i].status == NET_BUSY;
	}
	for (unsigned i = 0; i < res->nhttp; i++)
		ndone += res->http[i].status == NET_DONE;
	ntests = res->nrows + res->nhttp;
	if (res->max_time_hit)
		bench_warn(ctx, "net: --net-max-time (%.0f s) reached: some tests were cut or not "
			   "started", res->max_time_s);
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	if (!ntests)
		return bench_outcome(out, BENCH_FAIL, "no server to test");
	if (!ndone)
		return bench_outcome(out, BENCH_FAIL, "nothing could be measured (%u of %u tests busy)",
				     nbusy, ntests);
	if (res->max_time_hit)
		return bench_outcome(out, BENCH_INCOMPLETE, "--net-max-time reached: %u of %u tests "
				     "not measured", ntests - ndone, ntests);
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
	.desc = "network (opt-in, --net): iperf3 send/receive, round trip, HTTP downloads",
#ifndef HAVE_CJSON
	.unavailable = "built without cJSON",
#endif
	.run = net_run,
};
