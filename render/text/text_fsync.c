/*
 * text_fsync.c — the fdatasync section: one block per --dir, the sync
 * latency in fio's percentiles, what the sample covered, and whether its
 * p99 carries weight (fewer than 1000 syncs: low confidence).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_pass_io.h"
#include "text_put.h"

static void lat_line(FILE *f, const struct render_style *st, const char *label,
		     const struct fsync_lat *l, const struct grade_result *g, const char *metric)
{
	char p50[24], p99[24], p999[24], mx[24];
	int i50 = fsync_pct_index(50.0), i99 = fsync_pct_index(99.0), i999 = fsync_pct_index(99.9);

	if (!l->n) {
		text_kv(f, st, label, "no call completed");
		return;
	}
	fmt_ns(p50, sizeof(p50), (double)l->pct[i50]);
	fmt_ns(p99, sizeof(p99), (double)l->pct[i99]);
	fmt_ns(p999, sizeof(p999), (double)l->pct[i999]);
	fmt_ns(mx, sizeof(mx), (double)l->max);
	fprintf(f, " %s%-22s%s: p50 %s, p99 %s, p99.9 %s, max %s", text_color(st, "\033[36m"), label,
		text_color(st, "\033[0m"), p50, p99, p999, mx);
	text_grade_tag(f, st, g, metric, 50 + strlen(p50) + strlen(p99) + strlen(p999) + strlen(mx),
		       25);
	/* the ± of the p99: its order-statistic interval */
	text_pct_pm(f, st, "  p99", true, g, metric);
}

static void dir_block(FILE *f, const struct bench_report *rep, const struct fsync_dir_result *d,
		      bool first, const struct render_style *st)
{
	char sz[24], cap[24];

	if (d->fstype[0])
		text_kv(f, st, "Directory", "%s (%s)", d->dir, d->fstype);
	else
		text_kv(f, st, "Directory", "%s (filesystem unknown)", d->dir);
	text_kv(f, st, "Storage", "%s%s", storage_class_name(d->storage.cls),
		storage_class_graded(d->storage.cls) ? "" : " (shown, not graded as a disk)");
	if (!storage_class_graded(d->storage.cls) && d->storage.why[0])
		text_kv(f, st, "  Why", "%s", d->storage.why);
	fmt_bytes(sz, sizeof(sz), d->size_bytes);
	fmt_ns(cap, sizeof(cap), (double)d->time_cap_ns);
	text_kv(f, st, "Method", "%u-byte buffered writes, each + fdatasync(), etcd's fio recipe",
		d->bs);
	text_kv(f, st, d->full ? "Recipe" : "Sample", "%s (%" PRIu64 " bytes) or %s, whichever "
		"first%s", sz, d->size_bytes, cap, d->scaled_down ? " (size cut to the free space)" :
		"");
	if (d->status != BENCH_OK)
		text_kv(f, st, "Status", "%s%s%s", bench_status_name(d->status), d->reason[0] ? ": " : "",
			d->reason);
	if (d->status != BENCH_OK && d->syncs == 0)
		return;
	text_kv(f, st, "Syncs", "%" PRIu64 " in %.2f s (%.0f/s), %" PRIu64 " bytes written%s",
		d->syncs, (double)d->runtime_ns / 1e9, d->syncs_per_s, d->bytes,
		d->time_capped ? ", stopped by the time cap" : "");
	/* grade_metrics.c takes the first directory's p99: this one */
	lat_line(f, st, "fdatasync", &d->sync, &rep->grade, first ? "fsync_p99_ms" : "");
	if (d->p99_low_confidence)
		text_kv(f, st, "  p99 confidence", "low: %" PRIu64 " syncs, fewer than %u",
			d->syncs, FSYNC_MIN_SYNCS_P99);
	lat_line(f, st, "write()", &d->write, &rep->grade, "");
	text_disturbed(f, st, "Disturbed", true, "", &d->dist);
}

void text_fsync(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	text_heading(f, st, "fdatasync latency (etcd's WAL recipe)");
	for (unsigned i = 0; i < rep->fsync.ndirs; i++) {
		if (i)
			fputc('\n', f);
		dir_block(f, rep, &rep->fsync.dirs[i], i == 0, st);
	}
}
