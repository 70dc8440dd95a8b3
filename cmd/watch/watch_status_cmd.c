/*
 * watch_status_cmd.c — `vpsbench watch --status`: load the state
 * directory (grade/watch_hist_read.c), gather the status
 * (grade/watch_status.c) and draw it as text or JSON (render/watch/).
 * Nothing is written to the directory and its lock is not held.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/watch/watch_status_cmd.h"
#include "grade/watch_hist.h"
#include "grade/watch_status.h"
#include "render/watch/watch_render.h"

/* now: the argument, else VPSBENCH_WATCH_NOW (tests: ages against a fixed time), else the clock */
static int now_of(const struct watch_status_args *a, double *now)
{
	const char *x = getenv("VPSBENCH_WATCH_NOW");
	struct timespec ts;
	char *end;

	if (isfinite(a->now)) {
		*now = a->now;
		return 0;
	}
	if (x && *x) {
		errno = 0;
		*now = strtod(x, &end);
		if (errno || *end || !isfinite(*now) || *now <= 0) {
			fprintf(stderr, "vpsbench: watch --status: VPSBENCH_WATCH_NOW '%s': not a Unix "
				"time in seconds\n", x);
			return -1;
		}
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	*now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return 0;
}

static const char *running_note(const struct watch_status_sum *s)
{
	return s->running == WRUN_YES ? "; a watcher holds the lock there: no round written yet" : "";
}

int watch_status_run(const struct watch_status_args *a)
{
	struct watch_hist h;
	struct watch_status_sum s;
	char why[4096 + 256];
	FILE *out = a->out ? a->out : stdout;
	double now;
	int rc = 1;

	memset(&h, 0, sizeof(h));
	watch_status_init(&s);
	if (now_of(a, &now) < 0)
		return 1;
	/* a watcher before its first round has no history yet: the one line says it runs */
	watch_status_lock(&s, a->state_dir);
	if (watch_hist_load(&h, a->state_dir, why, sizeof(why)) < 0) {
		fprintf(stderr, "vpsbench: watch --status: %s%s\n", why, running_note(&s));
		goto out;
	}
	if (!h.n) {
		fprintf(stderr, "vpsbench: watch --status: %s/history.jsonl: no history round (%u line%s, "
			"%u malformed)%s\n", a->state_dir, h.lines, h.lines == 1 ? "" : "s",
			h.malformed + h.foreign, running_note(&s));
		goto out;
	}
	/* a broken drift_baseline.json is said in the output, not fatal */
	watch_status_drift_file(&s, a->state_dir);
	watch_status_build(&s, &h, now, a->window, a->window_given);
	if ((a->json ? watch_status_json(out, &s, a->state_dir) :
		       watch_status_text(out, &s, a->state_dir)) < 0 || fflush(out) != 0) {
		fprintf(stderr, "vpsbench: watch --status: writing the status: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	watch_hist_free(&h);
	return rc;
}
