/*
 * test_disk_uncert.c — the disk figures' uncertainty and disturbance as
 * grade_collect_disk.c takes them out of a report: seq write runs and read
 * passes (CI of the rates' mean, scaled to bytes / seconds), a disturbed
 * pass's metric marked with what was seen, fsync p99 too few samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/uncert.h"
#include "grade/grade_collect.h"
#include "report/report.h"
#include "th.h"

static const struct metric *find(const struct metric_set *ms, const char *name)
{
	for (unsigned i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].name, name) == 0)
			return &ms->m[i];
	return NULL;
}

/* 3 write runs of 100 MB at 100, 200 and 400 MB/s; reads 3 x 50 MB at 500, 500, 250 MB/s */
static struct bench_report *seq_report(void)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct seq_dir_result *d;
	static const double w[3] = { 100, 200, 400 }, r[3] = { 500, 500, 250 };
	double secs = 0, rsecs = 0;

	if (!rep)
		return NULL;
	rep->outcome[MOD_seq].status = BENCH_OK;
	rep->seq.ndirs = 1;
	d = &rep->seq.dirs[0];
	d->status = SEQ_DONE;
	d->storage.cls = STORAGE_DEVICE;
	d->nruns = 3;
	for (int i = 0; i < 3; i++) {
		d->runs[i].bytes = 100000000;
		d->runs[i].seconds = 100.0 / w[i];
		d->runs[i].mbps = w[i];
		secs += d->runs[i].seconds;
		d->read.passes[i].bytes = 50000000;
		d->read.passes[i].seconds = 50.0 / r[i];
		d->read.passes[i].mbps = r[i];
		rsecs += d->read.passes[i].seconds;
	}
	d->total_mbps = mdbl_of(300.0 / secs);
	d->read.npasses = 3;
	d->read.direct = MB_TRUE;
	d->read.mbps = mdbl_of(150.0 / rsecs);
	return rep;
}

TH_TEST(disk_seq_uncert_scaled_ci)
{
	struct bench_report *rep = seq_report();
	static struct metric_set ms;
	const struct metric *w, *r;
	double v[3] = { 100, 200, 400 }, rv[3] = { 500, 500, 250 };

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	memset(&ms, 0, sizeof(ms));
	collect_seq(rep, &ms);
	w = find(&ms, "seq_write_mbps");
	r = find(&ms, "seq_read_mbps");
	TH_CHECK(w && w->measured && r && r->measured);
	/* 300 MB over 1 + 0.5 + 0.25 s = 171.43 MB/s; the mean of the rates is 233.33 */
	TH_NEAR(w->value, 300.0 / 1.75, 1e-9);
	TH_NEAR(w->uncert, uncert_mean_ci95(v, 3) * (300.0 / 1.75) / (700.0 / 3), 1e-9);
	TH_EQ_STR(w->uncert_from, "3 write runs");
	TH_NEAR(r->uncert, uncert_mean_ci95(rv, 3) * r->value / (1250.0 / 3), 1e-9);
	TH_EQ_STR(r->uncert_from, "3 read passes");
	TH_CHECK(!w->disturbed && !r->disturbed);
	free(rep);
}

TH_TEST(disk_seq_disturbed_pass_marks_metric)
{
	struct bench_report *rep = seq_report();
	static struct metric_set ms;
	const struct metric *w, *r;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->seq.dirs[0].read.passes[1].dist.disturbed = true;
	snprintf(rep->seq.dirs[0].read.passes[1].dist.why, sizeof(rep->seq.dirs[0].read.passes[1].dist.why),
		 "foreign I/O on vda during the pass: 412 MB written beside the pass's 50 MB");
	memset(&ms, 0, sizeof(ms));
	collect_seq(rep, &ms);
	w = find(&ms, "seq_write_mbps");
	r = find(&ms, "seq_read_mbps");
	TH_CHECK(w && !w->disturbed);
	TH_CHECK(r && r->measured && r->disturbed);
	if (r)
		TH_EQ_STR(r->why_not, "read pass 2: foreign I/O on vda during the pass: 412 MB written "
			  "beside the pass's 50 MB");
	free(rep);
}

/* 100 syncs: the p99's upper rank is past them: unbounded, low confidence, said why */
TH_TEST(disk_fsync_p99_too_few)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	static struct metric_set ms;
	struct fsync_dir_result *d;
	const struct metric *p99, *p50;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->outcome[MOD_fsync].status = BENCH_OK;
	rep->fsync.ndirs = 1;
	d = &rep->fsync.dirs[0];
	d->status = BENCH_OK;
	d->storage.cls = STORAGE_DEVICE;
	d->syncs = d->sync.n = 100;
	d->sync.bins[100] = 100;
	for (int i = 0; i < LAT_NPCT; i++)
		d->sync.pct[i] = 100;
	memset(&ms, 0, sizeof(ms));
	collect_fsync(rep, &ms);
	p99 = find(&ms, "fsync_p99_ms");
	p50 = find(&ms, "fsync_p50_ms");
	TH_CHECK(p99 && p99->measured && isinf(p99->uncert) && p99->low_confidence);
	if (p99)
		TH_EQ_STR(p99->caveat, "100 syncs, too few for a p99");
	/* p50 of 100 identical values: finite, 0 */
	TH_CHECK(p50 && p50->uncert == 0.0 && !p50->low_confidence);
	free(rep);
}

