/* json_sysinfo.c — placeholder JSON section for sysinfo. */
#include "render.h"

#ifdef HAVE_CJSON
cJSON *json_sysinfo(const struct bench_report *rep)
{
	(void)rep;

	return cJSON_CreateObject();
}
#endif
