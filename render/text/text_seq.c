/*
 * text_seq.c — the sequential section, in the bench.sh / tocdo layout:
 * "I/O (1st run) : 479 MB/s (457 MiB/s), flush 0.12 s", average, spread,
 * read, then where it ran. One block per --dir.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_pass_io.h"
#include "text_put.h"

static void text_seq_dir(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
			 const struct seq_dir_result *r, bool first, const struct render_style *st)
{
	char b1[32], b2[32], ord[16];

	if (r->fstype[0])
		text_kv(f, st, "Directory", "%s (%s)", r->dir, r->fstype);
	else
		text_kv(f, st, "Directory", "%s (filesystem unknown)", r->dir);
	if (r->device[0] || r->mountpoint[0])
		text_kv(f, st, "Device", "%s on %s", r->device[0] ? r->device : "unknown",
			r->mountpoint[0] ? r->mountpoint : "unknown");
	/* beside the figures: what they measure, and whether they are graded */
	text_kv(f, st, "Storage", "%s%s", storage_class_name(r->storage.cls),
		storage_class_graded(r->storage.cls) ? "" : " (not graded as a disk)");
	if (!storage_class_graded(r->storage.cls) && r->storage.why[0])
		text_kv(f, st, "  Why", "%s", r->storage.why);

	fmt_bytes(b1, sizeof(b1), r->size_bytes);
	fmt_bytes(b2, sizeof(b2), r->bs);
	if (r->size_bytes)
		text_kv(f, st, "Method", "%s, %s x %u in %s blocks%s",
			r->direct == MB_TRUE ? "O_DIRECT + fdatasync" : "write + fdatasync", b1,
			plan->seq.runs, b2, r->scaled_down ? " (scaled down)" : "");
	if (r->direct_requested && r->direct != MB_TRUE)
		text_kv(f, st, "Direct I/O", "not used: %s",
			r->direct_reason[0] ? r->direct_reason : "not reached");
	text_kv(f, st, "Data", "%s", rep->seq.zero ? "zeros (like dd if=/dev/zero)" :
		"random, every 512-byte sector unique");

	if (r->status != SEQ_DONE)
		text_kv(f, st, "Status", "%s%s%s", seq_pass_status_name(r->status), r->reason[0] ? ": " : "",
			r->reason);
	for (unsigned i = 0; i < r->nruns; i++) {
		const struct seq_run *x = &r->runs[i];
		char label[32];

		snprintf(label, sizeof(label), "I/O (%s run)", seq_ordinal(i + 1, ord, sizeof(ord)));
		text_kv(f, st, label, "%.0f MB/s (%.0f MiB/s), flush %.2f s%s", x->mbps, x->mibps,
			x->flush_seconds, x->outlier ? "  [outlier]" : "");
		text_disturbed(f, st, "  Disturbed", true, "", &x->dist);
	}
	if (r->avg_mbps.ok) {
		if (r->avg_mibps.ok)
			text_kv(f, st, "Average", "%.1f MB/s (%.1f MiB/s), mean of the runs", r->avg_mbps.v,
				r->avg_mibps.v);
		else
			text_kv(f, st, "Average", "%.1f MB/s, mean of the runs", r->avg_mbps.v);
	}
	if (r->total_mbps.ok) {
		char v[128], pm[48];

		snprintf(v, sizeof(v), "%.1f MB/s (%.1f MiB/s)%s, bytes / seconds", r->total_mbps.v,
			 r->total_mibps.v, text_pm(pm, sizeof(pm), &rep->grade,
						   first ? "seq_write_mbps" : "", 1, "%.0f"));
		/* grade_metrics.c grades the first directory's figures: this one */
		fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), "Sustained",
			text_color(st, "\033[0m"), v);
		text_grade_tag(f, st, &rep->grade, first ? "seq_write_mbps" : "", 25 + strlen(v), 25);
	}
	if (r->nruns > 1 && r->min_mbps.ok && r->max_mbps.ok) {
		if (r->cov.ok)
			text_kv(f, st, "Spread", "min %.0f, max %.0f MB/s, CoV %.1f%%", r->min_mbps.v,
				r->max_mbps.v, r->cov.v * 100);
		else
			text_kv(f, st, "Spread", "min %.0f, max %.0f MB/s, CoV unknown", r->min_mbps.v,
				r->max_mbps.v);
	}
	if (r->read.mbps.ok && r->read.direct == MB_TRUE) {
		char v[128], pm[48];

		snprintf(v, sizeof(v), "%.0f MB/s (%.0f MiB/s)%s (O_DIRECT, %u passes)", r->read.mbps.v,
			 r->read.mibps.v, text_pm(pm, sizeof(pm), &rep->grade,
						  first ? "seq_read_mbps" : "", 1, "%.0f"),
			 r->read.npasses);
		fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), "Read",
			text_color(st, "\033[0m"), v);
		text_grade_tag(f, st, &rep->grade, first ? "seq_read_mbps" : "", 25 + strlen(v), 25);
	}
	else if (r->read.mbps.ok && r->read.cached_frac.ok && r->read.cached_frac.v > SEQ_CACHED_WARN)
		text_kv(f, st, "Read", "%.0f MB/s (%.0f MiB/s) (buffered, %.0f%% still cached)",
			r->read.mbps.v, r->read.mibps.v, r->read.cached_frac.v * 100);
	else if (r->read.mbps.ok)
		text_kv(f, st, "Read", "%.0f MB/s (%.0f MiB/s) (buffered, page cache dropped)",
			r->read.mbps.v, r->read.mibps.v);
	else
		text_kv(f, st, "Read", "unknown%s%s", r->read.reason[0] ? ": " : "", r->read.reason);
	for (unsigned i = 0; i < r->read.npasses; i++) {
		char what[24];

		snprintf(what, sizeof(what), "read pass %u", i + 1);
		text_disturbed(f, st, "  Disturbed", true, what, &r->read.passes[i].dist);
	}
}

void text_seq(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
	      const struct render_style *st)
{
	const struct seq_result *s = &rep->seq;

	text_heading(f, st, "Sequential I/O (dd-style)");
	for (unsigned i = 0; i < s->ndirs; i++) {
		if (i)
			fputc('\n', f);
		text_seq_dir(f, rep, plan, &s->dirs[i], i == 0, st);
	}
	if (s->generator_gbps.ok && s->prng_gbps.ok)
		/* per block: a slot of the random pool, its sectors stamped */
		text_kv(f, st, "Data generator", "%.1f GB/s per block; PRNG %.1f GB/s (%zu MiB pool)",
			s->generator_gbps.v, s->prng_gbps.v, (size_t)(s->pool_bytes >> 20));
	else if (s->generator_gbps.ok)
		text_kv(f, st, "Data generator", "%.1f GB/s per block", s->generator_gbps.v);
}
