/*
 * root_read.h — small /proc and /sys files read below a root prefix, so
 * fixture trees stand in for the live system (NULL or "" = the live one).
 * Each reader returns false when the file is absent, unreadable or holds
 * no value: the caller leaves its figure unknown.
 */
#ifndef VPSBENCH_ROOT_READ_H
#define VPSBENCH_ROOT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

FILE *root_fopen(const char *root, const char *rel);
/*
 * The whole of a small file (at most n - 1 bytes, NUL-terminated; buf is ""
 * on error): its length, or -errno (-ENAMETOOLONG for a path too long).
 * Opened O_NONBLOCK so a FIFO planted in a fixture cannot hang the run.
 */
long root_read_file(const char *root, const char *rel, char *buf, size_t n);
bool root_exists(const char *root, const char *rel);
/* Cut buf at its first newline and its trailing whitespace; true when something is left. */
bool root_cut_line(char *buf);
/* The first line of a file, cut as root_cut_line does. */
bool root_read_line(const char *root, const char *rel, char *buf, size_t n);
/* A file holding one unsigned decimal. */
bool root_read_u64(const char *root, const char *rel, uint64_t *v);
/* The number after "key" in "key value" / "key: value" lines (/proc/meminfo, /proc/vmstat, memory.stat). */
bool root_read_key(const char *root, const char *rel, const char *key, uint64_t *v);

#endif
