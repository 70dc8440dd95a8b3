/*
 * json_mem.c — the "mem" object: sizing, "stream" (one entry per thread
 * count, MB/s per kernel and the words counted), "latency" (one curve per
 * page kind with its named plateaus), "sysbench" (cache-heavy) and
 * "oversell". Unknown values are null.
 */
#include <math.h>

#include "core/plan.h"
#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static int add_stream(cJSON *arr, const struct mem_stream *s)
{
	cJSON *o = cJSON_CreateObject(), *k;

	if (!o)
		return -1;
	cJSON_AddItemToArray(arr, o);
	cJSON_AddNumberToObject(o, "threads", s->threads);
	cJSON_AddNumberToObject(o, "reps", s->reps);
	cJSON_AddBoolToObject(o, "validated", s->validated);
	json_add_str(o, "isa", s->isa);
	cJSON_AddNumberToObject(o, "array_bytes", (double)s->array_bytes);
	cJSON_AddBoolToObject(o, "first_touch", s->first_touch);
	json_add_mbool(o, "huge_pages_used", s->huge_used);
	json_add_pass_cpu(o, &s->cpu);
	k = cJSON_AddObjectToObject(o, "kernels");
	if (!k)
		return -1;
	for (int i = 0; i < MEM_NKERNELS; i++) {
		cJSON *e = cJSON_AddObjectToObject(k, mem_kernel_names[i]);

		if (!e)
			return -1;
		cJSON_AddNumberToObject(e, "words_per_element", mem_kernel_words[i]);
		json_add_mdbl(e, "mbps", s->mbps[i]);
		/* half the range of the counted reps' MB/s: a best-of's 95% half-width */
		json_add_mdbl(e, "mbps_u95", (struct mdbl){ s->mbps_u[i], s->mbps[i].ok && isfinite(s->mbps_u[i]) });
		json_add_mdbl(e, "min_s", s->min_s[i]);
		json_add_mdbl(e, "avg_s", s->avg_s[i]);
		json_add_mdbl(e, "max_s", s->max_s[i]);
	}
	return 0;
}

/*
 * "graded": the first plateau point past the cache (mem_plateau_point) and
 * its repeat rounds; "translation_cost": the growth from it to the curve's
 * largest point up to 1 GiB (not graded). null when there is none.
 */
static int add_graded(cJSON *o, const struct mem_curve *c)
{
	cJSON *g, *r, *x;

	if (!c->graded_ns.ok) {
		cJSON_AddNullToObject(o, "graded");
		cJSON_AddNullToObject(o, "translation_cost");
		return 0;
	}
	if (!(g = cJSON_AddObjectToObject(o, "graded")))
		return -1;
	cJSON_AddNumberToObject(g, "bytes", (double)c->size[c->graded]);
	cJSON_AddNumberToObject(g, "ns", c->graded_ns.v);
	json_add_mdbl(g, "ns_u95", (struct mdbl){ c->graded_u, isfinite(c->graded_u) });
	if (!(r = cJSON_AddArrayToObject(g, "rounds_ns")))
		return -1;
	for (unsigned i = 0; i < c->rounds; i++)
		cJSON_AddItemToArray(r, cJSON_CreateNumber(c->round_ns[i]));
	if (!c->xlat_ns.ok) {
		cJSON_AddNullToObject(o, "translation_cost");
		return 0;
	}
	if (!(x = cJSON_AddObjectToObject(o, "translation_cost")))
		return -1;
	cJSON_AddNumberToObject(x, "to_bytes", (double)c->xlat_bytes);
	cJSON_AddNumberToObject(x, "ns", c->xlat_ns.v);
	cJSON_AddNumberToObject(x, "pct", c->xlat_pct.v);
	return 0;
}

static int add_curve(cJSON *arr, const struct mem_curve *c)
{
	cJSON *o = cJSON_CreateObject(), *pts, *lv;

	if (!o)
		return -1;
	cJSON_AddItemToArray(arr, o);
	cJSON_AddStringToObject(o, "pages", c->huge ? "huge" : "4k");
	cJSON_AddBoolToObject(o, "present", c->present);
	json_add_mbool(o, "huge_pages_used", c->huge_used);
	cJSON_AddBoolToObject(o, "page_walk", c->page_walk);
	json_add_str(o, "reason", c->reason);
	json_add_pass_cpu(o, &c->cpu);
	pts = cJSON_AddArrayToObject(o, "points");
	lv = cJSON_AddObjectToObject(o, "levels_ns");
	if (!pts || !lv)
		return -1;
	for (unsigned i = 0; i < c->n; i++) {
		cJSON *p = cJSON_CreateObject();

		if (!p)
			return -1;
		cJSON_AddItemToArray(pts, p);
		cJSON_AddNumberToObject(p, "bytes", (double)c->size[i]);
		cJSON_AddNumberToObject(p, "ns", c->ns[i]);
	}
	for (int l = 0; l < MEM_NLEVELS; l++)
		json_add_mdbl(lv, mem_level_names[l], c->level_ns[l]);
	return add_graded(o, c);
}

