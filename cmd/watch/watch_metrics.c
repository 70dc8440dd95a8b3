/*
 * watch_metrics.c — the Prometheus body of `vpsbench watch` (the README's
 * "Metrics reference"; checked by `promtool check metrics` in the tests).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_metrics.h"

/* the label metric="..." of the drift families, by enum watch_drift_id */
static const char *const drift_label[WD_COUNT] = {
	"randread_p99", "fsync_p99", "prime", "dram", "wakeup_p99",
};
/* a drift metric's figure to base units: us, us, (events/s), ns, us */
static const double drift_scale[WD_COUNT] = { 1e-6, 1e-6, 1, 1e-9, 1e-6 };

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void watch_state_init(struct watch_state *s, const struct watch_opts *o,
		      const struct watch_drift *drift)
{
	s->state_dir = o->state_dir;
	s->dir = o->dir ? o->dir : o->state_dir;
	s->nextra = o->ndirs > 1 ? o->ndirs - 1 : 0;
	for (unsigned x = 0; x < s->nextra; x++)
		s->xdir[x] = o->dirs[x + 1];
	s->start_time = wall_now();
	s->every_s = (double)o->every_ns / 1e9;
	s->probe_s = (double)o->probe_ns / 1e9;
	s->window = o->window;
	s->drift = drift;
}

/* one probe's result p (of the round started at t) into its counts and latest figures */
static void account(const struct watch_probe_result *p, double t, uint64_t runs[WS_COUNT],
		    uint64_t skipped[WR_COUNT], bool *have_ok, struct watch_probe_result *last_ok,
		    double *last_ok_time, struct mdbl *duration_s)
{
	runs[p->status]++;
	if (p->status == WS_SKIPPED)
		skipped[p->skip > WR_NONE && p->skip < WR_COUNT ? p->skip : WR_OTHER]++;
	else if (p->duration_s.ok)
		*duration_s = p->duration_s;
	if (p->status == WS_OK) {
		*have_ok = true;
		*last_ok = *p;
		*last_ok_time = t;
	}
}

void watch_state_add(struct watch_state *s, const struct watch_round *r)
{
	s->rounds++;
	s->have_round = true;
	s->last = *r;
	for (int i = 0; i < WP_COUNT; i++)
		account(&r->probe[i], r->unix_time, s->runs[i], s->skipped[i], &s->have_ok[i],
			&s->last_ok[i], &s->last_ok_time[i], &s->duration_s[i]);
	for (unsigned x = 0; x < r->nextra && x < s->nextra; x++) {
		struct watch_disk_acct *a = &s->x[x];

		for (int i = 0; i < WP_DISK_COUNT; i++)
			account(&r->extra[x].probe[i], r->unix_time, a->runs[i], a->skipped[i],
				&a->have_ok[i], &a->last_ok[i], &a->last_ok_time[i], &a->duration_s[i]);
	}
	if (r->d.throttled_s.ok && r->d.throttled_s.v >= 0) {
		s->throttled_sum_s += r->d.throttled_s.v;
		s->have_throttled = true;
	}
}

double watch_stale_after_s(const struct watch_state *s)
{
	return (double)s->window * s->every_s * 1.1 + s->probe_s;
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP vpsbench_watch_%s %s\n# TYPE vpsbench_watch_%s %s\n", name, help, name,
		type);
}

/* A gauge with no labels; left out when unknown. */
static void gauge(FILE *f, const char *name, const char *help, struct mdbl v, double scale)
{
	if (!v.ok || !isfinite(v.v))
		return;
	head(f, name, "gauge", help);
	fprintf(f, "vpsbench_watch_%s %.15g\n", name, v.v * scale);
}

static void counter(FILE *f, const char *name, const char *help, double v)
{
	head(f, name, "counter", help);
	fprintf(f, "vpsbench_watch_%s %.15g\n", name, v);
}

static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static bool disk_probe(int probe)
{
	return probe == WP_RANDREAD || probe == WP_FSYNC;
}

/* one series of the probe families: a probe, and for a disk probe its directory */
struct probe_view {
	int probe;
	const char *dir;                      /* disk probes only */
	const uint64_t *runs, *skipped;       /* [WS_COUNT], [WR_COUNT] */
	bool have_ok;
	const struct watch_probe_result *ok;  /* latest ok figures */
	double ok_time;
	struct mdbl duration_s;
};

