/*
 * watch_status.c — the facts behind `vpsbench watch --status`, gathered
 * from a state directory without writing to it: is a watcher running
 * (its lock), each drift baseline with its source and age, each probe's
 * last figure and whether it went stale, the open degraded spans and the
 * last day's skips by kind. Pure apart from reading the lock and
 * drift_baseline.json; the history comes loaded (watch_hist_read.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "watch_status.h"

const char *const watch_pstate_names[] = { "unknown", "ok", "skipped", "failed", "stale" };
const char *const watch_skip_kind_names[WSK_N] = {
	"load", "cpu", "psi", "budget", "hung", "stopped", "other",
};

/* the idle gate's and the round's wording (cmd/watch/watch_gate.c, watch_cmd.c) */
enum watch_skip_kind watch_skip_kind_of(const char *reason)
{
	static const struct {
		const char *prefix;
		enum watch_skip_kind k;
	} map[] = {
		{ "busy: load", WSK_LOAD }, { "busy: cpu", WSK_CPU }, { "busy: psi", WSK_PSI },
		{ "budget", WSK_BUDGET }, { "hung", WSK_HUNG }, { "stopped", WSK_STOPPED },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (reason && !strncmp(reason, map[i].prefix, strlen(map[i].prefix)))
			return map[i].k;
	if (reason && strstr(reason, "hung"))
		return WSK_HUNG;
	return WSK_OTHER;
}

void watch_status_init(struct watch_status_sum *s)
{
	memset(s, 0, sizeof(*s));
	s->now = s->last_ts = s->last_age_s = s->every_s = s->stale_after_s = NAN;
	s->report_ts = s->report_age_s = s->day_from = NAN;
	s->last_seq = s->pid = -1;
	for (int m = 0; m < WM_N; m++) {
		s->base[m].value = s->base[m].time = s->base[m].age_s = NAN;
		s->drift[m].degraded = -1;
		s->drift[m].ratio = s->drift[m].open_since = s->drift[m].open_for_s = NAN;
		s->drift[m].open_worst_ratio = NAN;
	}
	for (int p = 0; p < WP_N; p++) {
		s->probe[p].latest_ts = s->probe[p].ok_ts = s->probe[p].ok_age_s = NAN;
		s->probe[p].value = NAN;
	}
}

/* the pid holding a flock on the file of fd, from /proc/locks ("1: FLOCK  ADVISORY  WRITE
 * 1234 fd:01:5678 0 EOF"; waiters are "1: -> FLOCK ..."); -1 when not found */
static long lock_holder(int fd)
{
	struct stat st;
	char line[256], type[16], mode[16];
	unsigned maj, min;
	unsigned long ino;
	long pid, found = -1;
	FILE *f;

	if (fstat(fd, &st) < 0 || !(f = fopen("/proc/locks", "re")))
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %15s %ld %x:%x:%lu", type, mode, &pid, &maj, &min,
			   &ino) == 6 && !strcmp(type, "FLOCK") && maj == major(st.st_dev) &&
		    min == minor(st.st_dev) && ino == (unsigned long)st.st_ino && pid > 0)
			found = pid;
	fclose(f);
	/* the pid that took the lock, which may have passed it on and gone (flock(1)) */
	if (found > 0) {
		snprintf(line, sizeof(line), "/proc/%ld", found);
		if (access(line, F_OK) < 0)
			found = -1;
	}
	return found;
}

void watch_status_lock(struct watch_status_sum *s, const char *dir)
{
	char path[4096 + 16];
	int fd;

	snprintf(path, sizeof(path), "%s/lock", dir);
	/* read-only: the file is neither created nor changed */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0) {
		s->running = WRUN_UNKNOWN;
		if (errno == ENOENT)
			snprintf(s->run_note, sizeof(s->run_note), "no lock file: no watcher has run "
				 "here since watchers lock their state directory");
		else
			snprintf(s->run_note, sizeof(s->run_note), "cannot open %s: %s", path,
				 strerror(errno));
		return;
	}
	/* held for a moment only: a watcher starting meanwhile takes it right after */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		s->running = WRUN_NO;
		flock(fd, LOCK_UN);
	} else if (errno == EWOULDBLOCK) {
		s->running = WRUN_YES;
		s->pid = lock_holder(fd);
	} else {
		s->running = WRUN_UNKNOWN;
		snprintf(s->run_note, sizeof(s->run_note), "flock %s: %s", path, strerror(errno));
	}
	close(fd);
}

/* "2026-11-30T23:40:00Z" */
static double iso_time(const char *t)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = t && *t ? strptime(t, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!end)
		return NAN;
	/* fractions of a second and the zone letter left out: UTC is all the watcher writes */
	return (double)timegm(&tm);
}

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* the metric's names: the history's drift keys and the metrics' {metric} labels */
static const char *const label_names[WM_N] = {
	"randread_p99", "fsync_p99", "prime", "dram", "wakeup_p99",
};

