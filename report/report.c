/*
 * report.c — report helpers shared by modules.
 */
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

void report_warn(struct bench_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->nwarn >= REPORT_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(rep->warnings[rep->nwarn], sizeof(rep->warnings[0]), fmt, ap);
	va_end(ap);
	rep->nwarn++;
}
