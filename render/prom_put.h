/*
 * prom_put.h — the Prometheus text format's pieces every prom renderer
 * writes alike (prom.c, prom_place.c).
 */
#ifndef VPSBENCH_PROM_PUT_H
#define VPSBENCH_PROM_PUT_H

#include <stddef.h>
#include <stdio.h>

/* A label value, escaped: backslash, double quote and newline. */
void prom_put_escaped(FILE *f, const char *s);

/* v as the shortest of %.15g / %.17g that reads back as the same double. */
void prom_number(char *buf, size_t n, double v);

#endif