#define MAX_VIEWS (WP_COUNT + WP_DISK_COUNT * (WATCH_MAX_DIRS - 1))

/* Every probe series into v, the first directory's and the other probes' first, then each
 * further --dir's randread and fsync; returns how many. */
static int probe_views(const struct watch_state *s, struct probe_view v[MAX_VIEWS])
{
	int n = 0;

	for (int i = 0; i < WP_COUNT; i++)
		v[n++] = (struct probe_view){ i, s->dir ? s->dir : "", s->runs[i], s->skipped[i],
					      s->have_ok[i], &s->last_ok[i], s->last_ok_time[i],
					      s->duration_s[i] };
	for (unsigned x = 0; x < s->nextra && x < WATCH_MAX_DIRS - 1; x++)
		for (int i = 0; i < WP_DISK_COUNT; i++)
			v[n++] = (struct probe_view){ i, s->xdir[x] ? s->xdir[x] : "",
						      s->x[x].runs[i], s->x[x].skipped[i],
						      s->x[x].have_ok[i], &s->x[x].last_ok[i],
						      s->x[x].last_ok_time[i], s->x[x].duration_s[i] };
	return n;
}

/* dir="..." (no comma around it) */
static void dir_label(FILE *f, const char *dir)
{
	fputs("dir=\"", f);
	label_value(f, dir ? dir : "");
	fputc('"', f);
}

/* probe="x"[,dir="..."]: a disk probe says its directory in every family */
static void probe_labels(FILE *f, const struct probe_view *v)
{
	fprintf(f, "probe=\"%s\"", watch_probe_names[v->probe]);
	if (disk_probe(v->probe)) {
		fputc(',', f);
		dir_label(f, v->dir);
	}
}

/* name{dir="..."} v: a disk probe's figure of its latest ok run, one series per directory */
static void disk_gauge(FILE *f, const struct watch_state *s, const char *name, const char *help,
		       int probe, size_t field, double scale)
{
	struct probe_view v[MAX_VIEWS];
	int n = probe_views(s, v);
	bool any = false;

	for (int k = 0; k < n; k++) {
		struct mdbl x;

		if (v[k].probe != probe || !v[k].have_ok)
			continue;
		memcpy(&x, (const char *)v[k].ok + field, sizeof(x));
		if (!x.ok || !isfinite(x.v))
			continue;
		if (!any)
			head(f, name, "gauge", help);
		any = true;
		fprintf(f, "vpsbench_watch_%s{", name);
		dir_label(f, v[k].dir);
		fprintf(f, "} %.15g\n", x.v * scale);
	}
}

static void probe_families(FILE *f, const struct watch_state *s)
{
	/* as of the latest round's start, like the figures: a round that ran long does not make
	 * its own fresh figure stale, and the body does not change between rounds */
	double now = s->have_round ? s->last.unix_time : s->now > 0 ? s->now : wall_now();
	double after = watch_stale_after_s(s);
	struct probe_view v[MAX_VIEWS];
	int n = probe_views(s, v);

	head(f, "probe_runs_total", "counter", "probe runs by result (ok, skipped, failed)");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < WS_COUNT; k++) {
			fputs("vpsbench_watch_probe_runs_total{", f);
			probe_labels(f, &v[i]);
			fprintf(f, ",result=\"%s\"} %llu\n", watch_status_names[k],
				(unsigned long long)v[i].runs[k]);
		}
	head(f, "probe_skipped_total", "counter",
	     "probes skipped, by reason (load, cpu, psi: the idle gate; budget; hung; stopped; other)");
	for (int i = 0; i < n; i++)
		for (int k = WR_NONE + 1; k < WR_COUNT; k++) {
			fputs("vpsbench_watch_probe_skipped_total{", f);
			probe_labels(f, &v[i]);
			fprintf(f, ",reason=\"%s\"} %llu\n", watch_skip_reason_names[k],
				(unsigned long long)v[i].skipped[k]);
		}
	for (int i = 0, any = 0; i < n; i++) {
		if (!v[i].have_ok)
			continue;
		if (!any++)
			head(f, "probe_last_success_timestamp_seconds", "gauge",
			     "start of the latest round whose probe ran ok, Unix time (absent: none yet)");
		fputs("vpsbench_watch_probe_last_success_timestamp_seconds{", f);
		probe_labels(f, &v[i]);
		fprintf(f, "} %.15g\n", v[i].ok_time);
	}
	for (int i = 0, any = 0; i < n; i++) {
		if (!v[i].duration_s.ok)
			continue;
		if (!any++)
			head(f, "probe_duration_seconds", "gauge",
			     "wall time of the probe's latest run (ok or failed)");
		fputs("vpsbench_watch_probe_duration_seconds{", f);
		probe_labels(f, &v[i]);
		fprintf(f, "} %.15g\n", v[i].duration_s.v);
	}
	{
		char help[256];

		snprintf(help, sizeof(help), "1 when the probe's latest ok figure is older than "
			 "window x every x 1.1 + probe time (%.15g s here), or none yet after the "
			 "watcher ran that long; at the latest round's start", after);
		head(f, "probe_stale", "gauge", help);
	}
	for (int i = 0; i < n; i++) {
		double since = v[i].have_ok ? v[i].ok_time : s->start_time;

		fputs("vpsbench_watch_probe_stale{", f);
		probe_labels(f, &v[i]);
		fprintf(f, "} %d\n", now - since > after);
	}
}