/* a randrw main pass at qd 64 with an 8-second timeline, and a qd1 read pass */
static struct bench_report *rand_report(void)
{
	static const uint32_t rd[8] = { 100, 110, 90, 100, 120, 80, 100, 100 };
	static const uint32_t wr[8] = { 30, 30, 40, 20, 30, 30, 35, 25 };
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct rand_pass_result *p;

	if (!rep)
		return NULL;
	rep->outcome[MOD_rand].status = BENCH_OK;
	rep->rand.npass = 2;
	for (int k = 0; k < 2; k++) {
		p = &rep->rand.pass[k];
		snprintf(p->name, sizeof(p->name), k ? "randread-4k-qd1" : "randrw-4k-qd64");
		p->rw = k ? RW_RANDREAD : RW_RANDRW;
		p->bs = 4096;
		p->iodepth = k ? 1 : 64;
		p->status = BENCH_OK;
		p->runtime_ms = 8000;
		p->direct = true;
		p->storage.cls = STORAGE_DEVICE;
		p->dir_res[RD].present = true;
		p->dir_res[RD].ntimeline = 8;
		memcpy(p->dir_res[RD].timeline, rd, sizeof(rd));
		p->dir_res[RD].iops = 100;
		p->dir_res[RD].total_ios = p->dir_res[RD].clat.n = 800;
		p->dir_res[RD].clat_bins[50] = 800;
		for (int i = 0; i < LAT_NPCT; i++)
			p->dir_res[RD].clat_pct[i] = 50;
		if (!k) {
			p->dir_res[WR].present = true;
			p->dir_res[WR].ntimeline = 8;
			memcpy(p->dir_res[WR].timeline, wr, sizeof(wr));
			p->dir_res[WR].iops = 30;
		}
	}
	return rep;
}

TH_TEST(disk_rand_uncert_from_timeline)
{
	struct bench_report *rep = rand_report();
	static struct metric_set ms;
	double tot[8], r[8], w[8], sum = 0, var = 0, cov;
	const struct metric *iops, *ri, *wi, *c, *t, *p99;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	for (int i = 0; i < 8; i++) {
		r[i] = rep->rand.pass[0].dir_res[RD].timeline[i];
		w[i] = rep->rand.pass[0].dir_res[WR].timeline[i];
		tot[i] = r[i] + w[i];
		sum += tot[i];
	}
	for (int i = 0; i < 8; i++)
		var += (tot[i] - sum / 8) * (tot[i] - sum / 8);
	cov = sqrt(var / 7) / (sum / 8) * 100;
	memset(&ms, 0, sizeof(ms));
	collect_rand(rep, &ms);
	iops = find(&ms, "rand_iops");
	ri = find(&ms, "rand_read_iops");
	wi = find(&ms, "rand_write_iops");
	c = find(&ms, "rand_cov_pct");
	t = find(&ms, "rand_tail_ratio");
	p99 = find(&ms, "lat_p99_ms");
	TH_CHECK(iops && ri && wi && c && t && p99);
	if (!iops || !ri || !wi || !c || !t || !p99)
		goto out;
	TH_NEAR(iops->uncert, uncert_mean_ci95(tot, 8), 1e-9);
	TH_EQ_STR(iops->uncert_from, "8 per-second samples");
	TH_NEAR(ri->uncert, uncert_mean_ci95(r, 8), 1e-9);
	TH_NEAR(wi->uncert, uncert_mean_ci95(w, 8), 1e-9);
	TH_NEAR(c->value, cov, 1e-9);
	TH_NEAR(c->uncert, 1.96 * cov / sqrt(14.0), 1e-9);
	/* thirds of 8 seconds: 2 each; last (135, 125) over first (130, 140) */
	TH_NEAR(t->value, 130.0 / 135.0, 1e-9);
	TH_NEAR(t->uncert, uncert_ratio(130, uncert_mean_ci95(tot + 6, 2), 135,
					uncert_mean_ci95(tot, 2)), 1e-9);
	/* 800 reads all at 50 ns: the p99's interval is 0 wide */
	TH_CHECK(p99->measured && p99->uncert == 0.0 && !p99->low_confidence);
	TH_CHECK(!iops->disturbed);
out:
	free(rep);
}

TH_TEST(disk_rand_disturbed_main_pass)
{
	struct bench_report *rep = rand_report();
	static struct metric_set ms;
	const struct metric *iops, *t, *p99;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->rand.pass[0].dist.disturbed = true;
	snprintf(rep->rand.pass[0].dist.why, sizeof(rep->rand.pass[0].dist.why), "steal 14%% during the pass");
	memset(&ms, 0, sizeof(ms));
	collect_rand(rep, &ms);
	iops = find(&ms, "rand_iops");
	t = find(&ms, "rand_tail_ratio");
	p99 = find(&ms, "lat_p99_ms");
	TH_CHECK(iops && iops->measured && iops->disturbed);
	if (iops)
		TH_EQ_STR(iops->why_not, "pass randrw-4k-qd64: steal 14% during the pass");
	TH_CHECK(t && t->disturbed);
	/* the latency pass was not disturbed */
	TH_CHECK(p99 && p99->measured && !p99->disturbed);
	free(rep);
}
