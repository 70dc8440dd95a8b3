/*
 * report.c — the report's helpers: where each module's section lives, warnings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"

void *report_section(struct bench_report *rep, int id)
{
	switch (id) {
	case MOD_sysinfo: return &rep->sys;
	case MOD_seq:     return &rep->seq;
	case MOD_rand:    return &rep->rand;
	case MOD_fsync:   return &rep->fsync;
	case MOD_cache:   return &rep->cache;
	case MOD_cpu:     return &rep->cpu;
	case MOD_mem:     return &rep->mem;
	case MOD_net:     return &rep->net;
	}
	return NULL;
}

void report_warn(struct bench_report *rep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bench_warnings_add(&rep->warn, fmt, ap);
	va_end(ap);
}
