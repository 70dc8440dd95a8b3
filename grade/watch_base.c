/*
 * watch_base.c — `vpsbench watch`'s baseline figures, read one way for the
 * daemon and for `watch --report` (watch_base.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grade/watch_base.h"
#include "grade/watch_hist.h"

_Static_assert((int)WM_N == WATCH_BASE_METRICS, "watch_base's metrics are watch_hist's");
_Static_assert((int)WM_DRAM_NS == WBF_DRAM && (int)WM_WAKEUP_P99 == WBF_WAKEUP &&
	       (int)WM_PRIME_EPS == WBF_PRIME, "one metric order");

const char *const watch_base_fig_names[WBF_N] = {
	"randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us",
	"dram_4k_ns",
};
const char *const watch_base_fig_units[WBF_N] = { "us", "us", "events/s", "ns", "us", "ns" };
const char *const watch_base_fig_labels[WBF_N] = {
	"randread qd1 p99", "fsync p99", "1-thread prime events/s", "DRAM latency on huge pages",
	"wake-up delay p99", "DRAM latency on 4 KiB pages",
};
const char *const watch_base_src_str[WBS_N] = { "none", "report", "rounds", "env" };

uint64_t watch_base_fnv1a(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

double watch_base_utc_time(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!end || (*end != 'Z' && *end != '\0'))
		return NAN;
	return (double)timegm(&tm);
}

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = get(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}


/* why a report has no figure: its metrics_detail's why, else its module's state */
static void say_why(const cJSON *j, const char *metric, const char *module, char *out, size_t n)
{
	const cJSON *w = get(get(get(j, "metrics_detail"), metric), "why");
	const cJSON *mods = get(j, "modules"), *mod = get(mods, module), *x;
	char ran[160] = "";
	size_t len = 0;

	cJSON_ArrayForEach(x, mods)
		if (x->string && len + strlen(x->string) + 3 < sizeof(ran))
			len += (size_t)snprintf(ran + len, sizeof(ran) - len, "%s%s", len ? ", " : "",
						x->string);
	if (cJSON_IsString(w) && w->valuestring && *w->valuestring)
		snprintf(out, n, "%s (it ran: %s)", w->valuestring, ran[0] ? ran : "no module");
	else if (!cJSON_IsObject(mod))
		snprintf(out, n, "the %s module was not run (it ran: %s)", module,
			 ran[0] ? ran : "no module");
	else if (cJSON_IsString(get(mod, "reason")) && get(mod, "reason")->valuestring)
		snprintf(out, n, "the %s module: %s", module, get(mod, "reason")->valuestring);
	else
		snprintf(out, n, "the report has no %s figure", metric);
}

/* the metric, else the mem module's DRAM level on pages "huge" or "4k" */
static double dram(const cJSON *j, const char *pages, const char *metric)
{
	const cJSON *x;
	double v = num(get(j, "metrics"), metric);

	if (isfinite(v))
		return v;

	cJSON_ArrayForEach(x, get(get(j, "mem"), "latency")) {
		const cJSON *pg = get(x, "pages");

		if (cJSON_IsString(pg) && pg->valuestring && !strcmp(pg->valuestring, pages))
			v = num(get(x, "levels_ns"), "DRAM");
	}
	return v;
}

