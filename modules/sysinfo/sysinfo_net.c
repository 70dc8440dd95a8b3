/*
 * sysinfo_net.c — IPv4/IPv6 availability, detected passively: a usable
 * non-loopback address plus a default route, from /proc/net. No packet is
 * sent; "public" only says whether the address itself is globally routable
 * (a NATed VPS has a private address and still reaches the internet).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo_priv.h"

#define RTF_UP_ 0x0001
#define RTF_REJECT_ 0x0200
#define IFA_F_DADFAILED_ 0x08
#define IFA_F_TENTATIVE_ 0x40

/* Returns MB_TRUE / MB_FALSE, MB_UNKNOWN when the table is unreadable. */
static enum mbool v4_default_route(const char *root)
{
	char line[512];
	bool found = false, bad = false;
	FILE *f = si_fopen(root, "/proc/net/route");

	if (!f)
		return MB_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		char ifname[32];
		unsigned long dst, gw, flags, mask;

		if (strncmp(line, "Iface", 5) == 0)
			continue;
		if (sscanf(line, "%31s %lx %lx %lx %*s %*s %*s %lx", ifname, &dst, &gw, &flags,
			   &mask) != 5) {
			bad = true;
			continue;
		}
		if (dst == 0 && mask == 0 && (flags & RTF_UP_) && !(flags & RTF_REJECT_) &&
		    strcmp(ifname, "lo") != 0)
			found = true;
	}
	fclose(f);
	/* an unreadable table says nothing about a missing route */
	return found ? MB_TRUE : bad ? MB_UNKNOWN : MB_FALSE;
}

static bool v4_public(unsigned a, unsigned b, unsigned c)
{
	if (a == 10 || a == 127 || a == 0 || a >= 224)
		return false;
	if ((a == 172 && (b & 0xf0) == 16) || (a == 192 && b == 168))
		return false;
	if (a == 100 && (b & 0xc0) == 64) /* CGNAT 100.64/10 */
		return false;
	if (a == 169 && b == 254)
		return false;
	if ((a == 192 && b == 0 && (c == 0 || c == 2)) || (a == 198 && (b & 0xfe) == 18) ||
	    (a == 198 && b == 51 && c == 100) || (a == 203 && b == 0 && c == 113))
		return false; /* IETF, documentation, benchmarking */
	return true;
}

/* Local addresses: "|-- a.b.c.d" leaves followed by "/32 host LOCAL". */
static enum mbool v4_addresses(const char *root, enum mbool *public)
{
	char line[256], last[32] = "";
	bool any = false, pub = false;
	FILE *f = si_fopen(root, "/proc/net/fib_trie");

	*public = MB_UNKNOWN;
	if (!f)
		return MB_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		char *t = si_trim(line);
		unsigned a, b, c, d;

		if (strncmp(t, "|-- ", 4) == 0) {
			si_copy(last, sizeof(last), t + 4);
			continue;
		}
		if (strcmp(t, "/32 host LOCAL") != 0 || !last[0])
			continue;
		if (sscanf(last, "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255 || b > 255 ||
		    c > 255 || d > 255)
			continue;
		if (a == 127 || (a == 169 && b == 254))
			continue;
		any = true;
		if (v4_public(a, b, c))
			pub = true;
	}
	fclose(f);
	if (any)
		*public = mbool_of(pub);
	return mbool_of(any);
}

/* Scope-global, non-loopback, not tentative or failed addresses. */
static enum mbool v6_addresses(const char *root, enum mbool *public)
{
	char line[256];
	bool any = false, pub = false, bad = false;
	FILE *f = si_fopen(root, "/proc/net/if_inet6");

	*public = MB_UNKNOWN;
	if (!f)
		return MB_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		char addr[40], ifname[32];
		unsigned idx, plen, scope, flags;

		if (sscanf(line, "%32s %x %x %x %x %31s", addr, &idx, &plen, &scope, &flags,
			   ifname) != 6 || strlen(addr) != 32) {
			bad = true;
			continue;
		}
		if (scope != 0 || strcmp(ifname, "lo") == 0 ||
		    (flags & (IFA_F_TENTATIVE_ | IFA_F_DADFAILED_)))
			continue;
		any = true;
		/* 2000::/3 is global unicast, minus 2001:db8::/32 (documentation);
		 * fc00::/7 (ULA) is not */
		if ((addr[0] == '2' || addr[0] == '3') && strncmp(addr, "20010db8", 8) != 0)
			pub = true;
	}
	fclose(f);
	if (any)
		*public = mbool_of(pub);
	return any ? MB_TRUE : bad ? MB_UNKNOWN : MB_FALSE;
}

static enum mbool v6_default_route(const char *root)
{
	char line[512];
	bool found = false, bad = false;
	FILE *f = si_fopen(root, "/proc/net/ipv6_route");

	if (!f)
		return MB_UNKNOWN;
	while (fgets(line, sizeof(line), f)) {
		char dst[40], ifname[32];
		unsigned plen;
		unsigned long flags;

		if (sscanf(line, "%32s %x %*s %*s %*s %*s %*s %*s %lx %31s", dst, &plen, &flags,
			   ifname) != 4) {
			bad = true;
			continue;
		}
		/* the kernel's own ::/0 "unreachable" route sits on lo with RTF_REJECT */
		if (plen == 0 && strspn(dst, "0") == 32 && (flags & RTF_UP_) &&
		    !(flags & RTF_REJECT_) && strcmp(ifname, "lo") != 0)
			found = true;
	}
	fclose(f);
	return found ? MB_TRUE : bad ? MB_UNKNOWN : MB_FALSE;
}

static enum mbool both(enum mbool addr, enum mbool route)
{
	if (addr == MB_FALSE || route == MB_FALSE)
		return MB_FALSE;
	if (addr == MB_TRUE && route == MB_TRUE)
		return MB_TRUE;
	/* a default route but no address table: an address must exist for it */
	if (route == MB_TRUE && addr == MB_UNKNOWN)
		return MB_TRUE;
	return MB_UNKNOWN;
}

void si_net(const char *root, struct sys_net *net)
{
	enum mbool r4 = v4_default_route(root), r6, a4, a6;

	a4 = v4_addresses(root, &net->ipv4_public);
	net->ipv4 = both(a4, r4);
	a6 = v6_addresses(root, &net->ipv6_public);
	r6 = v6_default_route(root);
	/* no if_inet6 while /proc/net/route exists: the kernel runs without IPv6 */
	if (a6 == MB_UNKNOWN && r6 == MB_UNKNOWN && r4 != MB_UNKNOWN)
		net->ipv6 = MB_FALSE;
	else
		net->ipv6 = both(a6, r6);
	/* "public" describes a usable address; without one it is moot */
	if (net->ipv4 == MB_FALSE)
		net->ipv4_public = MB_UNKNOWN;
	if (net->ipv6 == MB_FALSE)
		net->ipv6_public = MB_UNKNOWN;
	if (si_read_line(root, "/proc/sys/net/ipv4/tcp_congestion_control", net->tcp_cc,
			 sizeof(net->tcp_cc)) < 0)
		net->tcp_cc[0] = '\0';
}
