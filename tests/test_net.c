/* test_net.c — the net module's pure parts: --net-server parsing, iperf3's
 * JSON read into figures, the built-in server list, iperf3-style units. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "modules/net/net.h"
#include "modules/net/net_priv.h"
#include "render/render.h"
#include "th.h"

TH_TEST(net_server_spec_valid)
{
	static const struct {
		const char *spec, *host, *name, *loc;
		unsigned lo, hi;
		bool v4, v6;
	} ok[] = {
		{ "198.18.0.2", "198.18.0.2", "198.18.0.2", "", 5201, 5201, true, false },
		{ "198.18.0.2:5300", "198.18.0.2", "198.18.0.2", "", 5300, 5300, true, false },
		{ "iperf.example:5200-5209,Clouvider,London, UK (10G)", "iperf.example", "Clouvider",
		  "London, UK (10G)", 5200, 5209, true, true },
		{ "[2001:db8::2]", "2001:db8::2", "2001:db8::2", "", 5201, 5201, false, true },
		{ "[2001:db8::2]:9200-9240,Lab,Rack 1", "2001:db8::2", "Lab", "Rack 1", 9200, 9240,
		  false, true },
		{ "host.example,Name", "host.example", "Name", "", 5201, 5201, true, true },
		{ "h:1-65535", "h", "h", "", 1, 65535, true, true },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct net_server s;
		char err[256] = "";

		TH_EQ_INT(net_parse_server(ok[i].spec, &s, err, sizeof(err)), 0);
		TH_EQ_STR(s.host, ok[i].host);
		TH_EQ_STR(s.name, ok[i].name);
		TH_EQ_STR(s.location, ok[i].loc);
		TH_EQ_INT(s.port_lo, ok[i].lo);
		TH_EQ_INT(s.port_hi, ok[i].hi);
		TH_EQ_INT(s.ipv4, ok[i].v4);
		TH_EQ_INT(s.ipv6, ok[i].v6);
	}
}

TH_TEST(net_server_spec_invalid)
{
	static const char *const bad[] = {
		"", ":5201", "host:", "host:0", "host:65536", "host:5210-5200", "host:52a",
		"host:1-", "host:-5", "[2001:db8::2", "2001:db8::2]", "2001:db8::2", "[198.18.0.2]",
		"[2001:db8::2]x", "[]:5201", "host,", "ho st", "host;rm", "http://host",
		"host:5201-5202-5203",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct net_server s;
		char err[256] = "";

		if (net_parse_server(bad[i], &s, err, sizeof(err)) != -1)
			th_fail(__FILE__, __LINE__, "accepted bad spec '%s'", bad[i]);
		else if (!strstr(err, "--net-server") || strchr(err, '\n'))
			th_fail(__FILE__, __LINE__, "error for '%s' is not one line naming the option: %s",
				bad[i], err);
	}
}

/* The built-in list is data: every entry must read back as a --net-server
 * spec with the same fields. It is parsed here, never contacted. */
TH_TEST(net_default_list_valid)
{
	TH_CHECK(net_default_nservers >= 5);
	for (unsigned i = 0; i < net_default_nservers; i++) {
		const struct net_server *d = &net_default_servers[i];
		struct net_server s;
		char spec[512], err[256];

		TH_CHECK(d->port_lo >= 1 && d->port_lo <= d->port_hi);
		TH_CHECK(d->name[0] && d->location[0]);
		TH_CHECK(d->ipv4 || d->ipv6);
		snprintf(spec, sizeof(spec), "%s:%u-%u,%s,%s", d->host, d->port_lo, d->port_hi,
			 d->name, d->location);
		TH_EQ_INT(net_parse_server(spec, &s, err, sizeof(err)), 0);
		TH_EQ_STR(s.host, d->host);
		TH_EQ_STR(s.name, d->name);
		TH_EQ_STR(s.location, d->location);
		TH_EQ_INT(s.port_lo, d->port_lo);
		TH_EQ_INT(s.port_hi, d->port_hi);
		/* names, not addresses: a literal would pin one family */
		TH_CHECK(strchr(d->host, '.') && !(d->host[0] >= '0' && d->host[0] <= '9'));
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(net_default_servers[k].host, d->host))
				th_fail(__FILE__, __LINE__, "duplicate host %s", d->host);
	}
}

#ifdef HAVE_CJSON
/* Trimmed from a real iperf3 3.12 -J result: the receiver's figure is taken,
 * not the sender's, and retransmits come from sum_sent. */
static const char ok_json[] =
	"{\"start\":{},\"intervals\":[],\"end\":{"
	"\"sum_sent\":{\"start\":0,\"end\":3.0,\"seconds\":3.0,\"bytes\":75000000,"
	"\"bits_per_second\":200000000.5,\"retransmits\":17,\"sender\":true},"
	"\"sum_received\":{\"start\":0,\"end\":3.04,\"seconds\":3.04,\"bytes\":72000000,"
	"\"bits_per_second\":189473684.2,\"sender\":true}}}";

