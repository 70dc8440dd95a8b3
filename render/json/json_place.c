/*
 * json_place.c — "placement" (struct place_result) in JSON: the report's
 * key, the `vpsbench place --format json` document
 * ("vpsbench.placement/1") and the population's (`vpsbench place
 * --population --format json`, "vpsbench.population/1"). A figure not
 * placed has null for its percentile, quantiles, min, max and years, and
 * 0 for its counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

/*
 * The tables' source line is compiled in with them (grade/published_data.c);
 * weak, so this file links, and "source" is null, in a tree without them.
 */
extern const char pub_source[] __attribute__((weak));

static const char *kind_name(int kind)
{
	return kind == PUB_KIND_VPS ? "vps" : kind == PUB_KIND_DEDICATED ? "dedicated" : "any";
}

/* [lo, hi], or null when lo is 0 (no range). */
static void add_range(cJSON *o, const char *key, unsigned lo, unsigned hi)
{
	cJSON *a;

	if (!lo && !hi) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	a = cJSON_AddArrayToObject(o, key);
	if (!a)
		return;
	cJSON_AddItemToArray(a, cJSON_CreateNumber(lo));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(hi));
}

static void add_num_or_null(cJSON *o, const char *key, bool ok, double v)
{
	if (ok)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* "filter": {"kind", "vcpus", "years", "per_machine", "include_cached", "min_n", "text"}. */
static void add_filter(cJSON *o, const struct place_filter *fl, const char *text)
{
	cJSON *x = cJSON_AddObjectToObject(o, "filter");

	if (!x)
		return;
	cJSON_AddStringToObject(x, "kind", kind_name(fl->kind));
	add_range(x, "vcpus", fl->vcpus_lo, fl->vcpus_hi);
	add_range(x, "years", fl->year_lo, fl->year_hi);
	cJSON_AddBoolToObject(x, "per_machine", fl->per_machine);
	cJSON_AddBoolToObject(x, "include_cached", fl->include_cached);
	cJSON_AddNumberToObject(x, "min_n", fl->min_n);
	cJSON_AddStringToObject(x, "text", text);
}

static const char *const q_keys[PLACE_NQ] = { "p10", "p25", "p50", "p75", "p90" };

static bool is_fio(const char *metric)
{
	return strncmp(metric, "fio_", 4) == 0;
}

static cJSON *item_json(const struct place_item *it)
{
	cJSON *o = cJSON_CreateObject();
	bool pl = it->placed;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "metric", it->metric);
	add_num_or_null(o, "bs", is_fio(it->metric), it->bs);
	json_add_str(o, "server", it->server);
	json_add_str(o, "location", it->location);
	json_add_str(o, "family", it->family);
	cJSON_AddStringToObject(o, "label", it->label);
	cJSON_AddStringToObject(o, "unit", it->unit);
	json_add_mdbl(o, "value", it->value);
	cJSON_AddBoolToObject(o, "placed", pl);
	json_add_str(o, "why", pl ? NULL : it->why[0] ? it->why : "no published rows");
	json_add_str(o, "note", it->note);
	cJSON_AddNumberToObject(o, "n", pl ? it->d.n : 0);
	cJSON_AddNumberToObject(o, "below", pl ? it->below : 0);
	cJSON_AddNumberToObject(o, "equal", pl ? it->equal : 0);
	add_num_or_null(o, "percentile", pl, it->pct);
	for (unsigned k = 0; k < PLACE_NQ; k++)
		add_num_or_null(o, q_keys[k], pl, it->d.q[k]);
	add_num_or_null(o, "min", pl, it->d.min);
	add_num_or_null(o, "max", pl, it->d.max);
	if (pl)
		add_range(o, "years", it->d.year_lo, it->d.year_hi);
	else
		cJSON_AddNullToObject(o, "years");
	cJSON_AddNumberToObject(o, "undated", pl ? it->d.undated : 0);
	cJSON_AddNumberToObject(o, "cached_left_out", pl ? it->d.cached_out : 0);
	return o;
}

cJSON *json_place(const struct place_result *p)
{
	cJSON *o = cJSON_CreateObject(), *items;

	if (!o)
		return NULL;
	json_add_str(o, "source", p->source);
	cJSON_AddStringToObject(o, "rule",
				"percentile = 100 x (below + equal / 2) / n (mid-rank); "
				"p10..p90 linear between order statistics, h = (n - 1) p (type 7)");
	add_filter(o, &p->filter, p->filter_text);
	json_add_str(o, "rand_note", p->rand_note);
	items = cJSON_AddArrayToObject(o, "items");
	if (!items) {
		cJSON_Delete(o);
		return NULL;
	}
	for (unsigned i = 0; i < p->nitems && i < PLACE_MAX_ITEMS; i++)
		cJSON_AddItemToArray(items, item_json(&p->item[i]));
	return o;
}

char *render_place_json(const struct place_result *p, const char *report_path, const char *profile)
{
	cJSON *root = cJSON_CreateObject(), *pl;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.placement/1");
	json_add_str(root, "report", report_path);
	json_add_str(root, "profile", profile);
	pl = json_place(p);
	if (pl && cJSON_AddItemToObject(root, "placement", pl))
		out = cJSON_Print(root);
	else
		cJSON_Delete(pl);
	cJSON_Delete(root);
	return out;
}

static cJSON *pop_table_json(const struct place_pop_table *t)
{
	cJSON *o = cJSON_CreateObject();
	bool any = t->d.n > 0;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "metric", t->t->metric);
	add_num_or_null(o, "bs", is_fio(t->t->metric), t->t->bs);
	json_add_str(o, "server", t->t->server);
	json_add_str(o, "location", t->t->location);
	json_add_str(o, "family", t->t->family);
	cJSON_AddStringToObject(o, "unit", t->t->unit);
	cJSON_AddNumberToObject(o, "n", t->d.n);
	for (unsigned k = 0; k < PLACE_NQ; k++)
		add_num_or_null(o, q_keys[k], any, t->d.q[k]);
	add_num_or_null(o, "min", any, t->d.min);
	add_num_or_null(o, "max", any, t->d.max);
	add_range(o, "years", t->d.year_lo, t->d.year_hi);
	cJSON_AddNumberToObject(o, "undated", t->d.undated);
	cJSON_AddNumberToObject(o, "cached_left_out", t->d.cached_out);
	return o;
}

char *render_population_json(const struct place_pop *pop)
{
	cJSON *root = cJSON_CreateObject(), *tables;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.population/1");
	json_add_str(root, "source", pub_source);
	add_filter(root, &pop->filter, pop->filter_text);
	tables = cJSON_AddArrayToObject(root, "tables");
	if (tables) {
		for (unsigned i = 0; i < pop->ntables && i < PLACE_MAX_POP; i++)
			if (pop->table[i].t)
				cJSON_AddItemToArray(tables, pop_table_json(&pop->table[i]));
		out = cJSON_Print(root);
	}
	cJSON_Delete(root);
	return out;
}

#else

char *render_place_json(const struct place_result *p, const char *report_path, const char *profile)
{
	(void)p;
	(void)report_path;
	(void)profile;
	return NULL;
}

char *render_population_json(const struct place_pop *pop)
{
	(void)pop;
	return NULL;
}

#endif
