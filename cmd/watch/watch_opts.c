/*
 * watch_opts.c — `vpsbench watch` options: defaults, parsing, the checks
 * that need no system call (the state directory and --listen's port are
 * tried by watch_cmd.c before anything starts), and --help.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_opts.h"
#include "core/parse.h"

void watch_opts_help(FILE *f)
{
	fputs("Usage: vpsbench watch [OPTION]...\n"
	      "       vpsbench watch --report [--state-dir DIR] [--since DUR] [--html FILE]\n"
	      "       vpsbench watch --status [--state-dir DIR] [--window K] [--json]\n"
	      "Watch what this machine delivers over days: cheap probes against a baseline,\n"
	      "a JSON-lines history, Prometheus metrics and drift gauges.\n"
	      "\n"
	      "  --baseline FILE        a vpsbench JSON report to compare with (default: the state\n"
	      "                         directory's baseline.json, else one default run at start)\n"
	      "  --rebaseline           take a new baseline on purpose: run the baseline benchmark again\n"
	      "                         (or take --baseline FILE) and forget the baselines learnt from\n"
	      "                         rounds (drift_baseline.json)\n"
	      "  --state-dir DIR        baseline.json and history.jsonl (default: /var/lib/vpsbench\n"
	      "                         as root, else $XDG_STATE_HOME/vpsbench or ~/.local/state/vpsbench)\n"
	      "  --dir DIR              where the probe file goes (default: the state directory); repeat\n"
	      "                         it (at most 8) for one randread + fsync probe set per directory,\n"
	      "                         labelled dir=\"DIR\"; drift compares the first one only\n"
	      "  --every DUR            time between probe rounds, at least 100ms, +-10% jitter (default: 15m)\n"
	      "  --probe-time DUR       4k randread qd1 probe length; fsync and prime take half (default: 2s)\n"
	      "  --probe-timeout DUR    a disk probe still running after DUR failed \"timed out\"; the round\n"
	      "                         goes on, later rounds skip the disk probes (\"hung\") until it returns;\n"
	      "                         longer than --probe-time (default: 10 x --probe-time, at least 30s)\n"
	      "  --budget PCT           probes' wall time at most PCT of the time since start, (0,100] (default: 1)\n"
	      "  --listen ADDR:PORT     serve /metrics there ([v6]:PORT for IPv6), or none (default: 127.0.0.1:9787)\n"
	      "  --prom-file FILE       also write the metrics to FILE each round (textfile collector, atomic)\n"
	      "  --margin F             drift margin: degraded when worse than baseline x (1+F) (default: 0.25)\n"
	      "  --window K             drift window: median of the last K, K rounds in a row, 1-100 (default: 5)\n"
	      "  --history-max SIZE     rotate history.jsonl to history.jsonl.1 past SIZE, at least 4K (default: 16M)\n"
	      "  --max-load F           idle gate: skip a round above this 1-minute load (default: 0.75 x CPUs)\n"
	      "  --max-cpu PCT          idle gate: skip above this % of the CPUs busy over the last second (default: 50)\n"
	      "  --max-psi PCT          idle gate: skip above this /proc/pressure/cpu some avg10 % (default: 20)\n"
	      "  --rounds N             exit after N rounds (default: run until SIGTERM or SIGINT)\n"
	      "  --report               render the history (see vpsbench watch --report above)\n"
	      "  --since DUR            --report: only the last DUR (s, m, h, d suffixes)\n"
	      "  --html FILE            --report: also write an HTML page\n"
	      "  --status               print a watcher's state at a glance: running or not, the last\n"
	      "                         round, each probe's last figure and state (stale: no ok figure\n"
	      "                         for --window x the rounds' interval x 1.1), baselines, their age,\n"
	      "                         degraded spans still open, the last 24 h's skips by reason;\n"
	      "                         reads the state directory only (exit 1: no history there)\n"
	      "  --json                 --status: the same facts as one JSON object (unknown: null)\n"
	      "  --help                 this text\n"
	      "\n"
	      "Signals: SIGTERM/SIGINT stop (the probe file goes with the process), SIGHUP reopens\n"
	      "the history (after logrotate). Port 9787: beside node_exporter's 9100 range, unassigned\n"
	      "in Prometheus's default port allocations list; loopback only unless --listen says so.\n", f);
}

_Static_assert(WATCH_MAX_DIRS == 8, "--help and the --dir message say at most 8");

static unsigned usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

static void default_state_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");

	if (geteuid() == 0)
		snprintf(buf, n, "/var/lib/vpsbench");
	else if (x && *x == '/')
		snprintf(buf, n, "%s/vpsbench", x);
	else
		snprintf(buf, n, "%s/.local/state/vpsbench", h && *h ? h : ".");
}

static int parse_double(const char *s, double lo, double hi, bool lo_open, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi || (lo_open && v == lo))
		return -1;
	*out = v;
	return 0;
}

/* "ADDR:PORT" with ADDR an IPv4 literal, "[v6]:PORT", or "none". */
static int parse_listen(const char *s, struct watch_opts *o)
{
	const char *colon, *host = s;
	size_t hl;
	uint64_t port;
	unsigned char a[16];

	if (!strcmp(s, "none")) {
		o->listen_none = true;
		return 0;
	}
	o->listen_none = false;
	if (*s == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':')
			return -1;
		host = s + 1;
		hl = (size_t)(rb - host);
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return -1;
		hl = (size_t)(colon - s);
	}
	if (hl == 0 || hl >= sizeof(o->listen_host))
		return -1;
	memcpy(o->listen_host, host, hl);
	o->listen_host[hl] = '\0';
	if (*s == '[' ? inet_pton(AF_INET6, o->listen_host, a) != 1 :
			inet_pton(AF_INET, o->listen_host, a) != 1)
		return -1;
	if (parse_uint(colon + 1, 1, 65535, &port) < 0)
		return -1;
	o->listen_port = (unsigned)port;
	return 0;
}

