/*
 * watch_opts.h — the command line of `vpsbench watch` (README, "vpsbench
 * watch"): parsed and checked before anything starts.
 */
#ifndef VPSBENCH_WATCH_OPTS_H
#define VPSBENCH_WATCH_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/watch/watch_round.h"

#define WATCH_DEFAULT_EVERY_NS (15ULL * 60 * 1000000000ULL)
#define WATCH_MIN_EVERY_NS (100ULL * 1000000ULL)
#define WATCH_DEFAULT_PROBE_NS (2ULL * 1000000000ULL)  /* randread; fsync and prime get half */
#define WATCH_MIN_PROBE_NS (10ULL * 1000000ULL)
#define WATCH_MIN_PROBE_TIMEOUT_NS (30ULL * 1000000000ULL) /* the default's floor */
#define WATCH_DEFAULT_HISTORY_MAX (16ULL << 20)
#define WATCH_MIN_HISTORY_MAX (4ULL << 10)
#define WATCH_DEFAULT_PORT 9787
#define WATCH_MAX_WINDOW 100u

struct watch_opts {
	const char *baseline;          /* --baseline FILE; NULL = baseline.json or a run */
	bool rebaseline;               /* --rebaseline: a new baseline, the learnt ones forgotten */
	char state_dir[PATH_MAX];      /* --state-dir or the default */
	const char *dir;               /* the first --dir: where the probe file goes; NULL = the state dir */
	const char *dirs[WATCH_MAX_DIRS]; /* every --dir, in order (dirs[0] == dir) */
	unsigned ndirs;
	uint64_t every_ns;             /* --every */
	uint64_t probe_ns;             /* --probe-time: the randread probe's length */
	uint64_t probe_timeout_ns;     /* --probe-timeout: a disk probe still running then failed */
	double budget_pct;             /* --budget, (0, 100] */
	bool listen_none;              /* --listen none */
	char listen_host[64];          /* IPv4 or IPv6 literal (no brackets) */
	unsigned listen_port;
	const char *prom_file;         /* --prom-file; NULL = none */
	double margin;                 /* --margin */
	unsigned window;               /* --window K */
	uint64_t history_max;          /* --history-max bytes */
	double max_load;               /* --max-load: 1-minute load average */
	double max_cpu;                /* --max-cpu: % of all CPUs busy over the last second */
	double max_psi;                /* --max-psi: /proc/pressure/cpu some avg10, % */
	uint64_t rounds;               /* --rounds: 0 = until a signal */
	/* --report */
	bool report;
	double since_s;
	const char *html;
	/* --status */
	bool status;
	bool json;                     /* --json, with --status only */
	bool window_given;             /* --window was given */
};

/*
 * Parses argv (argv[1] is "watch"). Returns 0, 1 after one line on stderr
 * naming the bad option, or -1 after printing --help to stdout.
 */
int watch_opts_parse(int argc, char **argv, struct watch_opts *o);

void watch_opts_help(FILE *f);

#endif