static void figure_families(FILE *f, const struct watch_state *s)
{
	const struct watch_probe_result *lk = s->last_ok;

	disk_gauge(f, s, "randread_latency_p50_seconds", "4k random read qd1 latency p50, latest ok probe",
		   WP_RANDREAD, offsetof(struct watch_probe_result, p50_us), 1e-6);
	disk_gauge(f, s, "randread_latency_p99_seconds", "4k random read qd1 latency p99, latest ok probe",
		   WP_RANDREAD, offsetof(struct watch_probe_result, p99_us), 1e-6);
	disk_gauge(f, s, "randread_iops", "4k random read qd1 IOPS, latest ok probe", WP_RANDREAD,
		   offsetof(struct watch_probe_result, iops), 1);
	disk_gauge(f, s, "fsync_latency_p50_seconds",
		   "fdatasync() latency p50 after 2300-byte writes, latest ok probe", WP_FSYNC,
		   offsetof(struct watch_probe_result, p50_us), 1e-6);
	disk_gauge(f, s, "fsync_latency_p99_seconds",
		   "fdatasync() latency p99 after 2300-byte writes, latest ok probe", WP_FSYNC,
		   offsetof(struct watch_probe_result, p99_us), 1e-6);
	if (s->have_ok[WP_PRIME])
		gauge(f, "prime_events_per_second", "1-thread prime events/s (sysbench cpu), latest ok probe",
		      lk[WP_PRIME].eps, 1);
	if (s->have_ok[WP_DRAM] && lk[WP_DRAM].ns.ok && isfinite(lk[WP_DRAM].ns.v)) {
		enum mbool h = lk[WP_DRAM].huge;

		head(f, "dram_latency_seconds", "gauge",
		     "DRAM load-to-use latency, latest ok probe; pages: huge, 4k or unknown (what backed the chase)");
		fprintf(f, "vpsbench_watch_dram_latency_seconds{pages=\"%s\"} %.15g\n",
			h == MB_TRUE ? "huge" : h == MB_FALSE ? "4k" : "unknown", lk[WP_DRAM].ns.v * 1e-9);
	}
}

static void host_families(FILE *f, const struct watch_state *s)
{
	const struct watch_round *r = &s->last;

	if (!s->have_round)
		return;
	if (r->d.steal_total_s.ok)
		counter(f, "steal_seconds_total",
			"CPU time stolen by the hypervisor, all CPUs summed (/proc/stat steal / USER_HZ)",
			r->d.steal_total_s.v);
	gauge(f, "steal_ratio", "stolen share of all CPUs' wall time over the latest interval, "
	      "0..1 (steal seconds / (interval x CPUs), as top's %st)", r->d.steal_ratio, 1);
	if (s->have_throttled)
		counter(f, "cgroup_throttled_seconds_total",
			"cgroup CPU throttled time since the watcher started (cpu.stat, the level that "
			"lost most each round; a counter that went back adds nothing)", s->throttled_sum_s);
	if (r->d.pswpin_total.ok) {
		long page = sysconf(_SC_PAGESIZE);

		counter(f, "swapin_bytes_total", "bytes swapped in since boot (/proc/vmstat pswpin x page size)",
			(double)r->d.pswpin_total.v * (double)(page > 0 ? page : 4096));
	}
	gauge(f, "psi_cpu_some_ratio", "share of the latest interval some task stalled on CPU (PSI), 0..1",
	      r->d.psi_cpu_pct, 0.01);
	gauge(f, "psi_memory_some_ratio", "share of the latest interval some task stalled on memory (PSI), 0..1",
	      r->d.psi_mem_pct, 0.01);
	gauge(f, "psi_io_some_ratio", "share of the latest interval some task stalled on I/O (PSI), 0..1",
	      r->d.psi_io_pct, 0.01);
	if (r->wake.samples > 0) {
		gauge(f, "wakeup_delay_p99_seconds", "99th percentile of how late the sampler thread woke from its 100 ms absolute CLOCK_MONOTONIC timer (woken minus due), over the wake-ups since the previous round; paused while probes run",
		      r->wake.p99_us, 1e-6);
		gauge(f, "wakeup_delay_max_seconds", "largest lateness of the sampler thread's wake-ups from its 100 ms absolute CLOCK_MONOTONIC timer (woken minus due) since the previous round; paused while probes run",
		      r->wake.max_us, 1e-6);
	}
}

