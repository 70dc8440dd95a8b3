/*
 * net.c — the net module (opt-in, --net): per server and family, an
 * iperf3 test sending and one receiving (-R) through the native client
 * (net_iperf_client.c), 1 s apart as yabs does; each direction's tries
 * and retries are net_dir_run.c's, the names' lookup net_resolve.c's. The
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

#define NET_DIR_WAIT_S     1.0   /* yabs: "a breather" between send and receive */

bool net_nap(const struct bench_ctx *ctx, double sec, double end_by)
{
	double end = mono_s() + sec;

	if (end > end_by)
		end = end_by;

	while (mono_s() < end) {
		if (bench_stopped(ctx))
			return false;
		usleep(50000);
	}
	return true;
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
		      const struct net_server *srv, unsigned nsrv, double module_end)
{
	const struct bench_opts *o = ctx->opts;
	bool auto_family = !o->net_4 && !o->net_6;
	struct net_resolved *rs = calloc(nsrv, sizeof(*rs));

	if (!rs) {
		bench_warn(ctx, "net: out of memory resolving the servers");
		return;
	}
	net_resolve_all(srv, nsrv, rs, module_end, ctx->stop);
	if (mono_s() >= module_end)
		res->max_time_hit = true;
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

/* "2 of 8 directions not measured, 1 of 3 HTTP downloads not measured" (the parts that apply). */
static void missing(char *buf, size_t n, unsigned dmiss, unsigned dirs, unsigned hmiss,
		    unsigned nhttp)
{
	int k = 0;

	buf[0] = '\0';
	if (dmiss)
		k = snprintf(buf, n, "%u of %u directions not measured", dmiss, dirs);
	if (hmiss && k >= 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, "%s%u of %u HTTP downloads not measured", k ? ", " : "",
			 hmiss, nhttp);
}

static enum bench_status net_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	const struct bench_opts *o = ctx->opts;
	struct net_result *res = result;
	struct net_server *srv;
	unsigned nsrv = 0, nhttp_done = 0, nbusy = 0, ndirs, nrun = 0, nurl;
	bool defaults;
	double module_end;
	const char *seed;
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
	/* the first port of each direction is drawn; VPSBENCH_NET_SEED fixes the draws (tests) */
	seed = getenv("VPSBENCH_NET_SEED");
	srand(seed ? (unsigned)strtoul(seed, NULL, 10) : (unsigned)(time(NULL) ^ getpid()));

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
	plan_rows(ctx, res, srv, nsrv, module_end);
	free(srv);

	for (unsigned i = 0; i < res->nrows; i++)
		nrun += res->rows[i].status != NET_FAILED;
	res->planned_tests = nrun * 2;
	nurl = defaults ? net_default_nurls : o->net_url.n;
	if (nrun || nurl) {
		char gb[32], ip[160] = "", web[160] = "";

		/* metered plans: what is about to be sent, before the first byte; the HTTP
		 * downloads at the same assumed 1 Gbit/s port for their whole cap */
		fmt_bytes(gb, sizeof(gb), (nrun * 2 + nurl) * res->duration_s * 1e9 / 8);
		if (nrun)
			snprintf(ip, sizeof(ip), "iperf3 with %u server%s (per family) x 2 directions x "
				 "%.0f s = %.0f s at full speed, %u streams", nrun, nrun == 1 ? "" : "s",
				 res->duration_s, nrun * 2 * res->duration_s, res->streams);
		if (nurl)
			snprintf(web, sizeof(web), "%s%u HTTP download%s x up to %.0f s, %u connections each",
				 nrun ? "; " : "", nurl, nurl == 1 ? "" : "s", res->duration_s,
				 o->net_conns.set ? (unsigned)o->net_conns.v : NET_DEFAULT_CONNS);
		bench_notice(ctx, "net: %s%s (at 1 Gbit/s, an assumed port speed, about %s)", ip, web,
			     gb);
	}
	for (unsigned i = 0; i < res->nrows; i++) {
		struct net_row *row = &res->rows[i];

		if (row->status == NET_FAILED)
			continue;
		if (bench_stopped(ctx))
			break;
		if (net_run_dir(ctx, res, row, false, module_end) &&
		    !net_nap(ctx, NET_DIR_WAIT_S, module_end))
			break;
		net_run_dir(ctx, res, row, true, module_end);
		row_status(row);
		res->moved += row->send.moved + row->recv.moved;
	}
	run_http(ctx, res, defaults, module_end);
	/* counted per direction (a row half measured is one direction missing), then per URL */
	res->dirs_done = 0;
	for (unsigned i = 0; i < res->nrows; i++) {
		const struct net_dir *d[2] = { &res->rows[i].send, &res->rows[i].recv };

		for (int k = 0; k < 2; k++) {
			res->dirs_done += d[k]->status == NET_DONE;
			nbusy += d[k]->status == NET_BUSY;
		}
	}
	for (unsigned i = 0; i < res->nhttp; i++)
		nhttp_done += res->http[i].status == NET_DONE;
	ndirs = res->nrows * 2;
	if (res->max_time_hit)
		bench_warn(ctx, "net: --net-max-time (%.0f s) reached: some tests were cut or not "
			   "started", res->max_time_s);
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	if (!ndirs && !res->nhttp)
		return bench_outcome(out, BENCH_FAIL, "no server to test");
	if (!res->dirs_done && !nhttp_done)
		return bench_outcome(out, BENCH_FAIL, "nothing could be measured (%u of %u iperf3 "
				     "directions busy%s)", nbusy, ndirs, res->nhttp ? ", no HTTP download" : "");
	if (res->dirs_done < ndirs || nhttp_done < res->nhttp) {
		char why[160];

		missing(why, sizeof(why), ndirs - res->dirs_done, ndirs, res->nhttp - nhttp_done,
			res->nhttp);
		if (res->max_time_hit)
			return bench_outcome(out, BENCH_INCOMPLETE, "--net-max-time reached: %s", why);
		return bench_outcome(out, BENCH_OK, "%s", why);
	}
	if (res->max_time_hit)
		return bench_outcome(out, BENCH_INCOMPLETE, "--net-max-time reached");
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
