/*
 * place_input.c — what a finished run measured, in the published units
 * and shapes (grade/place.h): yabs's fio totals of the first directory's
 * yabs-shaped passes, sysbench's prime events/s, the dd-style write and the
 * iperf3 rows. The "why" rules here are shared with place_load.c.
 */
#include <stdio.h>
#include <string.h>

#include "core/plan.h"
#include "core/storage.h"
#include "grade/place.h"
#include "report/report.h"

#define YABS_MBPS_DIV (1024.0 * 1000.0)   /* yabs's MB/s: KiB/s / 1000 */

void place_rand_describe(char *buf, size_t n, const char *rw, unsigned rwmixread, uint32_t bs,
			 unsigned iodepth)
{
	size_t len = strlen(buf);
	char bsn[24], one[96];

	if (bs % (1024u * 1024u) == 0 && bs)
		snprintf(bsn, sizeof(bsn), "%um", bs / (1024u * 1024u));
	else if (bs % 1024u == 0 && bs)
		snprintf(bsn, sizeof(bsn), "%uk", bs / 1024u);
	else
		snprintf(bsn, sizeof(bsn), "%u B", bs);
	if (!strcmp(rw, "randrw"))
		snprintf(one, sizeof(one), "randrw %u/%u, %s, qd%u", rwmixread, 100 - rwmixread,
			 bsn, iodepth);
	else
		snprintf(one, sizeof(one), "%.32s, %s, qd%u", rw, bsn, iodepth);
	if (strstr(buf, one))
		return;
	if (len < n)
		snprintf(buf + len, n - len, "%s%s", len ? "; " : "", one);
}

void place_fio_why(char *why, size_t n, bool ok, const char *status, const char *reason,
		   bool direct, const char *direct_reason, bool disturbed, const char *dist_why)
{
	if (!ok)
		snprintf(why, n, "%s%s%.120s", status, reason && *reason ? ": " : "",
			 reason ? reason : "");
	else if (!direct)
		snprintf(why, n, "buffered: %.140s", direct_reason && *direct_reason ?
			 direct_reason : "O_DIRECT refused");
	else if (disturbed)
		snprintf(why, n, "disturbed: %.140s", dist_why && *dist_why ? dist_why :
			 "foreign I/O during the pass");
	else
		why[0] = '\0';
}

void place_storage_why(char *why, size_t n, bool graded, const char *cls, const char *reason)
{
	if (graded || why[0])
		return;
	snprintf(why, n, "%.16s storage, not a disk's figure%s%.64s%s", cls,
		 reason && *reason ? " (" : "", reason ? reason : "", reason && *reason ? ")" : "");
}

void place_cpu_why(char *why, size_t n, struct mdbl eps, bool complete, bool disturbed,
		   double share)
{
	if (!eps.ok)
		snprintf(why, n, "not measured");
	else if (!complete)
		snprintf(why, n, "incomplete: the pass did not run its whole time");
	else if (disturbed)
		snprintf(why, n, "disturbed: the pass got %.0f%% of the CPU it was entitled to",
			 100.0 * share);
	else
		why[0] = '\0';
}

void place_seq_why(char *why, size_t n, bool done, const char *status, const char *dir_reason,
		   const char *mod_reason)
{
	const char *r = dir_reason && *dir_reason ? dir_reason : mod_reason ? mod_reason : "";

	if (done)
		why[0] = '\0';
	else
		snprintf(why, n, "%s%s%.110s", status, *r ? ": " : "", r);
}

void place_net_why(char *why, size_t n, struct mdbl bps, bool implausible, const char *status)
{
	/* the status only: the net section says why at length, once */
	if (!bps.ok)
		snprintf(why, n, "not measured (%s)", status && *status ? status : "unknown");
	else if (implausible)
		snprintf(why, n, "implausible: a rate no local interface or path could carry");
	else
		why[0] = '\0';
}

