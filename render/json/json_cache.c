/*
 * json_cache.c — the storage profile's section: the cliff points with
 * their raw ios/seconds, the knee, and each write test's timeline.
 */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "json_put.h"
#include "render/render.h"

static void num_or_null(cJSON *o, const char *k, bool known, double v)
{
	if (known)
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *burst_json(const struct cache_burst *b)
{
	cJSON *o = cJSON_CreateObject(), *tl = cJSON_CreateArray();
	bool ok = b->status == BENCH_OK || b->status == BENCH_INCOMPLETE;

	cJSON_AddStringToObject(o, "kind", b->kind);
	cJSON_AddStringToObject(o, "status", bench_status_name(b->status));
	json_add_str(o, "reason", b->reason);
	cJSON_AddNumberToObject(o, "bs", b->bs);
	cJSON_AddNumberToObject(o, "iodepth", b->depth);
	num_or_null(o, "bytes", ok, (double)b->bytes);
	num_or_null(o, "seconds", ok, b->secs);
	for (unsigned i = 0; i < b->n; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber(b->tl[i]));
	cJSON_AddItemToObject(o, "timeline_bytes_per_s", tl);
	cJSON_AddBoolToObject(o, "size_capped", b->size_capped);
	cJSON_AddBoolToObject(o, "drop_found", b->found);
	num_or_null(o, "change_s", ok && b->found, b->change_s);
	num_or_null(o, "burst_mbps", ok && b->n, b->burst_bps / 1e6);
	num_or_null(o, "burst_bytes", ok && b->found, b->burst_bytes);
	num_or_null(o, "sustained_mbps", ok && b->n, b->sustained_bps / 1e6);
	if (ok && b->found)
		cJSON_AddBoolToObject(o, "recovered", b->recovered);
	else
		cJSON_AddNullToObject(o, "recovered");
	return o;
}

cJSON *json_cache(const struct bench_report *rep)
{
	const struct cache_result *r = &rep->cache;
	cJSON *o = cJSON_CreateObject(), *pts = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "dir", r->dir);
	cJSON_AddNumberToObject(o, "max_time_s", (double)r->max_time_ns / 1e9);
	cJSON_AddNumberToObject(o, "elapsed_s", r->elapsed_s);
	cJSON_AddBoolToObject(o, "time_capped", r->time_capped);
	cJSON_AddBoolToObject(o, "incomplete", r->time_capped); /* partial: the cap ended it */
	cJSON_AddNumberToObject(o, "free_bytes", (double)r->free_bytes);
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *p = &r->points[i];
		cJSON *x = cJSON_CreateObject();
		bool ok = p->status == BENCH_OK;

		cJSON_AddNumberToObject(x, "size", (double)p->size);
		cJSON_AddStringToObject(x, "status", bench_status_name(p->status));
		json_add_str(x, "reason", p->reason);
		num_or_null(x, "qd32_ios", ok, (double)p->rep[0].q32.ios);
		num_or_null(x, "qd32_seconds", ok, p->rep[0].q32.secs);
		num_or_null(x, "qd32_iops", ok, p->iops32);
		num_or_null(x, "qd1_ios", ok, (double)p->rep[0].q1.ios);
		num_or_null(x, "qd1_seconds", ok, p->rep[0].q1.secs);
		num_or_null(x, "qd1_p50_ns", ok, p->p50_1_ns);
		num_or_null(x, "qd1_p99_ns", ok, p->p99_1_ns);
		cJSON_AddItemToArray(pts, x);
	}
	cJSON_AddItemToObject(o, "cliff", pts);
	num_or_null(o, "knee_size", r->knee >= 0, r->knee >= 0 ? (double)r->points[r->knee].size : 0);
	num_or_null(o, "measured_up_to", r->measured_up_to > 0, (double)r->measured_up_to);
	cJSON_AddItemToObject(o, "seq_write", burst_json(&r->seq));
	cJSON_AddItemToObject(o, "rand_write", burst_json(&r->rnd));
	json_add_str(o, "fio_equivalent", r->fio_equivalent); /* "" (no engine ran) -> null */
	return o;
}
