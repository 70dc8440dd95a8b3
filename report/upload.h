/*
 * upload.h — the report leaving the machine: saving it locally first,
 * POSTing it with libcurl (https only, verification always on, bounded
 * retries), and keeping home paths out of it unless --include-host.
 *
 * The pure helpers are exposed for tests/test_upload.c; they need neither
 * libcurl nor the network.
 */
#ifndef VPSBENCH_UPLOAD_H
#define VPSBENCH_UPLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "core/options.h"

#define UPLOAD_MAX_BYTES  (1024u * 1024u) /* refuse a larger payload */
#define UPLOAD_MAX_TRIES  3
#define UPLOAD_MAX_REDIRS 5
#define UPLOAD_BODY_KEEP  4096            /* response bytes kept for the message */

struct bench_report;

/* NULL when uploads work in this build, else why not ("built without libcurl"). */
extern const char *const upload_unavailable;

/*
 * Checks everything --upload needs before the benchmark runs: URL schemes
 * (https, or http with --allow-http), header syntax, payload tools. On
 * error returns -1 with one line in err that never contains a header value.
 */
int upload_check_opts(const struct bench_opts *o, char *err, size_t errlen);

/* 0 when url is https:// (or http:// and allow_http); else -1 with a reason. */
int upload_url_check(const char *url, bool allow_http, char *err, size_t errlen);

/* The URL for messages: scheme://host[:port]/path, no user:password, query or fragment. */
void upload_url_display(const char *url, char *buf, size_t len);

/* "scheme://host:port" of url, lowercased scheme and host, for same-origin checks. */
int upload_url_origin(const char *url, char *buf, size_t len);

/*
 * Checks an --upload-header "Name: value": a token name, a colon, no CR,
 * LF or NUL. The error (and the redacted form) shows the name only.
 */
int upload_header_check(const char *hdr, char *err, size_t errlen);
/* "Name: <redacted>" for messages; never the value. */
void upload_header_redact(const char *hdr, char *buf, size_t len);

enum ca_kind { CA_NONE = 0, CA_FILE, CA_DIR };

struct ca_choice {
	enum ca_kind kind;
	char path[4096];
	const char *source; /* "--cacert", "SSL_CERT_FILE", "SSL_CERT_DIR", "Debian/Ubuntu", ... */
};

/*
 * Finds the CA certificates at run time: cacert (must be readable), else
 * $SSL_CERT_FILE, $SSL_CERT_DIR, then the usual bundle of each distro
 * family, all well-known paths looked up below root ("" = this machine).
 * env_file/env_dir are the variables' values (NULL = unset). Returns 0, or
 * -1 with err (cacert unreadable, or nothing found: name the paths tried).
 */
int upload_find_ca(const char *root, const char *cacert, const char *env_file,
		   const char *env_dir, struct ca_choice *ca, char *err, size_t errlen);

/* Why a try failed, as the retry rule sees it. */
enum upload_fail {
	UPF_NONE = 0,   /* the request got an HTTP answer */
	UPF_CONNECT,    /* resolve or connect failed, or timed out before connecting */
	UPF_TLS,        /* handshake or certificate verification */
	UPF_TIMEOUT,    /* timed out or stalled after connecting */
	UPF_OTHER,
};

/* True when try number tries (1-based) may be repeated: connect errors and 5xx only. */
bool upload_should_retry(enum upload_fail f, long http_status, unsigned tries);

/* Wait before try n+1 (n >= 1): 1 s, 2 s, ... scaled by unit_ms (1000 normally). */
unsigned upload_backoff_ms(unsigned n, unsigned unit_ms);

/* First line of a response body, printable ASCII only, at most len - 1 chars. */
void upload_first_line(const char *body, size_t n, char *buf, size_t len);

/* Default report name in the current directory: ./vpsbench-report-YYYYMMDD-HHMMSS.json (local time). */
void upload_default_name(time_t t, char *buf, size_t len);

/*
 * Replaces a leading home directory in path with "~" (only when followed
 * by '/' or the end). home may be NULL, "" or "/": nothing is replaced.
 * Writes into buf; returns true when it replaced.
 */
bool report_redact_path(const char *path, const char *home, char *buf, size_t len);

/* The same for every occurrence inside free text (warnings, reasons), in place. */
bool report_redact_text(char *s, size_t cap, const char *home);

/*
 * Removes the home directory ($HOME and its realpath) from every path and
 * message in the report, in place. Call once after the modules ran and
 * before rendering, unless --include-host.
 */
void report_redact_home(struct bench_report *rep, const char *home);

/*
 * The output stage for --upload: saves data (the JSON report, n bytes) to
 * opts->output or a default name unless saved_path is given, then POSTs
 * it to every --upload URL (PUT with --upload-format prom; data is then the
 * exposition text and the caller saved the JSON report as saved_path). Messages go to log (stderr), never a header
 * value. stop is polled (signals). Returns 0 when every upload got a 2xx,
 * -1 otherwise.
 */
int upload_report(const struct bench_opts *o, const char *root, const char *data, size_t n,
		  const char *saved_path, volatile sig_atomic_t *stop, FILE *log);

/* The Content-Type header line of the --upload-format body. */
const char *upload_content_type(const struct bench_opts *o);

/* Saves data with O_CREAT|O_EXCL|O_NOFOLLOW (never clobbers); -1 with a message on log. */
int upload_save(const char *path, const char *data, size_t n, FILE *log);

#endif
