/*
 * json_labels.c — the node's --label identity in the JSON report.
 */
#include "render/render.h"

#ifdef HAVE_CJSON

int json_add_labels(cJSON *root, const struct bench_labels *l)
{
	cJSON *o;

	if (l->name[0] && !cJSON_AddStringToObject(root, "label", l->name))
		return -1;
	if (!l->n)
		return 0;
	o = cJSON_AddObjectToObject(root, "labels");
	if (!o)
		return -1;
	for (unsigned i = 0; i < l->n; i++)
		if (!cJSON_AddStringToObject(o, l->key[i], l->val[i]))
			return -1;
	return 0;
}

#endif
