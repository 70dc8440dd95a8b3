/*
 * json_rand.c — "rand": {"passes": [...]}, each direction with fio's
 * JSON key names so tooling written for fio reads them. A direction the
 * workload does not have (write in randread) is omitted; one it has but
 * that completed nothing has zeros and null latency figures.
 */
#include <stdio.h>

#include "json_pass_io.h"
#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON
static void add_lat(cJSON *o, const char *key, const struct rand_lat *l, const uint64_t *pct,
		    const uint64_t *bins)
{
	cJSON *x = cJSON_AddObjectToObject(o, key), *p;
	char k[24];

	if (!x)
		return;
	json_add_mu64(x, "min", (struct mu64){ l->min, l->n > 0 });
	json_add_mu64(x, "max", (struct mu64){ l->max, l->n > 0 });
	json_add_mdbl(x, "mean", (struct mdbl){ l->mean, l->n > 0 });
	json_add_mdbl(x, "stddev", (struct mdbl){ l->stddev, l->n > 0 });
	cJSON_AddNumberToObject(x, "N", (double)l->n);
	if (!pct || !l->n)
		return;
	p = cJSON_AddObjectToObject(x, "percentile");
	if (!p)
		return;
	for (int i = 0; i < LAT_NPCT; i++) {
		snprintf(k, sizeof(k), "%f", lat_default_percentiles[i]);
		cJSON_AddNumberToObject(p, k, (double)pct[i]);
	}
	/* fio's json+ "bins": each non-empty bucket's representative value
	 * (ns) and its count, so a reader can recompute the percentiles */
	p = bins ? cJSON_AddObjectToObject(x, "bins") : NULL;
	for (unsigned i = 0; p && i < LAT_PLAT_NR; i++) {
		if (!bins[i])
			continue;
		snprintf(k, sizeof(k), "%llu", (unsigned long long)lat_plat_idx_to_val(i));
		cJSON_AddNumberToObject(p, k, (double)bins[i]);
	}
}

static void add_dir(cJSON *o, const char *key, const struct rand_dir_result *d,
		    uint64_t runtime_ms)
{
	cJSON *x, *tl;

	if (!d->present)
		return;
	x = cJSON_AddObjectToObject(o, key);
	if (!x)
		return;
	cJSON_AddNumberToObject(x, "io_bytes", (double)d->io_bytes);
	cJSON_AddNumberToObject(x, "io_kbytes", (double)(d->io_bytes >> 10));
	cJSON_AddNumberToObject(x, "bw_bytes", d->bw_bytes);
	cJSON_AddNumberToObject(x, "bw", d->bw_bytes / 1024.0);
	cJSON_AddNumberToObject(x, "iops", d->iops);
	cJSON_AddNumberToObject(x, "runtime", (double)runtime_ms);
	cJSON_AddNumberToObject(x, "total_ios", (double)d->total_ios);
	cJSON_AddNumberToObject(x, "short_ios", (double)d->short_ios);
	add_lat(x, "slat_ns", &d->slat, NULL, NULL);
	add_lat(x, "clat_ns", &d->clat, d->clat_pct, d->clat_bins);
	tl = cJSON_AddArrayToObject(x, "iops_timeline");
	for (unsigned i = 0; tl && i < d->ntimeline; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber(d->timeline[i]));
}

