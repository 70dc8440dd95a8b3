/*
 * json_pass_io.h — "disturbance" of one disk pass (json_seq.c, json_rand.c,
 * json_fsync.c): {"device", "foreign_read_bytes", "foreign_write_bytes",
 * "own_bytes", "io_some_pct_before", "steal_pct", "disturbed", "why"};
 * unknown figures are null, a pass never checked is null as a whole.
 */
#ifndef VPSBENCH_JSON_PASS_IO_H
#define VPSBENCH_JSON_PASS_IO_H

#include "core/pass_io.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

void json_add_pass_io(cJSON *o, const struct pass_io *p);
#endif

#endif
