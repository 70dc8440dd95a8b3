/*
 * watch_gate.c — the idle gate and the budget (watch_gate.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd/watch/watch_deltas.h"
#include "cmd/watch/watch_gate.h"
#include "core/root_read.h"

void watch_cpu_ticks_read(struct watch_cpu_ticks *t)
{
	char buf[512];
	unsigned long long v[8] = { 0 };

	memset(t, 0, sizeof(*t));
	if (!root_read_line("", "/proc/stat", buf, sizeof(buf)))
		return;
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) < 7)
		return;
	/* user nice system idle iowait irq softirq [steal] */
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	t->total = t->busy + v[3] + v[4];
	t->ok = true;
}

bool watch_gate_closed(const struct watch_opts *o, const struct watch_cpu_ticks *since,
		       double probe_s, double elapsed_s, enum watch_skip_reason *kind, char *reason,
		       size_t n)
{
	struct watch_cpu_ticks now;
	double load, psi;
	char buf[256];

	if (root_read_line("", "/proc/loadavg", buf, sizeof(buf)) &&
	    sscanf(buf, "%lf", &load) == 1 && load > o->max_load) {
		snprintf(reason, n, "busy: load %.2f > %.2f", load, o->max_load);
		*kind = WR_LOAD;
		return true;
	}
	watch_cpu_ticks_read(&now);
	if (since && since->ok && now.ok && now.total > since->total && now.busy >= since->busy) {
		double pct = 100.0 * (double)(now.busy - since->busy) /
			     (double)(now.total - since->total);

		if (pct > o->max_cpu) {
			snprintf(reason, n, "busy: cpu %.0f%% > %.0f%%", pct, o->max_cpu);
			*kind = WR_CPU;
		return true;
		}
	}
	if (watch_psi_read("cpu", &psi, NULL) && psi > o->max_psi) {
		snprintf(reason, n, "busy: psi cpu some %.0f%% > %.0f%%", psi, o->max_psi);
		*kind = WR_PSI;
		return true;
	}
	if (elapsed_s > 0 && 100.0 * probe_s / elapsed_s > o->budget_pct) {
		snprintf(reason, n, "budget: %.1f%% of wall time used", 100.0 * probe_s / elapsed_s);
		*kind = WR_BUDGET;
		return true;
	}
	*kind = WR_NONE;
	return false;
}