int watch_base_report_parse(const char *text, struct watch_base_report *b, char *why, size_t wn)
{
	static const char *const metric[WBF_N] = {
		"lat_p99_ms", "fsync_p99_ms", "cpu_single_eps", "mem_latency_huge_ns", NULL,
		"mem_latency_ns",
	};
	static const char *const module[WBF_N] = { "rand", "fsync", "cpu", "mem", NULL, "mem" };
	cJSON *j = cJSON_Parse(text);
	const cJSON *sch, *met, *x, *st;

	memset(b, 0, sizeof(*b));
	for (int i = 0; i < WBF_N; i++)
		b->v[i] = NAN;
	b->start = b->rand_file_bytes = NAN;
	if (!j || !cJSON_IsObject(j)) {
		snprintf(why, wn, "not a vpsbench report (not valid JSON)");
		cJSON_Delete(j);
		return -1;
	}
	sch = get(j, "schema");
	if (!cJSON_IsString(sch) || !sch->valuestring ||
	    strncmp(sch->valuestring, "vpsbench.report/", 16)) {
		snprintf(why, wn, "not a vpsbench report (no \"schema\": \"vpsbench.report/...\")");
		cJSON_Delete(j);
		return -1;
	}
	met = get(j, "metrics");
	/* each figure: the report's metric, else the pass's own figure (a report nulls the
	 * metric of a disturbed pass; the pass's figure still stands for it) */
	b->v[WBF_RANDREAD] = num(met, "lat_p99_ms") * 1000;
	cJSON_ArrayForEach(x, get(get(j, "rand"), "passes")) {
		const cJSON *nm = get(x, "name");

		if (cJSON_IsString(nm) && nm->valuestring && !strcmp(nm->valuestring, "randread-4k-qd1")) {
			if (!isfinite(b->v[WBF_RANDREAD]))
				b->v[WBF_RANDREAD] = num(get(get(get(x, "read"), "clat_ns"), "percentile"),
							 "99.000000") / 1000;
			b->rand_file_bytes = num(x, "size_bytes");
		}
	}
	x = cJSON_GetArrayItem(get(get(j, "fsync"), "dirs"), 0);
	b->v[WBF_FSYNC] = num(met, "fsync_p99_ms") * 1000;
	if (!isfinite(b->v[WBF_FSYNC]))
		b->v[WBF_FSYNC] = num(get(get(get(x, "sync"), "lat_ns"), "percentile"), "99.000000") / 1000;
	b->v[WBF_PRIME] = num(met, "cpu_single_eps");
	if (!isfinite(b->v[WBF_PRIME]))
		b->v[WBF_PRIME] = num(get(get(get(j, "cpu"), "prime"), "single"), "events_per_s");
	b->v[WBF_DRAM] = dram(j, "huge", "mem_latency_huge_ns");
	b->v[WBF_DRAM_4K] = dram(j, "4k", "mem_latency_ns");
	for (int i = 0; i < WBF_N; i++) {
		if (!(b->v[i] > 0))
			b->v[i] = NAN;
		if (i == WBF_WAKEUP)
			snprintf(b->why[i], sizeof(b->why[i]), "a report has no wake-up figure: learnt "
				 "from the first gate-open rounds");
		else if (!isfinite(b->v[i]))
			say_why(j, metric[i], module[i], b->why[i], sizeof(b->why[i]));
	}
	st = get(get(j, "run"), "start");
	if (cJSON_IsString(st) && st->valuestring) {
		snprintf(b->start_s, sizeof(b->start_s), "%s", st->valuestring);
		b->start = watch_base_utc_time(st->valuestring);
	}
	cJSON_Delete(j);
	return 0;
}

int watch_base_saved_parse(const char *text, struct watch_base_saved *s, char *why, size_t wn)
{
	cJSON *j = cJSON_Parse(text);
	const cJSON *sch, *h, *ms;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < WBF_N; i++)
		s->v[i] = NAN;
	if (!j || !cJSON_IsObject(j)) {
		snprintf(why, wn, "not JSON");
		cJSON_Delete(j);
		return -1;
	}
	sch = get(j, "schema");
	if (!cJSON_IsString(sch) || !sch->valuestring ||
	    strcmp(sch->valuestring, "vpsbench-watch-baseline-1")) {
		snprintf(why, wn, "no \"schema\": \"vpsbench-watch-baseline-1\"");
		cJSON_Delete(j);
		return -1;
	}
	h = get(j, "report_fnv1a");
	if (cJSON_IsString(h) && h->valuestring && strlen(h->valuestring) == 16)
		snprintf(s->report_fnv1a, sizeof(s->report_fnv1a), "%s", h->valuestring);
	h = get(j, "probe_dir");
	if (cJSON_IsString(h) && h->valuestring)
		snprintf(s->probe_dir, sizeof(s->probe_dir), "%s", h->valuestring);
	ms = get(j, "metrics");
	for (int i = 0; i < WBF_N; i++) {
		const cJSON *m = get(ms, watch_base_fig_names[i]), *src = get(m, "source");
		double v = num(m, "value"), t = num(m, "measured_at");

		if (!(v > 0) || !cJSON_IsString(src) || !src->valuestring)
			continue;
		for (int k = 1; k < WBS_N; k++)
			if (!strcmp(src->valuestring, watch_base_src_str[k]))
				s->src[i] = (enum watch_base_src)k;
		if (!s->src[i])
			continue;
		s->v[i] = v;
		s->time[i] = t > 0 ? t : 0;
	}
	cJSON_Delete(j);
	return 0;
}