/* factor from unit u to the history's unit of m; NAN when u is not one we know */
static double unit_factor(const char *u, const char *want)
{
	static const struct {
		const char *name;
		double s;
	} t[] = {
		{ "s", 1 }, { "seconds", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "µs", 1e-6 },
		{ "ns", 1e-9 },
	};
	double from = NAN, to = NAN;

	if (!u || !*u || !strcmp(u, want))
		return 1;
	if (strstr(u, "events") && strstr(want, "events"))
		return 1;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcmp(u, t[i].name))
			from = t[i].s;
		if (!strcmp(want, t[i].name))
			to = t[i].s;
	}
	return from / to;
}

static void drift_entry(struct watch_status_sum *s, enum watch_metric m, const cJSON *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "unit");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(e, "source");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(e, "measured_at");
	struct watch_status_base *b = &s->base[m];
	double f, val;

	if (!cJSON_IsNumber(v) || !(v->valuedouble > 0))
		return;
	f = unit_factor(cJSON_IsString(u) ? u->valuestring : NULL, watch_metrics[m].unit);
	val = v->valuedouble * f;
	if (!isfinite(val) || !(val > 0))
		return;
	b->value = val;
	b->from = "drift_baseline.json";
	snprintf(b->source, sizeof(b->source), "%s",
		 cJSON_IsString(src) && src->valuestring ? src->valuestring : "");
	if (cJSON_IsNumber(at) && at->valuedouble > 0)
		b->time = at->valuedouble;
	else if (cJSON_IsString(at))
		b->time = iso_time(at->valuestring);
	if (!isfinite(b->time) || !(b->time > 0))
		b->time = NAN;
}

int watch_status_drift_parse(struct watch_status_sum *s, const char *text)
{
	cJSON *j = cJSON_Parse(text);
	const cJSON *root, *met;

	if (!j || !cJSON_IsObject(j)) {
		snprintf(s->drift_note, sizeof(s->drift_note), "drift_baseline.json: not a JSON object");
		cJSON_Delete(j);
		return -1;
	}
	/* the metrics at the top or under "metrics", by either of their names */
	met = cJSON_GetObjectItemCaseSensitive(j, "metrics");
	root = cJSON_IsObject(met) ? met : j;
	for (int m = 0; m < WM_N; m++) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, watch_metrics[m].name);

		if (!cJSON_IsObject(e))
			e = cJSON_GetObjectItemCaseSensitive(root, label_names[m]);
		if (cJSON_IsObject(e))
			drift_entry(s, (enum watch_metric)m, e);
	}
	s->drift_file = true;
	cJSON_Delete(j);
	return 0;
}
#else
int watch_status_drift_parse(struct watch_status_sum *s, const char *text)
{
	(void)text;
	snprintf(s->drift_note, sizeof(s->drift_note), "drift_baseline.json: built without cJSON");
	return -1;
}
#endif

