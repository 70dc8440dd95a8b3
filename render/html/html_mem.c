/*
 * html_mem.c — the memory section of the HTML page: a table of the
 * figures, bandwidth bars (four kernels, 1 and N threads) and the latency
 * curves on a log2 size axis with the cache sizes marked. Self-contained
 * SVG (the page's CSS classes), so it needs nothing back from html.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_chart.h"
#include "render/render.h"

#define W 420.0
#define H 240.0
#define L 54.0
#define R 12.0
#define T 14.0
#define B 38.0

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else
			fputc(c < 0x20 ? '?' : (int)c, f);
	}
}

static void row(FILE *f, const char *label, const char *text)
{
	fputs("<tr><th>", f);
	esc(f, label);
	fputs("</th><td>", f);
	esc(f, text);
	fputs("</td></tr>\n", f);
}

static void axes(FILE *f, const char *cls, const char *label)
{
	fprintf(f, "<svg class=\"%s\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\" "
		"preserveAspectRatio=\"xMidYMid meet\">\n", cls, W, H, label);
	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", L, H - B, W - R,
		H - B);
	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", L, T, L, H - B);
}

static double ceil125(double v)
{
	double p = pow(10, floor(log10(v > 0 ? v : 1)));

	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

/* Bars: Copy, Scale, Add, Triad for each thread count, GB/s. */
static void chart_bw(FILE *f, const struct mem_result *m)
{
	double ymax = 0, slot, bw;
	unsigned nb = 0;

	for (int t = 0; t < 2; t++)
		for (int k = 0; k < MEM_NKERNELS; k++)
			if (m->st[t].present && m->st[t].mbps[k].ok) {
				nb++;
				if (m->st[t].mbps[k].v / 1000 > ymax)
					ymax = m->st[t].mbps[k].v / 1000;
			}
	if (!nb)
		return;
	ymax = ceil125(ymax);
	axes(f, "membars", "STREAM-variant bandwidth in GB/s per kernel and thread count");
	for (int i = 0; i <= 4; i++) {
		double y = H - B - (H - T - B) * i / 4;

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, y + 4,
			ymax * i / 4);
	}
	fprintf(f, "<text x=\"12\" y=\"%.1f\" transform=\"rotate(-90 12 %.1f)\" text-anchor=\"middle\">"
		"GB/s</text>\n", (T + H - B) / 2, (T + H - B) / 2);
	slot = (W - L - R) / nb;
	bw = slot * 0.6;
	nb = 0;
	for (int t = 0; t < 2; t++)
		for (int k = 0; k < MEM_NKERNELS; k++) {
			double v, x, y;

			if (!m->st[t].present || !m->st[t].mbps[k].ok)
				continue;
			v = m->st[t].mbps[k].v / 1000;
			x = L + slot * nb++ + (slot - bw) / 2;
			y = H - B - v / ymax * (H - T - B);
			fprintf(f, "<rect class=\"%s\" data-mbps=\"%.0f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\"/>\n", t ? "bar-rd" : "bar", m->st[t].mbps[k].v, x, y, bw,
				H - B - y);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.1f</text>\n",
				x + bw / 2, y - 4 > T ? y - 4 : T + 10, v);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%c%ut</text>\n",
				x + bw / 2, H - B + 17, mem_kernel_names[k][0] - 32, m->st[t].threads);
		}
	fputs("</svg>\n", f);
}

static double lx(double bytes, double lo, double hi)
{
	return L + (log2(bytes) - log2(lo)) / (log2(hi) - log2(lo)) * (W - L - R);
}

/* ns per access against log2(size); dashed verticals at L1d, L2, LLC and 4x LLC. */
static void chart_lat(FILE *f, const struct mem_result *m)
{
	const struct mem_curve *c0 = &m->lat[0];
	double lo = MEM_LAT_MIN, hi = 0, ymax = 0;
	struct { uint64_t b; const char *name; } mark[4] = {
		{ m->host.l1d.ok ? m->host.l1d.v : 0, "L1d" }, { m->host.l2.ok ? m->host.l2.v : 0, "L2" },
		{ m->llc_used, m->llc_assumed ? "LLC?" : "LLC" }, { MEM_LLC_FACTOR * m->llc_used, "4xLLC" },
	};

	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; m->lat[k].present && i < m->lat[k].n; i++) {
			if ((double)m->lat[k].size[i] > hi)
				hi = (double)m->lat[k].size[i];
			if (m->lat[k].ns[i] > ymax)
				ymax = m->lat[k].ns[i];
		}
	if (hi <= lo || !(c0->present || m->lat[1].present))
		return;
	ymax = ceil125(ymax);
	axes(f, "memlat", "load latency in ns against working-set size, log scale");
	for (int i = 0; i <= 4; i++)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
			H - B - (H - T - B) * i / 4 + 4, ymax * i / 4);
	for (double s = lo; s <= hi; s *= 8) {
		char b[32];

		fmt_bytes(b, sizeof(b), (uint64_t)s);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", lx(s, lo, hi),
			H - B + 17, b);
	}
	for (int i = 0; i < 4; i++) {
		double x;

		if (!mark[i].b || (double)mark[i].b < lo || (double)mark[i].b > hi)
			continue;
		x = lx((double)mark[i].b, lo, hi);
		fprintf(f, "<line class=\"avg\" data-cache=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			mark[i].name, x, T, x, H - B, x, T + 10 + 12 * (i % 2), mark[i].name);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">working set (log scale)</text>\n",
		(L + W - R) / 2, H - 4);
	fprintf(f, "<text x=\"12\" y=\"%.1f\" transform=\"rotate(-90 12 %.1f)\" text-anchor=\"middle\">"
		"ns per load</text>\n", (T + H - B) / 2, (T + H - B) / 2);
	for (int k = 0; k < 2; k++) {
		const struct mem_curve *c = &m->lat[k];

		if (!c->present)
			continue;
		fprintf(f, "<polyline class=\"%s\" data-pages=\"%s\" points=\"", k ? "wr" : "rd",
			k ? "huge" : "4k");
		for (unsigned i = 0; i < c->n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", lx((double)c->size[i], lo, hi),
				H - B - c->ns[i] / ymax * (H - T - B));
		fputs("\"/>\n", f);
	}
	fputs("</svg>\n", f);
}

