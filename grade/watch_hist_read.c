/*
 * watch_hist_read.c — reading a `vpsbench watch` state directory: the
 * JSON-lines history (a line that does not parse is counted and skipped,
 * so a truncated last line or garbage cannot stop the report) and the
 * baseline's figures from baseline.json.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "watch_base.h"
#include "watch_hist.h"
#include "report_file.h"

const struct watch_metric_info watch_metrics[WM_N] = {
	[WM_RANDREAD_P99] = { "randread_p99_us", "4k random read p99", "us", false, WP_RANDREAD },
	[WM_FSYNC_P99] = { "fsync_p99_us", "fdatasync p99", "us", false, WP_FSYNC },
	[WM_PRIME_EPS] = { "prime_events_per_s", "prime, 1 thread", "events/s", true, WP_PRIME },
	[WM_DRAM_NS] = { "dram_ns", "DRAM latency", "ns", false, WP_DRAM },
	[WM_WAKEUP_P99] = { "wakeup_p99_us", "wake-up delay p99", "us", false, WP_N },
};

const char *const watch_hist_probe_names[WP_N] = { "randread", "fsync", "prime", "dram" };

void watch_hist_free(struct watch_hist *h)
{
	free(h->round);
	h->round = NULL;
	h->n = h->cap = 0;
}

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* the history's own line limit is far below this; a longer line is garbage */
#define LINE_MAX_BYTES (1 << 20)
#define BASELINE_MAX_BYTES (64L << 20)

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* a JSON number, else NAN (null, missing, a string) */
static double num(const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void probe(const cJSON *probes, enum watch_probe p, struct watch_round *r)
{
	const cJSON *o = get(probes, watch_hist_probe_names[p]), *st, *why;

	if (!cJSON_IsObject(o))
		return;
	st = get(o, "status");
	if (cJSON_IsString(st) && st->valuestring)
		r->st[p] = !strcmp(st->valuestring, "ok") ? WS_OK :
			   !strcmp(st->valuestring, "skipped") ? WS_SKIPPED :
			   !strcmp(st->valuestring, "failed") ? WS_FAILED : WS_NONE;
	why = get(o, "reason");
	if (cJSON_IsString(why) && why->valuestring)
		snprintf(r->reason[p], sizeof(r->reason[p]), "%s", why->valuestring);
	why = get(o, "skip");
	if (cJSON_IsString(why) && why->valuestring)
		snprintf(r->skip[p], sizeof(r->skip[p]), "%s", why->valuestring);
}

int watch_hist_parse_line(const char *line, struct watch_round *r)
{
	cJSON *o = cJSON_Parse(line);
	const cJSON *sch, *pr, *dl, *wk, *dr, *seq;

	memset(r, 0, sizeof(*r));
	r->seq = -1;
	r->interval_s = r->steal_pct = r->psi_cpu_pct = r->psi_io_pct = r->wakeup_max_us = NAN;
	r->write_errors = NAN;
	for (int m = 0; m < WM_N; m++) {
		r->v[m] = r->drift_ratio[m] = r->drift_baseline[m] = NAN;
		r->degraded[m] = -1;
	}
	if (!o || !cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return -1;
	}
	sch = get(o, "schema");
	r->ts = num(o, "unix");
	if (!isfinite(r->ts)) {
		const cJSON *t = get(o, "time");

		r->ts = watch_base_utc_time(cJSON_IsString(t) ? t->valuestring : NULL);
	}
	if (!cJSON_IsString(sch) || !sch->valuestring || strcmp(sch->valuestring, "vpsbench-watch-1") ||
	    !isfinite(r->ts)) {
		cJSON_Delete(o);
		return -2;
	}
	seq = get(o, "seq");
	if (cJSON_IsNumber(seq))
		r->seq = (long long)seq->valuedouble;
	r->interval_s = num(o, "interval_s");
	pr = get(o, "probes");
	for (int p = 0; p < WP_N; p++)
		probe(pr, (enum watch_probe)p, r);
	r->v[WM_RANDREAD_P99] = num(get(pr, "randread"), "p99_us");
	r->v[WM_FSYNC_P99] = num(get(pr, "fsync"), "p99_us");
	r->v[WM_PRIME_EPS] = num(get(pr, "prime"), "events_per_s");
	r->v[WM_DRAM_NS] = num(get(pr, "dram"), "ns");
	dl = get(o, "deltas");
	r->steal_pct = num(dl, "steal_pct");
	r->psi_cpu_pct = num(dl, "psi_cpu_some_pct");
	r->psi_io_pct = num(dl, "psi_io_some_pct");
	wk = get(o, "wakeup");
	r->v[WM_WAKEUP_P99] = num(wk, "p99_us");
	r->wakeup_max_us = num(wk, "max_us");
	dr = get(o, "drift");
	for (int m = 0; m < WM_N; m++) {
		const cJSON *d = get(dr, watch_metrics[m].name), *dg = get(d, "degraded");

		r->drift_ratio[m] = num(d, "ratio");
		r->drift_baseline[m] = num(d, "baseline");
		r->degraded[m] = cJSON_IsBool(dg) ? cJSON_IsTrue(dg) : -1;
	}
	r->write_errors = num(o, "write_errors");
	cJSON_Delete(o);
	return 0;
}

static int push(struct watch_hist *h, const struct watch_round *r)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct watch_round *nr = realloc(h->round, cap * sizeof(*nr));

		if (!nr)
			return -1;
		h->round = nr;
		h->cap = cap;
	}
	h->round[h->n++] = *r;
	return 0;
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return false;
	return true;
}

