/*
 * prom_put.c — label escaping and sample numbers of the Prometheus text
 * format (see prom_put.h).
 */
#include <stdlib.h>

#include "prom_put.h"

void prom_put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void prom_number(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, n, "%.17g", v);
}
