/*
 * test_divzero.c — division by zero anywhere (issue #8 item 8): too short
 * timelines, a single seq run, an old value of 0 in compare. Each must give
 * "not measured" / unknown, never NaN, inf or a made-up 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade/compare.h"
#include "grade/grade.h"
#include "report/report.h"
#include "modules/seq/seq.h"
#include "th.h"

/* A finished report whose only rand pass is a usable qd64 4k randrw pass. */
static struct bench_report *rand_report(unsigned ntimeline, uint64_t runtime_ms)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct rand_pass_result *p;

	if (!rep)
		return NULL;
	rep->outcome[MOD_rand].status = BENCH_OK;
	rep->rand.npass = 1;
	p = &rep->rand.pass[0];
	snprintf(p->name, sizeof(p->name), "randrw-4k-qd64");
	p->rw = RW_RANDRW;
	p->bs = 4096;
	p->iodepth = 64;
	p->direct = true;
	p->status = BENCH_OK;
	p->runtime_ms = runtime_ms;
	for (int d = 0; d < 2; d++) {
		struct rand_dir_result *dr = &p->dir_res[d];

		dr->present = true;
		dr->total_ios = runtime_ms ? 3000 : 0;
		dr->iops = runtime_ms ? 1000.0 * (double)dr->total_ios / (double)runtime_ms : 0;
		dr->ntimeline = ntimeline;
		for (unsigned s = 0; s < ntimeline; s++)
			dr->timeline[s] = 3000;
	}
	return rep;
}

/* Every measured metric is finite; rand_cov_pct and rand_tail_ratio are not measured. */
static void check_short_timeline(unsigned ntimeline, uint64_t runtime_ms)
{
	struct bench_report *rep = rand_report(ntimeline, runtime_ms);
	struct metric_set *ms = calloc(1, sizeof(*ms));
	const struct metric *cov, *tail, *iops;

	TH_CHECK(rep && ms);
	if (!rep || !ms)
		goto out;
	grade_collect(rep, NULL, ms);
	for (unsigned i = 0; i < ms->n; i++) {
		if (ms->m[i].measured && !isfinite(ms->m[i].value))
			th_fail(__FILE__, __LINE__, "%s measured as %g", ms->m[i].name, ms->m[i].value);
		if (isnan(ms->m[i].spread_pct))
			th_fail(__FILE__, __LINE__, "%s spread is NaN", ms->m[i].name);
	}
	cov = metric_get(ms, "rand_cov_pct");
	tail = metric_get(ms, "rand_tail_ratio");
	iops = metric_get(ms, "rand_iops");
	TH_CHECK(cov && !cov->measured && (strstr(cov->why_not, "fewer than 3 whole seconds") ||
					  (runtime_ms == 0 && strstr(cov->why_not, "measured nothing"))));
	TH_CHECK(tail && !tail->measured && (strstr(tail->why_not, "fewer than 3 whole seconds") ||
					  (runtime_ms == 0 && strstr(tail->why_not, "measured nothing"))));
	/* the figure itself has no spread to go with it: unknown, not 0 % */
	TH_CHECK(iops && (!iops->measured || iops->spread_pct < 0));
out:
	free(ms);
	free(rep);
}

TH_TEST(divzero_timeline_0_seconds)
{
	check_short_timeline(0, 0);
	check_short_timeline(0, 500);
}

TH_TEST(divzero_timeline_1_second)
{
	check_short_timeline(1, 1000);
	check_short_timeline(1, 1);
}

/* A 3-second timeline with no I/O at all: mean 0, CoV and tail undefined. */
TH_TEST(divzero_timeline_all_zero)
{
	struct bench_report *rep = rand_report(3, 3000);
	struct metric_set *ms = calloc(1, sizeof(*ms));
	const struct metric *cov, *tail;

	TH_CHECK(rep && ms);
	if (!rep || !ms)
		goto out;
	for (int d = 0; d < 2; d++)
		memset(rep->rand.pass[0].dir_res[d].timeline, 0,
		       sizeof(rep->rand.pass[0].dir_res[d].timeline));
	grade_collect(rep, NULL, ms);
	cov = metric_get(ms, "rand_cov_pct");
	tail = metric_get(ms, "rand_tail_ratio");
	TH_CHECK(cov && !cov->measured);
	TH_CHECK(tail && !tail->measured);
	/* the first third empty, the rest not: the tail ratio has no base */
	rep->rand.pass[0].dir_res[0].timeline[2] = 10;
	grade_collect(rep, NULL, ms);
	cov = metric_get(ms, "rand_cov_pct");
	tail = metric_get(ms, "rand_tail_ratio");
	TH_CHECK(cov && cov->measured && isfinite(cov->value));
	TH_CHECK(tail && !tail->measured);
out:
	free(ms);
	free(rep);
}

