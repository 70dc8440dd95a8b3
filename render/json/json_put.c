/*
 * json_put.c — helpers every JSON section uses: values that may be unknown
 * become null, never a 0 that looks real. The JSON dispatcher (json.c) and
 * the sections (json_*.c, yabs.c) call these; nothing here calls back.
 */
#include <stdio.h>

#include "json_put.h"

#ifdef HAVE_CJSON

void json_add_mu64(cJSON *o, const char *key, struct mu64 v)
{
	if (v.ok)
		cJSON_AddNumberToObject(o, key, (double)v.v);
	else
		cJSON_AddNullToObject(o, key);
}

void json_add_mi64(cJSON *o, const char *key, struct mi64 v)
{
	if (v.ok)
		cJSON_AddNumberToObject(o, key, (double)v.v);
	else
		cJSON_AddNullToObject(o, key);
}

void json_add_mdbl(cJSON *o, const char *key, struct mdbl v)
{
	if (v.ok)
		cJSON_AddNumberToObject(o, key, v.v);
	else
		cJSON_AddNullToObject(o, key);
}

void json_add_mbool(cJSON *o, const char *key, enum mbool v)
{
	if (v == MB_UNKNOWN)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddBoolToObject(o, key, v == MB_TRUE);
}

void json_add_pass_cpu(cJSON *o, const struct pass_cpu *c)
{
	json_add_mdbl(o, "cpu_share", c->share);
	json_add_mdbl(o, "steal_pct", c->steal_pct);
	cJSON_AddBoolToObject(o, "disturbed", c->disturbed);
}

void json_add_str(cJSON *o, const char *key, const char *s)
{
	if (s && *s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

void json_add_fsync_lat(cJSON *o, const char *key, const struct fsync_lat *l)
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
	if (!l->n)
		return;
	p = cJSON_AddObjectToObject(x, "percentile");
	for (int i = 0; p && i < LAT_NPCT; i++) {
		snprintf(k, sizeof(k), "%f", lat_default_percentiles[i]);
		cJSON_AddNumberToObject(p, k, (double)l->pct[i]);
	}
	/* each non-empty bucket's representative value (ns) and its count */
	p = cJSON_AddObjectToObject(x, "bins");
	for (unsigned i = 0; p && i < LAT_PLAT_NR; i++) {
		if (!l->bins[i])
			continue;
		snprintf(k, sizeof(k), "%llu", (unsigned long long)lat_plat_idx_to_val(i));
		cJSON_AddNumberToObject(p, k, (double)l->bins[i]);
	}
}

void json_add_storage(cJSON *o, const struct storage_verdict *sv)
{
	cJSON *x = cJSON_AddObjectToObject(o, "storage");

	if (!x)
		return;
	cJSON_AddStringToObject(x, "class", storage_class_name(sv->cls));
	cJSON_AddBoolToObject(x, "graded", storage_class_graded(sv->cls));
	json_add_str(x, "reason", sv->why);
	json_add_mu64(x, "probe_p50_ns", sv->probe_p50_ns);
}

#endif
