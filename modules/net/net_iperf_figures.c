/*
 * net_iperf_figures.c — the summary figures of one iperf3 test from both
 * sides' counts, as iperf3's summary prints them: per side, that side's
 * bytes over that side's duration of stream 1. A server's count that the
 * bytes this host moved rule out is a failure, not a figure.
 */
#include <stdio.h>

#include "net_priv.h"

static double peer_first_seconds(const struct iperf_peer_results *pr, double local)
{
	for (unsigned i = 0; i < pr->n; i++)
		if (pr->s[i].id == 1 && pr->s[i].seconds > 0)
			return pr->s[i].seconds;
	return local;
}

/* The summary lines from both sides' counts; a server's impossible figure is a failure. */
enum net_try iperf_figures(struct client *c, const struct iperf_peer_results *pr, double secs,
			    const int64_t *rtx)
{
	struct net_dir *d = c->d;
	uint64_t local = 0, peer = 0, prtx = 0;
	bool prtx_ok = pr->sender_has_retransmits == 1;
	double psecs = peer_first_seconds(pr, secs);

	for (unsigned i = 0; i < c->n; i++)
		local += c->bytes[i];
	for (unsigned i = 0; i < pr->n; i++) {
		peer += (uint64_t)pr->s[i].bytes;
		if (pr->s[i].retransmits < 0)
			prtx_ok = false;
		else
			prtx += (uint64_t)pr->s[i].retransmits;
	}
	if (!c->t->reverse) {
		if (peer > local)
			return iperf_fail(d, NET_TRY_LIE, NET_FAILED, "server reports %llu bytes received, "
				    "more than the %llu sent", (unsigned long long)peer,
				    (unsigned long long)local);
		d->sender_bytes = mu64_of(local);
		d->sender_seconds = mdbl_of(secs);
		d->bytes = mu64_of(peer);
		d->seconds = mdbl_of(psecs);
		if (c->rtx_ok) {
			uint64_t sum = 0;

			for (unsigned i = 0; i < c->n; i++)
				sum += (uint64_t)rtx[i];
			d->retransmits = mu64_of(sum);
		}
	} else {
		if (local > peer)
			return iperf_fail(d, NET_TRY_LIE, NET_FAILED, "server reports %llu bytes sent, "
				    "fewer than the %llu received", (unsigned long long)peer,
				    (unsigned long long)local);
		d->sender_bytes = mu64_of(peer);
		d->sender_seconds = mdbl_of(psecs);
		d->bytes = mu64_of(local);
		d->seconds = mdbl_of(secs);
		if (prtx_ok)
			d->retransmits = mu64_of(prtx);
	}
	if (d->bytes.v == 0)
		return iperf_fail(d, NET_TRY_ZERO, NET_FAILED, "0 bytes received in %.1f s", d->seconds.v);
	d->bps = mdbl_of((double)d->bytes.v * 8 / d->seconds.v);
	d->sender_bps = mdbl_of((double)d->sender_bytes.v * 8 / d->sender_seconds.v);
	d->status = NET_DONE;
	d->reason[0] = '\0';
	return NET_TRY_OK;
}

