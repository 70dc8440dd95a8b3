/*
 * text_net.c — the net section: yabs's iperf3 table (provider, location,
 * send, receive, latency), one table per family, one row per server; a
 * row that was not measured says why underneath, a figure kept with a note
 * (the server's duration not used; "!" implausible, not graded) too.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"

static void cell(char *buf, size_t n, const struct net_dir *d)
{
	if (d->status == NET_DONE) {
		net_fmt_bps(buf, n, d->bps.v);
		/* "!": a rate no interface or count here allows; the line below says why */
		if (d->implausible && strlen(buf) + 1 < n)
			strcat(buf, "!");
	} else
		snprintf(buf, n, "%s", net_status_name(d->status));
}

/* Graded figure and its tier; nothing when not graded (busy, failed, not run). */
static void grade_line(FILE *f, const struct render_style *st, const struct grade_result *g,
		       const char *metric, const char *label)
{
	const struct grade *x = grade_get(g, metric);
	int used;

	if (!x)
		return;
	used = fprintf(f, " %s: %.0f Mbit/s", label, x->value);
	text_grade_tag(f, st, g, metric, used > 0 ? (size_t)used : 0, 1);
}

static void ms_str(char *buf, struct mdbl v)
{
	if (v.ok)
		snprintf(buf, 24, "%.1f ms", v.v);
	else
		snprintf(buf, 24, "n/a");
}

/* A figure kept with a remark (the server's duration not used, implausible: never graded). */
static void note_line(FILE *f, const char *dir, const struct net_dir *d)
{
	if (d->status == NET_DONE && d->note[0])
		fprintf(f, "   %s%s: %s\n", dir, d->implausible ? " (!)" : "", d->note);
}

/* The disk passes' drop flag on a direction's per-second timeline. */
static void drop_line(FILE *f, const char *dir, const struct net_dir *d)
{
	if (d->drop == MB_TRUE)
		fprintf(f, "   %s: speed fell during the test (last third at %.0f%% of the first "
			"third: a policer after a burst?)\n", dir, d->tail_ratio.v * 100);
}

/* The client's own CPU limited a measured direction: its figure is this host's, not the path's. */
static void cpu_line(FILE *f, const char *dir, const struct net_dir *d)
{
	if (d->status == NET_DONE && d->cpu_bound == MB_TRUE && d->cpu_share.ok)
		fprintf(f, "   %s: client CPU-bound: %.0f%% of a CPU (this host's limit, not the "
			"path's)\n", dir, d->cpu_share.v * 100);
}

void text_net(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct net_result *r = &rep->net;

	for (int fam = 4; fam <= 6; fam += 2) {
		const struct net_family *fr = &r->fam[fam == 6];
		char title[96], unreach[192] = "";
		unsigned untried = 0;
		bool any = false;

		for (unsigned i = 0; i < r->nrows; i++)
			any |= r->rows[i].family == fam;
		if (!any)
			continue;
		snprintf(title, sizeof(title), "iperf3 Network Speed Tests (IPv%d, %u streams, %.0f s)",
			 fam, r->streams, r->duration_s);
		text_heading(f, st, title);
		if (fr->reachable == MB_FALSE)
			net_family_reason(fam, fr, unreach, sizeof(unreach));
		fprintf(f, " %-15s | %-26s | %-15s | %-15s | %-10s | %s\n", "Provider",
			"Location (Link)", "Send Speed", "Recv Speed", "Latency", "Data");
		fprintf(f, " %-15s | %-26s | %-15s | %-15s | %-10s | %s\n", "-----", "-----", "----",
			"----", "----", "----");
		for (unsigned i = 0; i < r->nrows; i++) {
			const struct net_row *row = &r->rows[i];
			char s[32], v[32], lat[32], data[24];

			if (row->family != fam)
				continue;
			cell(s, sizeof(s), &row->send);
			cell(v, sizeof(v), &row->recv);
			if (row->status == NET_FAILED && row->send.status == NET_NOT_RUN)
				snprintf(s, sizeof(s), "failed");
			if (row->latency_ms.ok)
				net_fmt_ms(lat, sizeof(lat), row->latency_ms.v);
			else
				snprintf(lat, sizeof(lat), "unknown");
			net_fmt_bytes(data, sizeof(data), (double)(row->send.moved + row->recv.moved));
			fprintf(f, " %-15.15s | %-26.26s | %-15s | %-15s | %-10s | %s\n", row->srv.name,
				row->srv.location[0] ? row->srv.location : row->srv.host, s, v, lat, data);
			note_line(f, "send", &row->send);
			note_line(f, "receive", &row->recv);
			drop_line(f, "send", &row->send);
			drop_line(f, "receive", &row->recv);
			cpu_line(f, "send", &row->send);
			cpu_line(f, "receive", &row->recv);
			/* the family's verdict once, under its table, not on every row */
			if (unreach[0] && !strcmp(row->reason, unreach))
				untried++;
			else if (row->status != NET_DONE)
				fprintf(f, "   %s: %s\n", net_status_name(row->status), row->reason);
			else if (row->send.status != NET_DONE || row->recv.status != NET_DONE)
				fprintf(f, "   %s: %s\n", row->send.status != NET_DONE ? "send" : "receive",
					row->send.status != NET_DONE ? row->send.reason :
					row->recv.reason);
		}
		if (unreach[0])
			fprintf(f, " %s: %u server%s not tried\n", unreach, untried, untried == 1 ? "" : "s");
	}
	if (r->nrows) {
		char data[24];

		net_fmt_bytes(data, sizeof(data), (double)r->moved);
		fprintf(f, " Data moved by iperf3 (all rows, both directions, every try): %s\n", data);
	}
	if (r->nhttp) {
		char title[96];

		snprintf(title, sizeof(title), "HTTP downloads (cap %.0f s)", r->duration_s);
		text_heading(f, st, title);
	}
	for (unsigned i = 0; i < r->nhttp; i++) {
		const struct net_http *h = &r->http[i];
		char avg[32], steady[32], t[4][24];

		fprintf(f, " %s\n", h->url);
		if (h->status != NET_DONE) {
			fprintf(f, "   %s: %s\n", net_status_name(h->status), h->reason);
			continue;
		}
		net_fmt_bps(avg, sizeof(avg), h->avg_mbit_s.v * 1e6);
		if (h->steady_mbit_s.ok)
			net_fmt_bps(steady, sizeof(steady), h->steady_mbit_s.v * 1e6);
		else
			snprintf(steady, sizeof(steady), "unknown");
		fprintf(f, "   %u conn: average %s, steady %s, %.1f MB in %.1f s%s\n", h->conns, avg,
			steady, (double)h->bytes.v / 1e6, h->seconds.v, h->capped ? " (partial: cap)" : "");
		ms_str(t[0], h->dns_ms);
		ms_str(t[1], h->connect_ms);
		ms_str(t[2], h->tls_ms);
		ms_str(t[3], h->ttfb_ms);
		fprintf(f, "   DNS %s, connect %s, TLS %s, first byte %s\n", t[0], t[1], t[2], t[3]);
	}
	grade_line(f, st, &rep->grade, "net_send_mbit_s", "Send, best server");
	grade_line(f, st, &rep->grade, "net_recv_mbit_s", "Receive, best server");
}
