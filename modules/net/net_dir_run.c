/*
 * net_dir_run.c — one direction of one row: the tries of an iperf3 test
 * (send, or receive with -R) and the retry policy between them. A try that
 * found the server busy, ran out of time or received nothing is retried up
 * to NET_BUSY_TRIES times, 2 s apart, as yabs does; refused right after
 * the server answered is the listener reopening, retried after 0.5 s.
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

static uint16_t pick_port(const struct net_server *s)
{
	return (uint16_t)(s->port_lo + (uint16_t)(rand() % (s->port_hi - s->port_lo + 1)));
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

void net_run_dir(const struct bench_ctx *ctx, struct net_result *res, struct net_row *row,
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
			if (!server_up || d->tries >= NET_BUSY_TRIES || !net_nap(ctx, NET_REOPEN_WAIT_S, module_end))
				return;
			break;
		case NET_TRY_BUSY:
		case NET_TRY_TIMEOUT:
		case NET_TRY_ZERO:
			if (d->tries >= NET_BUSY_TRIES || !net_nap(ctx, NET_RETRY_WAIT_S, module_end))
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