void html_mem(FILE *f, const struct bench_report *rep)
{
	const struct mem_result *m = &rep->mem;
	char v[256], b1[32], b2[32];

	fputs("<section id=\"mem\"><h2>Memory</h2>\n<div class=\"card\"><div class=\"scroll\"><table>\n", f);
	fmt_bytes(b1, sizeof(b1), m->array_bytes);
	fmt_bytes(b2, sizeof(b2), m->llc_used);
	snprintf(v, sizeof(v), "3 x %s, LLC %s (%s)", b1, b2,
		 m->llc_assumed ? "assumed: no cache info in sysfs or CPUID" :
		 m->llc_source && strcmp(m->llc_source, "cpuid") == 0 ? "CPUID: no sysfs cache info" : "sysfs");
	row(f, "Arrays", v);
	if (m->capped)
		row(f, "Note", "arrays smaller than 4x LLC: figures include cache");
	for (int t = 0; t < 2; t++) {
		const struct mem_stream *s = &m->st[t];

		if (!s->present || !s->mbps[MEM_TRIAD].ok)
			continue;
		snprintf(b1, sizeof(b1), "%u thread%s", s->threads, s->threads > 1 ? "s" : "");
		snprintf(v, sizeof(v), "Copy %.0f, Scale %.0f, Add %.0f, Triad %.0f MB/s",
			 s->mbps[MEM_COPY].v, s->mbps[MEM_SCALE].v, s->mbps[MEM_ADD].v, s->mbps[MEM_TRIAD].v);
		if (s->cpu.disturbed) /* marked as the text marks it: shown, not graded */
			snprintf(v + strlen(v), sizeof(v) - strlen(v), " (disturbed: got %.0f%% of its CPU "
				 "time; not graded)", s->cpu.share.ok ? 100.0 * s->cpu.share.v : 0.0);
		row(f, b1, v);
	}
	for (int k = 0; k < 2; k++) {
		const struct mem_curve *c = &m->lat[k];
		size_t u = 0;

		if (!c->present)
			continue;
		v[0] = '\0';
		for (int l = 0; l < MEM_NLEVELS && u < sizeof(v); l++)
			if (c->level_ns[l].ok)
				u += (size_t)snprintf(v + u, sizeof(v) - u, "%s%s %.1f ns", u ? ", " : "",
						      mem_level_names[l], c->level_ns[l].v);
		if (u && c->cpu.disturbed && u < sizeof(v))
			snprintf(v + u, sizeof(v) - u, " (disturbed: got %.0f%% of its CPU time; not graded)",
				 c->cpu.share.ok ? 100.0 * c->cpu.share.v : 0.0);
		/* the 4 KiB points beside the huge curve are the page-walk cost, as in the text */
		row(f, k ? "Latency, huge pages" : c->page_walk ? "Page walks, 4 KiB" : "Latency, 4 KiB pages",
		    u ? v : c->page_walk ? "at the huge-page curve's graded size" : "no plateau found");
		/* the graded point (first plateau past the cache) and the translation cost past it */
		if (c->graded_ns.ok) {
			char b[48];

			snprintf(b, sizeof(b), "%.1f MiB", (double)c->size[c->graded] / (1 << 20));
			if (isfinite(c->graded_u))
				snprintf(v, sizeof(v), "%.1f ± %.1f ns at %s (%u rounds; first plateau past the "
					 "cache)%s", c->graded_ns.v, c->graded_u, b, c->rounds,
					 c->cpu.disturbed ? " [disturbed]" : "");
			else
				snprintf(v, sizeof(v), "%.1f ns at %s (first plateau past the cache)%s",
					 c->graded_ns.v, b, c->cpu.disturbed ? " [disturbed]" : "");
			row(f, "DRAM, graded", v);
			if (c->xlat_ns.ok) {
				snprintf(v, sizeof(v), "%+.1f ns (%+.0f%%) from %s to %.0f MiB: address translation "
					 "(TLB reach, page walks), not graded", c->xlat_ns.v, c->xlat_pct.v, b,
					 (double)c->xlat_bytes / (1 << 20));
				row(f, "Translation cost", v);
			}
		}
	}
	if (m->sb.read_mibps.ok && m->sb.write_mibps.ok) {
		snprintf(v, sizeof(v), "read %.0f MiB/s, write %.0f MiB/s (cache-heavy, for comparison with "
			 "scripts that run sysbench)", m->sb.read_mibps.v, m->sb.write_mibps.v);
		row(f, "sysbench-style 1 MiB", v);
	}
	html_oversell_flags(f, "Oversell signs", m->signs.flags, m->signs.nflags, false, "none seen");
	fputs("</table></div>\n", f);
	chart_bw(f, m);
	chart_lat(f, m);
	fputs("<p class=\"note\">Based on a variant of the STREAM benchmark: Copy and Scale count 2 words "
	      "per element, Add and Triad 3; best of the repetitions after the first; bars for 1 thread, then all. Curve: "
	      "pointer-chase latency on 4 KiB pages and on huge pages; dashed lines: cache sizes.</p>"
	      "</div></section>\n", f);
}
