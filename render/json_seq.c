/* json_seq.c — placeholder JSON section for seq. */
#include "render.h"

#ifdef HAVE_CJSON
cJSON *json_seq(const struct bench_report *rep, const struct bench_plan *plan)
{
	(void)rep;
	(void)plan;
	return cJSON_CreateObject();
}
#endif
