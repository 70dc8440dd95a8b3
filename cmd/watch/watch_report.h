/*
 * watch_report.h — `vpsbench watch --report`: the evidence of a watch
 * history (the contract with the daemon is /work/wt/watch-spec.md, copied
 * in the README's "vpsbench watch" section).
 */
#ifndef VPSBENCH_WATCH_REPORT_H
#define VPSBENCH_WATCH_REPORT_H

#include <stdio.h>

struct watch_report_args {
	const char *state_dir;
	double since_s;        /* 0 = all */
	const char *html_path; /* NULL = none */
	FILE *out;
};

/* Reads <state_dir>/history.jsonl (.1 first when present) and baseline.json,
 * writes the text summary to a->out and, with html_path, the HTML page.
 * Returns 0 ok, 1 bad input/no history (one line on stderr naming it). */
int watch_report_run(const struct watch_report_args *a);

#endif
