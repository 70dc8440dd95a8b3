/*
 * watch_metrics.c — the Prometheus body of `vpsbench watch` (the metric
 * names of the spec, README "vpsbench watch").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/watch/watch_metrics.h"

void watch_state_add(struct watch_state *s, const struct watch_round *r)
{
	s->rounds++;
	s->have_round = true;
	s->last = *r;
	for (int i = 0; i < WP_COUNT; i++) {
		s->runs[i][r->probe[i].status]++;
		if (r->probe[i].status == WS_OK) {
			s->have_ok[i] = true;
			s->last_ok[i] = r->probe[i];
		}
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP vpsbench_watch_%s %s\n# TYPE vpsbench_watch_%s %s\n", name, help, name,
		type);
}

static void gauge(FILE *f, const char *name, const char *help, struct mdbl v, double scale)
{
	if (!v.ok || !isfinite(v.v))
		return;
	head(f, name, "gauge", help);
	fprintf(f, "vpsbench_watch_%s %.15g\n", name, v.v * scale);
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

static void quantiles(FILE *f, const char *name, const char *help, bool have, struct mdbl q50,
		      const char *l50, struct mdbl q99, const char *l99, double scale)
{
	if (!have || (!q50.ok && !q99.ok))
		return;
	head(f, name, "gauge", help);
	if (q50.ok)
		fprintf(f, "vpsbench_watch_%s{quantile=\"%s\"} %.15g\n", name, l50, q50.v * scale);
	if (q99.ok)
		fprintf(f, "vpsbench_watch_%s{quantile=\"%s\"} %.15g\n", name, l99, q99.v * scale);
}

char *watch_metrics_render(const struct watch_state *s, size_t *len)
{
	const struct watch_drift *dr = s->drift;
	const struct watch_probe_result *lk = s->last_ok;
	const struct watch_round *r = &s->last;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	bool any;

	if (!f)
		return NULL;
	head(f, "up", "gauge", "1 while vpsbench watch runs");
	fputs("vpsbench_watch_up 1\n", f);
	head(f, "info", "gauge", "the watcher's version and state directory");
	fprintf(f, "vpsbench_watch_info{version=\"%s\",state_dir=\"", VPSBENCH_VERSION);
	label_value(f, s->state_dir ? s->state_dir : "");
	fputs("\"} 1\n", f);
	head(f, "rounds_total", "counter", "probe rounds done (run, skipped or failed)");
	fprintf(f, "vpsbench_watch_rounds_total %llu\n", (unsigned long long)s->rounds);
	head(f, "probe_runs_total", "counter", "probes by result");
	for (int i = 0; i < WP_COUNT; i++)
		for (int k = 0; k < WS_COUNT; k++)
			fprintf(f, "vpsbench_watch_probe_runs_total{probe=\"%s\",result=\"%s\"} %llu\n",
				watch_probe_names[i], watch_status_names[k],
				(unsigned long long)s->runs[i][k]);
	if (s->have_round)
		gauge(f, "last_round_timestamp_seconds", "start of the latest round, Unix time",
		      mdbl_of(r->unix_time), 1);
	quantiles(f, "randread_latency_seconds", "4k random read qd1 latency, latest ok probe",
		  s->have_ok[WP_RANDREAD], lk[WP_RANDREAD].p50_us, "0.5", lk[WP_RANDREAD].p99_us,
		  "0.99", 1e-6);
	quantiles(f, "fsync_latency_seconds", "fdatasync() latency after 2300-byte writes, latest ok probe",
		  s->have_ok[WP_FSYNC], lk[WP_FSYNC].p50_us, "0.5", lk[WP_FSYNC].p99_us, "0.99", 1e-6);
	if (s->have_ok[WP_RANDREAD])
		gauge(f, "randread_iops", "4k random read qd1 IOPS, latest ok probe",
		      lk[WP_RANDREAD].iops, 1);
	if (s->have_ok[WP_PRIME])
		gauge(f, "prime_events_per_second", "1-thread prime events/s (sysbench cpu), latest ok probe",
		      lk[WP_PRIME].eps, 1);
	if (s->have_ok[WP_DRAM])
		gauge(f, "dram_latency_seconds", "DRAM load-to-use latency on huge pages, latest ok probe",
		      lk[WP_DRAM].ns, 1e-9);
	if (s->have_round) {
		gauge(f, "steal_ratio", "CPU steal over the latest interval, 0..1", r->d.steal_pct, 0.01);
		if (r->d.throttled_total_s.ok) {
			head(f, "cgroup_throttled_seconds_total", "counter",
			     "cgroup CPU throttled time (cpu.stat)");
			fprintf(f, "vpsbench_watch_cgroup_throttled_seconds_total %.15g\n",
				r->d.throttled_total_s.v);
		}
		gauge(f, "psi_cpu_some_ratio", "CPU pressure (some) over the latest interval, 0..1",
		      r->d.psi_cpu_pct, 0.01);
		gauge(f, "psi_memory_some_ratio", "memory pressure (some) over the latest interval, 0..1",
		      r->d.psi_mem_pct, 0.01);
		if (r->d.pswpin_total.ok) {
			head(f, "swapin_pages_total", "counter", "pages swapped in (/proc/vmstat pswpin)");
			fprintf(f, "vpsbench_watch_swapin_pages_total %llu\n",
				(unsigned long long)r->d.pswpin_total.v);
		}
		quantiles(f, "wakeup_delay_seconds",
			  "lateness of a 1 ms sleep over the latest interval (quantile 1 = max)",
			  r->wake.samples > 0, r->wake.p99_us, "0.99", r->wake.max_us, "1", 1e-6);
	}
	if (dr) {
		static const struct { const char *name, *type, *help; } g[3] = {
			{ "degraded", "gauge", "1 when the metric is worse than baseline x (1+margin) for K probes in a row" },
			{ "drift_ratio", "gauge", "median of the last K over the baseline, worse is bigger" },
			{ "baseline", "gauge", "the baseline, in the metric's own unit" },
		};

		for (int j = 0; j < 3; j++) {
			any = false;
			for (int i = 0; i < WD_COUNT; i++) {
				const struct watch_drift_metric *m = &dr->m[i];
				double v;

				if (j == 0 && m->degraded == MB_UNKNOWN)
					continue;
				if ((j == 1 && !m->ratio.ok) || (j == 2 && !m->baseline.ok))
					continue;
				v = j == 0 ? (m->degraded == MB_TRUE) : j == 1 ? m->ratio.v : m->baseline.v;
				if (!any)
					head(f, g[j].name, g[j].type, g[j].help);
				any = true;
				fprintf(f, "vpsbench_watch_%s{metric=\"%s\"} %.15g\n", g[j].name,
					watch_drift_names[i], v);
			}
		}
	}
	head(f, "history_write_errors_total", "counter", "history lines that could not be written");
	fprintf(f, "vpsbench_watch_history_write_errors_total %llu\n",
		(unsigned long long)s->write_errors);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}