TH_TEST(divzero_seq_spread_one_run)
{
	const double one[] = { 250.0 };
	bool out[1] = { true };
	struct seq_spread sp;

	TH_EQ_INT(seq_spread(one, 1, &sp, out), 0);
	TH_CHECK(sp.avg.ok);
	TH_NEAR(sp.avg.v, 250.0, 1e-9);
	TH_CHECK(sp.min.ok && sp.max.ok);
	TH_CHECK(!sp.cov.ok); /* unknown with one run, not 0 */
	TH_CHECK(!out[0]);
}

TH_TEST(divzero_seq_spread_none_and_zero)
{
	const double zero[] = { 0.0, 0.0 };
	bool out[2] = { true, true };
	struct seq_spread sp;

	TH_EQ_INT(seq_spread(zero, 0, &sp, NULL), 0);
	TH_CHECK(!sp.avg.ok && !sp.min.ok && !sp.max.ok && !sp.cov.ok);
	/* two runs at 0 MB/s: the mean is 0, so CoV and outliers are undefined */
	TH_EQ_INT(seq_spread(zero, 2, &sp, out), 0);
	TH_CHECK(sp.avg.ok);
	TH_NEAR(sp.avg.v, 0.0, 0);
	TH_CHECK(!sp.cov.ok);
	TH_CHECK(!out[0] && !out[1]);
}

#ifdef HAVE_CJSON
static int write_report(char *path, const char *metrics)
{
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fprintf(f, "{\"schema\": \"vpsbench.report/1\", \"run\": {\"start\": \"x\"}, "
		"\"metrics\": {%s}, \"grades\": []}\n", metrics);
	return fclose(f);
}
#endif

TH_TEST(divzero_compare_old_zero)
{
#ifdef HAVE_CJSON
	char a[] = "/tmp/vpsbench-th-XXXXXX", b[] = "/tmp/vpsbench-th-XXXXXX", err[256] = "";
	struct compare_result *res = calloc(1, sizeof(*res));
	const struct compare_row *w = NULL, *r = NULL;
	int rc;

	TH_CHECK(res != NULL);
	if (!res)
		return;
	TH_EQ_INT(write_report(a, "\"seq_write_mbps\": 0, \"seq_read_mbps\": 200"), 0);
	TH_EQ_INT(write_report(b, "\"seq_write_mbps\": 150, \"seq_read_mbps\": 0"), 0);
	rc = compare_reports(a, b, res, err, sizeof(err));
	unlink(a);
	unlink(b);
	TH_EQ_INT(rc, 0);
	for (unsigned i = 0; i < res->n; i++) {
		if (!strcmp(res->row[i].metric, "seq_write_mbps"))
			w = &res->row[i];
		if (!strcmp(res->row[i].metric, "seq_read_mbps"))
			r = &res->row[i];
		TH_CHECK(!res->row[i].change_ok || isfinite(res->row[i].change_pct));
	}
	TH_CHECK(w && r);
	if (w) {
		/* old 0: the change in % is unknown, not inf or NaN */
		TH_CHECK(w->old_ok && w->new_ok);
		TH_CHECK(!w->change_ok);
		TH_CHECK(!w->significant);
	}
	if (r) {
		/* new 0 is a real -100 % */
		TH_CHECK(r->change_ok);
		TH_NEAR(r->change_pct, -100.0, 1e-9);
	}
	free(res);
#else
	th_skip("built without cJSON");
#endif
}

/* seq_write_mbps grades the sustained figure (bytes / seconds), not the mean of the rates. */
TH_TEST(grade_seq_write_is_the_sustained_figure)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct metric_set *ms = calloc(1, sizeof(*ms));
	const struct metric *w;
	struct seq_dir_result *d;

	TH_CHECK(rep && ms);
	if (!rep || !ms)
		goto out;
	rep->outcome[MOD_seq].status = BENCH_OK;
	rep->seq.ndirs = 1;
	d = &rep->seq.dirs[0];
	d->status = SEQ_DONE;
	d->nruns = 2;
	d->avg_mbps = mdbl_of(312.5);
	d->total_mbps = mdbl_of(200.0);
	grade_collect(rep, NULL, ms);
	w = metric_get(ms, "seq_write_mbps");
	TH_CHECK(w && w->measured);
	if (w)
		TH_NEAR(w->value, 200.0, 1e-9);
out:
	free(ms);
	free(rep);
}
