/*
 * fleet_json.c — `vpsbench fleet --format json` ("vpsbench.fleet/1"):
 * the metrics compared with the fleet's median/p10/p90, each node worst
 * first with its figures and flags, and the files that were skipped.
 * "published": the filter and caveat of the placement columns; each node's
 * "published": per column {"percentile", "n", "why"} (percentile null and
 * why set when not placed).
 */
#include <math.h>
#include <stdlib.h>

#include "fleet_render.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *metrics_json(const struct fleet *fl)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned m = 0; arr && m < fl->nmetric; m++) {
		const struct fleet_metric *fm = &fl->metric[m];
		cJSON *o;

		if (!fm->shown)
			continue;
		o = cJSON_CreateObject();
		if (!o)
			break;
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "metric", fm->name);
		cJSON_AddStringToObject(o, "unit", fm->unit);
		cJSON_AddBoolToObject(o, "higher_better", fm->higher_better);
		cJSON_AddNumberToObject(o, "nodes", fm->n);
		cJSON_AddItemToObject(o, "median", num_or_null(fm->median));
		cJSON_AddItemToObject(o, "p10", num_or_null(fm->p10));
		cJSON_AddItemToObject(o, "p90", num_or_null(fm->p90));
	}
	return arr;
}

/* The filter as the placement JSON states it (grade/place.h's contract). */
static cJSON *filter_json(const struct place_filter *pf, const char *text)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "kind", pf->kind == PUB_KIND_VPS ? "vps" :
				pf->kind == PUB_KIND_DEDICATED ? "dedicated" : "any");
	if (pf->vcpus_lo || pf->vcpus_hi) {
		a = cJSON_AddArrayToObject(o, "vcpus");
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pf->vcpus_lo));
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pf->vcpus_hi));
	} else {
		cJSON_AddNullToObject(o, "vcpus");
	}
	if (pf->year_lo || pf->year_hi) {
		a = cJSON_AddArrayToObject(o, "years");
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pf->year_lo));
		cJSON_AddItemToArray(a, cJSON_CreateNumber(pf->year_hi));
	} else {
		cJSON_AddNullToObject(o, "years");
	}
	cJSON_AddBoolToObject(o, "per_machine", pf->per_machine);
	cJSON_AddBoolToObject(o, "include_cached", pf->include_cached);
	cJSON_AddNumberToObject(o, "min_n", pf->min_n);
	cJSON_AddStringToObject(o, "text", text);
	return o;
}

static cJSON *published_json(const struct fleet *fl)
{
	cJSON *o = cJSON_CreateObject(), *cols;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "rule", "percentile = 100 x (below + equal / 2) / n");
	cJSON_AddItemToObject(o, "filter", filter_json(&fl->place_filter, fl->place_filter_text));
	cJSON_AddStringToObject(o, "caveat", "a best-case sample: see data/published/README.md");
	cols = cJSON_AddArrayToObject(o, "columns");
	for (unsigned c = 0; cols && c < FLEET_PLACE_COLS; c++) {
		cJSON *x;

		if (!fl->place_shown[c] || !(x = cJSON_CreateObject()))
			continue;
		cJSON_AddStringToObject(x, "key", fleet_place_cols[c].key);
		cJSON_AddStringToObject(x, "metric", fleet_place_cols[c].metric);
		if (fleet_place_cols[c].bs)
			cJSON_AddNumberToObject(x, "bs", fleet_place_cols[c].bs);
		else
			cJSON_AddNullToObject(x, "bs");
		cJSON_AddStringToObject(x, "header", fleet_place_cols[c].header);
		cJSON_AddItemToArray(cols, x);
	}
	return o;
}

/* Every column, shown or not: a node's cell says why it was not placed. */
static cJSON *node_published_json(const struct fleet_node *nd)
{
	cJSON *o = cJSON_CreateObject();

	for (unsigned c = 0; o && c < FLEET_PLACE_COLS; c++) {
		const struct fleet_place_cell *pc = &nd->place[c];
		cJSON *x = cJSON_AddObjectToObject(o, fleet_place_cols[c].key);

		if (!x)
			break;
		cJSON_AddItemToObject(x, "percentile", num_or_null(pc->placed ? pc->pct : NAN));
		cJSON_AddNumberToObject(x, "n", pc->n);
		if (pc->placed)
			cJSON_AddNullToObject(x, "why");
		else
			cJSON_AddStringToObject(x, "why", pc->why);
	}
	return o;
}

