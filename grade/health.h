/*
 * health.h — the Health block: is anything wrong with this machine, or
 * with the measurement? Each check reads the report's figures and says
 * passed, problem (with its evidence and figures) or not run (and why).
 * "No problem found" is said only when every check ran. The verdict line
 * (verdict.c) starts from it. Pure: report in, result out; fleet and
 * compare read the same result back from the JSON report.
 */
#ifndef VPSBENCH_HEALTH_H
#define VPSBENCH_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#define HEALTH_MAX_CHECKS 12
#define HEALTH_MAX_FIGS   6
/* The bounds are the table's health bounds (grade/health_bounds.c, --thresholds "health"). */

enum health_state { HEALTH_PASSED = 0, HEALTH_PROBLEM, HEALTH_NOT_RUN };

struct health_fig {
	char name[32];
	double value;
};

struct health_check {
	char check[24];          /* "steal", "cpu_share", ... */
	enum health_state state;
	char evidence[320];      /* a problem: what was seen; not run: why */
	unsigned nfig;
	struct health_fig fig[HEALTH_MAX_FIGS];
};

struct health_result {
	bool assessed;
	unsigned n, nproblems, nnot_run;
	struct health_check c[HEALTH_MAX_CHECKS];
};

struct bench_report;
struct grade_result;
struct grade_table;

/* Runs every check on rep's figures against t's health bounds (t NULL: the built-in ones). */
void health_assess(const struct bench_report *rep, const struct grade_table *t,
		   struct health_result *out);

/* "ok", "problems" or "incomplete" (no problem, but a check did not run). */
const char *health_status(const struct health_result *h);

/* "health: ..." — the status part of the verdict, also used by fleet. */
void health_summary(const struct health_result *h, char *buf, size_t n);

/*
 * The verdict line into g->verdict: health status, then each fit-for
 * answer, then every resource weak for a VPS of this size (g->weak[]) with
 * the figure that decided it.
 */
void verdict_build(struct grade_result *g, const struct health_result *h);

#endif
