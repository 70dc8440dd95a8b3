/*
 * test_progress.c — the status line's pure helpers, the plan estimate,
 * and the plain (not a terminal) lines of the progress hook.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/plan.h"
#include "render/progress.h"
#include "th.h"

TH_TEST(progress_eta_format)
{
	char b[32];

	progress_fmt_eta(b, sizeof(b), 33.4);
	TH_EQ_STR(b, "00m:33s");
	progress_fmt_eta(b, sizeof(b), 65);
	TH_EQ_STR(b, "01m:05s");
	progress_fmt_eta(b, sizeof(b), 3723);
	TH_EQ_STR(b, "1h02m:03s");
	progress_fmt_eta(b, sizeof(b), NAN);
	TH_EQ_STR(b, "--m:--s");
	progress_fmt_eta(b, sizeof(b), -1);
	TH_EQ_STR(b, "--m:--s");
}

TH_TEST(progress_line_fio_like)
{
	const double iops[2] = { 40000, 13300 }, bps[2] = { 163840000, 54476800 };
	const double none[2] = { 0, 0 }, wr[2] = { 0, 156e6 };
	char b[256];

	progress_fmt_line(b, sizeof(b), 200, "rand", "randrw in /d", 45.0, iops, bps, false, 33, 65);
	TH_EQ_STR(b, "rand randrw in /d [45.0%][r=156MiB/s,w=52.0MiB/s][r=40.0k,w=13.3k IOPS]"
		  "[eta 00m:33s, total 01m:05s]");
	/* seq: decimal MB/s as dd prints, no IOPS */
	progress_fmt_line(b, sizeof(b), 200, "seq", "write run 1/3", 12.5, none, wr, false, 2, NAN);
	TH_EQ_STR(b, "seq write run 1/3 [12.5%][w=156MB/s][eta 00m:02s, total --m:--s]");
	/* unknown percent, ramp marker */
	progress_fmt_line(b, sizeof(b), 200, "rand", "p", NAN, none, none, true, NAN, NAN);
	TH_EQ_STR(b, "rand p [--.-%][ramp][eta --m:--s, total --m:--s]");
}

TH_TEST(progress_line_fits_width)
{
	const double iops[2] = { 40000, 13300 }, bps[2] = { 163840000, 54476800 };
	char b[256];

	for (unsigned w = 20; w <= 120; w += 7) {
		progress_fmt_line(b, sizeof(b), w, "rand",
				  "randrw-4k-qd64 in /a/rather/long/directory/name/for/testing", 45.0,
				  iops, bps, false, 33, 65);
		TH_CHECK(strlen(b) <= w - 1);
		TH_CHECK(strstr(b, "eta") != NULL || w < 40);
	}
	/* 80 columns: the bandwidth goes first, the IOPS and the name stay */
	progress_fmt_line(b, sizeof(b), 80, "rand", "randrw-4k-qd64 in /tmp/vpsbench-test.abcdef/d",
			  45.0, iops, bps, false, 33, 65);
	TH_CHECK(strstr(b, "IOPS]") != NULL);
	TH_CHECK(strstr(b, "MiB/s") == NULL);
	TH_CHECK(strncmp(b, "rand randrw-4k-qd64", 19) == 0);
}

static void make_ctx(struct bench_ctx *ctx, struct bench_opts *o, struct bench_plan *pl)
{
	memset(ctx, 0, sizeof(*ctx));
	memset(o, 0, sizeof(*o));
	memset(pl, 0, sizeof(*pl));
	o->dirs[0] = "/a";
	o->dirs[1] = "/b";
	o->ndirs = 2;
	pl->seq.runs = 3;
	pl->seq.size = 1ULL << 30;
	pl->nrand = 2;
	pl->rand[0].size = 256ULL << 20;
	pl->rand[0].runtime_ns = 8000000000ULL;
	pl->rand[0].ramp_ns = 1000000000ULL;
	pl->rand[1].size = 512ULL << 20;
	pl->rand[1].runtime_ns = 8000000000ULL;
	pl->rand[1].ramp_ns = 1000000000ULL;
	ctx->opts = o;
	ctx->plan = pl;
}

TH_TEST(progress_plan_estimate)
{
	struct bench_ctx ctx;
	struct bench_opts o;
	struct bench_plan pl;
	uint64_t b, ns;

	make_ctx(&ctx, &o, &pl);
	progress_plan_work(&ctx, MOD_seq, &b, &ns);
	TH_EQ_INT(b, 2ULL * 4 * (1ULL << 30)); /* 2 dirs x (3 runs + read) */
	TH_EQ_INT(ns, 0);
	progress_plan_work(&ctx, MOD_rand, &b, &ns);
	TH_EQ_INT(b, 2ULL * (512ULL << 20));   /* one layout of the biggest pass per dir */
	TH_EQ_INT(ns, 2ULL * 18000000000ULL);  /* 2 dirs x 2 x (ramp + runtime) */
	o.skip_mask = 1u << MOD_rand;
	progress_plan_work(&ctx, MOD_rand, &b, &ns);
	TH_EQ_INT(b, 0);
	TH_EQ_INT(ns, 0);
}

TH_TEST(progress_plain_lines)
{
	static struct bench_live live;
	struct bench_ctx ctx;
	struct bench_opts o;
	struct bench_plan pl;
	struct bench_step st = { .module = "seq", .what = "write run 1/3 in /a", .bytes = 1ULL << 30 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	TH_CHECK(f != NULL);
	if (!f)
		return;
	make_ctx(&ctx, &o, &pl);
	TH_EQ_INT(progress_start(&live, &ctx, f, false, true, false), 0);
	ctx.live = &live;
	TH_CHECK(!live.running); /* not a terminal: no thread */
	TH_EQ_INT(live.left_bytes[MOD_seq], 8ULL << 30);
	progress_step(&ctx, &st, 0);
	TH_EQ_INT(live.left_bytes[MOD_seq], 7ULL << 30); /* the step left the plan */
	live_publish(live_slot(&ctx, 0), 1, 16, 1 << 20);
	TH_EQ_INT(atomic_load(&live.slot[0].bytes[1]), 1 << 20);
	progress_step(&ctx, &st, 1);
	progress_module_done(&live, MOD_seq);
	TH_EQ_INT(live.left_bytes[MOD_seq], 0);
	progress_stop(&live);
	fclose(f);
	TH_CHECK(buf && strncmp(buf, "vpsbench: seq: write run 1/3 in /a ...\n"
				"vpsbench: seq: write run 1/3 in /a done (", 80) == 0);
	TH_CHECK(buf && !strchr(buf, '\033'));
	TH_CHECK(live_slot(&ctx, LIVE_SLOTS) == NULL);
	free(buf);
}