/* --since: a duration with s, m, h or d (days). */
static int parse_since(const char *s, double *out)
{
	size_t n = strlen(s);
	uint64_t ns;

	if (n > 1 && s[n - 1] == 'd') {
		char tmp[64];
		double d;

		if (n >= sizeof(tmp))
			return -1;
		memcpy(tmp, s, n - 1);
		tmp[n - 1] = '\0';
		if (parse_double(tmp, 0, 1e6, true, &d) < 0)
			return -1;
		*out = d * 86400.0;
		return 0;
	}
	if (parse_duration(s, &ns) < 0 || ns == 0)
		return -1;
	*out = (double)ns / 1e9;
	return 0;
}

static int bad(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "vpsbench: watch: %s '%s': %s\n", opt, val, want);
	return 1;
}

int watch_opts_parse(int argc, char **argv, struct watch_opts *o)
{
	static const char *const with_value[] = {
		"--baseline", "--state-dir", "--dir", "--every", "--probe-time", "--probe-timeout", "--budget",
		"--listen", "--prom-file", "--margin", "--window", "--history-max", "--max-load",
		"--max-cpu", "--max-psi", "--rounds", "--since", "--html", NULL,
	};
	bool state_given = false;
	const char *daemon_opt = NULL; /* the first option that only the watcher itself takes */
	const char *timeout_arg = NULL;
	uint64_t u;

	memset(o, 0, sizeof(*o));
	o->every_ns = WATCH_DEFAULT_EVERY_NS;
	o->probe_ns = WATCH_DEFAULT_PROBE_NS;
	o->budget_pct = 1.0;
	snprintf(o->listen_host, sizeof(o->listen_host), "127.0.0.1");
	o->listen_port = WATCH_DEFAULT_PORT;
	o->margin = 0.25;
	o->window = 5;
	o->history_max = WATCH_DEFAULT_HISTORY_MAX;
	o->max_load = 0.75 * (double)usable_cpus();
	o->max_cpu = 50.0;
	o->max_psi = 20.0;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		bool takes = false;

		for (int k = 0; with_value[k]; k++)
			takes |= !strcmp(a, with_value[k]);
		if (takes) {
			if (i + 1 >= argc) {
				fprintf(stderr, "vpsbench: watch: %s needs a value\n", a);
				return 1;
			}
			v = argv[++i];
			if (!daemon_opt && strcmp(a, "--state-dir") && strcmp(a, "--window") &&
			    strcmp(a, "--since") && strcmp(a, "--html"))
				daemon_opt = a;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			watch_opts_help(stdout);
			return -1;
		} else if (!strcmp(a, "--report")) {
			o->report = true;
		} else if (!strcmp(a, "--rebaseline")) {
			o->rebaseline = true;
			if (!daemon_opt)
				daemon_opt = a;
		} else if (!strcmp(a, "--baseline")) {
			o->baseline = v;
		} else if (!strcmp(a, "--state-dir")) {
			if (!*v || strlen(v) >= sizeof(o->state_dir) - 32)
				return bad(a, v, "not a usable path");
			snprintf(o->state_dir, sizeof(o->state_dir), "%s", v);
			state_given = true;
		} else if (!strcmp(a, "--dir")) {
			if (!*v)
				return bad(a, v, "not a usable path");
			if (o->ndirs >= WATCH_MAX_DIRS)
				return bad(a, v, "given more than 8 times");
			for (unsigned k = 0; k < o->ndirs; k++)
				if (!strcmp(o->dirs[k], v))
					return bad(a, v, "given twice");
			o->dirs[o->ndirs++] = v;
			o->dir = o->dirs[0];
		} else if (!strcmp(a, "--every")) {
			if (parse_duration(v, &o->every_ns) < 0 || o->every_ns < WATCH_MIN_EVERY_NS)
				return bad(a, v, "takes a duration of at least 100ms (s, ms, m, h)");
		} else if (!strcmp(a, "--probe-time")) {
			if (parse_duration(v, &o->probe_ns) < 0 || o->probe_ns < WATCH_MIN_PROBE_NS ||
			    o->probe_ns > 60ULL * 1000000000ULL)
				return bad(a, v, "takes a duration from 10ms to 60s");
		} else if (!strcmp(a, "--probe-timeout")) {
			if (parse_duration(v, &o->probe_timeout_ns) < 0 || o->probe_timeout_ns == 0 ||
			    o->probe_timeout_ns > 24ULL * 3600 * 1000000000ULL)
				return bad(a, v, "takes a duration (s, ms, m, h) longer than --probe-time");
			timeout_arg = v;
		} else if (!strcmp(a, "--budget")) {
			if (parse_double(v, 0, 100, true, &o->budget_pct) < 0)
				return bad(a, v, "takes a percentage above 0, at most 100");
		} else if (!strcmp(a, "--listen")) {
			if (parse_listen(v, o) < 0)
				return bad(a, v, "takes ADDR:PORT (an IPv4 address), [IPv6]:PORT or none");
		} else if (!strcmp(a, "--prom-file")) {
			if (!*v)
				return bad(a, v, "not a usable path");
			o->prom_file = v;
		} else if (!strcmp(a, "--margin")) {
			if (parse_double(v, 0, 100, true, &o->margin) < 0)
				return bad(a, v, "takes a fraction above 0 (0.25 = 25% worse), at most 100");
		} else if (!strcmp(a, "--window")) {
			if (parse_uint(v, 1, WATCH_MAX_WINDOW, &u) < 0)
				return bad(a, v, "takes a count from 1 to 100");
			o->window = (unsigned)u;
			o->window_given = true;
		} else if (!strcmp(a, "--history-max")) {
			if (parse_size(v, &o->history_max) < 0 || o->history_max < WATCH_MIN_HISTORY_MAX)
				return bad(a, v, "takes a size of at least 4K");
		} else if (!strcmp(a, "--max-load")) {
			if (parse_double(v, 0, 1e6, true, &o->max_load) < 0)
				return bad(a, v, "takes a load average above 0");
		} else if (!strcmp(a, "--max-cpu")) {
			if (parse_double(v, 0, 100, true, &o->max_cpu) < 0)
				return bad(a, v, "takes a percentage above 0, at most 100");
		} else if (!strcmp(a, "--max-psi")) {
			if (parse_double(v, 0, 100, true, &o->max_psi) < 0)
				return bad(a, v, "takes a percentage above 0, at most 100");
		} else if (!strcmp(a, "--rounds")) {
			if (parse_uint(v, 1, UINT64_MAX, &o->rounds) < 0)
				return bad(a, v, "takes a count of at least 1");
		} else if (!strcmp(a, "--since")) {
			if (parse_since(v, &o->since_s) < 0)
				return bad(a, v, "takes a duration (s, m, h, d)");
		} else if (!strcmp(a, "--html")) {
			if (!*v)
				return bad(a, v, "not a usable path");
			o->html = v;
		} else if (!strcmp(a, "--status")) {
			o->status = true;
		} else if (!strcmp(a, "--json")) {
			o->json = true;
		} else {
			fprintf(stderr, "vpsbench: watch: unknown option '%s' (vpsbench watch --help)\n", a);
			return 1;
		}
	}
	if (!timeout_arg) {
		o->probe_timeout_ns = 10 * o->probe_ns;
		if (o->probe_timeout_ns < WATCH_MIN_PROBE_TIMEOUT_NS)
			o->probe_timeout_ns = WATCH_MIN_PROBE_TIMEOUT_NS;
	} else if (o->probe_timeout_ns <= o->probe_ns) {
		return bad("--probe-timeout", timeout_arg, "takes a duration longer than --probe-time");
	}
	if (!state_given)
		default_state_dir(o->state_dir, sizeof(o->state_dir));
	if (o->report && o->rebaseline) {
		fprintf(stderr, "vpsbench: watch: --rebaseline does not go with --report\n");
		return 1;
	}
	if (!o->report && (o->since_s > 0 || o->html)) {
		fprintf(stderr, "vpsbench: watch: --since and --html go with --report\n");
		return 1;
	}
	if (o->status && o->report) {
		fprintf(stderr, "vpsbench: watch: --status and --report go separately\n");
		return 1;
	}
	if (o->json && !o->status) {
		fprintf(stderr, "vpsbench: watch: --json goes with --status\n");
		return 1;
	}
	if (o->status && (daemon_opt || o->since_s > 0 || o->html)) {
		fprintf(stderr, "vpsbench: watch: %s does not go with --status (it takes --state-dir, "
			"--window and --json)\n", daemon_opt ? daemon_opt : o->html ? "--html" : "--since");
		return 1;
	}
	return 0;
}
