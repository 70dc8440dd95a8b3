/*
 * watch_json.h — the JSON string the watcher's own files are written with
 * (history.jsonl, drift_baseline.json): printf-built lines, no cJSON
 * needed to write them.
 */
#ifndef VPSBENCH_WATCH_JSON_H
#define VPSBENCH_WATCH_JSON_H

#include <stdio.h>

/* s as a JSON string: quoted, '"' and '\\' escaped, control bytes as \u00XX */
void watch_json_string(FILE *f, const char *s);

#endif
