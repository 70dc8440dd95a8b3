/*
 * watch_status_cmd.h — `vpsbench watch --status`: the state of a watcher
 * at a glance from its state directory (README, "vpsbench watch").
 */
#ifndef VPSBENCH_WATCH_STATUS_CMD_H
#define VPSBENCH_WATCH_STATUS_CMD_H

#include <stdbool.h>
#include <stdio.h>

struct watch_status_args {
	const char *state_dir;
	unsigned window;   /* --window (the stale threshold is window x every) */
	bool window_given;
	bool json;         /* --json */
	double now;        /* Unix s; NAN: VPSBENCH_WATCH_NOW if set (tests), else the clock */
	FILE *out;
};

/* Reads the state directory without writing to it or holding its lock and prints the
 * status. 0, or 1 after one line on stderr when there is no history to read. */
int watch_status_run(const struct watch_status_args *a);

#endif
