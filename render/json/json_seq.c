/*
 * json_seq.c — the "seq" object: the first --dir's pass at the top level,
 * and with several dirs also "dirs": [ one object of the same shape each ].
 * Unknown or not measured values are null.
 */
#include <stdlib.h>

#include "json_pass_io.h"
#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static struct mdbl num(double v, bool ok)
{
	return (struct mdbl){ v, ok };
}

/* Fills o with one directory's pass; returns -1 on no memory. */
static int seq_dir_fill(cJSON *o, const struct seq_result *s, const struct seq_dir_result *r)
{
	cJSON *w, *runs, *rd;

	json_add_str(o, "dir", r->dir);
	json_add_str(o, "fstype", r->fstype);
	json_add_str(o, "mountpoint", r->mountpoint);
	json_add_str(o, "device", r->device);
	json_add_storage(o, &r->storage);
	cJSON_AddStringToObject(o, "status", seq_pass_status_name(r->status));
	json_add_str(o, "reason", r->reason);
	json_add_mbool(o, "direct", r->direct);
	cJSON_AddBoolToObject(o, "direct_requested", r->direct_requested);
	json_add_str(o, "direct_reason", r->direct_reason);
	cJSON_AddStringToObject(o, "data", s->zero ? "zero" : "random");
	cJSON_AddNumberToObject(o, "bs", r->bs);
	json_add_mu64(o, "size_bytes", (struct mu64){ r->size_bytes, r->size_bytes != 0 });
	cJSON_AddBoolToObject(o, "scaled_down", r->scaled_down);
	json_add_mdbl(o, "generator_gbps", s->generator_gbps);
	json_add_mdbl(o, "prng_gbps", s->prng_gbps);

	w = cJSON_AddObjectToObject(o, "write");
	if (!w)
		return -1;
	runs = cJSON_AddArrayToObject(w, "runs");
	if (!runs)
		return -1;
	for (unsigned i = 0; i < r->nruns; i++) {
		const struct seq_run *x = &r->runs[i];
		cJSON *e = cJSON_CreateObject();

		if (!e)
			return -1;
		cJSON_AddItemToArray(runs, e);
		cJSON_AddNumberToObject(e, "bytes", (double)x->bytes);
		cJSON_AddNumberToObject(e, "seconds", x->seconds);
		cJSON_AddNumberToObject(e, "flush_seconds", x->flush_seconds);
		json_add_mdbl(e, "mbps", num(x->mbps, x->seconds > 0));
		json_add_mdbl(e, "mibps", num(x->mibps, x->seconds > 0));
		cJSON_AddBoolToObject(e, "outlier", x->outlier);
		json_add_pass_io(e, &x->dist);
	}
	json_add_mdbl(w, "avg_mbps", r->avg_mbps);
	json_add_mdbl(w, "avg_mibps", r->avg_mibps);
	json_add_mdbl(w, "min_mbps", r->min_mbps);
	json_add_mdbl(w, "max_mbps", r->max_mbps);
	json_add_mdbl(w, "cov", r->cov);
	json_add_mdbl(w, "total_mbps", r->total_mbps);
	json_add_mdbl(w, "total_mibps", r->total_mibps);

	rd = cJSON_AddObjectToObject(o, "read");
	if (!rd)
		return -1;
	json_add_mdbl(rd, "mbps", r->read.mbps);
	json_add_mdbl(rd, "mibps", r->read.mibps);
	json_add_mbool(rd, "direct", r->read.direct);
	json_add_mdbl(rd, "seconds", r->read.seconds);
	json_add_mu64(rd, "bytes", r->read.bytes);
	json_add_mdbl(rd, "cached_fraction", r->read.cached_frac);
	json_add_str(rd, "reason", r->read.reason);
	runs = cJSON_AddArrayToObject(rd, "passes");
	if (!runs)
		return -1;
	for (unsigned i = 0; i < r->read.npasses; i++) {
		const struct seq_read_pass *x = &r->read.passes[i];
		cJSON *e = cJSON_CreateObject();

		if (!e)
			return -1;
		cJSON_AddItemToArray(runs, e);
		cJSON_AddNumberToObject(e, "bytes", (double)x->bytes);
		cJSON_AddNumberToObject(e, "seconds", x->seconds);
		json_add_mdbl(e, "mbps", num(x->mbps, x->seconds > 0));
		json_add_pass_io(e, &x->dist);
	}
	return 0;
}

cJSON *json_seq(const struct bench_report *rep, const struct bench_plan *plan)
{
	const struct seq_result *s = &rep->seq;
	/* no dir measured: the zero result, on the heap (53 KB of rodata otherwise) */
	struct seq_dir_result *none = s->ndirs ? NULL : calloc(1, sizeof(*none));
	cJSON *o = (s->ndirs || none) ? cJSON_CreateObject() : NULL, *arr;

	if (!o) {
		free(none);
		return NULL;
	}
	cJSON_AddNumberToObject(o, "runs_planned", plan->seq.runs);
	cJSON_AddNumberToObject(o, "pool_bytes", (double)s->pool_bytes);
	if (seq_dir_fill(o, s, s->ndirs ? &s->dirs[0] : none) < 0)
		goto fail;
	if (s->ndirs > 1) {
		arr = cJSON_AddArrayToObject(o, "dirs");
		if (!arr)
			goto fail;
		for (unsigned i = 0; i < s->ndirs; i++) {
			cJSON *e = cJSON_CreateObject();

			if (!e)
				goto fail;
			cJSON_AddItemToArray(arr, e);
			if (seq_dir_fill(e, s, &s->dirs[i]) < 0)
				goto fail;
		}
	}
	free(none);
	return o;
fail:
	free(none);
	cJSON_Delete(o);
	return NULL;
}

#endif