TH_TEST(net_iperf_json)
{
	struct net_dir d;

	memset(&d, 0, sizeof(d));
	TH_EQ_INT(net_iperf_parse(ok_json, &d), 0);
	TH_EQ_INT(d.status, NET_DONE);
	TH_CHECK(d.bps.ok);
	TH_NEAR(d.bps.v, 189473684.2, 1e-3);
	TH_CHECK(d.bytes.ok && d.bytes.v == 72000000);
	TH_CHECK(d.retransmits.ok && d.retransmits.v == 17);
	TH_NEAR(d.seconds.v, 3.04, 1e-9);

	memset(&d, 0, sizeof(d));
	TH_EQ_INT(net_iperf_parse("{\"start\":{},\"intervals\":[],\"end\":{},\"error\":"
				  "\"the server is busy running a test. try again later\"}", &d), 1);
	TH_EQ_INT(d.status, NET_BUSY);
	TH_CHECK(!d.bps.ok);

	memset(&d, 0, sizeof(d));
	TH_EQ_INT(net_iperf_parse("{\"error\":\"unable to connect to server: Connection refused\"}",
				  &d), 0);
	TH_EQ_INT(d.status, NET_FAILED);
	TH_CHECK(strstr(d.reason, "Connection refused") != NULL);
	TH_CHECK(!d.bps.ok);

	/* a 0 figure is a failure, never a measured 0 */
	memset(&d, 0, sizeof(d));
	TH_EQ_INT(net_iperf_parse("{\"end\":{\"sum_received\":{\"bits_per_second\":0}}}", &d), 0);
	TH_EQ_INT(d.status, NET_FAILED);
	TH_CHECK(!d.bps.ok);

	memset(&d, 0, sizeof(d));
	TH_EQ_INT(net_iperf_parse("{\"end\":", &d), 0);
	TH_EQ_INT(d.status, NET_FAILED);
}
#endif

TH_TEST(net_bps_units)
{
	static const struct {
		double bps;
		const char *s;
	} c[] = {
		{ 938e6, "938 Mbits/sec" }, { 1.61e9, "1.61 Gbits/sec" }, { 21.1e6, "21.1 Mbits/sec" },
		{ 9.1e9, "9.10 Gbits/sec" }, { 512e3, "512 Kbits/sec" }, { 999.4e6, "999 Mbits/sec" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		net_fmt_bps(buf, sizeof(buf), c[i].bps);
		TH_EQ_STR(buf, c[i].s);
	}
}

/* Steady rate: the slope after the warm-up, not the average from zero. */
TH_TEST(net_http_steady)
{
	/* nothing for 0.5 s (connect), slow 1 s, then 10 MB/s = 80 Mbit/s */
	double t[40];
	uint64_t b[40];
	unsigned n = 0;

	for (int i = 0; i <= 35; i++, n++) {
		double x = i * 0.1;

		t[n] = x;
		b[n] = x < 0.5 ? 0 : x < 1.5 ? (uint64_t)((x - 0.5) * 1e6) :
			(uint64_t)(1e6 + (x - 1.5) * 1e7);
	}
	TH_NEAR(net_steady_bps(t, b, n, 1.0), 80e6, 1e3);
	/* too short after the warm-up: unknown, not a guess */
	TH_CHECK(net_steady_bps(t, b, 15, 1.0) < 0);
	/* no data at all */
	memset(b, 0, sizeof(b));
	TH_CHECK(net_steady_bps(t, b, n, 1.0) < 0);
}

TH_TEST(net_url_check)
{
	char err[256];

	TH_EQ_INT(net_check_url("http://198.18.0.2:8080/f.bin", err, sizeof(err)), 0);
	TH_EQ_INT(net_check_url("HTTPS://mirror.example/100mb.bin", err, sizeof(err)), 0);
	TH_EQ_INT(net_check_url("ftp://mirror.example/x", err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "--net-url") != NULL);
	TH_EQ_INT(net_check_url("file:///etc/passwd", err, sizeof(err)), -1);
	TH_EQ_INT(net_check_url("http://", err, sizeof(err)), -1);
	TH_EQ_INT(net_check_url("http:///x", err, sizeof(err)), -1);
	TH_EQ_INT(net_check_url("http://a b/", err, sizeof(err)), -1);
	for (unsigned i = 0; i < net_default_nurls; i++) {
		TH_EQ_INT(net_check_url(net_default_urls[i].url, err, sizeof(err)), 0);
		TH_CHECK(net_default_urls[i].name[0] != '\0');
	}
}
