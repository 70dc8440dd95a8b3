/*
 * fleet_json.c — `vpsbench fleet --format json` ("vpsbench.fleet/1"):
 * the metrics compared with the fleet's median/p10/p90, each node worst
 * first with its figures and flags, and the files that were skipped.
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

static cJSON *node_json(const struct fleet *fl, const struct fleet_node *nd)
{
	cJSON *o = cJSON_CreateObject(), *vals, *worse, *outl, *miss;

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
	vals = cJSON_AddObjectToObject(o, "values");
	worse = cJSON_AddObjectToObject(o, "worse_than_median_pct");
	outl = cJSON_AddArrayToObject(o, "outliers");
	miss = cJSON_AddArrayToObject(o, "missing");
	for (unsigned m = 0; vals && worse && outl && miss && m < fl->nmetric; m++) {
		const struct fleet_metric *fm = &fl->metric[m];

		if (!fm->shown)
			continue;
		cJSON_AddItemToObject(vals, fm->name, num_or_null(nd->has[m] ? nd->v[m] : NAN));
		cJSON_AddItemToObject(worse, fm->name, num_or_null(nd->worse_pct[m]));
		if (nd->outlier[m])
			cJSON_AddItemToArray(outl, cJSON_CreateString(fm->name));
		if (!nd->has[m])
			cJSON_AddItemToArray(miss, cJSON_CreateString(fm->name));
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
