/*
 * net.h — the opt-in network module: iperf3 throughput in both directions
 * through vpsbench's own iperf3 client (the wire protocol over plain
 * sockets, no libiperf, no fork), the round trip of its control connection,
 * and HTTP downloads. Runs only with --net; nothing is sent otherwise.
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
#define NET_BUSY_TRIES     3    /* tries a direction, as yabs (net_dir_run.c: which ends are retried) */
#define NET_TL_MAX         120  /* seconds kept in a direction's timeline */
#define NET_QUICK_SERVERS  3    /* --net-quick: yabs -r's three */
#define NET_DEFAULT_STREAMS 8
#define NET_DEFAULT_TIME_S 10
#define NET_DEFAULT_MAX_TIME_S 600
#define NET_TRY_LOG_MAX    6    /* tries kept per direction, each with its end */

enum net_status {
	NET_NOT_RUN = 0,
	NET_DONE,      /* measured */
	NET_BUSY,      /* the server said busy on every try: no figure, not graded */
	NET_FAILED,    /* refused, DNS, protocol error: reason */
	NET_TIMEOUT,   /* a wait passed its deadline: the server stalled */
	NET_SKIPPED,   /* not started or cut: --net-max-time reached or interrupted */
};

/* One try of a direction, as the report keeps it. */
struct net_try_rec {
	uint16_t port;
	double seconds;           /* the try's wall time */
	char reason[96];          /* how it ended without a figure; "" = measured */
};

/*
 * One direction of one iperf3 test: send (client -> server) or receive
 * (-R), as iperf3's summary states it: the receiver line (headline, as yabs
 * reads it) and the sender line, each bytes over its own side's duration
 * of stream 1.
 */
struct net_dir {
	enum net_status status;
	struct mdbl bps;          /* receiver: bytes received * 8 / receiver seconds */
	struct mu64 bytes;        /* receiver: bytes received, all streams */
	struct mdbl seconds;      /* receiver's duration */
	struct mdbl sender_bps;   /* sender: bytes sent * 8 / sender seconds */
	struct mu64 sender_bytes;
	struct mdbl sender_seconds;
	struct mu64 retransmits;  /* sender's: TCP_INFO here (send), the server's (-R) */
	struct mdbl rtt_ms;       /* tcpi_rtt of the control connection right after connect */
	uint64_t moved;           /* bytes this host wrote or read on data streams, all tries */
	/* this host's side, per whole second of the test: bytes sent (send) or received (-R) */
	uint64_t tl_bytes[NET_TL_MAX];
	unsigned ntl;
	struct mdbl tail_ratio;   /* last third / first third of the timeline */
	enum mbool drop;          /* tail_ratio below the disk passes' drop bound */
	unsigned tries;
	uint16_t port;            /* port of the last try */
	char reason[160];
	struct net_try_rec try_log[NET_TRY_LOG_MAX];
	unsigned ntry_log;
	char note[160];           /* a figure kept with a remark ("the server's duration ... not used") */
	bool implausible;         /* a rate no local interface or path could carry: shown, never graded */
	struct mdbl cpu_share;    /* this client's CPU time over the run's wall time (1 = one CPU) */
	enum mbool cpu_bound;     /* the client itself limited the figure */
};

/* A --net-server entry as parsed (modules/net/net_spec.c). */
struct net_server {
	char host[256];           /* name or literal, brackets removed */
	uint16_t port_lo, port_hi;
	char name[64];            /* provider; default: the host */
	char location[96];        /* "" = unknown */
	bool ipv4, ipv6;          /* families this entry may use (default list: yabs's modes) */
	bool quick;               /* built-in list: one of yabs -r's three */
};

struct net_row {
	struct net_server srv;
	int family;               /* 4 or 6 */
	char addr[64];            /* numeric address tested ("" when DNS failed) */
	enum net_status status;   /* the row: DONE when any direction measured */
	char reason[192];         /* row-level failure (DNS...) */
	struct net_dir send, recv;
	struct mdbl latency_ms;   /* lowest control-connection RTT of the two directions */
	unsigned lat_ok;          /* directions that gave one (0-2) */
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
	bool quick;               /* --net-quick */
	char region[32];          /* --net-region, "" = all */
	unsigned planned_tests;   /* iperf3 directions planned (rows x 2) */
	unsigned dirs_done;       /* iperf3 directions measured */
	struct net_family {       /* [0] IPv4, [1] IPv6: learnt once, from the first connects */
		enum mbool reachable;
		char reason[128];
	} fam[2];
	uint64_t moved;           /* bytes moved by all iperf3 tests, all tries */
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

/* The built-in server's region ("UK" of "London, UK (10G)"); "" when none. */
void net_server_region(const struct net_server *s, char *buf, size_t n);

/* Whether a built-in server is kept by --net-region (case-insensitive; NULL/"" = all). */
bool net_region_match(const struct net_server *s, const char *region);

const char *net_status_name(enum net_status st);

/* "IPv6 unreachable from this host (the connect errors)": an unreachable family's directions' reason. */
void net_family_reason(int family, const struct net_family *f, char *buf, size_t n);

#endif
