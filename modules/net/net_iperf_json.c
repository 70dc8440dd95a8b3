/*
 * net_iperf_json.c — the two JSON messages of an iperf3 test: the
 * parameters (only what a 3.0 to 3.21 server reads; flags only when on, as
 * true, since up to 3.17 presence alone switches them on) and the results
 * exchanged after TEST_END. The server's results are checked before use:
 * ids must be ours (1, 3, 4, ...), counts finite and not negative; iperf3
 * 3.12/3.13 print -1 as 2^64-1, which means "not known" in retransmits.
 * Numbers are read from valuedouble (stock cJSON's valueint is 32 bits).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_priv.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

#define BLOCK_LEN   131072      /* iperf3's TCP default block size */
#define COUNT_MAX   9007199254740992.0 /* 2^53: above it a double is no exact count */
#define MINUS_ONE_U 18446744073709551615.0

char *iperf_params_json(unsigned streams, unsigned time_s, bool reverse)
{
	cJSON *o = cJSON_CreateObject();
	char *s = NULL;

	if (!o)
		return NULL;
	if (cJSON_AddTrueToObject(o, "tcp") && cJSON_AddNumberToObject(o, "omit", 0) &&
	    cJSON_AddNumberToObject(o, "time", time_s) && cJSON_AddNumberToObject(o, "num", 0) &&
	    cJSON_AddNumberToObject(o, "blockcount", 0) &&
	    cJSON_AddNumberToObject(o, "parallel", streams) &&
	    cJSON_AddNumberToObject(o, "len", BLOCK_LEN) &&
	    cJSON_AddNumberToObject(o, "pacing_timer", 1000) &&
	    (!reverse || cJSON_AddTrueToObject(o, "reverse")) &&
	    cJSON_AddStringToObject(o, "client_version", "vpsbench-" VPSBENCH_VERSION))
		s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return s;
}

char *iperf_results_json(const struct iperf_local_stream *st, unsigned n, bool sender,
			 bool has_retransmits)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	char *s = NULL;

	if (!o)
		return NULL;
	if (!cJSON_AddNumberToObject(o, "cpu_util_total", 0) ||
	    !cJSON_AddNumberToObject(o, "cpu_util_user", 0) ||
	    !cJSON_AddNumberToObject(o, "cpu_util_system", 0) ||
	    !cJSON_AddNumberToObject(o, "sender_has_retransmits",
				     sender ? (has_retransmits ? 1 : 0) : -1) ||
	    !(arr = cJSON_AddArrayToObject(o, "streams")))
		goto out;
	for (unsigned i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();

		if (!x || !cJSON_AddItemToArray(arr, x)) {
			cJSON_Delete(x);
			goto out;
		}
		if (!cJSON_AddNumberToObject(x, "id", iperf_stream_id(i)) ||
		    !cJSON_AddNumberToObject(x, "bytes", (double)st[i].bytes) ||
		    !cJSON_AddNumberToObject(x, "retransmits", (double)st[i].retransmits) ||
		    !cJSON_AddNumberToObject(x, "jitter", 0) ||
		    !cJSON_AddNumberToObject(x, "errors", 0) ||
		    !cJSON_AddNumberToObject(x, "packets", 0) ||
		    !cJSON_AddNumberToObject(x, "start_time", 0) ||
		    !cJSON_AddNumberToObject(x, "end_time", st[i].seconds))
			goto out;
	}
	s = cJSON_PrintUnformatted(o);
out:
	cJSON_Delete(o);
	return s;
}

/* A required number; false with the reason when absent or not a number. */
static bool get_num(const cJSON *o, const char *key, double *v, const char *where, char *why,
		    size_t n)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) {
		snprintf(why, n, "server results: %s lacks a number '%s'", where, key);
		return false;
	}
	*v = x->valuedouble;
	return true;
}

int iperf_parse_results(const char *json, unsigned streams, struct iperf_peer_results *out,
			char *why, size_t n)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *arr, *x;
	bool seen[NET_STREAMS_MAX + 3] = { false };
	double v;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!root) {
		snprintf(why, n, "server results are not valid JSON");
		return -1;
	}
	if (!get_num(root, "sender_has_retransmits", &v, "the top level", why, n))
		goto out;
	out->sender_has_retransmits = v == 1 ? 1 : v == 0 ? 0 : -1;
	arr = cJSON_GetObjectItemCaseSensitive(root, "streams");
	if (!cJSON_IsArray(arr)) {
		snprintf(why, n, "server results lack the 'streams' array");
		goto out;
	}
	cJSON_ArrayForEach(x, arr) {
		struct iperf_peer_stream *s;
		char where[32];
		double id, t0 = 0, t1;
		const cJSON *st;

		if (out->n >= streams) {
			snprintf(why, n, "server results list more than the %u streams of the test",
				 streams);
			goto out;
		}
		s = &out->s[out->n];
		snprintf(where, sizeof(where), "stream %u", out->n + 1);
		if (!get_num(x, "id", &id, where, why, n))
			goto out;
		/* ours are 1, 3 .. streams + 1; each once */
		if (id != floor(id) || id < 1 || id == 2 || id > streams + 1 || seen[(int)id]) {
			snprintf(why, n, "server results: stream id %.3g is not one of this test's "
				 "(1, 3 .. %u), or repeated", id, streams + 1);
			goto out;
		}
		seen[(int)id] = true;
		s->id = (int)id;
		snprintf(where, sizeof(where), "stream %d", s->id);
		if (!get_num(x, "bytes", &s->bytes, where, why, n) ||
		    !get_num(x, "retransmits", &s->retransmits, where, why, n))
			goto out;
		if (s->bytes < 0 || s->bytes >= COUNT_MAX || s->bytes != floor(s->bytes)) {
			snprintf(why, n, "server results: stream %d bytes %.3g is not a byte count",
				 s->id, s->bytes);
			goto out;
		}
		if (s->retransmits < 0 || s->retransmits == MINUS_ONE_U || s->retransmits >= COUNT_MAX)
			s->retransmits = -1;
		s->seconds = -1;
		st = cJSON_GetObjectItemCaseSensitive(x, "start_time");
		if (cJSON_IsNumber(st))
			t0 = st->valuedouble;
		st = cJSON_GetObjectItemCaseSensitive(x, "end_time");
		if (cJSON_IsNumber(st) && isfinite(st->valuedouble) && isfinite(t0)) {
			t1 = st->valuedouble;
			if (t1 - t0 > 0 && t1 - t0 < 86400)
				s->seconds = t1 - t0;
		}
		out->n++;
	}
	if (out->n != streams) {
		snprintf(why, n, "server results list %u of the test's %u streams", out->n, streams);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}
#else
char *iperf_params_json(unsigned streams, unsigned time_s, bool reverse)
{
	(void)streams, (void)time_s, (void)reverse;
	return NULL;
}

char *iperf_results_json(const struct iperf_local_stream *s, unsigned n, bool sender,
			 bool has_retransmits)
{
	(void)s, (void)n, (void)sender, (void)has_retransmits;
	return NULL;
}

int iperf_parse_results(const char *json, unsigned streams, struct iperf_peer_results *out,
			char *why, size_t n)
{
	(void)json, (void)streams, (void)out;
	snprintf(why, n, "built without cJSON");
	return -1;
}
#endif
