/*
 * json_put.h — helpers the JSON dispatcher and the JSON sections share.
 */
#ifndef VPSBENCH_JSON_PUT_H
#define VPSBENCH_JSON_PUT_H

#include "core/storage.h"
#include "core/value.h"
#include "render/render.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* Unknown values become null. */
void json_add_mu64(cJSON *o, const char *key, struct mu64 v);
void json_add_mi64(cJSON *o, const char *key, struct mi64 v);
void json_add_mdbl(cJSON *o, const char *key, struct mdbl v);
void json_add_mbool(cJSON *o, const char *key, enum mbool v);
void json_add_str(cJSON *o, const char *key, const char *s); /* NULL or "" -> null */
/*
 * key: fio's latency object {"min", "max", "mean", "stddev", "N",
 * "percentile", "bins"} of l (ns); without a sample min..stddev are null
 * and percentile/bins are left out (json_fsync.c and fio.c share it).
 */
void json_add_fsync_lat(cJSON *o, const char *key, const struct fsync_lat *l);
/* "cpu_share", "steal_pct" (null when unknown) and "disturbed" of a timed pass */
void json_add_pass_cpu(cJSON *o, const struct pass_cpu *c);
/* "storage": {"class", "graded", "reason", "probe_p50_ns"} of a directory */
void json_add_storage(cJSON *o, const struct storage_verdict *sv);
/*
 * "oversell" under parent (json_oversell.c): the snapshot's signs and the
 * flags in words; run (the mem module's deltas, NULL for sysinfo) adds swap
 * total, swap-in and the stall time. 0, or -1 when out of memory.
 */
int json_add_oversell(cJSON *parent, const struct host_mem_signs *s, const struct mem_signs *run,
		      const char (*flags)[HOST_MEM_FLAG_LEN], unsigned nflags);
#endif

#endif
