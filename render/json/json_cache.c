/*
 * json_cache.c — the storage profile's section: the cliff points with
 * their raw ios/seconds, the knee, and each write test's timeline.
 */
#include <cjson/cJSON.h>
#include <math.h>
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

/* A write-test metric: the number, or null with its reason in nr (null_reasons). */
static void num_why(cJSON *o, cJSON *nr, const char *k, bool known, double v, const char *why)
{
	num_or_null(o, k, known, v);
	if (!known)
		cJSON_AddStringToObject(nr, k, why);
}

static cJSON *burst_json(const struct cache_burst *b)
{
	cJSON *o = cJSON_CreateObject(), *tl = cJSON_CreateArray(), *sub = cJSON_CreateArray();
	cJSON *nr = cJSON_CreateObject();
	bool ok = (b->status == BENCH_OK || b->status == BENCH_INCOMPLETE) && b->bytes;
	const char *why = b->reason[0] ? b->reason : ok ? "" : "the write test did not run";
	bool cpu = ok && b->io.secs > 0 && !isnan(b->io.cpu_s);

	cJSON_AddStringToObject(o, "kind", b->kind);
	cJSON_AddStringToObject(o, "status", bench_status_name(b->status));
	json_add_str(o, "reason", b->reason);
	cJSON_AddNumberToObject(o, "bs", b->bs);
	cJSON_AddNumberToObject(o, "iodepth", b->depth);
	json_add_str(o, "engine", b->io.engine);
	num_why(o, nr, "iodepth_effective", b->io.depth > 0, b->io.depth, why);
	num_why(o, nr, "cpu_share", cpu, cpu ? b->io.cpu_s / b->io.secs : 0,
		ok ? "not measured for this test (sequential psync loop)" : why);
	num_why(o, nr, "region_bytes", b->region > 0, (double)b->region, why);
	json_add_str(o, "region_why", b->region_why);
	num_why(o, nr, "bytes", ok, (double)b->bytes, why);
	num_why(o, nr, "seconds", ok, b->secs, why);
	for (unsigned i = 0; i < b->n; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber(b->tl[i]));
	cJSON_AddItemToObject(o, "timeline_bytes_per_s", tl);
	for (unsigned i = 0; i < b->nsub && b->sub_dt > 0; i++)
		cJSON_AddItemToArray(sub, cJSON_CreateNumber(b->sub[i] / b->sub_dt));
	cJSON_AddItemToObject(o, "sub_timeline_bytes_per_s", sub);
	num_why(o, nr, "sub_dt_s", b->nsub > 0, b->sub_dt, "no sub-second samples");
	cJSON_AddBoolToObject(o, "size_capped", b->size_capped);
	cJSON_AddBoolToObject(o, "drop_found", b->found);
	num_why(o, nr, "change_s", ok && b->found, b->change_s, ok ? "no drop" : why);
	num_why(o, nr, "change_bytes", ok && b->found, (double)b->change_bytes, ok ? "no drop" : why);
	num_why(o, nr, "burst_mbps", ok, b->burst_bps / 1e6, why);
	num_why(o, nr, "burst_bytes", ok, b->burst_bytes, why);
	num_why(o, nr, "sustained_mbps", ok, b->sustained_bps / 1e6, why);
	if (ok && b->found) {
		cJSON_AddBoolToObject(o, "recovered", b->recovered);
	} else {
		cJSON_AddNullToObject(o, "recovered");
		cJSON_AddStringToObject(nr, "recovered", ok ? "no drop" : why);
	}
	if (b->rec.run) {
		cJSON *r = cJSON_AddObjectToObject(o, "recovery");

		cJSON_AddNumberToObject(r, "idle_s", b->rec.idle_s);
		cJSON_AddNumberToObject(r, "mbps", b->rec.bps / 1e6);
		cJSON_AddNumberToObject(r, "bytes", (double)b->rec.bytes);
		num_or_null(r, "share_of_burst", !isnan(b->rec.share_of_burst), b->rec.share_of_burst);
	} else {
		cJSON_AddNullToObject(o, "recovery");
		cJSON_AddStringToObject(nr, "recovery", b->rec.why[0] ? b->rec.why : "not run");
	}
	json_add_str(o, "suggestion", b->suggestion);
	if (cJSON_GetArraySize(nr))
		cJSON_AddItemToObject(o, "null_reasons", nr);
	else
		cJSON_Delete(nr);
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
	return o;
}
