/*
 * place_cmd.c — `vpsbench place REPORT.json [filters] [--format
 * text|json|prom] [--html FILE]` and `vpsbench place --population [filters]
 * [--format text|json]`: read (grade/place_load.c), place (grade/place.c),
 * render (render/, the "Among published results" renderers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/place_cmd.h"
#include "grade/place.h"
#include "grade/report_file.h"
#include "render/render.h"
#include "report/atomic_file.h"


enum { PLACE_EXIT_OK = 0, PLACE_EXIT_READ = 1, PLACE_EXIT_USAGE = 2 };
enum { PF_TEXT, PF_JSON, PF_PROM };

static const char place_usage_line[] =
	"usage: vpsbench place REPORT.json [--place-kind vps|dedicated|any] "
	"[--place-vcpus N|N-M|any] [--place-years Y|Y-Y|any] [--place-min-n N] "
	"[--place-per-machine] [--place-include-cached] [--format text|json|prom] [--html FILE]\n"
	"       vpsbench place --population [filters] [--format text|json]\n";

static void place_help(FILE *f)
{
	fputs(place_usage_line, f);
	fputs("\nPlaces a saved JSON report (--output) among the published benchmark runs\n"
	      "compiled into vpsbench (data/published/), only where the workload is the same,\n"
	      "without running anything. --population prints the published population under\n"
	      "the filter instead: n and p10..p90 per table.\n\n"
	      "  --place-kind vps|dedicated|any  which published runs (default vps)\n"
	      "  --place-vcpus N|N-M|any         runs that printed a vCPU count in range\n"
	      "  --place-years Y|Y-Y|any         runs dated in these years (undated left out)\n"
	      "  --place-min-n N                 fewest rows to place among, 1-1000 (default 20)\n"
	      "  --place-per-machine             one run per machine: its first published one\n"
	      "  --place-include-cached          keep the cache-inflated yabs runs (1m > 15 GB/s)\n"
	      "  --format text|json|prom         the output on stdout (default text)\n"
	      "  --html FILE                     also write an HTML page with a strip per figure\n\n"
	      "Exit status: 0 the report was read (placed or not), 1 it could not be read or is\n"
	      "not a vpsbench report, 2 usage error.\n", f);
}

static int usage(const char *what)
{
	fprintf(stderr, "vpsbench: place: %s\n", what);
	return PLACE_EXIT_USAGE;
}

static int write_html(const char *file, const struct place_result *res, const char *report)
{
	struct atomic_file af;
	char err[600], title[512];

	if (atomic_open(&af, file, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: place: --html %s: %s\n", file, err);
		return -1;
	}
	snprintf(title, sizeof(title), "%s among published results", report);
	if (render_place_html(af.f, res, title) < 0) {
		fprintf(stderr, "vpsbench: place: --html %s: writing: %s\n", file, strerror(errno));
		atomic_abort(&af);
		return -1;
	}
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: place: --html %s: %s\n", file, err);
		return -1;
	}
	return 0;
}

/* A rendered JSON document to stdout (freed); -1 when it could not be built. */
static int print_json(char *out)
{
	if (!out) {
		fprintf(stderr, "vpsbench: place: cannot build the JSON: out of memory "
			"or built without cJSON\n");
		return -1;
	}
	printf("%s\n", out);
	free(out);
	return 0;
}

static int population(const struct place_filter *f, int fmt)
{
	static struct place_pop pop;

	place_population(f, &pop);
	if (fmt == PF_JSON) {
		if (print_json(render_population_json(&pop)) < 0)
			return PLACE_EXIT_READ;
	} else {
		render_population_text(stdout, &pop);
	}
	return fflush(stdout) == 0 ? PLACE_EXIT_OK : PLACE_EXIT_READ;
}

/* Places the report at path under f; output in fmt, and the page at html (NULL: none). */
static int place_report(const char *path, const struct place_filter *f, int fmt,
			const char *html)
{
	static struct place_input in;
	static struct place_result res;
	char why[600], *text;
	int rc = PLACE_EXIT_OK;

	text = report_file_read(path, why, sizeof(why));
	if (!text) {
		fprintf(stderr, "vpsbench: place: %s: %s\n", path, why);
		return PLACE_EXIT_READ;
	}
	if (place_input_from_json(text, &in, why, sizeof(why)) < 0) {
		fprintf(stderr, "vpsbench: place: %s: %s\n", path, why);
		free(text);
		return PLACE_EXIT_READ;
	}
	free(text);
	place_compute(&in, f, &res);
	switch (fmt) {
	case PF_JSON:
		if (print_json(render_place_json(&res, path, in.profile)) < 0)
			return PLACE_EXIT_READ;
		break;
	case PF_PROM:
		if (render_place_prom(stdout, &res) < 0)
			fprintf(stderr, "vpsbench: place: writing the prom output: %s\n",
				strerror(errno));
		break;
	default:
		render_place_text(stdout, &res);
		break;
	}
	fflush(stdout);
	if (html && write_html(html, &res, path) < 0)
		rc = PLACE_EXIT_READ;
	return rc;
}

int place_main(int argc, char **argv)
{
	struct place_filter f;
	const char *report = NULL, *html = NULL;
	bool pop = false;
	int fmt = PF_TEXT;
	char err[300];

	place_filter_default(&f);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			place_help(stdout);
			return PLACE_EXIT_OK;
		}
		r = place_filter_argv(&f, argc, argv, &i, err, sizeof(err));
		if (r < 0)
			return usage(err);
		if (r == 0)
			continue;
		if (!strcmp(a, "--population")) {
			pop = true;
		} else if (!strcmp(a, "--format") || !strcmp(a, "--html")) {
			if (i + 1 >= argc) {
				snprintf(err, sizeof(err), "%s needs a value", a);
				return usage(err);
			}
			if (!strcmp(a, "--html")) {
				html = argv[++i];
				continue;
			}
			a = argv[++i];
			fmt = !strcmp(a, "text") ? PF_TEXT : !strcmp(a, "json") ? PF_JSON :
			      !strcmp(a, "prom") ? PF_PROM : -1;
			if (fmt < 0) {
				snprintf(err, sizeof(err), "--format takes text, json or prom, not '%s'",
					 a);
				return usage(err);
			}
		} else if (!strcmp(a, "--json")) {
			fmt = PF_JSON;
		} else if (a[0] == '-' && a[1]) {
			snprintf(err, sizeof(err), "unknown option '%s' (vpsbench place --help)", a);
			return usage(err);
		} else if (report) {
			snprintf(err, sizeof(err), "one report at a time: '%s' and '%s'", report, a);
			return usage(err);
		} else {
			report = a;
		}
	}
	if (pop) {
		if (report)
			return usage("--population takes no report");
		if (fmt == PF_PROM || html)
			return usage("--population prints text or json (--format text|json)");
		return population(&f, fmt);
	}
	if (!report)
		return usage("needs a report: vpsbench place REPORT.json [filters] "
			     "[--format text|json|prom] [--html FILE], or --population (--help)");
	if (html && atomic_check_dir("--html", html, err, sizeof(err)) < 0)
		return usage(err);
	return place_report(report, &f, fmt, html);
}
