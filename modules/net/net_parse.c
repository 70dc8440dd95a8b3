/*
 * net_parse.c — iperf3's JSON result (what libiperf builds, as iperf3 -J
 * prints) into one direction's figures. The figure is the receiver's
 * (end.sum_received), as yabs reads the "receiver" SUM line; retransmits
 * are the sender's (end.sum_sent). In JSON mode a failed run returns 0 and
 * carries only "error": that is a failure, never a 0 figure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net_priv.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static const cJSON *path(const cJSON *o, const char *a, const char *b)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	return o ? cJSON_GetObjectItemCaseSensitive(o, b) : NULL;
}

int net_iperf_parse(const char *json, struct net_dir *d)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *err, *recv, *bps, *bytes, *secs, *rtx;
	int busy = 0;

	if (!root) {
		d->status = NET_FAILED;
		snprintf(d->reason, sizeof(d->reason), "iperf3 result is not valid JSON");
		return 0;
	}
	err = cJSON_GetObjectItemCaseSensitive(root, "error");
	if (cJSON_IsString(err)) {
		busy = strstr(err->valuestring, "busy") != NULL;
		d->status = busy ? NET_BUSY : NET_FAILED;
		snprintf(d->reason, sizeof(d->reason), "%s", err->valuestring);
		goto out;
	}
	recv = path(root, "end", "sum_received");
	bps = recv ? cJSON_GetObjectItemCaseSensitive(recv, "bits_per_second") : NULL;
	if (!cJSON_IsNumber(bps) || !isfinite(bps->valuedouble) || bps->valuedouble <= 0) {
		d->status = NET_FAILED;
		snprintf(d->reason, sizeof(d->reason), "no receiver figure in the iperf3 result%s",
			 cJSON_IsNumber(bps) ? " (0 bit/s received)" : "");
		goto out;
	}
	d->status = NET_DONE;
	d->bps = mdbl_of(bps->valuedouble);
	bytes = cJSON_GetObjectItemCaseSensitive(recv, "bytes");
	if (cJSON_IsNumber(bytes) && bytes->valuedouble >= 0)
		d->bytes = mu64_of((uint64_t)bytes->valuedouble);
	secs = cJSON_GetObjectItemCaseSensitive(recv, "seconds");
	if (cJSON_IsNumber(secs))
		d->seconds = mdbl_of(secs->valuedouble);
	recv = path(root, "end", "sum_sent");
	rtx = recv ? cJSON_GetObjectItemCaseSensitive(recv, "retransmits") : NULL;
	if (cJSON_IsNumber(rtx) && rtx->valuedouble >= 0)
		d->retransmits = mu64_of((uint64_t)rtx->valuedouble);
	d->reason[0] = '\0';
out:
	cJSON_Delete(root);
	return busy;
}
#else
int net_iperf_parse(const char *json, struct net_dir *d)
{
	(void)json;
	d->status = NET_FAILED;
	snprintf(d->reason, sizeof(d->reason), "built without cJSON");
	return 0;
}
#endif
