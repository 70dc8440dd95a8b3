/*
 * report_file.h — a saved JSON report's whole text, read for the commands
 * that load reports (`vpsbench fleet`, `vpsbench place`, watch's history).
 */
#ifndef VPSBENCH_REPORT_FILE_H
#define VPSBENCH_REPORT_FILE_H

#include <stddef.h>

#define REPORT_FILE_MAX_BYTES (16L << 20) /* larger is no report of ours */

/* The file at path, NUL-terminated (malloc'd), or NULL with one phrase in
 * why ("cannot open: ...", "... too large for a report", "read failed: ..."). */
char *report_file_read(const char *path, char *why, size_t wn);

/* The same, up to max bytes (watch's baseline.json and drift_baseline.json). */
char *report_file_read_max(const char *path, long max, char *why, size_t wn);

#endif
