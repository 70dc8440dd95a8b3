/*
 * text_mem.c — the memory section: how the arrays were sized, the STREAM
 * variant's four kernels for 1 and N threads, the latency plateaus (and
 * the curve), the sysbench-comparable figure, and the oversell signs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/plan.h"
#include "render/render.h"
#include "text_put.h"

static void stream_line(FILE *f, const struct bench_report *rep, const struct render_style *st,
			const struct mem_stream *s)
{
	char label[32], v[96];

	snprintf(label, sizeof(label), "%u thread%s", s->threads, s->threads > 1 ? "s" : "");
	if (!s->mbps[MEM_TRIAD].ok) {
		text_kv(f, st, label, "unknown (fewer than 2 repetitions)");
		return;
	}
	snprintf(v, sizeof(v), "Copy %.0f  Scale %.0f  Add %.0f  Triad %.0f MB/s",
		 s->mbps[MEM_COPY].v, s->mbps[MEM_SCALE].v, s->mbps[MEM_ADD].v, s->mbps[MEM_TRIAD].v);
	fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), label, text_color(st, "\033[0m"), v);
	text_grade_tag(f, st, &rep->grade, s->threads == 1 ? "mem_triad_1t_mbps" : "mem_triad_mbps",
		       25 + strlen(v), 25);
	text_pass_cpu(v, sizeof(v), &s->cpu);
	text_kv(f, st, "", "best of %u reps, %s pages%s; %s", s->reps ? s->reps - 1 : 0,
		s->huge_used == MB_TRUE ? "huge" : s->huge_used == MB_FALSE ? "4 KiB" : "unknown",
		s->threads > 1 && s->first_touch ? ", each thread faulted its own slice" : "", v);
}

/*
 * The graded DRAM point (the first plateau past the cache, with its repeat
 * rounds) and the translation cost past it: a figure, not graded, and no
 * cause named that the report did not check.
 */
static void graded_lines(FILE *f, const struct bench_report *rep, const struct render_style *st,
			 const struct mem_curve *c)
{
	char v[160], b[32], t[32];

	if (!c->graded_ns.ok) {
		if (c->present && !c->page_walk)
			text_kv(f, st, "  DRAM, graded", "none: the curve did not level off past the cache");
		return;
	}
	fmt_bytes(b, sizeof(b), c->size[c->graded]);
	if (isfinite(c->graded_u))
		snprintf(v, sizeof(v), "%.1f ± %.1f ns at %s (%u rounds; first plateau past the cache)",
			 c->graded_ns.v, c->graded_u, b, c->rounds);
	else
		snprintf(v, sizeof(v), "%.1f ns at %s (%u round; first plateau past the cache)",
			 c->graded_ns.v, b, c->rounds);
	fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), "  DRAM, graded",
		text_color(st, "\033[0m"), v);
	text_grade_tag(f, st, &rep->grade, c->huge ? "mem_latency_huge_ns" : "mem_latency_ns",
		       25 + strlen(v), 25);
	if (c->xlat_ns.ok) {
		fmt_bytes(t, sizeof(t), c->xlat_bytes);
		text_kv(f, st, "  Translation cost", "%+.1f ns (%+.0f%%) from %s to %s: address "
			"translation (TLB reach, page walks), not graded", c->xlat_ns.v, c->xlat_pct.v, b, t);
	}
}

static void curve_lines(FILE *f, const struct bench_report *rep, const struct render_style *st,
			const struct mem_curve *c)
{
	char v[160] = "", b[32];
	size_t used = 0;
	const char *label = c->huge ? "Latency, huge pages" :
			    c->page_walk ? "Page walks, 4 KiB" : "Latency, 4 KiB pages";

	if (!c->present) {
		text_kv(f, st, label, "not measured%s%s", c->reason[0] ? ": " : "", c->reason);
		return;
	}
	for (int l = 0; l < MEM_NLEVELS; l++) {
		if (c->level_ns[l].ok)
			used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%s %.1f ns",
						 used ? ", " : "", mem_level_names[l], c->level_ns[l].v);
		if (used >= sizeof(v))
			break;
	}
	text_kv(f, st, label, "%s%s", used ? v : c->page_walk ? "at the huge-page curve's graded size" :
		"no plateau found",
		c->huge && c->huge_used == MB_FALSE ? " (no huge pages backed it)" : "");
	text_pass_cpu(v, sizeof(v), &c->cpu);
	text_kv(f, st, "", "%s%s", c->page_walk ? "4 KiB pages at the huge-page curve's sizes: "
		"the difference is the page walks; " : "", v);
	graded_lines(f, rep, st, c);
	used = 0;
	v[0] = '\0';
	for (unsigned i = 0; i < c->n && used < sizeof(v); i += c->page_walk ? 1 : 2) {
		fmt_bytes(b, sizeof(b), c->size[i]);
		used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%s %.0f", used ? ", " : "", b,
					 c->ns[i]);
		if (used > 60 || i + (c->page_walk ? 1 : 2) >= c->n) {
			text_kv(f, st, "  ns per access", "%s", v);
			used = 0;
			v[0] = '\0';
		}
	}
}

