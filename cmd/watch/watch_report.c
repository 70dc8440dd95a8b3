/*
 * watch_report.c — `vpsbench watch --report`: load the state directory
 * (grade/watch_hist_read.c), analyse the period (grade/watch_hist_calc.c),
 * print the text summary and write the HTML page (render/watch/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_report.h"
#include "grade/watch_hist.h"
#include "render/watch/watch_render.h"

/* The page goes to FILE.tmp, renamed over FILE once whole: a reader never sees half a page. */
static int write_html(const char *path, const struct watch_hist *h)
{
	size_t n = strlen(path) + 8;
	char *tmp = malloc(n);
	FILE *f;
	int rc = -1;

	if (!tmp) {
		fprintf(stderr, "vpsbench: watch --report: --html %s: out of memory\n", path);
		return -1;
	}
	snprintf(tmp, n, "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "vpsbench: watch --report: --html %s: cannot create %s: %s\n", path, tmp,
			strerror(errno));
		free(tmp);
		return -1;
	}
	if (watch_html(f, h) < 0 || fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "vpsbench: watch --report: --html %s: write failed: %s\n", tmp, strerror(errno));
		fclose(f);
	} else if (fclose(f) != 0) {
		fprintf(stderr, "vpsbench: watch --report: --html %s: close failed: %s\n", tmp, strerror(errno));
	} else if (rename(tmp, path) < 0) {
		fprintf(stderr, "vpsbench: watch --report: --html: cannot rename %s to %s: %s\n", tmp, path,
			strerror(errno));
	} else {
		rc = 0;
	}
	if (rc < 0 && unlink(tmp) < 0 && errno != ENOENT)
		fprintf(stderr, "vpsbench: watch --report: cannot remove %s: %s\n", tmp, strerror(errno));
	free(tmp);
	return rc;
}

int watch_report_run(const struct watch_report_args *a)
{
	struct watch_hist h;
	char why[4096 + 256];
	FILE *out = a->out ? a->out : stdout;
	int rc = 1;

	memset(&h, 0, sizeof(h));
	if (!a->state_dir || !*a->state_dir) {
		fprintf(stderr, "vpsbench: watch --report: no state directory\n");
		return 1;
	}
	if (watch_hist_load(&h, a->state_dir, why, sizeof(why)) < 0) {
		fprintf(stderr, "vpsbench: watch --report: %s\n", why);
		goto out;
	}
	if (!h.n) {
		fprintf(stderr, "vpsbench: watch --report: %s/history.jsonl: no history round (%u line%s, "
			"%u malformed)\n", a->state_dir, h.lines, h.lines == 1 ? "" : "s", h.malformed + h.foreign);
		goto out;
	}
	watch_hist_analyse(&h, a->since_s);
	/* the page first: a page that cannot be written is exit 1 with nothing printed */
	if (a->html_path && write_html(a->html_path, &h) < 0)
		goto out;
	if (watch_text(out, &h) < 0 || fflush(out) != 0) {
		fprintf(stderr, "vpsbench: watch --report: writing the summary: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	watch_hist_free(&h);
	return rc;
}