/* metric="x"[,dir="..."] */
static void drift_labels(FILE *f, const struct watch_state *s, int m)
{
	fprintf(f, "metric=\"%s\"", drift_label[m]);
	if (m == WD_RANDREAD || m == WD_FSYNC) {
		fputc(',', f);
		dir_label(f, s->dir);
	}
}

static void drift_families(FILE *f, const struct watch_state *s)
{
	static const struct { const char *name, *help; } g[] = {
		{ "degraded", "1 when the metric is worse than baseline x (1+margin) for K probes in a row" },
		{ "drift_ratio", "median of the last K over the baseline, worse is bigger (latency: median/baseline; rate: baseline/median)" },
		{ "baseline_seconds", "the drift baseline of a latency metric" },
		{ "baseline_events_per_second", "the drift baseline of a rate metric" },
		{ "baseline_timestamp_seconds", "when the drift baseline was measured, Unix time; source: report, rounds or env" },
	};
	const struct watch_drift *dr = s->drift;

	if (!dr)
		return;
	for (size_t j = 0; j < sizeof(g) / sizeof(g[0]); j++) {
		bool any = false;

		for (int i = 0; i < WD_COUNT; i++) {
			const struct watch_drift_metric *m = &dr->m[i];
			double v;

			switch (j) {
			case 0:
				if (m->degraded == MB_UNKNOWN)
					continue;
				v = m->degraded == MB_TRUE;
				break;
			case 1:
				if (!m->ratio.ok)
					continue;
				v = m->ratio.v;
				break;
			case 2:
			case 3:
				if (!m->baseline.ok || (j == 3) != (i == WD_PRIME))
					continue;
				v = m->baseline.v * drift_scale[i];
				break;
			default:
				if (!m->baseline.ok || m->baseline_time <= 0 || m->baseline_src <= WBS_NONE ||
				    m->baseline_src >= WBS_N)
					continue;
				v = m->baseline_time;
				break;
			}
			if (!isfinite(v))
				continue;
			if (!any)
				head(f, g[j].name, "gauge", g[j].help);
			any = true;
			fprintf(f, "vpsbench_watch_%s{", g[j].name);
			drift_labels(f, s, i);
			if (j == 4)
				fprintf(f, ",source=\"%s\"", watch_base_src_str[m->baseline_src]);
			fprintf(f, "} %.15g\n", v);
		}
	}
}

char *watch_metrics_render(const struct watch_state *s, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	head(f, "up", "gauge", "1 while vpsbench watch runs");
	fputs("vpsbench_watch_up 1\n", f);
	head(f, "info", "gauge", "the watcher's version and state directory");
	fprintf(f, "vpsbench_watch_info{version=\"%s\",state_dir=\"", VPSBENCH_VERSION);
	label_value(f, s->state_dir ? s->state_dir : "");
	fputs("\"} 1\n", f);
	if (s->start_time > 0)
		gauge(f, "start_time_seconds", "when the watcher started, Unix time",
		      mdbl_of(s->start_time), 1);
	counter(f, "rounds_total", "probe rounds done (run, skipped or failed)", (double)s->rounds);
	if (s->have_round)
		gauge(f, "last_round_timestamp_seconds", "start of the latest round, Unix time",
		      mdbl_of(s->last.unix_time), 1);
	probe_families(f, s);
	figure_families(f, s);
	host_families(f, s);
	drift_families(f, s);
	counter(f, "history_write_errors_total", "history lines that could not be written",
		(double)s->write_errors);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}
