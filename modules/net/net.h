/*
 * net.h — the opt-in network module: iperf3 throughput (libiperf, one
 * forked child per test) in both directions and TCP connect latency per
 * server. Runs only with --net; nothing is sent otherwise.
 */
#ifndef VPSBENCH_NET_H
#define VPSBENCH_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/options.h"
#include "core/value.h"

#define NET_MAX_ROWS       48   /* servers x families */
#define NET_STREAMS_MAX    128
#define NET_BUSY_TRIES     3    /* yabs: three tries when the server is busy */
#define NET_LAT_SAMPLES    5    /* TCP connects per server, median reported */
#define NET_DEFAULT_STREAMS 8
#define NET_DEFAULT_TIME_S 10
#define NET_DEFAULT_MAX_TIME_S 600

enum net_status {
	NET_NOT_RUN = 0,
	NET_DONE,      /* measured */
	NET_BUSY,      /* the server said busy on every try: no figure, not graded */
	NET_FAILED,    /* refused, DNS, protocol error: reason */
	NET_TIMEOUT,   /* no result before the deadline: child killed */
	NET_SKIPPED,   /* not started: --net-max-time reached or interrupted */
};

/* One direction of one iperf3 test: send (client -> server) or receive (-R). */
struct net_dir {
	enum net_status status;
	struct mdbl bps;          /* end.sum_received.bits_per_second (receiver side) */
	struct mu64 bytes;        /* end.sum_received.bytes */
	struct mu64 retransmits;  /* end.sum_sent.retransmits (sender side, TCP) */
	struct mdbl seconds;      /* end.sum_received.seconds */
	unsigned tries;
	uint16_t port;            /* port of the last try */
	char reason[160];
};

/* A --net-server entry as parsed (modules/net/net_spec.c). */
struct net_server {
	char host[256];           /* name or literal, brackets removed */
	uint16_t port_lo, port_hi;
	char name[64];            /* provider; default: the host */
	char location[96];        /* "" = unknown */
	bool ipv4, ipv6;          /* families this entry may use (default list: yabs's modes) */
};

struct net_row {
	struct net_server srv;
	int family;               /* 4 or 6 */
	char addr[64];            /* numeric address tested ("" when DNS failed) */
	enum net_status status;   /* the row: DONE when any direction measured */
	char reason[192];         /* row-level failure (DNS...) */
	struct net_dir send, recv;
	struct mdbl latency_ms;   /* median TCP connect time */
	unsigned lat_ok;          /* connects that succeeded, of NET_LAT_SAMPLES */
	char lat_reason[128];
};

#define NET_MAX_URLS       16
#define NET_DEFAULT_CONNS  4
#define NET_HTTP_WARMUP_FRAC 0.2  /* steady state: after this share of the cap ... */
#define NET_HTTP_WARMUP_MIN_S 1.0 /* ... and at least this long after the first byte */

/* One HTTP download test: N parallel connections to one URL, time-capped. */
struct net_http {
	char url[512];
	enum net_status status;    /* DONE also for a capped (partial) transfer */
	char reason[192];
	unsigned conns;
	bool capped;               /* the time cap ended it after data arrived: partial, valid */
	long http_code;            /* 0 = none */
	struct mu64 bytes;         /* body bytes, all connections */
	struct mdbl seconds;       /* start to the last byte */
	struct mdbl avg_mbit_s;    /* bytes * 8 / seconds: whole transfer, DNS and connect included */
	struct mdbl steady_mbit_s; /* from the progress samples after the warm-up */
	struct mdbl dns_ms, connect_ms, tls_ms, ttfb_ms; /* median over connections */
};

struct net_result {
	unsigned streams;
	double duration_s;
	double max_time_s;
	bool defaults_used;       /* no --net-server: the built-in list */
	bool want4, want6;        /* --net-4 / --net-6 (both false = any the host has) */
	bool max_time_hit;
	unsigned nrows;
	struct net_row rows[NET_MAX_ROWS];
	unsigned nhttp;
	struct net_http http[NET_MAX_URLS];
};

/* The built-in large test files on public mirrors (net_servers.c): data, as above. */
struct net_url_def {
	const char *url, *name;
};
extern const struct net_url_def net_default_urls[];
extern const unsigned net_default_nurls;

/* The built-in public iperf3 servers (net_servers.c): data, contacted only with --net. */
extern const struct net_server net_default_servers[];
extern const unsigned net_default_nservers;

/*
 * Parses "host[:port[-port]][,name,location]" ("[v6]:port" for IPv6 literals).
 * 0, or -1 with one line in err.
 */
int net_parse_server(const char *spec, struct net_server *out, char *err, size_t errlen);

/* --net-url: http:// or https:// with a host; 0, or -1 with one line in err. */
int net_check_url(const char *url, char *err, size_t errlen);

/* Checks the --net* options before anything runs: 0, or -1 with one line in err. */
int net_check_opts(const struct bench_opts *o, char *err, size_t errlen);

const char *net_status_name(enum net_status st);

#endif
