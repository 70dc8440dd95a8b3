/*
 * net_priv.h — the net module's parts: the iperf3 wire protocol (framing,
 * state bytes, deadlines: net_iperf_proto.c), its parameter and result JSON
 * (net_iperf_json.c), one iperf3 test (net_iperf_client.c), the HTTP
 * downloads (net_http.c).
 */
#ifndef VPSBENCH_NET_PRIV_H
#define VPSBENCH_NET_PRIV_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "net.h"

/* --- net_iperf_proto.c: control and data connections, every wait with a deadline --- */

/* iperf3's state bytes (one signed byte on the control connection). */
enum iperf_state {
	IPERF_TEST_START = 1,
	IPERF_TEST_RUNNING = 2,
	IPERF_TEST_END = 4,
	IPERF_PARAM_EXCHANGE = 9,
	IPERF_CREATE_STREAMS = 10,
	IPERF_SERVER_TERMINATE = 11,
	IPERF_CLIENT_TERMINATE = 12,
	IPERF_EXCHANGE_RESULTS = 13,
	IPERF_DISPLAY_RESULTS = 14,
	IPERF_DONE = 16,
	IPERF_ACCESS_DENIED = -1,
	IPERF_SERVER_ERROR = -2,
};

#define IPERF_COOKIE_LEN 37        /* 36 base32 letters and a NUL */
#define IPERF_JSON_MAX   (256u << 10) /* results of 128 streams are ~20 KiB */

/* What a wait ended with: 0 done, else one of these. */
enum io_rc {
	IO_OK = 0,
	IO_EOF,        /* the peer closed (errno-free) */
	IO_TIMEOUT,    /* the deadline passed */
	IO_STOP,       /* the run was interrupted */
	IO_ERR,        /* a system call failed: errno saved in io->err */
	IO_TOO_BIG,    /* a JSON length prefix over the limit (in io->len) */
};

/* One wait's bounds: an absolute monotonic deadline and the stop flag. */
struct io {
	double deadline;
	volatile sig_atomic_t *stop;
	int err;       /* errno of the IO_ERR */
	uint32_t len;  /* the refused JSON length of IO_TOO_BIG */
};

/* Non-blocking connect (the socket stays non-blocking); fd >= 0 or -1 and an io_rc in *rc. */
int iperf_connect(const struct sockaddr *sa, socklen_t salen, struct io *io, enum io_rc *rc);
enum io_rc iperf_write_all(int fd, const void *buf, size_t n, struct io *io);
enum io_rc iperf_read_full(int fd, void *buf, size_t n, struct io *io);
enum io_rc iperf_read_state(int fd, signed char *state, struct io *io);
/* 32-bit big-endian length, then the text (no NUL). */
enum io_rc iperf_send_json(int fd, const char *text, struct io *io);
/* *out is malloc'd and NUL-terminated on IO_OK; lengths 0 and over max are refused. */
enum io_rc iperf_recv_json(int fd, char **out, uint32_t max, struct io *io);
/* 36 random base32 letters and a NUL; 0, or -1 when no random bytes could be had. */
int iperf_make_cookie(char cookie[IPERF_COOKIE_LEN]);
/* iperf3's text for an error code it sends after SERVER_ERROR; NULL when unknown. */
const char *iperf_error_text(int32_t code);

/* --- net_iperf_json.c: parameter and result messages --- */

struct iperf_peer_stream {
	int id;
	double bytes;          /* the peer's count (sent or received) */
	double retransmits;    /* < 0: not known */
	double seconds;        /* end_time - start_time; < 0 when absent */
};

struct iperf_peer_results {
	int sender_has_retransmits; /* 1, 0, -1 (2^64-1 read as -1) */
	unsigned n;
	struct iperf_peer_stream s[NET_STREAMS_MAX];
};

/* The parameter JSON (malloc'd), or NULL when out of memory. */
char *iperf_params_json(unsigned streams, unsigned time_s, bool reverse);

struct iperf_local_stream {
	uint64_t bytes;
	int64_t retransmits;   /* -1: not a sender / not known */
	double seconds;
};
/* This side's results JSON (malloc'd), or NULL when out of memory. */
char *iperf_results_json(const struct iperf_local_stream *s, unsigned n, bool sender,
			 bool has_retransmits);

/*
 * Reads the server's results: the stream ids must be ours (1, 3, 4, ...,
 * one each) and every count a count. 0, or -1 with the reason in why.
 */
int iperf_parse_results(const char *json, unsigned streams, struct iperf_peer_results *out,
			char *why, size_t whylen);

/* Stream id of the i-th stream (0-based): 1, 3, 4, 5, ... (iperf3 skips 2). */
static inline int iperf_stream_id(unsigned i)
{
	return i == 0 ? 1 : (int)i + 2;
}

/* --- net_iperf_client.c: one test --- */

