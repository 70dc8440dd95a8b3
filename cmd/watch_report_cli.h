/*
 * watch_report_cli.h — `vpsbench watch --report [--state-dir DIR] [--since DUR]
 * [--html FILE]`: argv in, watch_report_run(), exit status out. Lets the
 * report run without the daemon's option parser (cmd/watch_cmd.c may call
 * watch_report_run() itself with the same arguments).
 */
#ifndef VPSBENCH_WATCH_REPORT_CLI_H
#define VPSBENCH_WATCH_REPORT_CLI_H

#include <stdbool.h>

/* argv[1] is "watch": does argv ask for --report? */
bool watch_report_wanted(int argc, char **argv);
/* 0 ok, 1 bad input or no history (one line on stderr) */
int watch_report_main(int argc, char **argv);

#endif
