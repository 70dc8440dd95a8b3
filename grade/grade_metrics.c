/*
 * grade_metrics.c — which figures of a report are graded, and why one
 * is not (not run, buffered instead of direct, failed, not a device):
 * the metric set's helpers, the net figures and the entry that calls the
 * per-area collectors (grade_collect_disk.c, grade_collect_cpumem.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade_collect.h"
#include "core/plan.h"
#include "report/report.h"

struct metric *collect_add(struct metric_set *ms, const char *name, bool selected)
{
	struct metric *m = metric_add(ms, name);

	if (m)
		m->selected = selected;
	return m;
}

void collect_set_value(struct metric *m, double v, double spread_pct)
{
	if (!m)
		return;
	if (!isfinite(v)) {
		snprintf(m->why_not, sizeof(m->why_not), "no finite value was measured");
		return;
	}
	m->value = v;
	m->measured = true;
	m->spread_pct = spread_pct;
}

/* Reasons come from longer module texts: cut them to fit, on purpose. */
void collect_set_why(struct metric *m, const char *why)
{
	size_t n;

	if (!m)
		return;
	n = strnlen(why, sizeof(m->why_not) - 1);
	memcpy(m->why_not, why, n);
	m->why_not[n] = '\0';
}

const char *collect_module_why(const struct bench_report *rep, int id, char *buf, size_t n)
{
	const struct mod_outcome *o = &rep->outcome[id];

	if (o->status == BENCH_NOT_RUN)
		snprintf(buf, n, "the %s module was not run", bench_modules[id]->name);
	else
		snprintf(buf, n, "%s %s%s%s", bench_modules[id]->name, bench_status_name(o->status),
			 o->reason[0] ? ": " : "", o->reason);
	return buf;
}

/*
 * net: the best measured server per direction (the closest server shows the
 * port's capacity). Busy, failed, timed-out and implausible rows are never graded; the
 * metrics exist only when --net ran the module, so offline reports keep
 * their shape.
 */
static void collect_net(const struct bench_report *rep, struct metric_set *ms)
{
	const struct net_result *r = &rep->net;
	struct metric *snd, *rcv;
	double best[2] = { -1, -1 };
	unsigned odd[2] = { 0, 0 };
	char why[320];

	if (rep->outcome[MOD_net].status == BENCH_NOT_RUN)
		return;
	snd = collect_add(ms, "net_send_mbit_s", true);
	rcv = collect_add(ms, "net_recv_mbit_s", true);
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_dir *d[2] = { &r->rows[i].send, &r->rows[i].recv };

		for (int k = 0; k < 2; k++) {
			/* a rate the interface or this side's own count rules out is never graded */
			odd[k] += d[k]->status == NET_DONE && d[k]->implausible;
			if (d[k]->status == NET_DONE && !d[k]->implausible && d[k]->bps.ok &&
			    d[k]->bps.v / 1e6 > best[k])
				best[k] = d[k]->bps.v / 1e6;
		}
	}
	collect_module_why(rep, MOD_net, why, sizeof(why));
	if (best[0] >= 0)
		collect_set_value(snd, best[0], -1);
	else
		collect_set_why(snd, odd[0] ? "every server's send figure was implausible (above what "
				"the interface or this host's own count allows): not graded" :
				r->nrows ? "no server measured sending (busy or failed)" : why);
	if (best[1] >= 0)
		collect_set_value(rcv, best[1], -1);
	else
		collect_set_why(rcv, odd[1] ? "every server's receive figure was implausible (above "
				"what the interface allows): not graded" :
				r->nrows ? "no server measured receiving (busy or failed)" : why);
}

const struct grade *grade_get(const struct grade_result *g, const char *metric)
{
	for (unsigned i = 0; i < g->n; i++)
		if (strcmp(g->g[i].metric, metric) == 0)
			return &g->g[i];
	return NULL;
}

void grade_warn(struct bench_report *rep)
{
	const struct grade *t = grade_get(&rep->grade, "rand_tail_ratio");
	const struct rand_pass_result *mp = grade_main_pass(&rep->rand);

	if (t && mp && strcmp(t->tier, "drop") == 0)
		report_warn(rep, "rand %s in %s: IOPS dropped during the pass (last third at %.0f%% of "
			    "the first third): %s", mp->name, mp->dir ? mp->dir : "?", t->value * 100,
			    t->meaning);
}

void grade_collect(const struct bench_report *rep, const struct bench_plan *plan,
		   struct metric_set *ms)
{
	(void)plan;
	memset(ms, 0, sizeof(*ms));
	collect_seq(rep, ms);
	collect_rand(rep, ms);
	collect_fsync(rep, ms);
	collect_cache(rep, ms);
	collect_cpu(rep, ms);
	collect_mem(rep, ms);
	collect_net(rep, ms);
}
