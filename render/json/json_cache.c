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

/* A null metric's reason, in the object's "null_reasons" (made on the first). */
static void null_reason(cJSON *o, const char *key, const char *why)
{
	cJSON *nr = cJSON_GetObjectItemCaseSensitive(o, "null_reasons");

	if (!nr)
		nr = cJSON_AddObjectToObject(o, "null_reasons");
	if (nr)
		cJSON_AddStringToObject(nr, key, why);
}

/* key = v when known, else null with its reason */
static void num_why(cJSON *o, const char *key, bool known, double v, const char *why)
{
	num_or_null(o, key, known, v);
	if (!known)
		null_reason(o, key, why);
}

static cJSON *burst_json(const struct cache_burst *b)
{
	cJSON *o = cJSON_CreateObject(), *tl = cJSON_CreateArray(), *sub = cJSON_CreateArray();
	bool ok = (b->status == BENCH_OK || b->status == BENCH_INCOMPLETE) && b->bytes;
	const char *why = b->reason[0] ? b->reason : ok ? "" : "the write test did not run";
	bool cpu = ok && b->io.secs > 0 && !isnan(b->io.cpu_s);

	cJSON_AddStringToObject(o, "kind", b->kind);
	cJSON_AddStringToObject(o, "status", bench_status_name(b->status));
	json_add_str(o, "reason", b->reason);
	cJSON_AddNumberToObject(o, "bs", b->bs);
	cJSON_AddNumberToObject(o, "iodepth", b->depth);
	json_add_str(o, "engine", b->io.engine);
	num_why(o, "iodepth_effective", b->io.depth > 0, b->io.depth, why);
	num_why(o, "cpu_share", cpu, cpu ? b->io.cpu_s / b->io.secs : 0,
		ok ? "not measured for this test (sequential psync loop)" : why);
	num_why(o, "region_bytes", b->region > 0, (double)b->region, why);
	json_add_str(o, "region_why", b->region_why);
	num_why(o, "bytes", ok, (double)b->bytes, why);
	num_why(o, "seconds", ok, b->secs, why);
	for (unsigned i = 0; i < b->n; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber(b->tl[i]));
	cJSON_AddItemToObject(o, "timeline_bytes_per_s", tl);
	for (unsigned i = 0; i < b->nsub && b->sub_dt > 0; i++)
		cJSON_AddItemToArray(sub, cJSON_CreateNumber(b->sub[i] / b->sub_dt));
	cJSON_AddItemToObject(o, "sub_timeline_bytes_per_s", sub);
	num_why(o, "sub_dt_s", b->nsub > 0, b->sub_dt, "no sub-second samples");
	cJSON_AddBoolToObject(o, "size_capped", b->size_capped);
	cJSON_AddBoolToObject(o, "drop_found", b->found);
	num_why(o, "change_s", ok && b->found, b->change_s, ok ? "no drop" : why);
	num_why(o, "change_bytes", ok && b->found, (double)b->change_bytes, ok ? "no drop" : why);
	num_why(o, "burst_mbps", ok, b->burst_bps / 1e6, why);
	num_why(o, "burst_bytes", ok, b->burst_bytes, why);
	num_why(o, "sustained_mbps", ok, b->sustained_bps / 1e6, why);
	if (ok && b->found) {
		cJSON_AddBoolToObject(o, "recovered", b->recovered);
	} else {
		cJSON_AddNullToObject(o, "recovered");
		null_reason(o, "recovered", ok ? "no drop" : why);
	}
	if (b->rec.run) {
		cJSON *r = cJSON_AddObjectToObject(o, "recovery");

		cJSON_AddNumberToObject(r, "idle_s", b->rec.idle_s);
		cJSON_AddNumberToObject(r, "mbps", b->rec.bps / 1e6);
		cJSON_AddNumberToObject(r, "bytes", (double)b->rec.bytes);
		num_or_null(r, "share_of_burst", !isnan(b->rec.share_of_burst), b->rec.share_of_burst);
	} else {
		cJSON_AddNullToObject(o, "recovery");
		null_reason(o, "recovery", b->rec.why[0] ? b->rec.why : "not run");
	}
	json_add_str(o, "suggestion", b->suggestion);
	return o;
}

/* repeats, warm, and the engine with the depth qd32 really ran at (psync: 1). */
static void section_keys(cJSON *o, const struct cache_result *r)
{
	cJSON_AddNumberToObject(o, "repeats", r->repeats);
	json_add_str(o, "warm", r->warm);
	if (r->engine[0]) {
		cJSON_AddStringToObject(o, "engine", r->engine);
		cJSON_AddNumberToObject(o, "iodepth", r->depth);
	} else {
		cJSON_AddNullToObject(o, "engine");
		cJSON_AddNullToObject(o, "iodepth");
		null_reason(o, "engine", "no cliff size measured");
		null_reason(o, "iodepth", "no cliff size measured");
	}
	json_add_str(o, "engine_fallback", r->engine_why);
}

