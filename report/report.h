/*
 * report.h — everything a run measured: one section per module, filled
 * by that module only (it sees its own section, never this struct), graded
 * by grade/, read by render/ and report/upload.c. The one place, beside the
 * registry, that knows every module.
 */
#ifndef VPSBENCH_REPORT_H
#define VPSBENCH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/labels.h"
#include "core/module.h"
#include "core/value.h"
#include "modules/sysinfo/sysinfo.h"
#include "modules/seq/seq.h"
#include "modules/rand/rand.h"
#include "modules/fsync/fsync.h"
#include "modules/cache/cache.h"
#include "modules/cpu/cpu.h"
#include "modules/mem/mem.h"
#include "modules/net/net.h"
#include "grade/grade.h"
#include "grade/health.h"
#include "grade/place.h"


struct bench_report {
	struct timespec start_real, end_real; /* wall clock, for the report header */
	double elapsed_s;
	bool interrupted;                     /* a signal stopped the run */
	int signal;                           /* which one, 0 = none */
	struct mod_outcome outcome[MOD_COUNT];
	struct sysinfo sys;
	struct seq_result seq;
	struct rand_result rand;
	struct fsync_result fsync;
	struct cache_result cache;
	struct cpu_result cpu;
	struct mem_result mem;
	struct net_result net;
	struct grade_result grade;            /* filled by bench.c after the modules */
	struct health_result health;          /* the Health block, after the grades */
	struct bench_warnings warn;           /* modules add through ctx->warn */
	struct bench_labels labels;           /* --label; empty = no host identity */
	struct storage_ref storage_ref;       /* --storage-report, after the modules */
	struct place_result place;            /* among published results, after the grades */
};

/* The result struct of module id inside rep: what bench.c hands its run(). */
void *report_section(struct bench_report *rep, int id);

/* Adds a warning shown once at the end of the text report and in JSON. */
void report_warn(struct bench_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
