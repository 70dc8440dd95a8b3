/*
 * net_dir_run.c — one direction of one row: the tries of an iperf3 test
 * (send, or receive with -R), the retry policy between them, and each
 * family's reach, learnt from its first connects.
 *
 * At most NET_BUSY_TRIES tries a direction, as yabs. Busy, a timeout, 0
 * bytes, an unexpected close, a server error or state byte: again 2 s
 * later (yabs's sleep, clamped to --net-max-time). A count the server could
 * not have (a lie) and a connect with no route are final. Every try after
 * the first goes to the next port of the server's range, wrapping (yabs
 * draws a random port every try); the first is drawn at random, as yabs's.
 * A refused port is followed at once by the next untried one; a
 * single-port server refused is final unless it answered this run (its
 * listener reopening after a test: again after 0.5 s). A try starts only
 * when its run and NET_TRY_SLACK_S fit in what is left of --net-max-time.
 *
 * A family's reach: any answer to a control connect (a refusal too) proves
 * it. When the family's first connect finds no route or no answer and
 * another server of the family is left, that one is tried once with a 2 s
 * connect deadline (no other connection is made); if it fails the same way
 * the family is unreachable and its other directions are not tried.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/module.h"
#include "core/tail_ratio.h"
#include "net_priv.h"

#define NET_RETRY_WAIT_S   2.0   /* yabs sleeps 2 s between tries */
#define NET_REOPEN_WAIT_S  0.5   /* iperf3 -s reopens its listener after a test */
#define NET_JUDGE_CONNECT_S 2.0  /* the family's second server, after its first had no answer */

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

static void log_try(struct net_dir *d, uint16_t port, double secs, enum net_try how)
{
	struct net_try_rec *r;

	if (d->ntry_log >= NET_TRY_LOG_MAX)
		return;
	r = &d->try_log[d->ntry_log++];
	r->port = port;
	r->seconds = secs;
	snprintf(r->reason, sizeof(r->reason), "%.95s", how == NET_TRY_OK ? "" : d->reason);
}

/* A direction not tried: no try, its reason. */
static void not_tried(struct net_dir *d, enum net_status st, const char *why)
{
	d->status = st;
	snprintf(d->reason, sizeof(d->reason), "%s", why);
}

/* The family's first row with a try: while its reach is unknown, the one whose connect failed. */
static const struct net_row *first_tried(const struct net_result *res, int family)
{
	for (const struct net_row *r = res->rows; r < res->rows + res->nrows; r++)
		if (r->family == family && (r->send.tries || r->recv.tries))
			return r;
	return NULL;
}

/* A row of the family after this one, to another address, still to run. */
static bool other_server_left(const struct net_result *res, const struct net_row *row)
{
	for (const struct net_row *r = row + 1; r < res->rows + res->nrows; r++)
		if (r->family == row->family && r->status != NET_FAILED && strcmp(r->addr, row->addr))
			return true;
	return false;
}

void net_family_reason(int family, const struct net_family *f, char *buf, size_t n)
{
	snprintf(buf, n, "IPv%d unreachable from this host (%.120s)", family, f->reason);
}

/*
 * What a try's end says of its family's reach; true when the family rule
 * ends the direction here (no retry). Any answer proves the family; no
 * route or no answer on the family's first connect makes it a suspect,
 * on a second server's too makes it unreachable.
 */
static bool learn_family(struct net_result *res, struct net_row *row, const struct net_dir *d,
			 enum net_try how)
{
	struct net_family *f = &res->fam[row->family == 6];
	size_t n = strlen(f->reason);

	if (f->reachable != MB_UNKNOWN || how == NET_TRY_MAX_TIME || how == NET_TRY_STOPPED)
		return false;
	if (how != NET_TRY_NO_ROUTE && how != NET_TRY_CONN_TIMEOUT) {
		f->reachable = MB_TRUE;
		f->reason[0] = '\0';
		return false;
	}
	if (!n) {
		/* no other server to ask: this one's usual retries */
		if (!other_server_left(res, row))
			return false;
		snprintf(f->reason, sizeof(f->reason), "%.50s: %.70s", row->addr, d->reason);
		return true;
	}
	snprintf(f->reason + n, sizeof(f->reason) - n, "; %.50s: %.70s", row->addr, d->reason);
	f->reachable = MB_FALSE;
	/* the directions left untried while it was a suspect say the verdict */
	for (struct net_row *r = res->rows; r < res->rows + res->nrows; r++) {
		struct net_dir *both[2] = { &r->send, &r->recv };

		for (int k = 0; r->family == row->family && k < 2; k++)
			if (both[k]->status == NET_FAILED && !both[k]->tries)
				net_family_reason(row->family, f, both[k]->reason, sizeof(both[k]->reason));
	}
	return true;
}