/* The rand passes of the first directory: the yabs-shaped ones as fio[]. */
static void rand_input(const struct rand_result *rr, struct place_input *in)
{
	const char *dir0;

	in->rand_ran = rr->npass > 0;
	if (!in->rand_ran)
		return;
	dir0 = rr->pass[0].dir ? rr->pass[0].dir : "";
	for (unsigned i = 0; i < rr->npass && i < RAND_MAX_RESULTS; i++) {
		const struct rand_pass_result *p = &rr->pass[i];
		const struct rand_dir_result *r = &p->dir_res[RD], *w = &p->dir_res[WR];
		struct rand_pass_spec spec = { .rw = p->rw, .rwmixread = p->rwmixread, .bs = p->bs,
					       .iodepth = p->iodepth, .jobs = p->jobs };
		struct place_fio *x;
		double iops = 0, bw = 0;

		if (strcmp(p->dir ? p->dir : "", dir0) != 0)
			continue;
		if (!plan_pass_is_yabs(&spec)) {
			place_rand_describe(in->rand_other, sizeof(in->rand_other),
					    rand_rw_names[p->rw], p->rwmixread, p->bs, p->iodepth);
			continue;
		}
		if (in->nfio >= PLACE_MAX_FIO)
			continue;
		x = &in->fio[in->nfio++];
		x->bs = p->bs;
		x->runtime_ms = p->runtime_ms;
		x->size_bytes = p->size_bytes;
		if (r->present) {
			iops += r->iops;
			bw += r->bw_bytes;
		}
		if (w->present) {
			iops += w->iops;
			bw += w->bw_bytes;
		}
		if (p->status == BENCH_OK) {
			x->iops = mdbl_of(iops);
			x->mbps = mdbl_of(bw / YABS_MBPS_DIV);
		}
		place_fio_why(x->why, sizeof(x->why), p->status == BENCH_OK,
			      bench_status_name(p->status), p->reason, p->direct, p->direct_reason,
			      p->dist.disturbed, p->dist.why);
		if (p->status == BENCH_OK)
			place_storage_why(x->why, sizeof(x->why), storage_class_graded(p->storage.cls),
					  storage_class_name(p->storage.cls), p->storage.why);
	}
}

static void cpu_input(const struct bench_report *rep, struct place_input *in)
{
	const struct cpu_result *c = &rep->cpu;

	in->cpu_ran = rep->outcome[MOD_cpu].status != BENCH_NOT_RUN;
	if (!in->cpu_ran)
		return;
	in->max_prime = c->max_prime;
	in->cpu_1t = c->single.eps;
	in->cpu_all = c->multi.eps;
	in->cpu_threads = c->multi.threads;
	place_cpu_why(in->why_1t, sizeof(in->why_1t), c->single.eps, c->single.complete,
		      c->single.cpu.disturbed, c->single.cpu.share.v);
	place_cpu_why(in->why_all, sizeof(in->why_all), c->multi.eps, c->multi.complete,
		      c->multi.cpu.disturbed, c->multi.cpu.share.v);
}

static void seq_input(const struct bench_report *rep, struct place_input *in)
{
	const struct seq_dir_result *d = rep->seq.ndirs ? &rep->seq.dirs[0] : NULL;

	in->seq_ran = rep->outcome[MOD_seq].status != BENCH_NOT_RUN;
	if (!in->seq_ran)
		return;
	in->seq_zero = rep->seq.zero;
	if (!d) {
		place_seq_why(in->why_dd, sizeof(in->why_dd), false, "not_run", "",
			      rep->outcome[MOD_seq].reason);
		return;
	}
	in->dd_mbps = d->avg_mbps;
	in->seq_bs = d->bs;
	in->seq_size = d->size_bytes;
	in->seq_runs = d->nruns;
	in->seq_direct = d->direct == MB_TRUE;
	place_seq_why(in->why_dd, sizeof(in->why_dd), d->status == SEQ_DONE,
		      seq_pass_status_name(d->status), d->reason, rep->outcome[MOD_seq].reason);
	place_storage_why(in->why_dd, sizeof(in->why_dd), storage_class_graded(d->storage.cls),
			  storage_class_name(d->storage.cls), d->storage.why);
}

static void net_input(const struct bench_report *rep, struct place_input *in)
{
	const struct net_result *nr = &rep->net;

	in->net_ran = rep->outcome[MOD_net].status != BENCH_NOT_RUN;
	if (!in->net_ran)
		return;
	in->net_streams = nr->streams;
	for (unsigned i = 0; i < nr->nrows && in->nnet < PLACE_MAX_NET; i++) {
		const struct net_row *row = &nr->rows[i];
		struct place_net *x = &in->net[in->nnet++];
		const struct net_dir *d[2] = { &row->send, &row->recv };
		struct mdbl *v[2] = { &x->send_mbits, &x->recv_mbits };
		char *why[2] = { x->why_send, x->why_recv };

		snprintf(x->server, sizeof(x->server), "%s", row->srv.name);
		snprintf(x->location, sizeof(x->location), "%s", row->srv.location);
		x->family = row->family == 6 ? 6 : 4;
		for (int k = 0; k < 2; k++) {
			if (d[k]->bps.ok)
				*v[k] = mdbl_of(d[k]->bps.v / 1e6);
			place_net_why(why[k], sizeof(x->why_send), d[k]->bps, d[k]->implausible,
				      net_status_name(d[k]->status));
		}
	}
}

void place_input_from_report(const struct bench_report *rep, const struct bench_plan *plan,
			     struct place_input *in)
{
	memset(in, 0, sizeof(*in));
	snprintf(in->profile, sizeof(in->profile), "%s", plan ? plan->profile : "");
	rand_input(&rep->rand, in);
	cpu_input(rep, in);
	seq_input(rep, in);
	net_input(rep, in);
}
