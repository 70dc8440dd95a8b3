/*
 * json_put.c — helpers every JSON section uses: values that may be unknown
 * become null, never a 0 that looks real. The JSON dispatcher (json.c) and
 * the sections (json_*.c, yabs.c) call these; nothing here calls back.
 */
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
