/*
 * watch_report_cli.c — the command line of `vpsbench watch --report`
 * (the spec's: --state-dir DIR, --since DUR, --html FILE) into
 * struct watch_report_args.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch_report.h"
#include "cmd/watch_report_cli.h"
#include "core/parse.h"

bool watch_report_wanted(int argc, char **argv)
{
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--report"))
			return true;
	return false;
}

static int usage(const char *what)
{
	fprintf(stderr, "vpsbench: watch --report: %s; usage: vpsbench watch --report "
		"[--state-dir DIR] [--since DUR] [--html FILE]\n", what);
	return 1;
}

/* the spec's default: /var/lib/vpsbench as root, else $XDG_STATE_HOME/vpsbench,
 * else ~/.local/state/vpsbench */
static const char *default_state_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (geteuid() == 0)
		return "/var/lib/vpsbench";
	if (x && *x)
		snprintf(buf, n, "%s/vpsbench", x);
	else if (home && *home)
		snprintf(buf, n, "%s/.local/state/vpsbench", home);
	else
		return NULL;
	return buf;
}

int watch_report_main(int argc, char **argv)
{
	struct watch_report_args a = { .out = stdout };
	char dflt[4096], msg[600];

	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--report"))
			continue;
		if (strcmp(o, "--state-dir") && strcmp(o, "--since") && strcmp(o, "--html")) {
			snprintf(msg, sizeof(msg), "unknown option '%.500s' with --report", o);
			return usage(msg);
		}
		if (!v || !*v) {
			snprintf(msg, sizeof(msg), "%s needs a value", o);
			return usage(msg);
		}
		i++;
		if (!strcmp(o, "--state-dir")) {
			a.state_dir = v;
		} else if (!strcmp(o, "--html")) {
			a.html_path = v;
		} else {
			uint64_t ns;
			size_t len = strlen(v);
			char num[64];

			/* days as well as the shared suffixes: a report spans days */
			if (len > 1 && len < sizeof(num) && v[len - 1] == 'd') {
				memcpy(num, v, len - 1);
				num[len - 1] = '\0';
				if (parse_duration(num, &ns) == 0)
					ns *= 86400;
				else
					ns = 0;
			} else if (parse_duration(v, &ns) < 0) {
				ns = 0;
			}
			if (ns == 0) {
				snprintf(msg, sizeof(msg), "--since takes a duration above 0 (30m, 24h, 7d), "
					 "not '%.400s'", v);
				return usage(msg);
			}
			a.since_s = (double)ns / 1e9;
		}
	}
	if (!a.state_dir && !(a.state_dir = default_state_dir(dflt, sizeof(dflt))))
		return usage("no --state-dir and no HOME to find the default");
	return watch_report_run(&a);
}
