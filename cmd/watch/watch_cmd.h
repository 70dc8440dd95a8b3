/*
 * watch_cmd.h — the `vpsbench watch` subcommand: argv in, exit status out.
 */
#ifndef VPSBENCH_WATCH_CMD_H
#define VPSBENCH_WATCH_CMD_H

/*
 * argv[1] is "watch". Exit 0 (stopped by SIGTERM/SIGINT or --rounds done),
 * 1 (bad input, a state directory another watcher holds, a busy port: one
 * line on stderr naming it, nothing started, nothing the run made left),
 * 2 (a start-up step failed: the probe file, the baseline run, a thread).
 */
int watch_main(int argc, char **argv);

#endif