/* How a try ended, for the retry policy (net_dir_run.c). */
enum net_try {
	NET_TRY_OK = 0,
	NET_TRY_BUSY,      /* ACCESS_DENIED: retried */
	NET_TRY_TIMEOUT,   /* a wait after the connect ran out: retried */
	NET_TRY_ZERO,      /* 0 bytes received: retried */
	NET_TRY_REFUSED,   /* ECONNREFUSED: the next port of the range */
	NET_TRY_NO_ROUTE,  /* connect: ENETUNREACH, EHOSTUNREACH, EINVAL (blackhole), EACCES (prohibit) */
	NET_TRY_CONN_TIMEOUT, /* the control connection's connect had no answer: retried */
	NET_TRY_FAILED,    /* an unexpected close, a server error or state byte, ...: retried */
	NET_TRY_LIE,       /* a count or length the server could not have: not retried */
	NET_TRY_MAX_TIME,  /* --net-max-time cut it */
	NET_TRY_STOPPED,   /* interrupted */
};

struct net_test {
	const char *addr;         /* numeric address */
	int family;               /* 4 or 6 */
	uint16_t port;
	bool reverse;             /* -R: the server sends */
	unsigned streams;
	unsigned duration_s;
	double end_by;            /* absolute monotonic time: --net-max-time's end */
	double connect_s;         /* the control connection's connect deadline; 0: the default */
	volatile sig_atomic_t *stop;
};

/* Runs one iperf3 TCP test and fills d's figures, status and reason. */
enum net_try net_iperf_run(const struct net_test *t, struct net_dir *d);

/* --- one test's parts: net_iperf_client.c (set-up, results), net_iperf_data.c (the timed
 * run), net_iperf_figures.c (the summary figures) --- */

#define IPERF_BLOCK 131072        /* one send or recv */

struct client {
	const struct net_test *t;
	struct net_dir *d;
	int ctl;
	unsigned n;                   /* data streams open */
	int fd[NET_STREAMS_MAX];
	uint64_t bytes[NET_STREAMS_MAX];   /* counted while running */
	uint32_t rtx0[NET_STREAMS_MAX];    /* tcpi_total_retrans at TEST_START */
	bool rtx_ok;
	bool open;                    /* parameters sent, IPERF_DONE not: CLIENT_TERMINATE on abort */
	char *buf;                    /* one block: sent (normal) or read into (-R) */
};


/* Ends the try: d's reason and status set, how returned. */
enum net_try iperf_fail(struct net_dir *d, enum net_try how, enum net_status st,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The try's end after a wait did not complete; what names the wait. */
enum net_try iperf_io_fail(struct client *c, enum io_rc rc, const struct io *io, double limit_s,
			   const char *what);
/* A state byte other than the one awaited (server error, busy, terminate, unknown). */
enum net_try iperf_bad_state(struct client *c, signed char st, const char *when);
/* The timed run from TEST_START (t0): data moved until the duration; fills the timeline. */
enum net_try iperf_data_run(struct client *c, double t0, double *t_end);
/*
 * A server's duration is used only within [0.5x, 1.5x + 2 s] of this side's
 * own (its clock starts and stops within a round trip of ours; the 2 s
 * cover a slow results exchange on short tests); else this side's is.
 */
#define NET_PEER_SECS_MIN 0.5
#define NET_PEER_SECS_MAX 1.5
#define NET_PEER_SECS_ADD 2.0
bool net_peer_secs_near(double peer, double local);
/*
 * A headline rate is implausible above 1.25x this side's own rate (send: the
 * server cannot receive faster than this host sent; own_bps 0 = no bound) or
 * above 1.1x the interface's speed (if_bps 0 = unknown): kept, never graded.
 */
#define NET_PATH_SLACK 1.25
#define NET_IF_SLACK 1.1
bool net_rate_plausible(double bps, double own_bps, double if_bps);
/* The direction's figures from this side's counts and the server's results. */
enum net_try iperf_figures(struct client *c, const struct iperf_peer_results *pr, double secs,
			   const int64_t *rtx);

/* --- net_resolve.c, net_dir_run.c, net.c: the rows --- */

struct net_resolved {
	char v4[INET_ADDRSTRLEN], v6[INET6_ADDRSTRLEN];
	char err[128];
};
#define NET_DNS_S 10.0   /* all the lookups together, at most (and never past --net-max-time) */
/*
 * Both families' first address of each of the n servers (a literal is
 * parsed), looked up at once, each in its own thread; waited for until
 * NET_DNS_S or end_by (absolute monotonic), whichever is first, or the stop
 * flag; r[i].err says why when none (failed, timed out, interrupted).
 */
void net_resolve_all(const struct net_server *s, unsigned n, struct net_resolved *r,
		     double end_by, volatile sig_atomic_t *stop);

struct bench_ctx;
/*
 * A try's own waits beyond its run: ~11 round trips of set-up (control
 * connect, cookie, parameters, 8 stream connects one after another,
 * TEST_START) and ~4 after it (TEST_END, both results, IPERF_DONE and the
 * close): 15 round trips of 200 ms, a far server's.
 */
#define NET_TRY_SLACK_S 3.0
/*
 * One direction of one row: its tries, the retries between them and what
 * they say of the family's reach (net_dir_run.c). True when the last try
 * got past its control connect (a breather is then due to the server).
 */
bool net_run_dir(const struct bench_ctx *ctx, struct net_result *res, struct net_row *row,
		 bool reverse, double module_end);
/* Sleeps sec, never past end_by; false (at once) when the run is stopped. */
bool net_nap(const struct bench_ctx *ctx, double sec, double end_by);

/* --- net_http.c --- */

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
