/*
 * net_http.c — the HTTP download test (nench's curl timing, done right):
 * N parallel connections to one URL through one libcurl multi handle,
 * capped at the test time. Reported: DNS, TCP connect, TLS and time to
 * first byte (median over the connections), the whole-transfer average
 * (bytes / time, DNS and connect included, as curl's speed_download) and
 * the steady-state rate from the progress samples after a warm-up. A cap
 * reached after data arrived is a valid partial result, labelled so.
 * Accept-Encoding: identity, so a compressing server cannot flatter it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "net_priv.h"

#define NET_HTTP_MAX_CONNS 32
#define NET_HTTP_SAMPLE_S  0.1

double net_steady_bps(const double *t, const uint64_t *bytes, unsigned n, double warm_s)
{
	unsigned first = n, w = n;

	for (unsigned i = 0; i < n; i++)
		if (bytes[i] > 0) {
			first = i;
			break;
		}
	if (first == n)
		return -1;
	for (unsigned i = first; i < n; i++)
		if (t[i] >= t[first] + warm_s) {
			w = i;
			break;
		}
	/* at least half a second of samples after the warm-up */
	if (w >= n || t[n - 1] - t[w] < 0.5 || bytes[n - 1] <= bytes[w])
		return -1;
	return (double)(bytes[n - 1] - bytes[w]) * 8.0 / (t[n - 1] - t[w]);
}

#ifdef HAVE_LIBCURL
#include <curl/curl.h>

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct conn {
	CURL *e;
	uint64_t bytes;
	CURLcode rc;
	bool done;
	char err[CURL_ERROR_SIZE];
	volatile sig_atomic_t *stop;
};

static size_t on_data(char *p, size_t sz, size_t n, void *arg)
{
	struct conn *c = arg;

	(void)p;
	c->bytes += (uint64_t)sz * n;
	return sz * n;
}

/* libcurl's progress callback: a signal stops the transfer at once. */
static int on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	struct conn *c = arg;

	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return c->stop && *c->stop ? 1 : 0;
}

static double median_info(struct conn *c, unsigned n, CURLINFO what, CURLINFO minus, bool *ok)
{
	double v[NET_HTTP_MAX_CONNS];
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		curl_off_t a = 0, b = 0;

		if (curl_easy_getinfo(c[i].e, what, &a) != CURLE_OK || a <= 0)
			continue;
		if (minus && (curl_easy_getinfo(c[i].e, minus, &b) != CURLE_OK || b > a))
			continue;
		v[k++] = (double)(a - b) / 1e3; /* us -> ms */
	}
	*ok = k > 0;
	if (!k)
		return 0;
	qsort(v, k, sizeof(v[0]), cmp_dbl);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static int setup_conn(struct conn *c, const struct net_http_args *a, struct curl_slist *hdr)
{
	CURL *e = curl_easy_init();

	c->e = e;
	c->stop = a->stop;
	if (!e)
		return -1;
	curl_easy_setopt(e, CURLOPT_URL, a->url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(e, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
	curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(e, CURLOPT_XFERINFODATA, c);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, c->err);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(a->cap_s * 1000));
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(a->cap_s < 10 ? a->cap_s * 1000 : 10000));
	curl_easy_setopt(e, CURLOPT_USERAGENT, "vpsbench/" VPSBENCH_VERSION);
	/* the receive buffer the curl tool uses (100 KiB; libcurl's default is
	 * 16 KiB): fewer reads and callbacks per byte, so a busy CPU slows the
	 * two alike */
	curl_easy_setopt(e, CURLOPT_BUFFERSIZE, 102400L);
	/* one connection each, not one shared: N parallel TCP streams like -P N */
	curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
	curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
	if (a->cacert)
		curl_easy_setopt(e, CURLOPT_CAINFO, a->cacert);
	curl_easy_setopt(e, CURLOPT_PRIVATE, c);
	return 0;
}

