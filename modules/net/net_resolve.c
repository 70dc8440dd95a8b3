/*
 * net_resolve.c — the servers' addresses: both families' first address from
 * getaddrinfo, every name in its own thread at once, waited for until a
 * deadline (NET_DNS_S, never past --net-max-time's end) and the stop flag.
 * The static build's libc (musl) has no getaddrinfo_a and a blocking
 * lookup cannot be cancelled, so a lookup still running at the deadline is
 * abandoned: its thread is detached and the batch it writes into is freed
 * by whoever lets go of it last (a reference count), the thread or the
 * waiter. A literal is parsed here, never given to a thread.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "core/clock.h"
#include "net_priv.h"

#define DNS_STACK (256u << 10)   /* musl's default thread stack is 128 KiB: room for its resolver */

struct lookup {
	struct batch *b;
	char host[sizeof(((struct net_server *)0)->host)];
	atomic_bool done;            /* r is final (release/acquire) */
	bool waited;                 /* the waiter's own: still waited for */
	struct net_resolved r;
};

/* One plan's lookups; refs: the waiter's one and one per running thread. */
struct batch {
	atomic_uint refs;
	struct lookup l[];
};

static void batch_put(struct batch *b)
{
	if (atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

/* Both families' first address of host into r; r->err when none. */
static void lookup(const char *host, bool numeric, struct net_resolved *r)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc;

	if (numeric)
		hints.ai_flags = AI_NUMERICHOST;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc) {
		snprintf(r->err, sizeof(r->err), "DNS lookup of %.64s failed: %s", host,
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
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

static void *lookup_thread(void *arg)
{
	struct lookup *l = arg;

	lookup(l->host, false, &l->r);
	atomic_store_explicit(&l->done, true, memory_order_release);
	batch_put(l->b);
	return NULL;
}

static bool is_literal(const char *h)
{
	unsigned char b[16];

	return inet_pton(AF_INET, h, b) == 1 || inet_pton(AF_INET6, h, b) == 1;
}

/* Starts l's thread, detached, signals blocked (Ctrl-C stays the main thread's); 0 or an errno. */
static int start(struct lookup *l)
{
	pthread_attr_t at;
	pthread_t th;
	sigset_t all, old;
	size_t ss = 0;
	int e;

	if ((e = pthread_attr_init(&at)))
		return e;
	if (!(e = pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED)) &&
	    !pthread_attr_getstacksize(&at, &ss) && ss < DNS_STACK)
		e = pthread_attr_setstacksize(&at, DNS_STACK);
	sigfillset(&all);
	if (!e && !(e = pthread_sigmask(SIG_SETMASK, &all, &old))) {
		atomic_fetch_add(&l->b->refs, 1);
		if ((e = pthread_create(&th, &at, lookup_thread, l)))
			atomic_fetch_sub(&l->b->refs, 1);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_attr_destroy(&at);
	return e;
}

void net_resolve_all(const struct net_server *s, unsigned n, struct net_resolved *r,
		     double end_by, volatile sig_atomic_t *stop)
{
	double t0 = mono_s(), deadline = t0 + NET_DNS_S;
	struct batch *b = calloc(1, sizeof(*b) + n * sizeof(b->l[0]));
	unsigned left = 0;

	if (deadline > end_by)
		deadline = end_by;
	memset(r, 0, n * sizeof(*r));
	if (!b) {
		for (unsigned i = 0; i < n; i++)
			snprintf(r[i].err, sizeof(r[i].err), "DNS lookup of %.64s: out of memory",
				 s[i].host);
		return;
	}
	atomic_init(&b->refs, 1);
	for (unsigned i = 0; i < n; i++) {
		struct lookup *l = &b->l[i];
		int e;

		if (is_literal(s[i].host)) {
			lookup(s[i].host, true, &r[i]);
			continue;
		}
		l->b = b;
		snprintf(l->host, sizeof(l->host), "%s", s[i].host);
		atomic_init(&l->done, false);
		if ((e = start(l))) {
			snprintf(r[i].err, sizeof(r[i].err), "DNS lookup of %.64s not started: "
				 "pthread_create: %s", s[i].host, strerror(e));
			continue;
		}
		l->waited = true;
		left++;
	}
	/* every ~10 ms: the finished ones taken, the stop flag and the deadline checked */
	while (left) {
		struct timespec nap = { 0, 10 * 1000 * 1000 };
		bool stopped = stop && *stop, late = mono_s() >= deadline;

		for (unsigned i = 0; i < n; i++) {
			if (!b->l[i].waited)
				continue;
			if (atomic_load_explicit(&b->l[i].done, memory_order_acquire))
				r[i] = b->l[i].r;
			else if (stopped)
				snprintf(r[i].err, sizeof(r[i].err), "DNS lookup of %.64s interrupted",
					 s[i].host);
			else if (late)
				snprintf(r[i].err, sizeof(r[i].err), "DNS lookup of %.64s timed out "
					 "after %.0f s%s", s[i].host, deadline > t0 ? deadline - t0 : 0,
					 deadline < t0 + NET_DNS_S ? " (--net-max-time)" : "");
			else
				continue;
			b->l[i].waited = false;
			left--;
		}
		if (left)
			nanosleep(&nap, NULL);
	}
	batch_put(b);
}
