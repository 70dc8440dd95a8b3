/*
 * json_fsync.c — "fsync": {"dirs": [...]}, each with fio's key names
 * for a fdatasync job: "sync": {"total_ios", "lat_ns"} (fdatasync() calls)
 * and "write": {"io_bytes", "total_ios", "clat_ns"} (the write() calls).
 * A dir that measured nothing (skipped, failed before the first sync) has
 * no "sync" and "write".
 */
#include <stdio.h>

#include "json_pass_io.h"
#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON
static cJSON *dir_json(const struct fsync_dir_result *d)
{
	cJSON *o = cJSON_CreateObject(), *x;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "dir", d->dir);
	json_add_str(o, "fstype", d->fstype);
	json_add_str(o, "mountpoint", d->mountpoint);
	json_add_storage(o, &d->storage);
	cJSON_AddStringToObject(o, "status", bench_status_name(d->status));
	json_add_str(o, "reason", d->reason);
	cJSON_AddStringToObject(o, "mode", d->full ? "full" : "sample");
	cJSON_AddBoolToObject(o, "direct", false); /* the recipe is buffered: O_DIRECT off */
	cJSON_AddNumberToObject(o, "bs", d->bs);
	cJSON_AddNumberToObject(o, "size_bytes", (double)d->size_bytes);
	cJSON_AddNumberToObject(o, "time_cap_s", (double)d->time_cap_ns / 1e9);
	cJSON_AddBoolToObject(o, "scaled_down", d->scaled_down);
	cJSON_AddBoolToObject(o, "time_capped", d->time_capped);
	cJSON_AddBoolToObject(o, "preallocated", d->preallocated);
	if (d->status != BENCH_OK && d->syncs == 0 && d->writes == 0)
		return o;
	cJSON_AddNumberToObject(o, "writes", (double)d->writes);
	cJSON_AddNumberToObject(o, "syncs", (double)d->syncs);
	cJSON_AddNumberToObject(o, "io_bytes", (double)d->bytes);
	cJSON_AddNumberToObject(o, "runtime_s", (double)d->runtime_ns / 1e9);
	json_add_mdbl(o, "syncs_per_s", (struct mdbl){ d->syncs_per_s, d->runtime_ns > 0 });
	cJSON_AddBoolToObject(o, "p99_low_confidence", d->p99_low_confidence);
	json_add_pass_io(o, &d->dist);
	x = cJSON_AddObjectToObject(o, "sync");
	if (x) {
		cJSON_AddNumberToObject(x, "total_ios", (double)d->syncs);
		json_add_fsync_lat(x, "lat_ns", &d->sync);
	}
	x = cJSON_AddObjectToObject(o, "write");
	if (x) {
		cJSON_AddNumberToObject(x, "io_bytes", (double)d->bytes);
		cJSON_AddNumberToObject(x, "total_ios", (double)d->writes);
		json_add_fsync_lat(x, "clat_ns", &d->write);
	}
	return o;
}

cJSON *json_fsync(const struct bench_report *rep)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (!o)
		return NULL;
	a = cJSON_AddArrayToObject(o, "dirs");
	for (unsigned i = 0; a && i < rep->fsync.ndirs; i++)
		cJSON_AddItemToArray(a, dir_json(&rep->fsync.dirs[i]));
	return o;
}
#endif