static cJSON *pass_json(const struct rand_pass_result *p)
{
	static const unsigned lv[RAND_QD_LEVELS] = { 1, 2, 4, 8, 16, 32, 64 };
	cJSON *o = cJSON_CreateObject(), *x;
	uint64_t qd_total = 0;
	char k[8];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", p->name);
	json_add_str(o, "dir", p->dir);
	cJSON_AddStringToObject(o, "rw", rand_rw_names[p->rw]);
	cJSON_AddNumberToObject(o, "rwmixread", p->rwmixread);
	cJSON_AddNumberToObject(o, "bs", p->bs);
	cJSON_AddNumberToObject(o, "iodepth", p->iodepth);
	cJSON_AddNumberToObject(o, "iodepth_used", p->iodepth_used);
	cJSON_AddNumberToObject(o, "jobs", p->jobs);
	cJSON_AddNumberToObject(o, "rate_iops", (double)p->rate_iops);
	cJSON_AddNumberToObject(o, "rate_iops_write", (double)p->rate_iops_write);
	json_add_str(o, "engine", p->engine);
	json_add_str(o, "engine_fallback_reason", p->engine_fallback);
	json_add_str(o, "engine_note", p->engine_note);
	cJSON_AddBoolToObject(o, "direct", p->direct);
	json_add_str(o, "direct_reason", p->direct_reason);
	json_add_storage(o, &p->storage);
	cJSON_AddNumberToObject(o, "runtime_ms", (double)p->runtime_ms);
	cJSON_AddNumberToObject(o, "ramp_ms", (double)p->ramp_ms);
	cJSON_AddNumberToObject(o, "size_bytes", (double)p->size_bytes);
	cJSON_AddStringToObject(o, "data", p->zero_data ? "zero" : "random");
	cJSON_AddNumberToObject(o, "layout_seconds", p->layout_seconds);
	cJSON_AddStringToObject(o, "status", bench_status_name(p->status));
	json_add_str(o, "reason", p->reason);
	x = cJSON_AddObjectToObject(o, "cpu");
	if (x) {
		json_add_mdbl(x, "usr_pct", p->usr_pct);
		json_add_mdbl(x, "sys_pct", p->sys_pct);
	}
	json_add_mdbl(o, "iodepth_avg", p->iodepth_avg);
	/* percent of submitted I/Os, as fio's iodepth_level (without its 0.1 floor) */
	for (int i = 0; i < RAND_QD_LEVELS; i++)
		qd_total += p->qd_level[i];
	x = cJSON_AddObjectToObject(o, "iodepth_level");
	for (int i = 0; x && i < RAND_QD_LEVELS; i++) {
		snprintf(k, sizeof(k), i == RAND_QD_LEVELS - 1 ? ">=%u" : "%u", lv[i]);
		json_add_mdbl(x, k, qd_total ? mdbl_of(100.0 * (double)p->qd_level[i] / (double)qd_total)
				     : (struct mdbl){ 0, false });
	}
	/* a pass that ended before measuring anything (error, timeout) has no figures */
	if (p->status == BENCH_OK || p->runtime_ms) {
		add_dir(o, "read", &p->dir_res[RD], p->runtime_ms);
		add_dir(o, "write", &p->dir_res[WR], p->runtime_ms);
	}
	json_add_pass_io(o, &p->dist);
	if (p->verify.ran) {
		cJSON *v = cJSON_AddObjectToObject(o, "verify"), *a;

		if (v) {
			cJSON_AddNumberToObject(v, "blocks", (double)p->verify.blocks);
			cJSON_AddNumberToObject(v, "bad", (double)p->verify.bad);
			cJSON_AddNumberToObject(v, "corrupt", (double)p->verify.corrupt);
			cJSON_AddNumberToObject(v, "misplaced", (double)p->verify.misplaced);
			cJSON_AddNumberToObject(v, "lost", (double)p->verify.lost);
			a = cJSON_AddArrayToObject(v, "bad_offsets");
			for (unsigned i = 0; a && i < p->verify.nkept; i++) {
				cJSON *b = cJSON_CreateObject();

				if (!b)
					break;
				cJSON_AddNumberToObject(b, "offset", (double)p->verify.bad_off[i]);
				cJSON_AddStringToObject(b, "kind", p->verify.bad_kind[i] == 'c' ? "corrupt" :
							p->verify.bad_kind[i] == 'm' ? "misplaced" : "lost");
				cJSON_AddItemToArray(a, b);
			}
		}
	}
	return o;
}

cJSON *json_rand(const struct bench_report *rep, const struct bench_plan *plan)
{
	cJSON *o = cJSON_CreateObject(), *a;

	(void)plan;
	if (!o)
		return NULL;
	a = cJSON_AddArrayToObject(o, "passes");
	for (unsigned i = 0; a && i < rep->rand.npass; i++)
		cJSON_AddItemToArray(a, pass_json(&rep->rand.pass[i]));
	if (rep->storage_ref.loaded) {
		cJSON *s = cJSON_AddObjectToObject(o, "storage_report");

		if (s) {
			cJSON_AddStringToObject(s, "file", rep->storage_ref.path);
			cJSON_AddStringToObject(s, "dir", rep->storage_ref.dir);
			if (rep->storage_ref.knee_size)
				cJSON_AddNumberToObject(s, "knee_size", (double)rep->storage_ref.knee_size);
			else
				cJSON_AddNullToObject(s, "knee_size");
			cJSON_AddBoolToObject(s, "same_dir", rep->storage_ref.checked);
			cJSON_AddBoolToObject(s, "cache_served", rep->storage_ref.cache_served);
		}
	}
	return o;
}
#endif
