/*
 * watch_status_json.c — `vpsbench watch --status --json`: the facts of the
 * text status as one JSON object (schema "vpsbench-watch-status-1", the
 * README's "vpsbench watch" section); unknown is null, never 0.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch_render.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static void num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void str(cJSON *o, const char *k, const char *v)
{
	if (v && *v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static void tri(cJSON *o, const char *k, int v)
{
	if (v < 0)
		cJSON_AddNullToObject(o, k);
	else
		cJSON_AddBoolToObject(o, k, v);
}

static const char *status_name(enum watch_status st)
{
	return st == WS_OK ? "ok" : st == WS_SKIPPED ? "skipped" : st == WS_FAILED ? "failed" : NULL;
}

static void probes(cJSON *root, const struct watch_status_sum *s)
{
	cJSON *o = cJSON_AddObjectToObject(root, "probes");

	for (int p = 0; o && p < WP_N; p++) {
		const struct watch_status_probe *ps = &s->probe[p];
		cJSON *x = cJSON_AddObjectToObject(o, watch_hist_probe_names[p]);

		if (!x)
			continue;
		str(x, "state", ps->state == WPS_UNKNOWN ? NULL : watch_pstate_names[ps->state]);
		str(x, "latest", status_name(ps->latest));
		str(x, "reason", ps->latest == WS_OK ? NULL : ps->reason);
		num(x, "latest_unix", ps->latest_ts);
		num(x, "last_ok_unix", ps->ok_ts);
		num(x, "last_ok_age_s", ps->ok_age_s);
		num(x, "value", ps->value);
		str(x, "unit", watch_metrics[ps->metric].unit);
	}
}

static void metrics(cJSON *root, const struct watch_status_sum *s)
{
	cJSON *o = cJSON_AddObjectToObject(root, "metrics");

	for (int m = 0; o && m < WM_N; m++) {
		const struct watch_status_base *b = &s->base[m];
		const struct watch_status_drift *d = &s->drift[m];
		cJSON *x = cJSON_AddObjectToObject(o, watch_metrics[m].name), *bx, *sp;

		if (!x)
			continue;
		bx = cJSON_AddObjectToObject(x, "baseline");
		if (bx) {
			num(bx, "value", b->value);
			str(bx, "unit", watch_metrics[m].unit);
			str(bx, "source", b->source);
			str(bx, "from", b->from);
			num(bx, "unix", b->time);
			num(bx, "age_s", b->age_s);
		}
		tri(x, "degraded", d->degraded);
		num(x, "ratio", d->ratio);
		if (!d->open) {
			cJSON_AddNullToObject(x, "open_span");
			continue;
		}
		sp = cJSON_AddObjectToObject(x, "open_span");
		if (sp) {
			num(sp, "since_unix", d->open_since);
			num(sp, "for_s", d->open_for_s);
			cJSON_AddNumberToObject(sp, "rounds", d->open_rounds);
			num(sp, "worst_ratio", d->open_worst_ratio);
		}
	}
}

static void day(cJSON *root, const struct watch_status_sum *s)
{
	cJSON *o = cJSON_AddObjectToObject(root, "last_24h"), *k;

	if (!o)
		return;
	num(o, "from_unix", s->day_from);
	cJSON_AddNumberToObject(o, "rounds", s->day_rounds);
	cJSON_AddNumberToObject(o, "rounds_with_skip", s->day_rounds_skipped);
	k = cJSON_AddObjectToObject(o, "skipped_by_reason");
	for (int i = 0; k && i < WSK_N; i++)
		cJSON_AddNumberToObject(k, watch_skip_kind_names[i], s->day_skips[i]);
	cJSON_AddNumberToObject(o, "failed", s->day_failed);
}

int watch_status_json(FILE *f, const struct watch_status_sum *s, const char *dir)
{
	cJSON *root = cJSON_CreateObject(), *w, *r, *rep;
	char *txt;
	int rc = -1;

	if (!root)
		return -1;
	cJSON_AddStringToObject(root, "schema", "vpsbench-watch-status-1");
	cJSON_AddStringToObject(root, "state_dir", dir);
	num(root, "now_unix", s->now);
	w = cJSON_AddObjectToObject(root, "watcher");
	if (w) {
		tri(w, "running", s->running == WRUN_YES ? 1 : s->running == WRUN_NO ? 0 : -1);
		num(w, "pid", s->pid > 0 ? (double)s->pid : NAN);
		str(w, "note", s->run_note);
	}
	r = cJSON_AddObjectToObject(root, "rounds");
	if (r) {
		cJSON_AddNumberToObject(r, "count", (double)s->rounds);
		num(r, "last_seq", s->last_seq >= 0 ? (double)s->last_seq : NAN);
		num(r, "last_unix", s->last_ts);
		num(r, "last_age_s", s->last_age_s);
		num(r, "every_s", s->every_s);
		cJSON_AddNumberToObject(r, "window", s->window);
		cJSON_AddBoolToObject(r, "window_given", s->window_given);
		num(r, "stale_after_s", s->stale_after_s);
	}
	rep = cJSON_AddObjectToObject(root, "baseline_json");
	if (rep) {
		str(rep, "run_start", s->report_start);
		num(rep, "unix", s->report_ts);
		num(rep, "age_s", s->report_age_s);
		str(rep, "note", s->report_note);
	}
	cJSON_AddBoolToObject(root, "drift_baseline_json", s->drift_file);
	str(root, "drift_baseline_note", s->drift_note);
	probes(root, s);
	metrics(root, s);
	day(root, s);
	txt = cJSON_Print(root);
	if (txt && fprintf(f, "%s\n", txt) > 0 && !ferror(f))
		rc = 0;
	free(txt);
	cJSON_Delete(root);
	return rc;
}
#else
int watch_status_json(FILE *f, const struct watch_status_sum *s, const char *dir)
{
	(void)f;
	(void)s;
	(void)dir;
	errno = ENOTSUP; /* built without cJSON: said as "Operation not supported" */
	return -1;
}
#endif