/* What sized the arrays (knee, LLC, --mem-size, the S/2S check) and what named the levels. */
static void sizing_lines(FILE *f, const struct render_style *st, const struct mem_result *m)
{
	char k[32], n[32], g[96] = "";
	size_t used = 0;

	if (m->size_source && strcmp(m->size_source, "curve knee") == 0) {
		fmt_bytes(k, sizeof(k), m->knee_bytes);
		text_kv(f, st, "Sized by", "4x the latency curve's knee (%s), within 64-256 MiB", k);
	} else if (m->size_source) {
		text_kv(f, st, "Sized by", "%s", strcmp(m->size_source, "LLC") == 0 ?
			(m->strict ? "4x LLC (--mem-strict, STREAM's rule)" : "4x LLC, within 64-256 MiB") :
			m->size_source);
	}
	for (unsigned i = 0; i < m->grow.n && used < sizeof(g); i++) {
		fmt_bytes(k, sizeof(k), m->grow.bytes[i]);
		used += (size_t)snprintf(g + used, sizeof(g) - used, "%s%s %.0f", i ? ", " : "", k,
					 m->grow.mbps[i]);
	}
	if (m->grow.n)
		text_kv(f, st, "Past the cache", "1-thread Triad MB/s at %s: %s", g, m->grow.settled ?
			"S and 2S agree within 5%" : m->grow.disturbed ?
			"not settled: the check got too little CPU, S kept" : "not settled within the bound");
	if (m->levels_source && strcmp(m->levels_source, "curve") == 0) {
		fmt_bytes(k, sizeof(k), m->knee_bytes);
		fmt_bytes(n, sizeof(n), m->host.llc.ok ? m->host.llc.v : m->llc_used);
		text_kv(f, st, "Cache levels", "named from the curve's knee at %s (%s says LLC %s)", k,
			m->host.llc.ok ? m->llc_source : "nothing", n);
	} else if (m->levels_source) {
		text_kv(f, st, "Cache levels", "named from %s sizes", m->levels_source);
	}
}

void text_memory(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct mem_result *m = &rep->mem;
	const struct host_mem_signs *h = &m->signs.host;
	char b1[32], b2[32], none[96];

	text_heading(f, st, "Memory (based on a variant of the STREAM benchmark)");
	fmt_bytes(b1, sizeof(b1), m->array_bytes);
	fmt_bytes(b2, sizeof(b2), m->llc_used);
	text_kv(f, st, "Arrays", "3 x %s; LLC %s (%s)", b1, b2,
		m->llc_assumed ? "assumed: no cache info in sysfs or CPUID" :
		m->llc_source && strcmp(m->llc_source, "cpuid") == 0 ? "CPUID: no sysfs cache info" : "sysfs");
	sizing_lines(f, st, m);
	if (m->capped)
		text_kv(f, st, "Note", "arrays smaller than 4x LLC: figures include cache (%s)",
			m->cap_reason);
	if (m->tests != MEM_TESTS_ALL) {
		char ran[64] = "";
		size_t len = 0;

		for (int i = 0; i < MEM_NTESTS; i++)
			if (m->tests & (1u << i))
				len += (size_t)snprintf(ran + len, sizeof(ran) - len, "%s%s",
							len ? ", " : "", mem_test_names[i]);
		text_kv(f, st, "Parts run", "%s (--mem-tests)", ran);
	}
	text_kv(f, st, "Counted", "Copy, Scale 2 words/element; Add, Triad 3; best of the reps after "
		"the first, MB = 10^6");
	for (int t = 0; t < 2; t++)
		if (m->st[t].present)
			stream_line(f, rep, st, &m->st[t]);
	for (int k = 1; k >= 0; k--) /* huge pages first: the memory's latency, then the page walks */
		if (m->lat[k].present || m->lat[k].reason[0])
			curve_lines(f, rep, st, &m->lat[k]);
	if (m->sb.present) {
		if (m->sb.read_mibps.ok)
			snprintf(b1, sizeof(b1), "%.0f MiB/s", m->sb.read_mibps.v);
		else
			snprintf(b1, sizeof(b1), "unknown");
		if (m->sb.write_mibps.ok)
			snprintf(b2, sizeof(b2), "%.0f MiB/s", m->sb.write_mibps.v);
		else
			snprintf(b2, sizeof(b2), "unknown");
		text_kv(f, st, "sysbench-style 1 MiB", "read %s, write %s", b1, b2);
		text_kv(f, st, "", "cache-heavy, for comparison with scripts that run sysbench");
		text_pass_cpu(b1, sizeof(b1), &m->sb.cpu);
		text_kv(f, st, "", "%s", b1);
	}
	snprintf(none, sizeof(none), "none seen (balloon %s, KSM %s, swap-in %s)",
		 h->balloon == MB_TRUE ? "loaded" : h->balloon == MB_FALSE ? "no" : "unknown",
		 h->ksm_run == MB_TRUE ? "on" : h->ksm_run == MB_FALSE ? "off" : "unknown",
		 m->signs.swapin_pages.ok ? "none" : "unknown");
	text_oversell_flags(f, st, "Oversell signs", m->signs.flags, m->signs.nflags, none);
}
