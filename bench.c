/*
 * bench.c — vpsbench's main: options -> context -> modules -> grade ->
 * render -> upload. Each stage has its folder: core/, modules/<name>/,
 * grade/, render/, report/ (README, "Architecture").
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/fleet_cmd.h"
#include "cmd/place_cmd.h"
#include "cmd/watch/watch_cmd.h"
#include "grade/compare.h"
#include "grade/grade.h"
#include "grade/health.h"
#include "core/module.h"
#include "core/options.h"
#include "core/plan.h"
#include "render/progress.h"
#include "render/render.h"
#include "report/report.h"
#include "core/testfile.h"
#include "report/upload.h"
#include "report/atomic_file.h"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_TEST_FAILED = 2,
	EXIT_BELOW_THRESHOLD = 3,
	EXIT_UPLOAD_FAILED = 4,
};

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t stop_signal;

/* First signal: ask the modules to stop. Second: remove test files, leave. */
static void on_signal(int sig)
{
	if (stop_flag) {
		testfile_cleanup_all();
		_exit(128 + sig);
	}
	stop_signal = sig;
	stop_flag = 1;
}

static int install_signals(void)
{
	struct sigaction sa;
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) < 0)
			return -1;
	return 0;
}

static unsigned usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* --dir must name an existing directory, not a symlink, device or file. */
static int check_dirs(const struct bench_opts *o)
{
	struct stat st;

	for (unsigned i = 0; i < o->ndirs; i++) {
		if (lstat(o->dirs[i], &st) < 0) {
			fprintf(stderr, "vpsbench: --dir %s: %s\n", o->dirs[i], strerror(errno));
			return -1;
		}
		if (S_ISLNK(st.st_mode)) {
			fprintf(stderr, "vpsbench: --dir %s is a symbolic link; give the real directory\n",
				o->dirs[i]);
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "vpsbench: --dir %s is not a directory%s\n", o->dirs[i],
				S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode) ?
				" (vpsbench never writes to devices)" : "");
			return -1;
		}
	}
	return 0;
}

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* net plans a family only where this host has an address and a default route (sysinfo's). */
static void host_families(struct bench_ctx *ctx, const struct bench_report *rep)
{
	struct sysinfo *si;

	if (rep->outcome[MOD_sysinfo].status != BENCH_NOT_RUN) {
		ctx->host_ipv4 = rep->sys.net.ipv4;
		ctx->host_ipv6 = rep->sys.net.ipv6;
		return;
	}
	if (!(si = calloc(1, sizeof(*si))))
		return; /* unknown: net tries both */
	sysinfo_gather(ctx->root, NULL, 0, si);
	ctx->host_ipv4 = si->net.ipv4;
	ctx->host_ipv6 = si->net.ipv6;
	free(si);
}

static void notice_stderr(const struct bench_ctx *ctx, const char *line)
{
	/* through the progress line's lock when it runs, so it never splits a redraw */
	if (ctx->live)
		progress_notice(ctx->live, line);
	else
		fprintf(stderr, "vpsbench: %s\n", line);
}

static void run_modules(struct bench_ctx *ctx, struct bench_report *rep)
{
	for (int i = 0; i < MOD_COUNT; i++) {
		const struct bench_module *m = bench_modules[i];
		struct mod_outcome *out = &rep->outcome[i];
		struct timespec a, b;

		if (!options_module_selected(ctx->opts, i))
			continue;
		if (bench_stopped(ctx)) {
			bench_outcome(out, BENCH_INCOMPLETE, "not started: interrupted");
			continue;
		}
		if (m->unavailable) {
			bench_outcome(out, BENCH_UNAVAIL, "unavailable: %s", m->unavailable);
			continue;
		}
		if (i == MOD_net)
			host_families(ctx, rep);
		clock_gettime(CLOCK_MONOTONIC, &a);
		m->run(ctx, report_section(rep, i), out);
		clock_gettime(CLOCK_MONOTONIC, &b);
		out->seconds = ts_diff(&a, &b);
		progress_module_done(ctx->live, i); /* what it did not start leaves the ETA */
		if (bench_stopped(ctx) && out->status == BENCH_OK)
			bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	}
}

static int write_file(const char *path, const char *data)
{
	char err[512];

	if (atomic_write_string(path, data, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: --output %s\n", err);
		return -1;
	}
	return 0;
}

/* --html / --prom-file: rendered into a temporary file, renamed over FILE. */
static int write_rendered(const char *opt, const char *path, const struct bench_report *rep,
			  const struct bench_plan *plan,
			  int (*render)(FILE *, const struct bench_report *, const struct bench_plan *))
{
	struct atomic_file a;
	char err[512];

	if (atomic_open(&a, path, err, sizeof(err)) < 0)
		goto fail;
	if (render(a.f, rep, plan) < 0) {
		snprintf(err, sizeof(err), "writing %.400s: %s", a.tmp, strerror(errno));
		atomic_abort(&a);
		goto fail;
	}
	if (atomic_commit(&a, err, sizeof(err)) < 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "vpsbench: %s %s\n", opt, err);
	return -1;
}

/* Every file named on the command line can be written: checked before the run. */
static int check_out_files(const struct bench_opts *o)
{
	const char *opt[] = { "--output", "--html", "--prom-file" };
	const char *path[] = { o->output, o->html, o->prom_file };
	char err[512];

	for (int i = 0; i < 3; i++) {
		if (path[i] && atomic_check_dir(opt[i], path[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "vpsbench: %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* `vpsbench compare OLD.json NEW.json [--format text|json] [--json] [--no-color]` */
static int compare_main(int argc, char **argv)
{
	static struct compare_result cmp;
	const char *paths[2] = { NULL, NULL };
	bool json = false, no_color = getenv("NO_COLOR") && *getenv("NO_COLOR");
	struct render_style style;
	char err[512];
	int np = 0;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json") ||
		    (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "json"))) {
			json = true;
			i += strcmp(argv[i], "--format") == 0;
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "text")) {
			i++;
		} else if (!strcmp(argv[i], "--no-color")) {
			no_color = true;
		} else if (argv[i][0] == '-' || np == 2) {
			fprintf(stderr, "vpsbench: compare takes OLD.json NEW.json [--format text|json], "
				"not '%s'\n", argv[i]);
			return EXIT_USAGE;
		} else {
			paths[np++] = argv[i];
		}
	}
	if (np != 2) {
		fprintf(stderr, "vpsbench: compare needs two reports: vpsbench compare OLD.json NEW.json\n");
		return EXIT_USAGE;
	}
	if (compare_reports(paths[0], paths[1], &cmp, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (json) {
		char *out = json_compare(&cmp);

		if (!out) {
			fprintf(stderr, "vpsbench: compare: cannot build JSON: out of memory\n");
			return EXIT_TEST_FAILED;
		}
		printf("%s\n", out);
		free(out);
	} else {
		style.color = !no_color && isatty(STDOUT_FILENO);
		text_compare(stdout, &cmp, &style);
	}
	return EXIT_OK;
}

static int exit_status(const struct bench_opts *o, const struct bench_report *rep)
{
	bool any_ok = false, any_fail = false;

	if (rep->interrupted)
		return 128 + rep->signal;
	for (int i = 0; i < MOD_COUNT; i++) {
		if (!options_module_selected(o, i))
			continue;
		if (rep->outcome[i].status == BENCH_OK)
			any_ok = true;
		if (rep->outcome[i].status == BENCH_FAIL)
			any_fail = true;
	}
	if (any_fail || !any_ok)
		return EXIT_TEST_FAILED;
	return rep->grade.requirements_failed ? EXIT_BELOW_THRESHOLD : EXIT_OK;
}

/* stdout in the chosen format; EXIT_OK or EXIT_TEST_FAILED (no memory). */
static int render_stdout(const struct bench_opts *o, const struct bench_report *rep,
			 const struct bench_plan *plan, const struct render_style *style,
			 const char *json)
{
	char *y;

	switch (o->format) {
	case FMT_JSON:
		printf("%s\n", json);
		break;
	case FMT_YABS:
	case FMT_FIO:
		y = o->format == FMT_YABS ? render_yabs(rep, plan) : render_fio(rep, plan);
		if (!y) {
			fprintf(stderr, "vpsbench: cannot build the %s report: out of memory\n",
				o->format == FMT_YABS ? "yabs" : "fio");
			return EXIT_TEST_FAILED;
		}
		printf("%s\n", y);
		free(y);
		break;
	case FMT_PROM:
		/* stdout may be a closed pipe: say so, --output and --upload still follow */
		if (render_prom(stdout, rep, plan) < 0)
			fprintf(stderr, "vpsbench: writing the prom output: %s\n", strerror(errno));
		break;
	default:
		render_text(stdout, rep, plan, style);
		break;
	}
	fflush(stdout);
	return EXIT_OK;
}

/* The --upload-format body: the JSON report, the yabs rendering or the prom text. NULL on no memory. */
static char *upload_body(const struct bench_opts *o, const struct bench_report *rep,
			 const struct bench_plan *plan, const char *json, size_t *n)
{
	char *body = NULL, *y;
	size_t len = 0;
	FILE *m;
	int r;

	switch (o->upload_format.v) {
	case UPFMT_YABS:
		y = render_yabs(rep, plan);
		r = y ? asprintf(&body, "%s\n", y) : -1;
		free(y);
		break;
	case UPFMT_PROM:
		m = open_memstream(&body, &len);
		if (!m)
			return NULL;
		r = render_prom(m, rep, plan);
		if (fclose(m) != 0 || r < 0) {
			free(body);
			return NULL;
		}
		*n = len;
		return body;
	default:
		r = asprintf(&body, "%s\n", json);
		break;
	}
	if (r < 0)
		return NULL;
	*n = (size_t)r;
	return body;
}

/*
 * The report exactly as --output holds it, saved first, then sent in the
 * --upload-format: exit 4 on failure.
 */
static int upload_step(const struct bench_opts *o, const struct bench_report *rep,
		       const struct bench_plan *plan, const char *root, const char *json, int rc)
{
	const char *saved = o->output;
	char name[PATH_MAX], *body = NULL;
	size_t n = 0;

	if (stop_flag) {
		fprintf(stderr, "vpsbench: not uploading: the run was interrupted\n");
		return rc ? rc : EXIT_UPLOAD_FAILED;
	}
	body = upload_body(o, rep, plan, json, &n);
	if (!body) {
		fprintf(stderr, "vpsbench: cannot build the upload: out of memory\n");
		return rc ? rc : EXIT_UPLOAD_FAILED;
	}
	/* another body than the JSON: the JSON report is still what stays on disk */
	if (!saved && o->upload_format.v != UPFMT_JSON) {
		upload_default_name(time(NULL), name, sizeof(name));
		if (upload_save(name, json, strlen(json), stderr) < 0) {
			fprintf(stderr, "vpsbench: not uploading: the report could not be saved locally first\n");
			free(body);
			return rc ? rc : EXIT_UPLOAD_FAILED;
		}
		saved = name;
	}
	if (upload_report(o, root, body, n, saved, &stop_flag, stderr) < 0 && !rc)
		rc = EXIT_UPLOAD_FAILED;
	free(body);
	/* a signal during the upload ends the run like one during the tests */
	return stop_flag ? 128 + stop_signal : rc;
}

int main(int argc, char **argv)
{
	static struct bench_opts opts;
	static struct bench_plan plan;
	static struct bench_report rep;
	static struct grade_table table;
	static struct bench_live live;
	static struct place_input place_in;
	struct place_filter place_f;
	struct requirement reqs[REQUIRE_MAX];
	unsigned nreq = 0;
	struct metric_set metrics;
	struct bench_ctx ctx;
	struct render_style style;
	struct timespec t0, t1;
	char err[512];
	char *json = NULL;
	int rc;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return compare_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "fleet") == 0)
		return fleet_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "place") == 0)
		return place_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "watch") == 0)
		return watch_main(argc, argv);
	rc = options_parse(argc, argv, &opts);
	if (rc < 0 && opts.show_help)
		options_help(stdout, grade_metric_names, grade_metric_descs);
	if (rc < 0)
		return EXIT_OK;
	if (rc > 0)
		return EXIT_USAGE;
	if (plan_build(&opts, &plan, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (place_filter_from_opts(&opts, &place_f, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		return EXIT_USAGE;
	}
	table = *grade_builtin_table();
	if (opts.thresholds && grade_load_file(opts.thresholds, &table, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: --thresholds: %s\n", err);
		return EXIT_USAGE;
	}
	if (opts.dump_thresholds) {
		char *t = json_thresholds(&table);

		if (!t) {
			fprintf(stderr, "vpsbench: --dump-thresholds: unavailable: built without cJSON\n");
			return EXIT_USAGE;
		}
		printf("%s\n", t);
		free(t);
		return EXIT_OK;
	}
	if (opts.require && require_parse(opts.require, reqs, REQUIRE_MAX, &nreq, err,
					  sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (check_dirs(&opts) < 0 || check_out_files(&opts) < 0)
		return EXIT_USAGE;
	if (plan.note[0])
		fprintf(stderr, "vpsbench: %s\n", plan.note);
	if (upload_check_opts(&opts, err, sizeof(err)) < 0 ||
	    net_check_opts(&opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "vpsbench: %s\n", err);
		return EXIT_USAGE;
	}
#ifndef HAVE_CJSON
	if (opts.format == FMT_JSON || opts.format == FMT_YABS || opts.format == FMT_FIO ||
	    opts.output || opts.upload.n) {
		fprintf(stderr, "vpsbench: JSON output is unavailable: built without cJSON\n");
		return EXIT_USAGE;
	}
#endif
	if (install_signals() < 0) {
		fprintf(stderr, "vpsbench: sigaction: %s\n", strerror(errno));
		return EXIT_TEST_FAILED;
	}

	memset(&ctx, 0, sizeof(ctx));
	ctx.opts = &opts;
	ctx.plan = &plan;
	ctx.root = getenv("VPSBENCH_ROOT") ? getenv("VPSBENCH_ROOT") : "";
	ctx.cpus_usable = usable_cpus();
	ctx.stop = &stop_flag;
	ctx.warn = &rep.warn;
	if (!opts.quiet)
		ctx.notice = notice_stderr;
	/* the live line on a terminal, plain lines elsewhere, nothing with --quiet */
	if (!opts.quiet && progress_start(&live, &ctx, stderr, isatty(STDERR_FILENO),
					  !opts.no_color, false) == 0) {
		ctx.progress = progress_step;
		ctx.live = &live;
	}

	rep.labels = opts.labels;
	clock_gettime(CLOCK_REALTIME, &rep.start_real);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* a run with the storage part (minutes): what the whole run will do, its cap included */
	if (ctx.notice && options_module_selected(&opts, MOD_cache)) {
		char line[480];

		progress_plan_line(&ctx, line, sizeof(line));
		if (line[0])
			ctx.notice(&ctx, line);
	}
	run_modules(&ctx, &rep);
	if (ctx.live)
		progress_stop(&live); /* the status line is gone before the report prints */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_REALTIME, &rep.end_real);
	rep.elapsed_s = ts_diff(&t0, &t1);
	rep.interrupted = stop_flag != 0;
	rep.signal = stop_signal;
	testfile_cleanup_all();
	if (opts.storage_report && render_section_ran(&rep, MOD_rand))
		storage_ref_apply(&rep, opts.storage_report);

	grade_collect(&rep, &plan, &metrics);
	grade_apply(&table, &metrics, &rep.grade);
	grade_warn(&rep);
	require_eval(reqs, nreq, &metrics, &rep.grade);
	health_assess(&rep, &table, &rep.health);
	verdict_build(&rep.grade, &rep.health);
	place_input_from_report(&rep, &plan, &place_in);
	place_compute(&place_in, &place_f, &rep.place);

	/* A closed stdout (SIGPIPE) must not kill us before --output is written. */
	signal(SIGPIPE, SIG_IGN);
	if (!opts.include_host)
		report_redact_home(&rep, getenv("HOME"));
	style.color = !opts.no_color && isatty(STDOUT_FILENO) && opts.format == FMT_TEXT;
	if (opts.format == FMT_JSON || opts.output || opts.upload.n) {
		json = render_json(&rep, &plan);
		if (!json) {
			fprintf(stderr, "vpsbench: cannot build the JSON report: out of memory\n");
			return EXIT_TEST_FAILED;
		}
	}
	rc = render_stdout(&opts, &rep, &plan, &style, json);

	if (rc == EXIT_OK)
		rc = exit_status(&opts, &rep);
	/* a page that could not be written is a failed run, unless worse happened */
	if (opts.html && write_rendered("--html", opts.html, &rep, &plan, render_html) < 0 &&
	    (rc == EXIT_OK || rc == EXIT_BELOW_THRESHOLD))
		rc = EXIT_TEST_FAILED;
	/* a failed run keeps the collector's previous file: stale beats wrong */
	if (opts.prom_file && rc != EXIT_OK && rc != EXIT_BELOW_THRESHOLD)
		fprintf(stderr, "vpsbench: --prom-file %s left as it was: the run failed\n",
			opts.prom_file);
	else if (opts.prom_file &&
		 write_rendered("--prom-file", opts.prom_file, &rep, &plan, render_prom) < 0)
		rc = rc == EXIT_OK ? EXIT_TEST_FAILED : rc;
	if (opts.output && write_file(opts.output, json) < 0) {
		if (rc == EXIT_OK)
			rc = EXIT_TEST_FAILED;
	} else if (opts.upload.n) {
		rc = upload_step(&opts, &rep, &plan, ctx.root, json, rc);
	}
	free(json);
	return rc;
}
