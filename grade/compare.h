/*
 * compare.h — `vpsbench compare OLD.json NEW.json`: each metric side by
 * side, change in %, tier changes, and whether the change stands out from
 * the runs' own spread.
 */
#ifndef VPSBENCH_COMPARE_H
#define VPSBENCH_COMPARE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "grade.h"

/* Noise assumed when a report does not carry a metric's spread. */
#define COMPARE_DEFAULT_NOISE_PCT 5.0

struct compare_row {
	char metric[32];
	char unit[16];
	bool old_ok, new_ok;
	double old_v, new_v;
	bool change_ok;
	double change_pct;       /* (new - old) / old * 100 */
	char old_tier[32], new_tier[32];
	bool tier_changed;
	double noise_pct;        /* max of the two runs' spread, or the default */
	bool significant;        /* |change| > 2 x noise */
	int better;              /* +1 better, -1 worse, 0 same or unknown */
};

struct compare_result {
	char old_path[PATH_MAX], new_path[PATH_MAX];
	char old_time[40], new_time[40];
	/* each report's Health block: status ("unknown" without one) and the checks with a problem */
	char old_health[16], new_health[16];
	char old_problems[160], new_problems[160];
	unsigned n;
	struct compare_row row[GRADE_MAX_METRICS];
};

/* Loads and compares two JSON reports. On error -1 with one line in err. */
int compare_reports(const char *old_path, const char *new_path, struct compare_result *out,
		    char *err, size_t errlen);

#endif
