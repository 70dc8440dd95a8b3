/* test_net.c — the net module's pure parts: --net-server parsing, the iperf3
 * parameter and result messages, the built-in server list and its regions,
 * iperf3-style units. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
/* The server's results as a 3.12 server sends them in normal mode: -1 printed
 * as 2^64-1 in sender_has_retransmits and retransmits, ids 1, 3, 4. */
static const char res_312[] =
	"{\"cpu_util_total\":1.5,\"cpu_util_user\":0.1,\"cpu_util_system\":1.4,"
	"\"sender_has_retransmits\":18446744073709551615,\"congestion_used\":\"cubic\","
	"\"streams\":[{\"id\":1,\"bytes\":1000,\"retransmits\":18446744073709551615,"
	"\"jitter\":0,\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":3.04},"
	"{\"id\":3,\"bytes\":3000000000,\"retransmits\":18446744073709551615,\"jitter\":0,"
	"\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":3.05},"
	"{\"id\":4,\"bytes\":5,\"retransmits\":7,\"jitter\":0,\"errors\":0,\"packets\":0,"
	"\"start_time\":0,\"end_time\":3.0}]}";

TH_TEST(net_iperf_results)
{
	struct iperf_peer_results *pr = calloc(1, sizeof(*pr));
	char why[160];

	TH_CHECK(pr != NULL);
	if (!pr)
		return;
	TH_EQ_INT(iperf_parse_results(res_312, 3, pr, why, sizeof(why)), 0);
	TH_EQ_INT(pr->n, 3);
	TH_EQ_INT(pr->sender_has_retransmits, -1);
	TH_EQ_INT(pr->s[0].id, 1);
	TH_EQ_INT(pr->s[1].id, 3);
	TH_EQ_INT(pr->s[2].id, 4);
	/* past 2^31: valuedouble, not stock cJSON's 32-bit valueint */
	TH_NEAR(pr->s[1].bytes, 3000000000.0, 0.5);
	TH_CHECK(pr->s[0].retransmits < 0);
	TH_NEAR(pr->s[2].retransmits, 7, 0);
	TH_NEAR(pr->s[0].seconds, 3.04, 1e-9);
	/* ids 1 and 2 (a client that does not skip 2) are not this test's */
	TH_EQ_INT(iperf_parse_results("{\"sender_has_retransmits\":1,\"streams\":["
				      "{\"id\":1,\"bytes\":1,\"retransmits\":0},"
				      "{\"id\":2,\"bytes\":1,\"retransmits\":0}]}", 2, pr, why,
				      sizeof(why)), -1);
	TH_CHECK(strstr(why, "stream id 2") != NULL);
	/* 2^64-1 as a byte count is a lie, not a figure */
	TH_EQ_INT(iperf_parse_results("{\"sender_has_retransmits\":1,\"streams\":["
				      "{\"id\":1,\"bytes\":18446744073709551615,\"retransmits\":0}]}",
				      1, pr, why, sizeof(why)), -1);
	TH_CHECK(strstr(why, "not a byte count") != NULL);
	/* fewer streams than the test's, a missing key, not JSON */
	TH_EQ_INT(iperf_parse_results("{\"sender_has_retransmits\":1,\"streams\":["
				      "{\"id\":1,\"bytes\":1,\"retransmits\":0}]}", 2, pr, why,
				      sizeof(why)), -1);
	TH_CHECK(strstr(why, "1 of the test's 2") != NULL);
	TH_EQ_INT(iperf_parse_results("{\"sender_has_retransmits\":1,\"streams\":["
				      "{\"id\":1,\"retransmits\":0}]}", 1, pr, why, sizeof(why)), -1);
	TH_CHECK(strstr(why, "'bytes'") != NULL);
	TH_EQ_INT(iperf_parse_results("{\"streams\":", 1, pr, why, sizeof(why)), -1);
	free(pr);
}

/* The parameters: flags only when on, as true (presence alone means on up to 3.17). */
TH_TEST(net_iperf_params)
{
	char *n = iperf_params_json(8, 10, false), *r = iperf_params_json(1, 3, true);

	TH_CHECK(n && r);
	if (!n || !r)
		goto out;
	TH_CHECK(strstr(n, "\"parallel\":8") && strstr(n, "\"time\":10") && strstr(n, "\"tcp\":true"));
	TH_CHECK(strstr(n, "\"len\":131072") && strstr(n, "\"omit\":0"));
	TH_CHECK(!strstr(n, "reverse"));
	TH_CHECK(strstr(r, "\"reverse\":true") && strstr(r, "\"parallel\":1"));
out:
	free(n);
	free(r);
}

TH_TEST(net_iperf_ids)
{
	TH_EQ_INT(iperf_stream_id(0), 1);
	TH_EQ_INT(iperf_stream_id(1), 3);
	TH_EQ_INT(iperf_stream_id(7), 9);
}

TH_TEST(net_regions)
{
	char r[32];

	for (unsigned i = 0; i < net_default_nservers; i++) {
		net_server_region(&net_default_servers[i], r, sizeof(r));
		TH_CHECK(strlen(r) == 2);
		TH_CHECK(net_region_match(&net_default_servers[i], r));
	}
	net_server_region(&net_default_servers[4], r, sizeof(r)); /* Los Angeles, CA, US (10G) */
	TH_EQ_STR(r, "US");
	TH_CHECK(net_region_match(&net_default_servers[0], "uk"));
	TH_CHECK(!net_region_match(&net_default_servers[0], "US"));
	TH_CHECK(net_region_match(&net_default_servers[0], NULL));
}