int watch_hist_read_file(struct watch_hist *h, const char *path, char *why, size_t wn)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0, last = 0;
	struct watch_round r;

	if (!fp) {
		int e = errno;

		snprintf(why, wn, "cannot open %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	h->files++;
	errno = 0;
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (blank(line)) {
			h->blank++;
			continue;
		}
		h->lines++;
		last = len > LINE_MAX_BYTES ? -1 : watch_hist_parse_line(line, &r);
		if (last == -1)
			h->malformed++;
		else if (last == -2)
			h->foreign++;
		else if (push(h, &r) < 0) {
			snprintf(why, wn, "%s: out of memory", path);
			rc = -1;
			break;
		}
		errno = 0;
	}
	if (!rc && ferror(fp)) {
		snprintf(why, wn, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		rc = -1;
	}
	/* only the newest file's end can be a write cut short */
	h->last_line_broken = !rc && last == -1;
	free(line);
	fclose(fp);
	return rc;
}

int watch_hist_baseline_parse(const char *text, double out[WM_N], char *when, size_t wn,
			      char *why, size_t whyn)
{
	struct watch_base_report b;
	int rc = watch_base_report_parse(text, &b, why, whyn);

	for (int m = 0; m < WM_N; m++)
		out[m] = b.v[m];
	if (when && wn)
		snprintf(when, wn, "%s", b.start_s);
	return rc;
}

/* drift_baseline.json's figures over baseline.json's where it goes with this baseline.json:
 * the baselines the daemon grades against (the learnt wake-up one included) */
static void saved_baselines(struct watch_hist *h, const char *dir, const char *report)
{
	char path[4096 + 32], why[256], hash[17];
	struct watch_base_saved s;
	char *text;

	snprintf(path, sizeof(path), "%s/drift_baseline.json", dir);
	text = report_file_read_max(path, BASELINE_MAX_BYTES, why, sizeof(why));
	if (!text)
		return;
	snprintf(hash, sizeof(hash), "%016llx", report ?
		 (unsigned long long)watch_base_fnv1a(report, strlen(report)) : 0ULL);
	if (watch_base_saved_parse(text, &s, why, sizeof(why)) == 0 &&
	    (!s.report_fnv1a[0] || !strcmp(s.report_fnv1a, hash)))
		for (int m = 0; m < WM_N; m++)
			if (s.v[m] > 0 && (s.src[m] != WBS_REPORT || !isfinite(h->base_json[m])))
				h->base_json[m] = s.v[m];
	free(text);
}

int watch_hist_load(struct watch_hist *h, const char *dir, char *why, size_t wn)
{
	char path[4096 + 32], bwhy[4400];
	struct stat st;
	char *text;

	for (int m = 0; m < WM_N; m++)
		h->base_json[m] = NAN;
	if (stat(dir, &st) < 0) {
		snprintf(why, wn, "state directory %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, wn, "state directory %s: %s", dir, strerror(ENOTDIR));
		return -1;
	}
	/* the rotated generation is the older one */
	snprintf(path, sizeof(path), "%s/history.jsonl.1", dir);
	if (watch_hist_read_file(h, path, why, wn) < 0 && errno != ENOENT)
		return -1;
	snprintf(path, sizeof(path), "%s/history.jsonl", dir);
	if (watch_hist_read_file(h, path, why, wn) < 0)
		return -1;
	why[0] = '\0';
	snprintf(path, sizeof(path), "%s/baseline.json", dir);
	text = report_file_read_max(path, BASELINE_MAX_BYTES, bwhy, sizeof(bwhy));
	if (!text)
		snprintf(h->baseline_note, sizeof(h->baseline_note), "%s", bwhy);
	else if (watch_hist_baseline_parse(text, h->base_json, h->baseline_time, sizeof(h->baseline_time),
					   bwhy, sizeof(bwhy)) < 0)
		snprintf(h->baseline_note, sizeof(h->baseline_note), "%s", bwhy);
	saved_baselines(h, dir, text);
	free(text);
	return 0;
}
#else
int watch_hist_read_file(struct watch_hist *h, const char *path, char *why, size_t wn)
{
	(void)h;
	snprintf(why, wn, "%s: unavailable: built without cJSON", path);
	return -1;
}

int watch_hist_parse_line(const char *line, struct watch_round *r)
{
	(void)line;
	memset(r, 0, sizeof(*r));
	return -1;
}

int watch_hist_baseline_parse(const char *text, double out[WM_N], char *when, size_t wn,
			      char *why, size_t whyn)
{
	(void)text;
	for (int m = 0; m < WM_N; m++)
		out[m] = NAN;
	if (when && wn)
		when[0] = '\0';
	snprintf(why, whyn, "unavailable: built without cJSON");
	return -1;
}

int watch_hist_load(struct watch_hist *h, const char *dir, char *why, size_t wn)
{
	(void)h;
	snprintf(why, wn, "%s: watch --report unavailable: built without cJSON", dir);
	return -1;
}
#endif
