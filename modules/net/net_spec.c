/*
 * net_spec.c — --net-server "host[:port[-port]][,name,location]" and the
 * checks of the --net* options, done before anything runs so a bad value
 * is one line and exit 1 with nothing sent.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net.h"

#define NET_DEFAULT_PORT 5201

static int fail(char *err, size_t n, const char *spec, const char *why)
{
	snprintf(err, n, "--net-server '%s': %s (form: host[:port[-port]][,name,location], "
		 "IPv6 as [addr])", spec, why);
	return -1;
}

static int parse_port(const char *s, size_t len, uint16_t *out)
{
	unsigned long v = 0;

	if (len == 0 || len > 5)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return -1;
	*out = (uint16_t)v;
	return 0;
}

static int parse_ports(const char *s, size_t len, struct net_server *out)
{
	const char *dash = memchr(s, '-', len);

	if (!dash)
		return parse_port(s, len, &out->port_lo) < 0 ? -1 :
			(out->port_hi = out->port_lo, 0);
	if (parse_port(s, (size_t)(dash - s), &out->port_lo) < 0 ||
	    parse_port(dash + 1, len - (size_t)(dash - s) - 1, &out->port_hi) < 0 ||
	    out->port_hi < out->port_lo)
		return -1;
	return 0;
}

/* A host name: letters, digits, '.', '-', '_' (no spaces, no shell or URL syntax). */
static bool host_name_ok(const char *h)
{
	if (!*h || strlen(h) > 253)
		return false;
	for (; *h; h++)
		if (!isalnum((unsigned char)*h) && *h != '.' && *h != '-' && *h != '_')
			return false;
	return true;
}

int net_parse_server(const char *spec, struct net_server *out, char *err, size_t n)
{
	const char *comma = strchr(spec, ','), *hp_end, *p, *ports = NULL;
	size_t hlen, plen = 0;
	struct in6_addr a6;
	struct in_addr a4;

	memset(out, 0, sizeof(*out));
	out->port_lo = out->port_hi = NET_DEFAULT_PORT;
	out->ipv4 = out->ipv6 = true;
	hp_end = comma ? comma : spec + strlen(spec);
	if (spec[0] == '[') {
		const char *close = memchr(spec, ']', (size_t)(hp_end - spec));

		if (!close)
			return fail(err, n, spec, "unbalanced '['");
		hlen = (size_t)(close - spec - 1);
		if (hlen == 0 || hlen >= sizeof(out->host))
			return fail(err, n, spec, "empty or too long address in brackets");
		memcpy(out->host, spec + 1, hlen);
		if (inet_pton(AF_INET6, out->host, &a6) != 1)
			return fail(err, n, spec, "not an IPv6 address in brackets");
		out->ipv4 = false;
		p = close + 1;
		if (p < hp_end) {
			if (*p != ':')
				return fail(err, n, spec, "expected ':port' after ']'");
			ports = p + 1;
			plen = (size_t)(hp_end - ports);
		}
	} else {
		const char *colon = memchr(spec, ':', (size_t)(hp_end - spec));

		if (memchr(spec, ']', (size_t)(hp_end - spec)))
			return fail(err, n, spec, "unbalanced ']'");
		if (colon && memchr(colon + 1, ':', (size_t)(hp_end - colon - 1)))
			return fail(err, n, spec, "an IPv6 address must be in brackets");
		hlen = (size_t)((colon ? colon : hp_end) - spec);
		if (hlen == 0 || hlen >= sizeof(out->host))
			return fail(err, n, spec, "empty or too long host");
		memcpy(out->host, spec, hlen);
		if (!host_name_ok(out->host))
			return fail(err, n, spec, "host may hold only letters, digits, '.', '-', '_'");
		if (inet_pton(AF_INET, out->host, &a4) == 1)
			out->ipv6 = false;
		if (colon) {
			ports = colon + 1;
			plen = (size_t)(hp_end - ports);
		}
	}
	if (ports && parse_ports(ports, plen, out) < 0)
		return fail(err, n, spec, "port must be N or LO-HI within 1-65535, LO <= HI");
	if (comma) {
		const char *loc = strchr(comma + 1, ',');
		size_t nlen = loc ? (size_t)(loc - comma - 1) : strlen(comma + 1);

		if (nlen == 0 || nlen >= sizeof(out->name))
			return fail(err, n, spec, "empty or too long name after ','");
		memcpy(out->name, comma + 1, nlen);
		if (loc && strlen(loc + 1) >= sizeof(out->location))
			return fail(err, n, spec, "location too long");
		if (loc)
			snprintf(out->location, sizeof(out->location), "%s", loc + 1);
	} else {
		snprintf(out->name, sizeof(out->name), "%.*s", (int)sizeof(out->name) - 1, out->host);
	}
	return 0;
}

