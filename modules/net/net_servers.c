/*
 * net_servers.c — the built-in public iperf3 servers, as yabs ships them
 * (host, port range, provider, location with link speed, families). Data
 * only: contacted with --net and neither --net-server nor --net-url,
 * never by the tests; quick marks the three yabs -r keeps. The URLs are
 * the large files nench times with curl.
 */
#include "net.h"

#define SRV(h, lo, hi, n, l, v4, v6, q) { .host = h, .port_lo = lo, .port_hi = hi, \
	.name = n, .location = l, .ipv4 = v4, .ipv6 = v6, .quick = q }

const struct net_server net_default_servers[] = {
	SRV("lon.speedtest.clouvider.net", 5200, 5209, "Clouvider", "London, UK (10G)", true, true, true),
	SRV("iperf-ams-nl.eranium.net", 5201, 5210, "Eranium", "Amsterdam, NL (100G)", true, true, false),
	SRV("speedtest.uztelecom.uz", 5200, 5209, "Uztelecom", "Tashkent, UZ (10G)", true, true, false),
	SRV("speedtest.sin1.sg.leaseweb.net", 5201, 5210, "Leaseweb", "Singapore, SG (10G)", true, true, true),
	SRV("la.speedtest.clouvider.net", 5200, 5209, "Clouvider", "Los Angeles, CA, US (10G)", true, true, false),
	SRV("speedtest.nyc1.us.leaseweb.net", 5201, 5210, "Leaseweb", "NYC, NY, US (10G)", true, true, true),
	SRV("speedtest.sao1.edgoo.net", 9204, 9240, "Edgoo", "Sao Paulo, BR (1G)", true, true, false),
};

const unsigned net_default_nservers = sizeof(net_default_servers) / sizeof(net_default_servers[0]);

const struct net_url_def net_default_urls[] = {
	{ "http://cachefly.cachefly.net/100mb.test", "CacheFly CDN" },
	{ "https://mirror.nl.leaseweb.net/speedtest/100mb.bin", "Leaseweb, Amsterdam, NL" },
	{ "https://proof.ovh.net/files/100Mb.dat", "OVH, Roubaix, FR" },
	{ "https://speedtest.sin1.sg.leaseweb.net/100mb.bin", "Leaseweb, Singapore, SG" },
};

const unsigned net_default_nurls = sizeof(net_default_urls) / sizeof(net_default_urls[0]);
