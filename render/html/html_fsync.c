/*
 * html_fsync.c — the fdatasync section of the HTML page: a table per
 * --dir with what the sample covered and the sync and write() latency in
 * fio's percentiles (the text report's words, so both read alike).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "html_chart.h"
#include "render/render.h"

static void row(FILE *f, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(FILE *f, const char *label, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("<tr><th>", f);
	html_esc(f, label);
	fputs("</th><td>", f);
	html_esc(f, buf);
	fputs("</td></tr>\n", f);
}

static void lat_row(FILE *f, const char *label, const struct fsync_lat *l)
{
	char p50[24], p99[24], p999[24], mx[24];

	if (!l->n) {
		row(f, label, "no call completed");
		return;
	}
	fmt_ns(p50, sizeof(p50), (double)l->pct[fsync_pct_index(50.0)]);
	fmt_ns(p99, sizeof(p99), (double)l->pct[fsync_pct_index(99.0)]);
	fmt_ns(p999, sizeof(p999), (double)l->pct[fsync_pct_index(99.9)]);
	fmt_ns(mx, sizeof(mx), (double)l->max);
	row(f, label, "p50 %s, p99 %s, p99.9 %s, max %s", p50, p99, p999, mx);
}

static void dir_card(FILE *f, const struct fsync_dir_result *d)
{
	char sz[24], cap[24];

	fmt_bytes(sz, sizeof(sz), d->size_bytes);
	fmt_ns(cap, sizeof(cap), (double)d->time_cap_ns);
	fputs("<div class=\"card\"><h3>", f);
	html_esc(f, d->dir);
	fputs("</h3>\n<div class=\"scroll\"><table>\n", f);
	row(f, "Filesystem", "%s", d->fstype[0] ? d->fstype : "unknown");
	row(f, "Storage", "%s%s%s", storage_class_name(d->storage.cls),
	    storage_class_graded(d->storage.cls) ? "" : ", shown, not graded as a disk: ",
	    storage_class_graded(d->storage.cls) ? "" : d->storage.why);
	row(f, "Method", "%u-byte buffered writes, each + fdatasync(), etcd's fio recipe", d->bs);
	row(f, d->full ? "Recipe" : "Sample", "%s (%" PRIu64 " bytes) or %s, whichever first%s", sz,
	    d->size_bytes, cap, d->scaled_down ? " (size cut to the free space)" : "");
	if (d->status != BENCH_OK)
		row(f, "Status", "%s%s%s", bench_status_name(d->status), d->reason[0] ? ": " : "",
		    d->reason);
	if (d->status == BENCH_OK || d->syncs) {
		row(f, "Syncs", "%" PRIu64 " in %.2f s (%.0f/s), %" PRIu64 " bytes written%s", d->syncs,
		    (double)d->runtime_ns / 1e9, d->syncs_per_s, d->bytes,
		    d->time_capped ? ", stopped by the time cap" : "");
		lat_row(f, "fdatasync", &d->sync);
		if (d->p99_low_confidence)
			row(f, "p99 confidence", "low: %" PRIu64 " syncs, fewer than %u", d->syncs,
			    FSYNC_MIN_SYNCS_P99);
		lat_row(f, "write()", &d->write);
	}
	fputs("</table></div></div>\n", f);
}

void html_fsync(FILE *f, const struct bench_report *rep)
{
	fputs("<section id=\"fsync\"><h2>fdatasync latency (etcd's WAL recipe)</h2>\n", f);
	for (unsigned i = 0; i < rep->fsync.ndirs; i++)
		dir_card(f, &rep->fsync.dirs[i]);
	fputs("</section>\n", f);
}
