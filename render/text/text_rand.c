/*
 * text_rand.c — the rand section: fio-style lines per pass, 80 columns.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_pass_io.h"
#include "text_put.h"

/* indexes into lat_default_percentiles */
#define P50  6
#define P99  12
#define P999 14

static void bs_str(char *buf, size_t n, uint32_t bs)
{
	if (bs % (1u << 20) == 0)
		snprintf(buf, n, "%um", bs >> 20);
	else if (bs % 1024 == 0)
		snprintf(buf, n, "%uk", bs >> 10);
	else
		snprintf(buf, n, "%u", bs);
}

static void dir_lines(FILE *f, const struct rand_dir_result *d, const char *label,
		      const struct grade_result *g, bool lat, const struct render_style *st)
{
	char iops[32], bw2[32], bw10[32], p50[24], p99[24], p999[24], mx[24];

	fmt_num2str(iops, sizeof(iops), d->iops, false, NULL);
	fmt_num2str(bw2, sizeof(bw2), d->bw_bytes, true, "B/s");
	fmt_num2str(bw10, sizeof(bw10), d->bw_bytes, false, "B/s");
	fprintf(f, "   %6s: IOPS=%s, BW=%s (%s)\n", label, iops, bw2, bw10);
	if (!d->clat.n) {
		fprintf(f, "           clat: no completed I/O\n");
		return;
	}
	fmt_ns(p50, sizeof(p50), (double)d->clat_pct[P50]);
	fmt_ns(p99, sizeof(p99), (double)d->clat_pct[P99]);
	fmt_ns(p999, sizeof(p999), (double)d->clat_pct[P999]);
	fmt_ns(mx, sizeof(mx), (double)d->clat.max);
	/* the latency pass's p99 is lat_p99_ms */
	fprintf(f, "           clat p50 %s, p99 %s, p99.9 %s, max %s", p50, p99, p999, mx);
	text_grade_tag(f, st, g, lat ? "lat_p99_ms" : "", 38 + strlen(p50) + strlen(p99) +
		       strlen(p999) + strlen(mx), 11);
	/* the ± of the graded p99: its order-statistic interval */
	text_pct_pm(f, st, "           p99 ", false, g, lat ? "lat_p99_ms" : "");
}

static void pass_block(FILE *f, const struct bench_report *rep, const struct rand_pass_result *p,
		       bool many_dirs, const struct render_style *st)
{
	const bool is_main = p == grade_main_pass(&rep->rand), lat = p == grade_lat_pass(&rep->rand);
	char bs[16], sz[24];

	bs_str(bs, sizeof(bs), p->bs);
	fmt_bytes(sz, sizeof(sz), p->size_bytes);
	fprintf(f, " %s%s%s", text_color(st, "\033[1m"), p->name, text_color(st, "\033[0m"));
	if (many_dirs)
		fprintf(f, " in %s", p->dir);
	fprintf(f, ": %s", rand_rw_names[p->rw]);
	if (p->rw == RW_RANDRW)
		fprintf(f, " %u/%u", p->rwmixread, 100 - p->rwmixread);
	fprintf(f, ", bs %s, qd %u x %u job%s, file %s\n", bs, p->iodepth_used, p->jobs,
		p->jobs == 1 ? "" : "s", sz);
	if (p->status == BENCH_SKIP || p->status == BENCH_UNAVAIL ||
	    (p->status != BENCH_OK && !p->runtime_ms)) {
		fprintf(f, "   %s: %s\n", bench_status_name(p->status), p->reason);
		return;
	}
	fprintf(f, "   %s, %s, %.2f s measured", p->engine[0] ? p->engine : "unknown engine",
		p->direct ? "O_DIRECT" : "BUFFERED (page cache)", (double)p->runtime_ms / 1000.0);
	if (p->ramp_ms)
		fprintf(f, " after %.1f s ramp", (double)p->ramp_ms / 1000.0);
	fprintf(f, ", %s data\n", p->zero_data ? "zero" : "random");
	if (p->engine_fallback[0])
		fprintf(f, "   engine: %.72s\n", p->engine_fallback);
	/* beside the figures: what they measure, and whether they are graded */
	fprintf(f, "   storage: %s", storage_class_name(p->storage.cls));
	if (!storage_class_graded(p->storage.cls))
		fprintf(f, " (not graded as a disk): %s", p->storage.why);
	fputc('\n', f);
	if (p->dir_res[RD].present)
		dir_lines(f, &p->dir_res[RD], "read", &rep->grade, lat, st);
	if (p->dir_res[WR].present)
		dir_lines(f, &p->dir_res[WR], "write", &rep->grade, false, st);
	if (is_main && grade_get(&rep->grade, "rand_iops")) {
		char iops[32], pm[48];
		double u, t = (p->dir_res[RD].present ? p->dir_res[RD].iops : 0) +
			   (p->dir_res[WR].present ? p->dir_res[WR].iops : 0);

		/* rand_iops: read + write of the main pass, ± from its per-second totals */
		fmt_num2str(iops, sizeof(iops), t, false, NULL);
		pm[0] = '\0';
		u = text_uncert(&rep->grade, "rand_iops");
		if (isfinite(u)) {
			char us[32];

			fmt_num2str(us, sizeof(us), u, false, NULL);
			snprintf(pm, sizeof(pm), " \u00b1 %s", us);
		}
		fprintf(f, "    total: IOPS=%s%s", iops, pm);
		text_grade_tag(f, st, &rep->grade, "rand_iops", 16 + strlen(iops) + strlen(pm), 11);
	}
	text_disturbed(f, st, "   disturbed: ", false, "", &p->dist);
	fprintf(f, "   cpu   : ");
	if (p->usr_pct.ok)
		fprintf(f, "usr=%.1f%%, sys=%.1f%%", p->usr_pct.v, p->sys_pct.v);
	else
		fprintf(f, "unknown");
	if (p->iodepth_avg.ok)
		fprintf(f, "; qd avg %.1f", p->iodepth_avg.v);
	fputc('\n', f);
	if (p->verify.ran)
		fprintf(f, "   verify: %llu blocks, %llu bad\n", (unsigned long long)p->verify.blocks,
			(unsigned long long)p->verify.bad);
	if (p->status != BENCH_OK)
		fprintf(f, "   %s: %s\n", bench_status_name(p->status), p->reason);
}

void text_rand(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
	       const struct render_style *st)
{
	const struct rand_result *r = &rep->rand;
	bool many_dirs = false;

	(void)plan;
	text_heading(f, st, "Random I/O (fio-style)");
	for (unsigned i = 1; i < r->npass; i++)
		if (strcmp(r->pass[i].dir, r->pass[0].dir))
			many_dirs = true;
	if (r->npass && !many_dirs)
		fprintf(f, " in %s\n", r->pass[0].dir);
	for (unsigned i = 0; i < r->npass; i++)
		pass_block(f, rep, &r->pass[i], many_dirs, st);
}