/* the dram probe's "huge" of one history line: 1, 0, -1 */
static int dram_huge(const char *line)
{
	cJSON *j = cJSON_Parse(line);
	const cJSON *h = get(get(get(j, "probes"), "dram"), "huge");
	int r = cJSON_IsBool(h) ? cJSON_IsTrue(h) : -1;

	cJSON_Delete(j);
	return r;
}

#define TAIL_LINES (2 * WATCH_BASE_TAIL_MAX)

/* keeps the last TAIL_LINES lines of path in ring (oldest overwritten); *n counts all */
static int tail_lines(const char *path, char **ring, size_t *n, char *why, size_t wn)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (!fp) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, wn, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		char **slot = &ring[*n % TAIL_LINES];

		free(*slot);
		*slot = strdup(line);
		if (!*slot) {
			snprintf(why, wn, "%s: out of memory", path);
			rc = -1;
			break;
		}
		(*n)++;
	}
	if (!rc && ferror(fp)) {
		snprintf(why, wn, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
		rc = -1;
	}
	free(line);
	fclose(fp);
	return rc;
}

int watch_base_tail_read(const char *dir, unsigned k, struct watch_base_tail *t, char *why,
			 size_t wn)
{
	char *ring[TAIL_LINES] = { 0 }, path[4096 + 32];
	size_t n = 0, first;
	int rc = -1;
	struct watch_round r;

	memset(t, 0, sizeof(*t));
	for (int m = 0; m < WATCH_BASE_METRICS; m++) {
		t->degraded[m] = -1;
		t->baseline[m] = NAN;
	}
	t->dram_huge = -1;
	if (k > WATCH_BASE_TAIL_MAX)
		k = WATCH_BASE_TAIL_MAX;
	/* the rotated generation is the older one */
	snprintf(path, sizeof(path), "%s/history.jsonl.1", dir);
	if (tail_lines(path, ring, &n, why, wn) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/history.jsonl", dir);
	if (tail_lines(path, ring, &n, why, wn) < 0)
		goto out;
	first = n > TAIL_LINES ? n - TAIL_LINES : 0;
	/* newest first: the last k figures of each metric, the newest line's flags */
	for (size_t i = n; i-- > first;) {
		const char *line = ring[i % TAIL_LINES];

		if (watch_hist_parse_line(line, &r) < 0)
			continue;
		if (!t->lines++) {
			for (int m = 0; m < WATCH_BASE_METRICS; m++) {
				t->degraded[m] = r.degraded[m];
				t->baseline[m] = r.drift_baseline[m];
			}
		}
		if (t->dram_huge < 0 && r.st[WP_DRAM] == WS_OK)
			t->dram_huge = dram_huge(line);
		for (int m = 0; m < WATCH_BASE_METRICS; m++)
			if (t->n[m] < k && r.v[m] > 0)
				t->v[m][t->n[m]++] = r.v[m];
	}
	/* oldest first */
	for (int m = 0; m < WATCH_BASE_METRICS; m++)
		for (unsigned a = 0, b = t->n[m] ? t->n[m] - 1 : 0; a < b; a++, b--) {
			double x = t->v[m][a];

			t->v[m][a] = t->v[m][b];
			t->v[m][b] = x;
		}
	rc = 0;
out:
	for (size_t i = 0; i < TAIL_LINES; i++)
		free(ring[i]);
	return rc;
}
#else
int watch_base_report_parse(const char *text, struct watch_base_report *b, char *why, size_t wn)
{
	(void)text;
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < WBF_N; i++)
		b->v[i] = NAN;
	b->start = b->rand_file_bytes = NAN;
	snprintf(why, wn, "reading a report is unavailable: built without cJSON");
	return -1;
}

int watch_base_saved_parse(const char *text, struct watch_base_saved *s, char *why, size_t wn)
{
	(void)text;
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < WBF_N; i++)
		s->v[i] = NAN;
	snprintf(why, wn, "unavailable: built without cJSON");
	return -1;
}

int watch_base_tail_read(const char *dir, unsigned k, struct watch_base_tail *t, char *why,
			 size_t wn)
{
	(void)dir;
	(void)k;
	(void)why;
	(void)wn;
	memset(t, 0, sizeof(*t));
	for (int m = 0; m < WATCH_BASE_METRICS; m++) {
		t->degraded[m] = -1;
		t->baseline[m] = NAN;
	}
	t->dram_huge = -1;
	return 0;
}
#endif
