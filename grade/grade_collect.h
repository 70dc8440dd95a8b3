/*
 * grade_collect.h — private to grade/: the metric set's helpers shared by
 * grade_metrics.c (the entry, net) and the per-area collectors,
 * grade_collect_disk.c (seq, rand, fsync, cache) and
 * grade_collect_cpumem.c (cpu, mem).
 */
#ifndef VPSBENCH_GRADE_COLLECT_H
#define VPSBENCH_GRADE_COLLECT_H

#include <stdbool.h>
#include <stddef.h>

#include "grade.h"

struct bench_report;

/* Adds a metric; selected = its module was asked for. NULL when the set is full. */
struct metric *collect_add(struct metric_set *ms, const char *name, bool selected);
/* A measured value with its run's spread (CoV %, < 0 unknown); a non-finite one is a why. */
void collect_set_value(struct metric *m, double v, double spread_pct);
/* Why m was not measured (cut to fit). */
void collect_set_why(struct metric *m, const char *why);
/* "the X module was not run" / "X failed: reason" into buf. */
const char *collect_module_why(const struct bench_report *rep, int id, char *buf, size_t n);

void collect_seq(const struct bench_report *rep, struct metric_set *ms);
void collect_rand(const struct bench_report *rep, struct metric_set *ms);
void collect_fsync(const struct bench_report *rep, struct metric_set *ms);
void collect_cache(const struct bench_report *rep, struct metric_set *ms);
void collect_cpu(const struct bench_report *rep, struct metric_set *ms);
void collect_mem(const struct bench_report *rep, struct metric_set *ms);

#endif
