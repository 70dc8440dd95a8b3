/*
 * sysinfo_priv.h — shared by the sysinfo_*.c readers only: small-file
 * reading below a root prefix, "key : value" splitting, and one entry
 * point per concern.
 */
#ifndef VPSBENCH_SYSINFO_PRIV_H
#define VPSBENCH_SYSINFO_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sysinfo.h"

/* root + rel into buf; false when it does not fit. */
bool si_path(char *buf, size_t n, const char *root, const char *rel);
/* Reads at most n-1 bytes of root+rel, NUL-terminated; length or -errno. */
long si_read(const char *root, const char *rel, char *buf, size_t n);
/* Like si_read for one-line files: trailing whitespace removed; "" counts as missing (-ENODATA). */
long si_read_line(const char *root, const char *rel, char *buf, size_t n);
/* fopen of root+rel for reading, or NULL. */
FILE *si_fopen(const char *root, const char *rel);
bool si_exists(const char *root, const char *rel);
/* Strips leading and trailing whitespace in place; returns the start. */
char *si_trim(char *s);
/* Splits "key<ws>:<ws>value" in place; false without a colon. */
bool si_split_kv(char *line, char **key, char **val);
/* Strict unsigned decimal (whole string, trailing whitespace allowed). */
bool si_parse_u64(const char *s, uint64_t *v);
/* Copies src into dst of size n, always terminated. */
void si_copy(char *dst, size_t n, const char *src);
/* Whole-word search in a space-separated list. */
bool si_has_word(const char *list, const char *word);

/* The readers, one concern each. */
void si_cpu(const char *root, struct sys_cpu *cpu);
void si_mem(const char *root, struct sys_mem *mem);
void si_net(const char *root, struct sys_net *net);
void si_virt(const char *root, const char *kernel, struct sysinfo *si);

#endif
