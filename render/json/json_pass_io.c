/*
 * json_pass_io.c — the "disturbance" object of a disk pass (json_pass_io.h).
 */
#include "json_pass_io.h"
#include "json_put.h"

#ifdef HAVE_CJSON
void json_add_pass_io(cJSON *o, const struct pass_io *p)
{
	cJSON *x;

	if (!p->checked) {
		cJSON_AddNullToObject(o, "disturbance");
		return;
	}
	x = cJSON_AddObjectToObject(o, "disturbance");
	if (!x)
		return;
	json_add_str(x, "device", p->dev);
	json_add_mu64(x, "foreign_read_bytes", p->foreign_read_bytes);
	json_add_mu64(x, "foreign_write_bytes", p->foreign_write_bytes);
	cJSON_AddNumberToObject(x, "own_bytes", (double)p->own_bytes);
	json_add_mu64(x, "foreign_ios", p->foreign_ios);
	json_add_mu64(x, "own_ios", (struct mu64){ p->own_ios, p->own_ios != 0 });
	json_add_mdbl(x, "io_some_pct_before", p->io_some_pct_before);
	json_add_mdbl(x, "steal_pct", p->steal_pct);
	cJSON_AddBoolToObject(x, "disturbed", p->disturbed);
	json_add_str(x, "why", p->why);
}
#endif
