/*
 * net_priv.h — the net module's parts: one iperf3 test in a child, TCP
 * connect latency, and the parsing of iperf3's JSON result.
 */
#ifndef VPSBENCH_NET_PRIV_H
#define VPSBENCH_NET_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net.h"

struct net_test {
	const char *addr;         /* numeric address */
	uint16_t port;
	bool reverse;             /* -R: the server sends */
	unsigned streams;
	unsigned duration_s;
	double deadline_s;        /* hard kill after this many seconds */
	volatile sig_atomic_t *stop;
};

/*
 * Runs one iperf3 client test in a forked child and fills d (status, figures,
 * reason). Returns 1 when the server said busy (retry), else 0.
 */
int net_iperf_run(const struct net_test *t, struct net_dir *d);

/* Reads iperf3's JSON (iperf3 -J) into d; 1 = server busy, 0 otherwise. */
int net_iperf_parse(const char *json, struct net_dir *d);

/*
 * Median of NET_LAT_SAMPLES TCP connects to addr:port, each cut at timeout_ms.
 * Fills row->latency_ms, lat_ok and lat_reason.
 */
void net_latency(const char *addr, int family, uint16_t port, int timeout_ms,
		 struct net_row *row);

/* One HTTP download test (net_http.c); fills h. */
struct net_http_args {
	const char *url;
	unsigned conns;
	double cap_s;
	const char *cacert;        /* NULL = libcurl's default bundle */
	volatile sig_atomic_t *stop;
};
void net_http_run(const struct net_http_args *a, struct net_http *h);

/* Steady-state bits/s from cumulative (t, bytes) samples after warm_s; < 0 when too few. */
double net_steady_bps(const double *t, const uint64_t *bytes, unsigned n, double warm_s);

#endif
