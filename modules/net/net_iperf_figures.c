/*
 * net_iperf_figures.c — the summary figures of one iperf3 test from both
 * sides' counts, as iperf3's summary prints them: per side, that side's
 * bytes over that side's duration of stream 1. A server's count that the
 * bytes this host moved rule out is a failure, not a figure; a server's
 * duration far from this side's own is replaced by this side's (the row's
 * note says so); a headline rate above what this host's interface or its
 * own count allows is kept, flagged implausible and never graded.
 */
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "net_priv.h"

bool net_peer_secs_near(double peer, double local)
{
	return peer >= NET_PEER_SECS_MIN * local && peer <= NET_PEER_SECS_MAX * local + NET_PEER_SECS_ADD;
}

bool net_rate_plausible(double bps, double own_bps, double if_bps)
{
	if (own_bps > 0 && bps > NET_PATH_SLACK * own_bps)
		return false;
	return !(if_bps > 0 && bps > NET_IF_SLACK * if_bps);
}

static double peer_first_seconds(const struct iperf_peer_results *pr, double local)
{
	for (unsigned i = 0; i < pr->n; i++)
		if (pr->s[i].id == 1 && pr->s[i].seconds > 0)
			return pr->s[i].seconds;
	return local;
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr));
	return a->sa_family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
}

/*
 * The speed of the interface that holds the control connection's local
 * address, in bits/s; 0 when unknown: loopback, a server on this host (its
 * traffic never leaves through the interface), no speed, or a virtual
 * interface (no device link: veth, bridge, tun), whose speed is nominal.
 */
static double if_speed_bps(int fd, char *name, size_t n)
{
	struct sockaddr_storage ss, ps;
	socklen_t sl = sizeof(ss), pl = sizeof(ps);
	struct ifaddrs *ifs, *i, *mine = NULL;
	double bps = 0;

	name[0] = '\0';
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    getpeername(fd, (struct sockaddr *)&ps, &pl) < 0 || getifaddrs(&ifs) < 0)
		return 0;
	for (i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (same_addr(i->ifa_addr, &ps)) { /* the peer is this host */
			mine = NULL;
			break;
		}
		if (!mine && !(i->ifa_flags & IFF_LOOPBACK) && same_addr(i->ifa_addr, &ss))
			mine = i;
	}
	if ((i = mine) && strlen(i->ifa_name) < IF_NAMESIZE) {
		char path[64];
		long mbit = -1;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/net/%s/device", i->ifa_name);
		if (access(path, F_OK) == 0) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/speed", i->ifa_name);
			if ((f = fopen(path, "r"))) {
				if (fscanf(f, "%ld", &mbit) != 1)
					mbit = -1;
				fclose(f);
			}
		}
		if (mbit > 0) {
			bps = (double)mbit * 1e6;
			snprintf(name, n, "%s", i->ifa_name);
		}
	}
	freeifaddrs(ifs);
	return bps;
}

/* The headline against the bounds: flagged and said in the note when above one. */
static void check_plausible(struct client *c, double own_bps)
{
	struct net_dir *d = c->d;
	char ifn[IF_NAMESIZE];
	double if_bps = if_speed_bps(c->ctl, ifn, sizeof(ifn));
	size_t used = strlen(d->note);
	char *p = d->note + used;
	size_t left = sizeof(d->note) - used;

	if (net_rate_plausible(d->bps.v, own_bps, if_bps))
		return;
	d->implausible = true;
	if (own_bps > 0 && d->bps.v > NET_PATH_SLACK * own_bps)
		snprintf(p, left, "%s%.3g bit/s is above %.3gx this side's own %.3g bit/s: implausible, "
			 "not graded", used ? "; " : "", d->bps.v, NET_PATH_SLACK, own_bps);
	else
		snprintf(p, left, "%s%.3g bit/s is above %s's %.0f Mbit/s: implausible, not graded",
			 used ? "; " : "", d->bps.v, ifn, if_bps / 1e6);
}

/* The summary lines from both sides' counts; a server's impossible figure is a failure. */
enum net_try iperf_figures(struct client *c, const struct iperf_peer_results *pr, double secs,
			    const int64_t *rtx)
{
	struct net_dir *d = c->d;
	uint64_t local = 0, peer = 0, prtx = 0;
	bool prtx_ok = pr->sender_has_retransmits == 1;
	double psecs = peer_first_seconds(pr, secs), peer_said = psecs;

	d->note[0] = '\0';
	d->implausible = false;
	for (unsigned i = 0; i < c->n; i++)
		local += c->bytes[i];
	for (unsigned i = 0; i < pr->n; i++) {
		peer += (uint64_t)pr->s[i].bytes;
		if (pr->s[i].retransmits < 0)
			prtx_ok = false;
		else
			prtx += (uint64_t)pr->s[i].retransmits;
	}
	/* a duration from the server only near this side's own: else this side's */
	if (!net_peer_secs_near(psecs, secs))
		psecs = secs;
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
	if (psecs != peer_said)
		snprintf(d->note, sizeof(d->note), "the server's duration %.3g s is not near this side's "
			 "%.1f s: this side's used", peer_said, secs);
	/* send: the server cannot have received faster than this host sent (-R: the headline is ours) */
	check_plausible(c, c->t->reverse ? 0 : (double)local * 8 / secs);
	d->status = NET_DONE;
	d->reason[0] = '\0';
	return NET_TRY_OK;
}
