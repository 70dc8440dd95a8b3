/*
 * upload.c — saving and POSTing the JSON report, and keeping the home
 * directory out of reports. libcurl is optional: without it --upload is
 * refused before the run with "unavailable: built without libcurl".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/phase.h"
#include "report.h"
#include "upload.h"

#ifdef HAVE_LIBCURL
#include <curl/curl.h>
const char *const upload_unavailable = NULL;
#else
const char *const upload_unavailable = "built without libcurl";
#endif

/* ---------------------------------------------------------------- URLs */

static bool has_prefix_ci(const char *s, const char *p)
{
	return strncasecmp(s, p, strlen(p)) == 0;
}

/* Splits url into scheme, authority (without user info) and path; -1 if malformed. */
static int url_split(const char *url, const char **sch, size_t *schn, const char **auth,
		     size_t *authn, const char **path, size_t *pathn)
{
	const char *p = strstr(url, "://"), *a, *end, *at;

	if (!p || p == url)
		return -1;
	*sch = url;
	*schn = (size_t)(p - url);
	a = p + 3;
	end = a + strcspn(a, "/?#");
	at = NULL;
	for (const char *q = a; q < end; q++)
		if (*q == '@')
			at = q;
	if (at)
		a = at + 1;
	if (end == a)
		return -1;
	*auth = a;
	*authn = (size_t)(end - a);
	*path = end;
	*pathn = strcspn(end, "?#");
	return 0;
}

int upload_url_check(const char *url, bool allow_http, char *err, size_t errlen)
{
	const char *s, *a, *p;
	size_t sn, an, pn;
	char shown[512];

	upload_url_display(url, shown, sizeof(shown));
	for (const char *q = url; *q; q++) {
		if ((unsigned char)*q <= ' ' || (unsigned char)*q == 0x7f) {
			snprintf(err, errlen, "--upload %s: the URL contains a space or control character",
				 shown);
			return -1;
		}
	}
	if (url_split(url, &s, &sn, &a, &an, &p, &pn) < 0) {
		snprintf(err, errlen, "--upload '%s': not a URL; expected https://host/path", shown);
		return -1;
	}
	if (has_prefix_ci(url, "https://"))
		return 0;
	if (has_prefix_ci(url, "http://")) {
		if (allow_http)
			return 0;
		snprintf(err, errlen, "--upload %s: plain http is refused (the report would travel "
			 "unencrypted); use https:// or add --allow-http", shown);
		return -1;
	}
	snprintf(err, errlen, "--upload %s: only https:// URLs are accepted", shown);
	return -1;
}

void upload_url_display(const char *url, char *buf, size_t len)
{
	const char *s, *a, *p;
	size_t sn, an, pn;

	if (url_split(url, &s, &sn, &a, &an, &p, &pn) < 0) {
		snprintf(buf, len, "(not a URL)");
		return;
	}
	snprintf(buf, len, "%.*s://%.*s%.*s", (int)sn, s, (int)an, a, (int)pn, p);
}