/* knee_size, knee_by and measured_up_to, each null with its reason. */
static void knee_keys(cJSON *o, const struct cache_result *r)
{
	static const char *const by[] = { NULL, "iops", "latency", "both" };
	unsigned n = 0;

	for (unsigned i = 0; i < r->npoints; i++)
		n += r->points[i].nrep > 0;
	if (r->knee >= 0 && r->knee < (int)r->npoints) {
		cJSON_AddNumberToObject(o, "knee_size", (double)r->points[r->knee].size);
		if (r->knee_by > CACHE_KNEE_NONE && r->knee_by <= CACHE_KNEE_BOTH)
			cJSON_AddStringToObject(o, "knee_by", by[r->knee_by]);
		else
			cJSON_AddNullToObject(o, "knee_by");
	} else {
		const char *why = n == 0 ? "no cliff size measured" :
				  n < 2 ? "one cliff size measured: no curve to split" :
					  "no knee: no split beyond the repeats' spread in qd32 IOPS or qd1 p50";

		cJSON_AddNullToObject(o, "knee_size");
		cJSON_AddNullToObject(o, "knee_by");
		null_reason(o, "knee_size", why);
		null_reason(o, "knee_by", why);
	}
	if (r->measured_up_to) {
		cJSON_AddNumberToObject(o, "measured_up_to", (double)r->measured_up_to);
	} else {
		cJSON_AddNullToObject(o, "measured_up_to");
		null_reason(o, "measured_up_to", r->time_capped ? "no size measured: time cap" : "no size measured");
	}
}

/* A cliff size's status by the section's pinned names: ok, skip, incomplete, fail. */
static const char *point_status(enum bench_status st)
{
	return st == BENCH_OK ? "ok" : st == BENCH_SKIP ? "skip" : st == BENCH_INCOMPLETE ? "incomplete" : "fail";
}

/* One cliff size: its repeats' raw parts, the medians and ranges over them, the CPU share. */
static cJSON *cliff_point(const struct cache_point *p)
{
	cJSON *x = cJSON_CreateObject(), *reps = cJSON_CreateArray();
	bool m = p->nrep > 0;
	const char *why = p->status == BENCH_SKIP ? p->reason : "not measured";

	cJSON_AddNumberToObject(x, "size", (double)p->size);
	cJSON_AddStringToObject(x, "status", point_status(p->status));
	json_add_str(x, "reason", p->reason);
	for (unsigned j = 0; j < p->nrep; j++) {
		const struct cache_rep *e = &p->rep[j];
		cJSON *o = cJSON_CreateObject();
		double cs = e->q32.secs > 0 ? e->q32.cpu_s / e->q32.secs : NAN;

		cJSON_AddNumberToObject(o, "qd32_ios", (double)e->q32.ios);
		cJSON_AddNumberToObject(o, "qd32_seconds", e->q32.secs);
		cJSON_AddNumberToObject(o, "qd32_iops", e->iops32);
		num_why(o, "qd32_cpu_share", isfinite(cs), cs, "thread CPU time not available");
		cJSON_AddNumberToObject(o, "qd1_ios", (double)e->q1.ios);
		cJSON_AddNumberToObject(o, "qd1_seconds", e->q1.secs);
		cJSON_AddNumberToObject(o, "qd1_p50_ns", (double)e->p50_1_ns);
		cJSON_AddNumberToObject(o, "qd1_p99_ns", (double)e->p99_1_ns);
		cJSON_AddItemToArray(reps, o);
	}
	cJSON_AddItemToObject(x, "repeats", reps);
	num_why(x, "qd32_iops", m, p->iops32, why);
	num_why(x, "qd32_iops_min", m, p->iops32_lo, why);
	num_why(x, "qd32_iops_max", m, p->iops32_hi, why);
	num_why(x, "qd1_p50_ns", m, p->p50_1_ns, why);
	num_why(x, "qd1_p50_ns_min", m, p->p50_1_lo_ns, why);
	num_why(x, "qd1_p50_ns_max", m, p->p50_1_hi_ns, why);
	num_why(x, "qd1_p99_ns", m, p->p99_1_ns, why);
	num_why(x, "cpu_share", m && isfinite(p->cpu_share), p->cpu_share,
		m ? "thread CPU time not available" : why);
	if (m)
		cJSON_AddBoolToObject(x, "cpu_bound", p->cpu_bound);
	else
		num_why(x, "cpu_bound", false, 0, why);
	return x;
}

cJSON *json_cache(const struct bench_report *rep)
{
	const struct cache_result *r = &rep->cache;
	cJSON *o = cJSON_CreateObject(), *pts = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "dir", r->dir);
	cJSON_AddNumberToObject(o, "max_time_s", (double)r->max_time_ns / 1e9);
	/* the part's planned time is its cap (budget): the deadline it ran under */
	cJSON_AddNumberToObject(o, "planned_s", (double)r->planned_ns / 1e9);
	cJSON_AddNumberToObject(o, "budget_s", (double)r->planned_ns / 1e9);
	cJSON_AddNumberToObject(o, "elapsed_s", r->elapsed_s);
	cJSON_AddBoolToObject(o, "time_capped", r->time_capped);
	cJSON_AddBoolToObject(o, "incomplete", r->time_capped); /* partial: the cap ended it */
	cJSON_AddNumberToObject(o, "free_bytes", (double)r->free_bytes);
	section_keys(o, r);
	for (unsigned i = 0; i < r->npoints; i++)
		cJSON_AddItemToArray(pts, cliff_point(&r->points[i]));
	cJSON_AddItemToObject(o, "cliff", pts);
	knee_keys(o, r);
	cJSON_AddItemToObject(o, "seq_write", burst_json(&r->seq));
	cJSON_AddItemToObject(o, "rand_write", burst_json(&r->rnd));
	json_add_str(o, "fio_equivalent", r->fio_equivalent); /* "" (no engine ran) -> null */
	return o;
}
