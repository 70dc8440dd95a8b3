/*
 * net_resolve.c — a server's addresses: both families' first address from
 * getaddrinfo (a literal is parsed, never looked up).
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "net_priv.h"

static bool is_literal(const char *h)
{
	unsigned char b[16];

	return inet_pton(AF_INET, h, b) == 1 || inet_pton(AF_INET6, h, b) == 1;
}

/* Both families' first address; the host's own usability is decided by sysinfo, not here. */
void net_resolve(const struct net_server *s, struct net_resolved *r)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc;

	memset(r, 0, sizeof(*r));
	if (is_literal(s->host))
		hints.ai_flags = AI_NUMERICHOST;
	rc = getaddrinfo(s->host, NULL, &hints, &res);
	if (rc) {
		snprintf(r->err, sizeof(r->err), "DNS lookup of %.100s failed: %s", s->host,
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