void net_http_run(const struct net_http_args *a, struct net_http *h)
{
	struct conn c[NET_HTTP_MAX_CONNS];
	struct curl_slist *hdr = NULL;
	CURLM *m = NULL;
	unsigned n = a->conns > NET_HTTP_MAX_CONNS ? NET_HTTP_MAX_CONNS : a->conns, ns = 0, cap;
	double *st = NULL, t0, last = -1, t_end = 0, steady, warm;
	uint64_t *sb = NULL, total = 0;
	int running = 0;
	bool ok, any_err = false, any_cap = false;
	CURLcode first_err = CURLE_OK;
	const char *err_text = NULL;
	const char *cap_text = NULL;

	memset(c, 0, sizeof(c));
	snprintf(h->url, sizeof(h->url), "%s", a->url);
	h->conns = n;
	cap = (unsigned)(a->cap_s / NET_HTTP_SAMPLE_S) + 64;
	st = calloc(cap, sizeof(*st));
	sb = calloc(cap, sizeof(*sb));
	hdr = curl_slist_append(NULL, "Accept-Encoding: identity");
	m = curl_multi_init();
	if (!st || !sb || !hdr || !m) {
		h->status = NET_FAILED;
		snprintf(h->reason, sizeof(h->reason), "HTTP test: out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		if (setup_conn(&c[i], a, hdr) < 0 || curl_multi_add_handle(m, c[i].e) != CURLM_OK) {
			h->status = NET_FAILED;
			snprintf(h->reason, sizeof(h->reason), "HTTP test: cannot set up libcurl");
			goto out;
		}
	}
	t0 = mono_s();
	do {
		CURLMsg *msg;
		int left;
		double now;

		if (curl_multi_perform(m, &running) != CURLM_OK)
			break;
		while ((msg = curl_multi_info_read(m, &left)) != NULL) {
			struct conn *x = NULL;

			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			if (x) {
				x->rc = msg->data.result;
				x->done = true;
			}
		}
		now = mono_s() - t0;
		total = 0;
		for (unsigned i = 0; i < n; i++)
			total += c[i].bytes;
		if ((now - last >= NET_HTTP_SAMPLE_S || !running) && ns < cap) {
			st[ns] = now;
			sb[ns++] = total;
			last = now;
		}
		if (now > a->cap_s + 2.0) /* libcurl's own cap failed to end it */
			break;
		if (running && curl_multi_poll(m, NULL, 0, 20, NULL) != CURLM_OK)
			break;
	} while (running);
	t_end = mono_s() - t0;

	for (unsigned i = 0; i < n; i++) {
		long code = 0;

		curl_easy_getinfo(c[i].e, CURLINFO_RESPONSE_CODE, &code);
		if (code > h->http_code)
			h->http_code = code;
		if (!c[i].done || c[i].rc == CURLE_OPERATION_TIMEDOUT) {
			/* curl's text says which step the cap cut ("Resolving timed out") */
			if (!any_cap && c[i].done && c[i].err[0])
				cap_text = c[i].err;
			any_cap = true;
			continue;
		}
		if (c[i].rc != CURLE_OK && !any_err) {
			any_err = true;
			first_err = c[i].rc;
			err_text = c[i].err[0] ? c[i].err : curl_easy_strerror(c[i].rc);
		}
	}
	h->dns_ms.v = median_info(c, n, CURLINFO_NAMELOOKUP_TIME_T, 0, &ok);
	h->dns_ms.ok = ok;
	h->connect_ms.v = median_info(c, n, CURLINFO_CONNECT_TIME_T, CURLINFO_NAMELOOKUP_TIME_T, &ok);
	h->connect_ms.ok = ok;
	h->tls_ms.v = median_info(c, n, CURLINFO_APPCONNECT_TIME_T, CURLINFO_CONNECT_TIME_T, &ok);
	h->tls_ms.ok = ok; /* plain http: no TLS, null */
	h->ttfb_ms.v = median_info(c, n, CURLINFO_STARTTRANSFER_TIME_T, 0, &ok);
	h->ttfb_ms.ok = ok;

	if (a->stop && *a->stop) {
		h->status = NET_SKIPPED;
		snprintf(h->reason, sizeof(h->reason), "interrupted");
		goto out;
	}
	if (any_err) {
		h->status = NET_FAILED;
		snprintf(h->reason, sizeof(h->reason), "%s (curl error %d)", err_text, (int)first_err);
		goto out;
	}
	if (total == 0) {
		h->status = any_cap ? NET_TIMEOUT : NET_FAILED;
		if (any_cap)
			snprintf(h->reason, sizeof(h->reason), "no data within the %.0f s cap%s%s",
				 a->cap_s, cap_text ? ": " : "", cap_text ? cap_text : "");
		else
			snprintf(h->reason, sizeof(h->reason), "empty response");
		goto out;
	}
	h->status = NET_DONE;
	h->capped = any_cap;
	if (any_cap)
		snprintf(h->reason, sizeof(h->reason),
			 "partial: the %.0f s cap ended the transfer after data arrived", a->cap_s);
	h->bytes = mu64_of(total);
	/* the transfer ended with its last byte: the last sample that grew */
	for (unsigned i = ns; i-- > 1;)
		if (sb[i] > sb[i - 1]) {
			t_end = st[i];
			break;
		}
	h->seconds = mdbl_of(t_end);
	h->avg_mbit_s = mdbl_of((double)total * 8.0 / t_end / 1e6);
	warm = a->cap_s * NET_HTTP_WARMUP_FRAC;
	if (warm < NET_HTTP_WARMUP_MIN_S)
		warm = NET_HTTP_WARMUP_MIN_S;
	steady = net_steady_bps(st, sb, ns, warm);
	if (steady > 0)
		h->steady_mbit_s = mdbl_of(steady / 1e6);
out:
	for (unsigned i = 0; i < n; i++)
		if (c[i].e) {
			if (m)
				curl_multi_remove_handle(m, c[i].e);
			curl_easy_cleanup(c[i].e);
		}
	if (m)
		curl_multi_cleanup(m);
	curl_slist_free_all(hdr);
	free(st);
	free(sb);
}
#else
void net_http_run(const struct net_http_args *a, struct net_http *h)
{
	snprintf(h->url, sizeof(h->url), "%s", a->url);
	h->status = NET_FAILED;
	snprintf(h->reason, sizeof(h->reason), "built without libcurl");
}
#endif
