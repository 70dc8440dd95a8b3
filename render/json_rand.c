/* json_rand.c — placeholder JSON section for rand. */
#include "render.h"

#ifdef HAVE_CJSON
cJSON *json_rand(const struct bench_report *rep, const struct bench_plan *plan)
{
	(void)rep;
	(void)plan;
	return cJSON_CreateObject();
}
#endif
