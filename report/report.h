/*
 * report.h — everything a run measured: one section per module, filled
 * by that module only, read by the renderers only.
 */
#ifndef VPSBENCH_REPORT_H
#define VPSBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/module.h"
#include "core/value.h"
#include "modules/sysinfo/sysinfo.h"
#include "modules/seq/seq.h"
#include "modules/rand/rand.h"
#include "grade/grade.h"

#define REPORT_MAX_WARN 32

struct bench_report {
	struct timespec start_real, end_real; /* wall clock, for the report header */
	double elapsed_s;
	bool interrupted;                     /* a signal stopped the run */
	int signal;                           /* which one, 0 = none */
	struct mod_outcome outcome[MOD_COUNT];
	struct sysinfo sys;
	struct seq_result seq;
	struct rand_result rand;
	struct grade_result grade;            /* filled by bench.c after the modules */
	char warnings[REPORT_MAX_WARN][256];
	unsigned nwarn;
};

/* Adds a warning shown once at the end of the text report and in JSON. */
void report_warn(struct bench_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