int upload_url_origin(const char *url, char *buf, size_t len)
{
	const char *s, *a, *p, *colon;
	size_t sn, an, pn, hn;
	char scheme[16];
	const char *port;

	if (url_split(url, &s, &sn, &a, &an, &p, &pn) < 0 || sn >= sizeof(scheme))
		return -1;
	for (size_t i = 0; i < sn; i++)
		scheme[i] = (char)tolower((unsigned char)s[i]);
	scheme[sn] = 0;
	/* [v6]:port or host:port */
	colon = NULL;
	if (a[0] == '[') {
		const char *rb = memchr(a, ']', an);

		if (!rb)
			return -1;
		if (rb + 1 < a + an && rb[1] == ':')
			colon = rb + 1;
	} else {
		colon = memchr(a, ':', an);
	}
	hn = colon ? (size_t)(colon - a) : an;
	if (colon && colon + 1 < a + an)
		port = colon + 1;
	else
		port = NULL;
	if (port) {
		int w = snprintf(buf, len, "%s://%.*s:%.*s", scheme, (int)hn, a,
				 (int)(an - hn - 1), port);
		if (w < 0 || (size_t)w >= len)
			return -1;
	} else {
		int w = snprintf(buf, len, "%s://%.*s:%s", scheme, (int)hn, a,
				 strcmp(scheme, "http") == 0 ? "80" : "443");
		if (w < 0 || (size_t)w >= len)
			return -1;
	}
	for (char *q = buf; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	return 0;
}

/* ------------------------------------------------------------- headers */

static bool is_tchar(int c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

int upload_header_check(const char *hdr, char *err, size_t errlen)
{
	const char *colon = strchr(hdr, ':');
	size_t n = colon ? (size_t)(colon - hdr) : 0;

	for (size_t i = 0; i < n; i++) {
		if (!is_tchar((unsigned char)hdr[i])) {
			n = 0;
			break;
		}
	}
	if (!colon || n == 0) {
		snprintf(err, errlen, "--upload-header: expected 'Name: value' with a name made of "
			 "letters, digits and -_. (the value is not shown)");
		return -1;
	}
	if (strpbrk(colon, "\r\n")) {
		snprintf(err, errlen, "--upload-header %.*s: the value contains a line break "
			 "(the value is not shown)", (int)(n > 64 ? 64 : n), hdr);
		return -1;
	}
	return 0;
}

void upload_header_redact(const char *hdr, char *buf, size_t len)
{
	const char *colon = strchr(hdr, ':');
	size_t n = colon ? (size_t)(colon - hdr) : 0;

	if (n > 64)
		n = 64;
	snprintf(buf, len, "%.*s: <redacted>", (int)n, hdr);
}

int upload_check_opts(const struct bench_opts *o, char *err, size_t errlen)
{
	if (!o->upload.n)
		return 0;
	if (upload_unavailable) {
		snprintf(err, errlen, "--upload: unavailable: %s", upload_unavailable);
		return -1;
	}
	for (unsigned i = 0; i < o->upload.n; i++)
		if (upload_url_check(o->upload.v[i], o->allow_http, err, errlen) < 0)
			return -1;
	for (unsigned i = 0; i < o->upload_header.n; i++)
		if (upload_header_check(o->upload_header.v[i], err, errlen) < 0)
			return -1;
	if (o->cacert && access(o->cacert, R_OK) < 0) {
		snprintf(err, errlen, "--cacert %s: %s", o->cacert, strerror(errno));
		return -1;
	}
	return 0;
}

/* --------------------------------------------------------- CA location */

static const struct {
	const char *path;
	const char *who;
} ca_bundles[] = {
	{ "/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu" },
	{ "/etc/pki/tls/certs/ca-bundle.crt", "RHEL/CentOS" },
	{ "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "RHEL/CentOS" },
	{ "/etc/ssl/certs/ca-bundle.crt", "CentOS 7" },
	{ "/etc/ssl/cert.pem", "Alpine" },
	{ "/etc/ssl/ca-bundle.pem", "openSUSE" },
	{ "/etc/ca-certificates/extracted/tls-ca-bundle.pem", "Arch" },
	{ "/etc/pki/tls/cacert.pem", "OpenELEC" },
};

static bool readable_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	       access(p, R_OK) == 0;
}

static bool readable_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode) && access(p, R_OK | X_OK) == 0;
}

static int ca_set(struct ca_choice *ca, enum ca_kind k, const char *path, const char *src)
{
	int w = snprintf(ca->path, sizeof(ca->path), "%s", path);

	if (w < 0 || (size_t)w >= sizeof(ca->path))
		return -1;
	ca->kind = k;
	ca->source = src;
	return 0;
}