TH_TEST(net_ms_format)
{
	char b[32];

	net_fmt_ms(b, sizeof(b), 1234.5);
	TH_EQ_STR(b, "1234.5 ms"); /* not "1.23e+03 ms" */
	net_fmt_ms(b, sizeof(b), 0.04);
	TH_EQ_STR(b, "0.04 ms");
	net_fmt_bytes(b, sizeof(b), 1250000000.0);
	TH_EQ_STR(b, "1.25 GB");
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

/* Huge, zero and not-a-number figures stay short and in a unit (a lying server's 1e308). */
TH_TEST(net_fmt_extremes)
{
	char b[32];

	net_fmt_bps(b, sizeof(b), 2.3689428992e19);
	TH_EQ_STR(b, "2.37e+19 bits/sec"); /* not "23689429 Tbits/sec" */
	net_fmt_bps(b, sizeof(b), 999.4e12);
	TH_EQ_STR(b, "999 Tbits/sec");
	net_fmt_bps(b, sizeof(b), 1e308);
	TH_EQ_STR(b, "1e+308 bits/sec");
	net_fmt_bps(b, sizeof(b), 0);
	TH_EQ_STR(b, "0.00 bits/sec");
	net_fmt_bps(b, sizeof(b), NAN);
	TH_EQ_STR(b, "unknown");
	net_fmt_bps(b, sizeof(b), INFINITY);
	TH_EQ_STR(b, "unknown");
	net_fmt_bytes(b, sizeof(b), 1e308);
	TH_EQ_STR(b, "1e+308 B");
	net_fmt_bytes(b, sizeof(b), 4.17e15);
	TH_EQ_STR(b, "4.17 PB");
	net_fmt_bytes(b, sizeof(b), 0);
	TH_EQ_STR(b, "0 B");
	net_fmt_bytes(b, sizeof(b), NAN);
	TH_EQ_STR(b, "unknown");
	net_fmt_ms(b, sizeof(b), 1e300);
	TH_EQ_STR(b, "1e+300 ms");
	net_fmt_ms(b, sizeof(b), NAN);
	TH_EQ_STR(b, "unknown");
}

/* The server's duration: accepted within [0.5x, 1.5x + 2 s] of this side's, edges included. */
TH_TEST(net_peer_duration_window)
{
	TH_CHECK(net_peer_secs_near(10.0, 10.0));
	TH_CHECK(net_peer_secs_near(5.0, 10.0));          /* 0.5x */
	TH_CHECK(!net_peer_secs_near(4.999999, 10.0));
	TH_CHECK(net_peer_secs_near(17.0, 10.0));         /* 1.5x + 2 */
	TH_CHECK(!net_peer_secs_near(17.000001, 10.0));
	TH_CHECK(!net_peer_secs_near(1e-9, 10.0));
	TH_CHECK(!net_peer_secs_near(80000, 10.0));
	TH_CHECK(net_peer_secs_near(3.5, 1.0));           /* a 1 s test: 0.5 .. 3.5 */
	TH_CHECK(!net_peer_secs_near(3.6, 1.0));
	TH_CHECK(!net_peer_secs_near(NAN, 10.0));
}

/* Implausible: above 1.25x this side's own rate, or 1.1x the interface's speed; 0 = no bound. */
TH_TEST(net_rate_bound)
{
	TH_CHECK(net_rate_plausible(1.25e9, 1e9, 0));      /* the edge itself */
	TH_CHECK(!net_rate_plausible(1.2500001e9, 1e9, 0));
	TH_CHECK(net_rate_plausible(1.1e9, 0, 1e9));       /* 1 Gbit/s port, edge */
	TH_CHECK(!net_rate_plausible(1.1000001e9, 0, 1e9));
	TH_CHECK(!net_rate_plausible(1.2e9, 1e9, 1e9));    /* within own, above the port */
	TH_CHECK(net_rate_plausible(2.37e19, 0, 0));       /* no bound known: nothing to say */
	TH_CHECK(!net_rate_plausible(2.37e19, 9.4e8, 0));  /* the 1e-9 s lie, had it been used */
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

/* The text report names a client CPU-bound direction, measured ones only. */
TH_TEST(net_cpu_bound_line)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct render_style st = { false };
	struct net_row *row;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->net.nrows = 1;
	row = &rep->net.rows[0];
	row->family = 4;
	row->status = NET_DONE;
	row->send = (struct net_dir){ .status = NET_DONE, .bps = mdbl_of(9.4e9),
		.cpu_share = mdbl_of(0.97), .cpu_bound = MB_TRUE };
	row->recv = (struct net_dir){ .status = NET_FAILED, .cpu_share = mdbl_of(1.5),
		.cpu_bound = MB_TRUE };
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (f) {
		text_net(f, rep, &st);
		fclose(f);
		TH_CHECK(strstr(buf, "   send: client CPU-bound: 97% of a CPU") != NULL);
		TH_CHECK(strstr(buf, "receive: client CPU-bound") == NULL);
	}
	free(buf);
	free(rep);
}
