/*
 * fleet_cmd.c — `vpsbench fleet REPORT...|DIR [--format text|json|csv|html]
 * [--outlier PCT] [--require EXPR,...] [--no-color] [--place-* filters]`: load
 * and place among the published results (grade/fleet_load.c), analyse
 * (grade/fleet.c), render (render/fleet/fleet_*.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/fleet_cmd.h"
#include "grade/fleet.h"
#include "grade/grade.h"
#include "grade/place.h"
#include "render/fleet/fleet_render.h"

enum { F_TEXT, F_JSON, F_CSV, F_HTML };

static int usage(const char *what)
{
	fprintf(stderr, "vpsbench: fleet: %s; usage: vpsbench fleet REPORT...|DIR "
		"[--format text|json|csv|html] [--outlier PCT] [--require EXPR,...] "
		"[--place-kind K] [--place-vcpus N|N-M] [--place-years Y|Y-Y] [--place-per-machine] "
		"[--place-include-cached] [--place-min-n N]\n", what);
	return 1;
}

static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1000)
		return -1;
	*out = v;
	return 0;
}

int fleet_main(int argc, char **argv)
{
	static struct fleet fl;
	struct requirement reqs[REQUIRE_MAX];
	struct place_filter pf;
	const char **paths = calloc((size_t)argc, sizeof(*paths));
	const char *require = NULL;
	double pct = FLEET_DEFAULT_OUTLIER_PCT;
	bool no_color = getenv("NO_COLOR") && *getenv("NO_COLOR");
	struct render_style style;
	unsigned np = 0, nreq = 0;
	int fmt = F_TEXT, rc = 1;
	char err[PATH_MAX + 512], msg[600];

	if (!paths) {
		fprintf(stderr, "vpsbench: fleet: out of memory\n");
		return 2;
	}
	place_filter_default(&pf);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int pr = place_filter_argv(&pf, argc, argv, &i, err, sizeof(err));

		if (pr < 0) {
			rc = usage(err);
			goto out;
		}
		if (pr == 0)
			continue;
		if (!strcmp(a, "--format") || !strcmp(a, "--outlier") || !strcmp(a, "--require")) {
			if (!v) {
				snprintf(msg, sizeof(msg), "%s needs a value", a);
				rc = usage(msg);
				goto out;
			}
			i++;
		}
		if (!strcmp(a, "--format")) {
			fmt = !strcmp(v, "text") ? F_TEXT : !strcmp(v, "json") ? F_JSON :
			      !strcmp(v, "csv") ? F_CSV : !strcmp(v, "html") ? F_HTML : -1;
			if (fmt < 0) {
				snprintf(msg, sizeof(msg), "--format takes text|json|csv|html, not '%s'", v);
				rc = usage(msg);
				goto out;
			}
		} else if (!strcmp(a, "--json")) {
			fmt = F_JSON;
		} else if (!strcmp(a, "--outlier")) {
			if (parse_pct(v, &pct) < 0) {
				snprintf(msg, sizeof(msg), "--outlier takes a percentage above 0, at most "
					 "1000, not '%s'", v);
				rc = usage(msg);
				goto out;
			}
		} else if (!strcmp(a, "--require")) {
			require = v;
		} else if (!strcmp(a, "--no-color")) {
			no_color = true;
		} else if (a[0] == '-' && a[1]) {
			snprintf(msg, sizeof(msg), "unknown option '%s'", a);
			rc = usage(msg);
			goto out;
		} else {
			paths[np++] = a;
		}
	}
	if (!np) {
		rc = usage("no report given");
		goto out;
	}
	if (require && require_parse(require, reqs, REQUIRE_MAX, &nreq, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: fleet: %s\n", err);
		goto out;
	}
	if (fleet_load(&fl, paths, np, &pf, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		goto out;
	}
	fleet_analyse(&fl, pct, reqs, nreq);
	for (unsigned i = 0; i < fl.nbroken; i++)
		fprintf(stderr, "vpsbench: fleet: skipped %s: %s\n", fl.broken[i].file, fl.broken[i].why);
	rc = 0;
	if (fmt == F_JSON) {
		char *j = fleet_json(&fl);

		if (!j) {
			fprintf(stderr, "vpsbench: fleet: cannot build JSON: out of memory\n");
			rc = 2;
			goto out;
		}
		printf("%s\n", j);
		free(j);
	} else if (fmt == F_CSV) {
		fleet_csv(stdout, &fl);
	} else if (fmt == F_HTML) {
		fleet_html(stdout, &fl);
	} else {
		style.color = !no_color && isatty(STDOUT_FILENO);
		fleet_text(stdout, &fl, &style);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "vpsbench: fleet: writing the output: %s\n", strerror(errno));
		rc = 2;
	}
	if (rc == 0 && fl.nfailing)
		rc = 3;
out:
	fleet_free(&fl);
	free(paths);
	return rc;
}