int upload_find_ca(const char *root, const char *cacert, const char *env_file,
		   const char *env_dir, struct ca_choice *ca, char *err, size_t errlen)
{
	char p[PATH_MAX];

	memset(ca, 0, sizeof(*ca));
	if (!root)
		root = "";
	if (cacert) {
		if (!readable_file(cacert)) {
			snprintf(err, errlen, "--cacert %s: %s", cacert,
				 access(cacert, R_OK) < 0 ? strerror(errno) : "not a non-empty file");
			return -1;
		}
		return ca_set(ca, CA_FILE, cacert, "--cacert");
	}
	if (env_file && *env_file && readable_file(env_file))
		return ca_set(ca, CA_FILE, env_file, "SSL_CERT_FILE");
	if (env_dir && *env_dir && readable_dir(env_dir))
		return ca_set(ca, CA_DIR, env_dir, "SSL_CERT_DIR");
	for (size_t i = 0; i < sizeof(ca_bundles) / sizeof(ca_bundles[0]); i++) {
		int w = snprintf(p, sizeof(p), "%s%s", root, ca_bundles[i].path);

		if (w < 0 || (size_t)w >= sizeof(p))
			continue;
		if (readable_file(p))
			return ca_set(ca, CA_FILE, p, ca_bundles[i].who);
	}
	snprintf(err, errlen, "no CA certificates found (SSL_CERT_FILE, SSL_CERT_DIR, "
		 "%s/etc/ssl/certs/ca-certificates.crt and the RHEL, Alpine, openSUSE and Arch "
		 "bundles); give --cacert FILE", root);
	return -1;
}

/* ------------------------------------------------------- retry, output */

bool upload_should_retry(enum upload_fail f, long http_status, unsigned tries)
{
	if (tries >= UPLOAD_MAX_TRIES)
		return false;
	if (f == UPF_CONNECT)
		return true;
	return f == UPF_NONE && http_status >= 500 && http_status <= 599;
}

unsigned upload_backoff_ms(unsigned n, unsigned unit_ms)
{
	if (n < 1)
		n = 1;
	if (n > 8)
		n = 8;
	return unit_ms << (n - 1);
}

void upload_first_line(const char *body, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		unsigned char c = (unsigned char)body[i];

		if (c == '\n' || c == '\r')
			break;
		buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	buf[o] = 0;
}

const char *upload_content_type(const struct bench_opts *o)
{
	/* 0.0.4 is the text format a Pushgateway expects */
	return o->upload_format.v == UPFMT_PROM ? "Content-Type: text/plain; version=0.0.4" :
	       "Content-Type: application/json";
}

void upload_default_name(time_t t, char *buf, size_t len)
{
	struct tm tm;
	char stamp[32];

	if (!localtime_r(&t, &tm) || strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof(stamp), "%lld", (long long)t);
	snprintf(buf, len, "./vpsbench-report-%s.json", stamp);
}