bool net_run_dir(const struct bench_ctx *ctx, struct net_result *res, struct net_row *row,
		 bool reverse, double module_end)
{
	struct net_dir *d = reverse ? &row->recv : &row->send;
	bool server_up = answered(res, row, reverse ? &row->send : &row->recv), judge;
	struct bench_step step = { .module = "net", .ns = (uint64_t)(res->duration_s * 1e9) };
	const struct net_family *f = &res->fam[row->family == 6];
	const struct net_row *first = first_tried(res, row->family);
	unsigned nports = (unsigned)row->srv.port_hi - row->srv.port_lo + 1;
	unsigned off = (unsigned)rand() % nports;
	enum net_try how = NET_TRY_STOPPED;
	char what[160];

	if (f->reachable == MB_FALSE) {
		net_family_reason(row->family, f, what, sizeof(what));
		not_tried(d, NET_FAILED, what);
		return false;
	}
	/* the family's first connect failed: its next server judges, not this one again */
	judge = f->reachable == MB_UNKNOWN && f->reason[0];
	if (judge && first && !strcmp(first->addr, row->addr)) {
		snprintf(what, sizeof(what), "not tried: the connect to this server found no route or "
			 "no answer; IPv%d's reach is left to the next server", row->family);
		not_tried(d, NET_FAILED, what);
		return false;
	}
	snprintf(what, sizeof(what), "iperf3 %s %s (%s, IPv%d)", reverse ? "receive from" : "send to",
		 row->srv.name, row->addr, row->family);
	step.what = what;
	for (d->tries = 0; d->tries < NET_BUSY_TRIES;) {
		struct net_test t = {
			.addr = row->addr, .family = row->family,
			.port = (uint16_t)(row->srv.port_lo + (off + d->tries) % nports),
			.reverse = reverse, .streams = res->streams,
			.duration_s = (unsigned)res->duration_s, .end_by = module_end, .stop = ctx->stop,
			.connect_s = judge && !d->tries ? NET_JUDGE_CONNECT_S : 0,
		};
		double left = module_end - mono_s(), need = res->duration_s + NET_TRY_SLACK_S, t0;

		if (bench_stopped(ctx)) {
			not_tried(d, NET_SKIPPED, "interrupted");
			return false;
		}
		if (left < need) {
			res->max_time_hit = true;
			if (d->tries) /* keep what the earlier tries found */
				break;
			d->status = NET_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not started: time cap (%.1f s left, a try "
				 "needs %.0f s)", left > 0 ? left : 0, need);
			return false;
		}
		d->tries++;
		bench_progress_step(ctx, &step, 0);
		t0 = mono_s();
		how = net_iperf_run(&t, d);
		log_try(d, t.port, mono_s() - t0, how);
		bench_progress_step(ctx, &step, 1);
		if (learn_family(res, row, d, how))
			return false;
		switch (how) {
		case NET_TRY_OK:
			dir_tail(d);
			return true;
		case NET_TRY_MAX_TIME:
			res->max_time_hit = true;
			return true;
		case NET_TRY_STOPPED:
			return true;
		case NET_TRY_LIE:
		case NET_TRY_NO_ROUTE:
			break;
		case NET_TRY_REFUSED:
			/* another listener: the range's next untried port, at once */
			if (d->tries < nports)
				continue;
			/* refused right after a test: the listener was reopening; else final */
			if (!server_up || d->tries >= NET_BUSY_TRIES ||
			    !net_nap(ctx, NET_REOPEN_WAIT_S, module_end))
				break;
			continue;
		case NET_TRY_BUSY:
		case NET_TRY_TIMEOUT:
		case NET_TRY_CONN_TIMEOUT:
		case NET_TRY_ZERO:
		case NET_TRY_FAILED:
			if (d->tries >= NET_BUSY_TRIES || !net_nap(ctx, NET_RETRY_WAIT_S, module_end))
				break;
			continue;
		}
		break;
	}
	if (d->status == NET_BUSY)
		snprintf(d->reason, sizeof(d->reason), "server busy on %u tries", d->tries);
	else if (d->tries > 1 && d->status != NET_DONE) {
		char last[sizeof(d->reason)];

		snprintf(last, sizeof(last), "%s", d->reason);
		snprintf(d->reason, sizeof(d->reason), "%u tries, last: %.120s", d->tries, last);
	}
	/* a breather is due to a server that took the last try past its connect */
	return how != NET_TRY_REFUSED && how != NET_TRY_NO_ROUTE && how != NET_TRY_CONN_TIMEOUT;
}
