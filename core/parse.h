/*
 * parse.h — parsers for sizes, durations and counts given on the command
 * line or in profile files. All return 0 on success, -1 on a bad value.
 */
#ifndef VPSBENCH_PARSE_H
#define VPSBENCH_PARSE_H

#include <stdint.h>

/* "4k", "512M", "1G", "4096": binary suffixes K/M/G/T (optional "iB"/"B"). */
int parse_size(const char *s, uint64_t *out);

/* "30", "30s", "500ms", "2m": plain numbers are seconds. Result in ns. */
int parse_duration(const char *s, uint64_t *out_ns);

/* Decimal unsigned integer, whole string, within [min, max]. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Index of s in a NULL-terminated list of names, or -1. */
int parse_enum(const char *s, const char *const *names);

#endif