int watch_status_drift_file(struct watch_status_sum *s, const char *dir)
{
	char path[4096 + 32], *buf = NULL;
	size_t n = 0;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/drift_baseline.json", dir);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(s->drift_note, sizeof(s->drift_note), "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (getdelim(&buf, &n, '\0', f) < 0) {
		snprintf(s->drift_note, sizeof(s->drift_note), "cannot read %s: %s", path,
			 ferror(f) ? strerror(errno) : "empty file");
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	rc = watch_status_drift_parse(s, buf);
	free(buf);
	return rc;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the watcher's --every: the median interval of the newest rounds (jitter is +-10%) */
#define EVERY_ROUNDS 25
static double every_of(const struct watch_hist *h)
{
	double v[EVERY_ROUNDS];
	size_t k = 0;

	for (size_t i = h->n; i-- > 0 && k < EVERY_ROUNDS;)
		if (isfinite(h->round[i].interval_s) && h->round[i].interval_s > 0)
			v[k++] = h->round[i].interval_s;
	if (!k)
		return NAN;
	qsort(v, k, sizeof(v[0]), cmp_dbl);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* the history writes baselines with one decimal */
static bool same_base(double a, double b)
{
	return isfinite(a) && isfinite(b) && fabs(a - b) <= 0.05 + 1e-9 * fabs(b);
}

static void baseline(struct watch_status_sum *s, const struct watch_hist *h, enum watch_metric m)
{
	struct watch_status_base *b = &s->base[m];
	size_t i = h->n;

	if (b->from) /* drift_baseline.json said */
		goto age;
	while (i-- > 0 && !(h->round[i].drift_baseline[m] > 0))
		;
	if (i < h->n && !same_base(h->round[i].drift_baseline[m], h->base_json[m])) {
		/* learnt (or set) by the watcher: in use since the first round of this value */
		double v = h->round[i].drift_baseline[m];

		while (i > 0 && same_base(h->round[i - 1].drift_baseline[m], v))
			i--;
		b->value = v;
		b->from = "history";
		b->time = h->round[i].ts;
		goto age;
	}
	if (h->base_json[m] > 0) {
		b->value = h->base_json[m];
		b->from = "baseline.json";
		snprintf(b->source, sizeof(b->source), "report");
		b->time = s->report_ts;
	}
age:
	b->age_s = s->now - b->time;
}

static void probe(struct watch_status_sum *s, const struct watch_hist *h, enum watch_probe p)
{
	struct watch_status_probe *ps = &s->probe[p];
	size_t i;

	for (int m = 0; m < WM_N; m++)
		if (watch_metrics[m].probe == p)
			ps->metric = (enum watch_metric)m;
	for (i = h->n; i-- > 0;)
		if (h->round[i].st[p] != WS_NONE) {
			ps->latest = h->round[i].st[p];
			ps->latest_ts = h->round[i].ts;
			if (ps->latest != WS_OK)
				snprintf(ps->reason, sizeof(ps->reason), "%s", h->round[i].reason[p]);
			break;
		}
	for (i = h->n; i-- > 0;)
		if (h->round[i].st[p] == WS_OK) {
			ps->ok_ts = h->round[i].ts;
			ps->ok_age_s = s->now - ps->ok_ts;
			ps->value = h->round[i].v[ps->metric];
			break;
		}
	ps->state = ps->latest == WS_OK ? WPS_OK : ps->latest == WS_SKIPPED ? WPS_SKIPPED :
		    ps->latest == WS_FAILED ? WPS_FAILED : WPS_UNKNOWN;
	/* stale: no ok figure within the window, whatever the newest round said */
	if (isfinite(s->stale_after_s) &&
	    (isfinite(ps->ok_ts) ? ps->ok_age_s > s->stale_after_s :
	     s->now - h->round[0].ts > s->stale_after_s))
		ps->state = WPS_STALE;
}

static void drift(struct watch_status_sum *s, const struct watch_hist *h, enum watch_metric m)
{
	struct watch_status_drift *d = &s->drift[m];
	const struct watch_round *last = &h->round[h->n - 1];
	double fig = NAN;
	size_t i;

	d->degraded = last->degraded[m];
	d->ratio = last->drift_ratio[m];
	if (d->degraded != 1)
		return;
	d->open = true;
	for (i = h->n; i-- > 0 && h->round[i].degraded[m] == 1;) {
		double r = h->round[i].drift_ratio[m], f = watch_ratio(m, h->round[i].v[m],
									s->base[m].value);

		d->open_rounds++;
		d->open_since = h->round[i].ts;
		if (isfinite(r) && !(r <= d->open_worst_ratio))
			d->open_worst_ratio = r;
		if (isfinite(f) && !(f <= fig))
			fig = f;
	}
	if (!isfinite(d->open_worst_ratio))
		d->open_worst_ratio = fig;
	d->open_for_s = s->now - d->open_since;
}

/* the line's own "skip" kind when it has one, else the reason's words */
static enum watch_skip_kind skip_kind(const struct watch_round *r, int p)
{
	if (r->skip[p][0]) {
		for (int k = 0; k < WSK_N; k++)
			if (!strcmp(r->skip[p], watch_skip_kind_names[k]))
				return (enum watch_skip_kind)k;
		return WSK_OTHER;
	}
	return watch_skip_kind_of(r->reason[p]);
}

static void last_day(struct watch_status_sum *s, const struct watch_hist *h)
{
	s->day_from = s->now - WATCH_STATUS_DAY_S;
	for (size_t i = 0; i < h->n; i++) {
		const struct watch_round *r = &h->round[i];
		bool skipped = false;

		if (r->ts < s->day_from || r->ts > s->now)
			continue;
		s->day_rounds++;
		for (int p = 0; p < WP_N; p++) {
			if (r->st[p] == WS_SKIPPED) {
				s->day_skips[skip_kind(r, p)]++;
				skipped = true;
			} else if (r->st[p] == WS_FAILED) {
				s->day_failed++;
			}
		}
		s->day_rounds_skipped += skipped;
	}
}

void watch_status_build(struct watch_status_sum *s, const struct watch_hist *h, double now,
			unsigned window, bool window_given)
{
	const struct watch_round *last;

	s->now = now;
	s->window = window;
	s->window_given = window_given;
	snprintf(s->report_start, sizeof(s->report_start), "%s", h->baseline_time);
	snprintf(s->report_note, sizeof(s->report_note), "%s", h->baseline_note);
	s->report_ts = iso_time(h->baseline_time);
	s->report_age_s = now - s->report_ts;
	s->rounds = h->n;
	if (!h->n) {
		for (int m = 0; m < WM_N; m++)
			baseline(s, h, (enum watch_metric)m);
		return;
	}
	last = &h->round[h->n - 1];
	s->last_seq = last->seq;
	s->last_ts = last->ts;
	s->last_age_s = now - last->ts;
	s->every_s = every_of(h);
	/* as /metrics' vpsbench_watch_probe_stale: the window's rounds at their most jitter
	 * (its --probe-time on top is not in the history: seconds against minutes) */
	s->stale_after_s = window * s->every_s * 1.1;
	for (int m = 0; m < WM_N; m++) {
		baseline(s, h, (enum watch_metric)m);
		drift(s, h, (enum watch_metric)m);
	}
	for (int p = 0; p < WP_N; p++)
		probe(s, h, (enum watch_probe)p);
	last_day(s, h);
}