int net_check_url(const char *url, char *err, size_t n)
{
	const char *host = !strncasecmp(url, "http://", 7) ? url + 7 :
		!strncasecmp(url, "https://", 8) ? url + 8 : NULL;

	if (!host) {
		snprintf(err, n, "--net-url '%s': only http:// and https:// URLs", url);
		return -1;
	}
	if (!*host || *host == '/' || strlen(url) >= 512 || strpbrk(url, " \t\r\n")) {
		snprintf(err, n, "--net-url '%s': needs a host, no spaces, under 512 characters", url);
		return -1;
	}
	return 0;
}

void net_server_region(const struct net_server *s, char *buf, size_t n)
{
	const char *l = s->location, *paren = strchr(l, '('), *end = paren ? paren : l + strlen(l);
	const char *start;

	while (end > l && end[-1] == ' ')
		end--;
	start = end;
	while (start > l && start[-1] != ',' && start[-1] != ' ')
		start--;
	snprintf(buf, n, "%.*s", (int)(end - start), start);
}

bool net_region_match(const struct net_server *s, const char *region)
{
	char r[32];

	if (!region || !*region)
		return true;
	net_server_region(s, r, sizeof(r));
	return r[0] && !strcasecmp(r, region);
}

/* "UK, NL, ..." once each, in list order. */
static void valid_regions(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < net_default_nservers; i++) {
		char r[32];
		bool seen = false;

		net_server_region(&net_default_servers[i], r, sizeof(r));
		for (unsigned k = 0; k < i && !seen; k++)
			seen = net_region_match(&net_default_servers[k], r);
		if (!r[0] || seen || used + strlen(r) + 3 >= n)
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", r);
	}
}

int net_check_opts(const struct bench_opts *o, char *err, size_t n)
{
	struct net_server s;

	if (!o->net && (o->net_server.n || o->net_4 || o->net_6 || o->net_streams.set ||
			o->net_time_ns.set || o->net_max_time_ns.set || o->net_url.n ||
			o->net_conns.set || o->net_quick || o->net_region)) {
		snprintf(err, n, "--net-* options need --net (nothing is sent without it)");
		return -1;
	}
	/* iperf3's "time" is whole seconds: 1.5s would silently become 1 s */
	if (o->net_time_ns.set && o->net_time_ns.v % 1000000000ULL) {
		snprintf(err, n, "--net-time: whole seconds only (iperf3 runs for a whole number "
			 "of seconds), at least 1s");
		return -1;
	}
	if (o->net_region) {
		char valid[128];
		bool any = false;

		for (unsigned i = 0; i < net_default_nservers; i++)
			any |= net_region_match(&net_default_servers[i], o->net_region);
		valid_regions(valid, sizeof(valid));
		if (!any) {
			snprintf(err, n, "--net-region '%.40s': not a region of the built-in list "
				 "(valid: %s)", o->net_region, valid);
			return -1;
		}
	}
	if (o->net_region && o->net_quick) {
		bool any = false;

		for (unsigned i = 0; i < net_default_nservers; i++)
			any |= net_default_servers[i].quick &&
			       net_region_match(&net_default_servers[i], o->net_region);
		if (!any) {
			snprintf(err, n, "--net-region '%.40s': none of --net-quick's servers is there",
				 o->net_region);
			return -1;
		}
	}
	if ((o->net_region || o->net_quick) && o->net_server.n) {
		snprintf(err, n, "--net-%s picks from the built-in list: not with --net-server",
			 o->net_region ? "region" : "quick");
		return -1;
	}
	for (unsigned i = 0; i < o->net_server.n; i++)
		if (net_parse_server(o->net_server.v[i], &s, err, n) < 0)
			return -1;
	for (unsigned i = 0; i < o->net_url.n; i++)
		if (net_check_url(o->net_url.v[i], err, n) < 0)
			return -1;
	return 0;
}