static cJSON *node_json(const struct fleet *fl, const struct fleet_node *nd)
{
	cJSON *o = cJSON_CreateObject(), *vals, *worse, *outl, *miss, *dist;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "label", nd->label);
	cJSON_AddStringToObject(o, "labels", nd->tags);
	cJSON_AddStringToObject(o, "file", nd->file);
	cJSON_AddStringToObject(o, "profile", nd->profile);
	cJSON_AddStringToObject(o, "status", fleet_node_status(nd));
	cJSON_AddBoolToObject(o, "complete", nd->complete);
	cJSON_AddBoolToObject(o, "failing", nd->failing);
	if (nd->failing)
		cJSON_AddStringToObject(o, "failed", nd->fail_why);
	cJSON_AddStringToObject(o, "verdict", nd->verdict);
	cJSON_AddStringToObject(o, "health", nd->health);
	cJSON_AddStringToObject(o, "health_problems", nd->health_why);
	if (fl->placed_any)
		cJSON_AddItemToObject(o, "published", node_published_json(nd));
	vals = cJSON_AddObjectToObject(o, "values");
	worse = cJSON_AddObjectToObject(o, "worse_than_median_pct");
	outl = cJSON_AddArrayToObject(o, "outliers");
	miss = cJSON_AddArrayToObject(o, "missing");
	dist = cJSON_AddArrayToObject(o, "disturbed");
	for (unsigned m = 0; vals && worse && outl && miss && m < fl->nmetric; m++) {
		const struct fleet_metric *fm = &fl->metric[m];

		if (!fm->shown)
			continue;
		cJSON_AddItemToObject(vals, fm->name, num_or_null(nd->has[m] ? nd->v[m] : NAN));
		cJSON_AddItemToObject(worse, fm->name, num_or_null(nd->worse_pct[m]));
		if (nd->outlier[m])
			cJSON_AddItemToArray(outl, cJSON_CreateString(fm->name));
		if (!nd->has[m] && !fleet_node_disturbed(nd, m))
			cJSON_AddItemToArray(miss, cJSON_CreateString(fm->name));
	}
	for (unsigned j = 0; dist && j < nd->ndist; j++) {
		const struct fleet_disturbed *x = &nd->dist[j];
		cJSON *d;

		if (!fl->metric[x->m].shown || !(d = cJSON_CreateObject()))
			continue;
		cJSON_AddStringToObject(d, "metric", fl->metric[x->m].name);
		cJSON_AddNumberToObject(d, "value", x->v);
		cJSON_AddStringToObject(d, "why", x->why);
		cJSON_AddItemToArray(dist, d);
	}
	return o;
}

char *fleet_json(const struct fleet *fl)
{
	cJSON *root = cJSON_CreateObject(), *arr, *left, *reqs;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.fleet/1");
	cJSON_AddStringToObject(root, "version", VPSBENCH_VERSION);
	cJSON_AddNumberToObject(root, "outlier_pct", fl->outlier_pct);
	cJSON_AddStringToObject(root, "profiles", fl->profiles);
	cJSON_AddBoolToObject(root, "mixed_profiles", fl->mixed_profiles);
	left = cJSON_AddArrayToObject(root, "left_out");
	for (unsigned m = 0; left && m < fl->nmetric; m++)
		if (fl->metric[m].left_out)
			cJSON_AddItemToArray(left, cJSON_CreateString(fl->metric[m].name));
	reqs = cJSON_AddArrayToObject(root, "requirements");
	for (unsigned r = 0; reqs && r < fl->nreq; r++)
		cJSON_AddItemToArray(reqs, cJSON_CreateString(fl->req[r].text));
	cJSON_AddNumberToObject(root, "nodes_total", fl->n);
	cJSON_AddNumberToObject(root, "nodes_failing", fl->nfailing);
	cJSON_AddNumberToObject(root, "nodes_outlier", fl->noutlier_nodes);
	cJSON_AddItemToObject(root, "metrics", metrics_json(fl));
	if (fl->placed_any)
		cJSON_AddItemToObject(root, "published", published_json(fl));
	arr = cJSON_AddArrayToObject(root, "nodes");
	for (unsigned i = 0; arr && i < fl->n; i++)
		cJSON_AddItemToArray(arr, node_json(fl, &fl->node[i]));
	arr = cJSON_AddArrayToObject(root, "skipped");
	for (unsigned i = 0; arr && i < fl->nbroken; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddStringToObject(o, "file", fl->broken[i].file);
		cJSON_AddStringToObject(o, "why", fl->broken[i].why);
		cJSON_AddItemToArray(arr, o);
	}
	out = cJSON_Print(root);
	cJSON_Delete(root);
	return out;
}

#else

char *fleet_json(const struct fleet *fl)
{
	(void)fl;
	return NULL;
}

#endif