/* "grow": the 1-thread Triad at S, 2S... that chose the default arrays' size. */
static int add_grow(cJSON *o, const struct mem_grow *g)
{
	cJSON *gr = cJSON_AddObjectToObject(o, "grow"), *pts;

	if (!gr || !(pts = cJSON_AddArrayToObject(gr, "points")))
		return -1;
	cJSON_AddBoolToObject(gr, "settled", g->settled);
	cJSON_AddBoolToObject(gr, "disturbed", g->disturbed);
	for (unsigned i = 0; i < g->n; i++) {
		cJSON *p = cJSON_CreateObject();

		if (!p)
			return -1;
		cJSON_AddItemToArray(pts, p);
		cJSON_AddNumberToObject(p, "bytes", (double)g->bytes[i]);
		cJSON_AddNumberToObject(p, "triad_mbps", g->mbps[i]);
	}
	return 0;
}

cJSON *json_mem(const struct bench_report *rep)
{
	const struct mem_result *m = &rep->mem;
	cJSON *o = cJSON_CreateObject(), *h, *st, *lat, *sb, *tests;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "label", "based on a variant of the STREAM benchmark");
	tests = cJSON_AddArrayToObject(o, "tests");
	if (!tests)
		goto fail;
	for (int i = 0; i < MEM_NTESTS; i++)
		if (m->tests & (1u << i))
			cJSON_AddItemToArray(tests, cJSON_CreateString(mem_test_names[i]));
	h = cJSON_AddObjectToObject(o, "host");
	if (!h)
		goto fail;
	json_add_mu64(h, "l1d_bytes", m->host.l1d);
	json_add_mu64(h, "l2_bytes", m->host.l2);
	json_add_mu64(h, "llc_bytes", m->host.llc);
	json_add_mu64(h, "mem_available_bytes", m->host.avail);
	json_add_mu64(h, "cgroup_limit_bytes", m->host.cg_limit);
	cJSON_AddNumberToObject(o, "llc_used_bytes", (double)m->llc_used);
	cJSON_AddBoolToObject(o, "llc_assumed", m->llc_assumed);
	json_add_str(o, "llc_source", m->llc_source);
	cJSON_AddBoolToObject(o, "strict", m->strict);
	json_add_mu64(o, "knee_bytes", (struct mu64){ m->knee_bytes, m->knee_bytes > 0 });
	cJSON_AddNumberToObject(o, "llc_named_bytes", (double)m->llc_named);
	json_add_str(o, "levels_source", m->levels_source);
	json_add_str(o, "size_source", m->size_source);
	json_add_mu64(o, "latency_max_bytes", (struct mu64){ m->lat_max_bytes, m->lat_max_bytes > 0 });
	cJSON_AddNumberToObject(o, "want_bytes", (double)m->want_bytes);
	cJSON_AddNumberToObject(o, "array_bytes", (double)m->array_bytes);
	cJSON_AddBoolToObject(o, "capped", m->capped);
	json_add_str(o, "cap_reason", m->capped ? "arrays smaller than 4x LLC: figures include cache" : NULL);
	json_add_str(o, "cap_detail", m->cap_reason);
	cJSON_AddNumberToObject(o, "threads", m->threads);
	json_add_str(o, "threads_source", m->threads_source);
	json_add_mi64(o, "single_cpu", (struct mi64){ m->single_cpu, m->single_cpu >= 0 });
	if (m->grow.n && add_grow(o, &m->grow) < 0)
		goto fail;

	st = cJSON_AddArrayToObject(o, "stream");
	lat = cJSON_AddArrayToObject(o, "latency");
	if (!st || !lat)
		goto fail;
	for (int t = 0; t < 2; t++)
		if (m->st[t].present && add_stream(st, &m->st[t]) < 0)
			goto fail;
	for (int k = 0; k < 2; k++)
		if ((m->lat[k].present || m->lat[k].reason[0]) && add_curve(lat, &m->lat[k]) < 0)
			goto fail;

	if (!(m->tests & (1u << MEM_TEST_SYSBENCH))) {
		cJSON_AddNullToObject(o, "sysbench");
		goto oversell;
	}
	sb = cJSON_AddObjectToObject(o, "sysbench");
	if (!sb)
		goto fail;
	cJSON_AddStringToObject(sb, "label", "cache-heavy, for comparison with scripts that run sysbench");
	cJSON_AddNumberToObject(sb, "block_bytes", MEM_SB_BLOCK);
	cJSON_AddNumberToObject(sb, "threads", 1);
	json_add_mdbl(sb, "read_mibps", m->sb.read_mibps);
	json_add_mdbl(sb, "write_mibps", m->sb.write_mibps);
	json_add_pass_cpu(sb, &m->sb.cpu);
oversell:
	if (json_add_oversell(o, &m->signs.host, &m->signs, m->signs.flags, m->signs.nflags) < 0)
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

#endif