int upload_save(const char *path, const char *data, size_t n, FILE *log)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t off = 0;

	if (fd < 0) {
		fprintf(log, "vpsbench: saving the report to %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (off < n) {
		ssize_t w = write(fd, data + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(log, "vpsbench: writing %s: %s\n", path,
				w < 0 ? strerror(errno) : "short write");
			goto fail;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		fd = -1;
		fprintf(log, "vpsbench: closing %s: %s\n", path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (unlink(path) < 0)
		fprintf(log, "vpsbench: removing the partial %s: %s\n", path, strerror(errno));
	return -1;
}

/* ------------------------------------------------------------- privacy */

/* Length of home without trailing slashes, 0 when it must not be used. */
static size_t home_len(const char *home)
{
	size_t n;

	if (!home || home[0] != '/')
		return 0;
	n = strlen(home);
	while (n > 1 && home[n - 1] == '/')
		n--;
	return n > 1 ? n : 0;
}

static bool path_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '~' || c == '+';
}

bool report_redact_path(const char *path, const char *home, char *buf, size_t len)
{
	size_t hl = home_len(home);

	if (hl && strncmp(path, home, hl) == 0 && (path[hl] == '/' || path[hl] == 0)) {
		snprintf(buf, len, "~%s", path + hl);
		return true;
	}
	snprintf(buf, len, "%s", path);
	return false;
}

bool report_redact_text(char *s, size_t cap, const char *home)
{
	size_t hl = home_len(home), n;
	char h[PATH_MAX];
	bool any = false;
	char *p = s;

	if (!hl || hl >= sizeof(h) || !cap)
		return false;
	memcpy(h, home, hl);
	h[hl] = 0;
	while ((p = strstr(p, h)) != NULL) {
		unsigned char after = (unsigned char)p[hl];
		bool start_ok = p == s || !path_char((unsigned char)p[-1]);
		/* the home itself, not /home/alice2 */
		bool end_ok = after == '/' || !path_char(after);

		if (!start_ok || !end_ok) {
			p++;
			continue;
		}
		n = strlen(p + hl);
		p[0] = '~';
		memmove(p + 1, p + hl, n + 1);
		any = true;
		p++;
	}
	return any;
}

#define REDACT(field, h) report_redact_text((field), sizeof(field), (h))

static char rand_dirs[RAND_MAX_RESULTS][PATH_MAX];

static void redact_one(struct bench_report *rep, const char *h)
{
	for (int i = 0; i < MOD_COUNT; i++)
		REDACT(rep->outcome[i].reason, h);
	for (unsigned i = 0; i < rep->warn.n && i < BENCH_MAX_WARN; i++)
		REDACT(rep->warn.msg[i], h);
	for (unsigned i = 0; i < rep->sys.ndirs && i < BENCH_MAX_DIRS; i++) {
		struct sys_dir *d = &rep->sys.dirs[i];

		REDACT(d->arg, h);
		REDACT(d->fs.path, h);
		REDACT(d->fs.mountpoint, h);
	}
	for (unsigned i = 0; i < rep->seq.ndirs && i < SEQ_MAX_DIRS; i++) {
		struct seq_dir_result *d = &rep->seq.dirs[i];

		REDACT(d->dir, h);
		REDACT(d->mountpoint, h);
		REDACT(d->reason, h);
		REDACT(d->direct_reason, h);
		REDACT(d->read.reason, h);
	}
	for (unsigned i = 0; i < rep->rand.npass && i < RAND_MAX_RESULTS; i++) {
		struct rand_pass_result *r = &rep->rand.pass[i];

		/* dir points into argv: give it a redacted copy of its own */
		if (r->dir && r->dir != rand_dirs[i])
			snprintf(rand_dirs[i], sizeof(rand_dirs[i]), "%s", r->dir);
		if (r->dir) {
			REDACT(rand_dirs[i], h);
			r->dir = rand_dirs[i];
		}
		REDACT(r->reason, h);
		REDACT(r->engine_fallback, h);
		REDACT(r->engine_note, h);
		REDACT(r->direct_reason, h);
	}
	for (unsigned i = 0; i < rep->fsync.ndirs && i < FSYNC_MAX_DIRS; i++) {
		struct fsync_dir_result *d = &rep->fsync.dirs[i];

		REDACT(d->dir, h);
		REDACT(d->mountpoint, h);
		REDACT(d->reason, h);
		REDACT(d->storage.why, h);
	}
}

void report_redact_home(struct bench_report *rep, const char *home)
{
	char real[PATH_MAX];

	if (!home_len(home))
		return;
	/* the resolved form first: it may be longer (HOME=/home -> /srv/home) */
	if (realpath(home, real) && strcmp(real, home) != 0)
		redact_one(rep, real);
	redact_one(rep, home);
}

/* -------------------------------------------------------------- libcurl */

#ifdef HAVE_LIBCURL

struct body {
	char buf[UPLOAD_BODY_KEEP];
	size_t n;
};

struct try_result {
	CURLcode rc;
	long status;
	bool connected;
	char errbuf[CURL_ERROR_SIZE];
	char redirect[2048];
	struct body body;
};

struct post_cfg {
	const struct bench_opts *o;
	const struct ca_choice *ca;
	const char *data;
	size_t n;
	struct curl_slist *hdrs;  /* Content-Type, Idempotency-Key, Expect, --upload-header */
	volatile sig_atomic_t *stop;
	bool put;                 /* prom: PUT, so a Pushgateway replaces the group's series */
};

static size_t on_body(char *p, size_t sz, size_t nm, void *ud)
{
	struct body *b = ud;
	size_t n = sz * nm, room = sizeof(b->buf) - b->n;

	if (room) {
		size_t k = n < room ? n : room;

		memcpy(b->buf + b->n, p, k);
		b->n += k;
	}
	return n;
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	volatile sig_atomic_t *stop = ud;

	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return stop && *stop; /* nonzero aborts the transfer */
}

static enum upload_fail classify(const struct try_result *t)
{
	switch (t->rc) {
	case CURLE_OK:
		return UPF_NONE;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		return UPF_CONNECT;
	case CURLE_OPERATION_TIMEDOUT:
		return t->connected ? UPF_TIMEOUT : UPF_CONNECT;
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_ISSUER_ERROR:
		return UPF_TLS;
	default:
		return UPF_OTHER;
	}
}

#define SETOPT(h, opt, val)                                                          \
	do {                                                                         \
		CURLcode c_ = curl_easy_setopt((h), (opt), (val));                   \
		if (c_ != CURLE_OK) {                                                \
			snprintf(t->errbuf, sizeof(t->errbuf), "curl_easy_setopt(%s): %s", \
				 #opt, curl_easy_strerror(c_));                      \
			t->rc = c_;                                                  \
			goto out;                                                    \
		}                                                                    \
	} while (0)

/* One POST (PUT for prom) to url. Fills t; the transfer itself never follows redirects. */
static void post_once(const struct post_cfg *c, const char *url, struct try_result *t)
{
	const struct bench_opts *o = c->o;
	long conn_ms = o->connect_timeout_ns.set ? (long)(o->connect_timeout_ns.v / 1000000ULL) : 10000;
	long total_ms = o->upload_timeout_ns.set ? (long)(o->upload_timeout_ns.v / 1000000ULL) : 30000;
	curl_off_t ct = 0;
	char *loc = NULL;
	CURL *h;

	memset(t, 0, sizeof(*t));
	h = curl_easy_init();
	if (!h) {
		t->rc = CURLE_FAILED_INIT;
		snprintf(t->errbuf, sizeof(t->errbuf), "curl_easy_init failed");
		return;
	}
	SETOPT(h, CURLOPT_ERRORBUFFER, t->errbuf);
	SETOPT(h, CURLOPT_NOSIGNAL, 1L);
	SETOPT(h, CURLOPT_URL, url);
	SETOPT(h, CURLOPT_PROTOCOLS_STR, o->allow_http ? "http,https" : "https");
	SETOPT(h, CURLOPT_REDIR_PROTOCOLS_STR, "https");
	SETOPT(h, CURLOPT_FOLLOWLOCATION, 0L);
	SETOPT(h, CURLOPT_SSL_VERIFYPEER, 1L);
	SETOPT(h, CURLOPT_SSL_VERIFYHOST, 2L);
	SETOPT(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (c->ca->kind == CA_FILE) {
		SETOPT(h, CURLOPT_CAINFO, c->ca->path);
		SETOPT(h, CURLOPT_CAPATH, (char *)NULL);
	} else {
		SETOPT(h, CURLOPT_CAINFO, (char *)NULL);
		SETOPT(h, CURLOPT_CAPATH, c->ca->path);
	}
	SETOPT(h, CURLOPT_CONNECTTIMEOUT_MS, conn_ms);
	SETOPT(h, CURLOPT_TIMEOUT_MS, total_ms);
	/* a stalled collector: under 1 byte/s for 10 s */
	SETOPT(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	SETOPT(h, CURLOPT_LOW_SPEED_TIME, 10L);
	SETOPT(h, CURLOPT_USERAGENT, "vpsbench/" VPSBENCH_VERSION);
	SETOPT(h, CURLOPT_HTTPHEADER, c->hdrs);
	SETOPT(h, CURLOPT_POST, 1L);
	if (c->put)
		SETOPT(h, CURLOPT_CUSTOMREQUEST, "PUT");
	SETOPT(h, CURLOPT_POSTFIELDS, c->data);
	SETOPT(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->n);
	SETOPT(h, CURLOPT_WRITEFUNCTION, on_body);
	SETOPT(h, CURLOPT_WRITEDATA, &t->body);
	SETOPT(h, CURLOPT_NOPROGRESS, 0L);
	SETOPT(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	SETOPT(h, CURLOPT_XFERINFODATA, (void *)c->stop);

	t->rc = curl_easy_perform(h);
	if (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &t->status) != CURLE_OK)
		t->status = 0;
	if (curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &ct) == CURLE_OK)
		t->connected = ct > 0;
	if (t->status > 0)
		t->connected = true;
	if (curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc)
		snprintf(t->redirect, sizeof(t->redirect), "%s", loc);
	if (t->rc != CURLE_OK && !t->errbuf[0])
		snprintf(t->errbuf, sizeof(t->errbuf), "%s", curl_easy_strerror(t->rc));
out:
	curl_easy_cleanup(h);
}

static bool is_redirect(long s)
{
	return s == 301 || s == 302 || s == 307 || s == 308;
}

static void sleep_ms(unsigned ms, volatile sig_atomic_t *stop)
{
	struct timespec ts = { 0, 100 * 1000000L };

	for (unsigned done = 0; done < ms && !(stop && *stop); done += 100) {
		if (ms - done < 100)
			ts.tv_nsec = (long)(ms - done) * 1000000L;
		nanosleep(&ts, NULL);
	}
}

static void result_line(const struct try_result *t, char *buf, size_t len)
{
	char first[256];

	upload_first_line(t->body.buf, t->body.n, first, sizeof(first));
	if (t->rc != CURLE_OK)
		snprintf(buf, len, "%s", t->errbuf);
	else
		snprintf(buf, len, "HTTP %ld: %s", t->status, first[0] ? first : "(empty body)");
}

/* POSTs to one URL with redirects and retries; 0 on a 2xx (or 303). */
static int upload_one(const struct post_cfg *c, const char *start, FILE *log)
{
	const struct bench_opts *o = c->o;
	const char *unit_env = getenv("VPSBENCH_UPLOAD_BACKOFF_MS"); /* tests only */
	unsigned unit = unit_env && *unit_env ? (unsigned)strtoul(unit_env, NULL, 10) : 1000;
	char shown[512], origin0[512], origin[512], line[512];
	static struct try_result t; /* ~20 KiB: keep it off the stack */
	char url[2048];

	upload_url_display(start, shown, sizeof(shown));
	if (upload_url_origin(start, origin0, sizeof(origin0)) < 0) {
		fprintf(log, "vpsbench: upload to %s failed: not a URL\n", shown);
		return -1;
	}
	for (unsigned tries = 1;; tries++) {
		unsigned hops = 0;
		const char *refused = NULL;

		snprintf(url, sizeof(url), "%s", start);
		for (;;) {
			post_once(c, url, &t);
			if (t.rc != CURLE_OK || !is_redirect(t.status))
				break;
			if (!t.redirect[0]) {
				refused = "redirect without a Location";
				break;
			}
			upload_url_display(t.redirect, line, sizeof(line));
			if (++hops > UPLOAD_MAX_REDIRS) {
				refused = "more than 5 redirects";
				break;
			}
			if (!has_prefix_ci(t.redirect, "https://")) {
				fprintf(log, "vpsbench: upload to %s: redirect to %s refused: only https\n",
					shown, line);
				refused = "redirect to a non-https URL";
				break;
			}
			if (upload_url_origin(t.redirect, origin, sizeof(origin)) < 0 ||
			    (o->upload_header.n && strcmp(origin, origin0) != 0)) {
				fprintf(log, "vpsbench: upload to %s: redirect to %s refused: another "
					"host would receive the --upload-header values\n", shown, line);
				refused = "redirect to another host";
				break;
			}
			snprintf(url, sizeof(url), "%s", t.redirect);
		}
		if (refused) {
			fprintf(log, "vpsbench: upload to %s failed: HTTP %ld, %s\n", shown, t.status,
				refused);
			return -1;
		}
		result_line(&t, line, sizeof(line));
		if (c->stop && *c->stop) {
			fprintf(log, "vpsbench: upload to %s failed: interrupted\n", shown);
			return -1;
		}
		if (t.rc == CURLE_OK && ((t.status >= 200 && t.status <= 299) || t.status == 303)) {
			fprintf(log, "vpsbench: upload to %s: %s\n", shown, line);
			return 0;
		}
		if (upload_should_retry(classify(&t), t.rc == CURLE_OK ? t.status : 0, tries)) {
			unsigned ms = upload_backoff_ms(tries, unit);

			fprintf(log, "vpsbench: upload to %s: try %u of %u failed: %s; retrying in %.1f s\n",
				shown, tries, UPLOAD_MAX_TRIES, line, ms / 1000.0);
			sleep_ms(ms, c->stop);
			continue;
		}
		fprintf(log, "vpsbench: upload to %s failed%s: %s\n", shown,
			tries > 1 ? " after retries" : "", line);
		if (classify(&t) == UPF_TLS && c->ca->kind != CA_NONE)
			fprintf(log, "vpsbench: (certificates from %s: %s; a private collector needs "
				"--cacert FILE)\n", c->ca->source, c->ca->path);
		return -1;
	}
}

static void idempotency_key(char *buf, size_t len)
{
	unsigned char r[16];
	struct timespec ts;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		/* no entropy source: still unique per run on this machine */
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t a = (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 32), b = (uint64_t)ts.tv_nsec;

		memcpy(r, &a, 8);
		memcpy(r + 8, &b, 8);
	}
	for (size_t i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

static struct curl_slist *slist_add(struct curl_slist *l, const char *s, bool *ok)
{
	struct curl_slist *n = curl_slist_append(l, s);

	if (!n)
		*ok = false;
	return n ? n : l;
}

int upload_report(const struct bench_opts *o, const char *root, const char *data, size_t n,
		  const char *saved_path, volatile sig_atomic_t *stop, FILE *log)
{
	char name[PATH_MAX], err[512], key[64], hdr[128];
	struct ca_choice ca;
	struct post_cfg c;
	bool ok = true;
	int rc = 0;
	CURLcode g;

	if (!o->upload.n)
		return 0;
	if (!saved_path) {
		upload_default_name(time(NULL), name, sizeof(name));
		if (upload_save(name, data, n, log) < 0) {
			fprintf(log, "vpsbench: not uploading: the report could not be saved locally first\n");
			return -1;
		}
		saved_path = name;
	}
	fprintf(log, "vpsbench: report saved to %s\n", saved_path);
	if (n > UPLOAD_MAX_BYTES) {
		fprintf(log, "vpsbench: not uploading: the report is %zu bytes, above the %u-byte cap\n",
			n, UPLOAD_MAX_BYTES);
		return -1;
	}
	if (upload_find_ca(root, o->cacert, getenv("SSL_CERT_FILE"), getenv("SSL_CERT_DIR"), &ca,
			   err, sizeof(err)) < 0) {
		fprintf(log, "vpsbench: not uploading: %s\n", err);
		return -1;
	}
	g = curl_global_init(CURL_GLOBAL_DEFAULT);
	if (g != CURLE_OK) {
		fprintf(log, "vpsbench: not uploading: curl_global_init: %s\n", curl_easy_strerror(g));
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.ca = &ca;
	c.data = data;
	c.n = n;
	c.stop = stop;
	idempotency_key(key, sizeof(key));
	snprintf(hdr, sizeof(hdr), "Idempotency-Key: %s", key);
	c.put = o->upload_format.v == UPFMT_PROM;
	c.hdrs = slist_add(c.hdrs, upload_content_type(o), &ok);
	c.hdrs = slist_add(c.hdrs, hdr, &ok);
	c.hdrs = slist_add(c.hdrs, "Expect:", &ok); /* no 100-continue round trip */
	for (unsigned i = 0; i < o->upload_header.n; i++)
		c.hdrs = slist_add(c.hdrs, o->upload_header.v[i], &ok);
	if (!ok) {
		fprintf(log, "vpsbench: not uploading: curl_slist_append: out of memory\n");
		rc = -1;
		goto out;
	}
	for (unsigned i = 0; i < o->upload.n; i++) {
		bench_phase_wait("upload", i + 1, stop);
		if (stop && *stop) {
			fprintf(log, "vpsbench: upload stopped: interrupted\n");
			rc = -1;
			break;
		}
		if (upload_one(&c, o->upload.v[i], log) < 0)
			rc = -1;
	}
out:
	curl_slist_free_all(c.hdrs);
	curl_global_cleanup();
	return rc;
}

#else

int upload_report(const struct bench_opts *o, const char *root, const char *data, size_t n,
		  const char *saved_path, volatile sig_atomic_t *stop, FILE *log)
{
	(void)root;
	(void)data;
	(void)n;
	(void)saved_path;
	(void)stop;
	if (!o->upload.n)
		return 0;
	fprintf(log, "vpsbench: --upload: unavailable: %s\n", upload_unavailable);
	return -1;
}

#endif
