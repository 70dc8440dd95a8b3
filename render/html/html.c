/*
 * html.c — --html FILE: one self-contained page (no scripts, fonts or
 * images from anywhere) with inline SVG charts: per-second IOPS of each
 * random pass, the sequential runs as bars, the clat percentile curve
 * per direction; the grades, the system and every warning. Every string
 * from the report is HTML-escaped. Reads the report only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "grade/grade.h"
#include "render/marks.h"
#include "html_chart.h"
#include "render/render.h"

/*
 * chart geometry, in viewBox units. The SVG scales with the page up to
 * 32em wide, where its 13-unit text is the body's 15px; the axis titles
 * sit apart from the tick labels (y title above the axis, x title below
 * the tick row), so neither can cover the other.
 */
/* one geometry for the report and the fleet page (html_chart.h) */
#define CW HTML_CW
#define CH HTML_CH
#define ML HTML_ML
#define MR HTML_MR
#define MT HTML_MT
#define MB HTML_MB

static const char css[] =
	":root{--fg:#1b1f24;--bg:#fff;--mute:#5b6470;--line:#d8dde3;--card:#f6f8fa;"
	"--rd:#1f6feb;--wr:#d9480f;--ok:#1a7f37;--mid:#9a6700;--bad:#cf222e}"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--mute:#9198a1;"
	"--line:#30363d;--card:#161b22;--rd:#4493f8;--wr:#f0883e;--ok:#3fb950;--mid:#d29922;"
	"--bad:#f85149}}"
	"*{box-sizing:border-box}"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}"
	"main{max-width:960px;margin:0 auto;padding:12px}"
	"h1{font-size:1.4em;margin:.3em 0}h2{font-size:1.15em;margin:1.4em 0 .5em;"
	"border-bottom:1px solid var(--line);padding-bottom:.2em}h3{font-size:1em;margin:1em 0 .3em}"
	".meta,.note{color:var(--mute)}.card{background:var(--card);border:1px solid var(--line);"
	"border-radius:8px;padding:10px;margin:10px 0}"
	".scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}"
	"th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}"
	"td.n{white-space:nowrap;font-variant-numeric:tabular-nums}"
	/* a figure's header sits on its column's right edge, as the figures do */
	"th.n,td.n{text-align:right}"
	"th{color:var(--mute);font-weight:600}"
	".t0{color:var(--bad);font-weight:600}.t1{color:var(--mid);font-weight:600}"
	".t2{color:var(--ok);font-weight:600}"
	"tr.borderline td,tr.disturbed td{font-style:italic}tr.weak td:first-child{font-weight:600}"
	"svg{width:100%;max-width:32em;height:auto;display:block}"
	".charts{display:flex;flex-wrap:wrap;gap:8px 16px}.charts svg{flex:1 1 20em}"
	"svg text{fill:var(--mute);font-size:13px}"
	"svg .ax{stroke:var(--line);stroke-width:1}svg .rd{stroke:var(--rd);fill:none;stroke-width:2}"
	"svg .wr{stroke:var(--wr);fill:none;stroke-width:2;stroke-dasharray:6 3}svg .mk-rd{fill:var(--rd)}"
	"svg .mk-wr{fill:var(--wr)}svg .bar{fill:var(--rd)}svg .bar-rd{fill:var(--ok)}"
	"svg .avg{stroke:var(--fg);stroke-dasharray:5 4;stroke-width:1.2}"
	".lg{display:inline-block;width:12px;height:3px;vertical-align:middle;margin:0 4px 0 10px}"
	".lg-rd{background:var(--rd)}.lg-wr{background:repeating-linear-gradient(90deg,var(--wr) 0 6px,"
	"transparent 6px 9px);width:18px}"
	".gw{border-left:3px solid var(--bad);padding-left:8px}"
	"ul.warn li{margin:.3em 0}"
	"@media (max-width:520px){body{font-size:14px}main{padding:8px}th,td{padding:3px 4px}}";

static void escf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void escf(FILE *f, const char *fmt, ...)
{
	char buf[2 * 4096 + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	html_esc(f, buf);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static const char *yes_no(enum mbool b)
{
	return b == MB_TRUE ? "yes" : b == MB_FALSE ? "no" : "unknown";
}

/* A table row: label, then the escaped formatted value. */
static void row(FILE *f, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(FILE *f, const char *label, const char *fmt, ...)
{
	char buf[2 * 4096 + 256];
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

/* Smallest 1, 2, 2.5 or 5 x 10^k at or above v (v > 0). */
static double nice_ceil(double v)
{
	static const double m[] = { 1, 2, 2.5, 5, 10 };
	double p;

	if (!(v > 0) || !isfinite(v))
		return 1;
	p = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i] * p >= v * (1 - 1e-12))
			return m[i] * p;
	return 10 * p;
}

static void fmt_axis(char *buf, size_t n, double v)
{
	fmt_num2str(buf, n, v, false, NULL);
}

static double px(double x, double x0, double x1)
{
	return x1 > x0 ? ML + (x - x0) / (x1 - x0) * (CW - ML - MR) : ML;
}

static double py(double y, double y0, double y1)
{
	return y1 > y0 ? CH - MB - (y - y0) / (y1 - y0) * (CH - MT - MB) : CH - MB;
}

static void svg_open(FILE *f, const char *cls, const char *label)
{
	fprintf(f, "<svg class=\"%s\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", cls, CW, CH);
	html_esc(f, label);
	fputs("\" preserveAspectRatio=\"xMidYMid meet\">\n", f);
	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ML, CH - MB,
		CW - MR, CH - MB);
	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ML, MT, ML,
		CH - MB);
}

/* The y title above the axis, horizontal: it never meets a tick label. */
static void svg_ylabel(FILE *f, const char *text)
{
	fprintf(f, "<text class=\"yt\" x=\"4\" y=\"%.1f\" text-anchor=\"start\">", MT - 14);
	html_esc(f, text);
	fputs("</text>\n", f);
}

static void svg_xlabel(FILE *f, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (ML + CW - MR) / 2, CH - 4);
	html_esc(f, text);
	fputs("</text>\n", f);
}

/* Horizontal grid line with its label at y (data units) on a linear axis. */
static void svg_ytick(FILE *f, double y, double y0, double y1, const char *label)
{
	double yy = py(y, y0, y1);

	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke-dasharray=\"2 3\"/>\n", ML, yy, CW - MR, yy);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 6, yy + 4);
	html_esc(f, label);
	fputs("</text>\n", f);
}

/* A tick whose label starts, centres or ends at it (anchor "start", "middle", "end"). */
static void svg_xtick_anchor(FILE *f, double xx, double tx, const char *anchor, const char *label)
{
	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", xx, CH - MB,
		xx, CH - MB + 4);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", tx, CH - MB + 17, anchor);
	html_esc(f, label);
	fputs("</text>\n", f);
}

/* A tick at the right end is anchored there, so its label is not cut off. */
static void svg_xtick(FILE *f, double xx, const char *label)
{
	bool last = xx >= CW - MR - 0.5;

	svg_xtick_anchor(f, xx, last ? CW - 2 : xx, last ? "end" : "middle", label);
}

/* fmt_ns with the micro sign: "4.65 µs". */
static void fmt_ns_html(char *buf, size_t n, double ns)
{
	char t[32], *u;

	fmt_ns(t, sizeof(t), ns);
	u = strstr(t, " us");
	if (u) {
		*u = '\0';
		snprintf(buf, n, "%s \xc2\xb5s", t);
	} else {
		snprintf(buf, n, "%s", t);
	}
}

/* Read is a dot on a solid line, write a square on a dashed one: the two
 * stay apart where they overlap, in colour or not. */
static void marker(FILE *f, int d, double x, double y, const char *tip)
{
	if (d == RD)
		fprintf(f, "<circle class=\"mk-rd\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.8\">", x, y);
	else
		fprintf(f, "<rect class=\"mk-wr\" x=\"%.1f\" y=\"%.1f\" width=\"5\" height=\"5\">", x - 2.5,
			y - 2.5);
	if (tip) {
		fputs("<title>", f);
		html_esc(f, tip);
		fputs("</title>", f);
	}
	fputs(d == RD ? "</circle>\n" : "</rect>\n", f);
}

/* --- random I/O: IOPS per second, one polyline per direction --- */

static void chart_timeline(FILE *f, const struct rand_pass_result *p, unsigned idx)
{
	static const char *const cls[2] = { "rd", "wr" }, *const dname[2] = { "read", "write" };
	unsigned n = 0, step;
	double ymax = 0;
	char lbl[48];

	for (int d = 0; d < 2; d++) {
		const struct rand_dir_result *r = &p->dir_res[d];

		if (!r->present)
			continue;
		if (r->ntimeline > n)
			n = r->ntimeline;
		for (unsigned i = 0; i < r->ntimeline; i++)
			if (r->timeline[i] > ymax)
				ymax = r->timeline[i];
	}
	if (n == 0) {
		fputs("<p class=\"note\">No whole second was measured: no IOPS timeline.</p>\n", f);
		return;
	}
	ymax = nice_ceil(ymax > 0 ? ymax : 1);
	snprintf(lbl, sizeof(lbl), "IOPS per second, pass %u", idx + 1);
	svg_open(f, "timeline", lbl);
	for (int t = 1; t <= 4; t++) {
		fmt_axis(lbl, sizeof(lbl), ymax * t / 4);
		svg_ytick(f, ymax * t / 4, 0, ymax, lbl);
	}
	svg_ytick(f, 0, 0, ymax, "0");
	/* x: the end of second i at i + 1; 0 .. n */
	step = n <= 10 ? 1 : n <= 30 ? 5 : n <= 120 ? 10 : n <= 300 ? 30 : 60;
	for (unsigned s = 0; s <= n; s += step) {
		snprintf(lbl, sizeof(lbl), "%u", s);
		svg_xtick(f, px(s, 0, n), lbl);
	}
	svg_ylabel(f, "IOPS");
	svg_xlabel(f, "seconds into the measured window");
	for (int d = 0; d < 2; d++) {
		const struct rand_dir_result *r = &p->dir_res[d];

		if (!r->present || r->ntimeline == 0)
			continue;
		fprintf(f, "<polyline class=\"%s tl-%s\" data-pass=\"%u\" data-n=\"%u\" points=\"", cls[d],
			dname[d], idx, r->ntimeline);
		for (unsigned i = 0; i < r->ntimeline; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(i + 1, 0, n),
				py(r->timeline[i], 0, ymax));
		fputs("\"/>\n", f);
		if (r->ntimeline <= 60)
			for (unsigned i = 0; i < r->ntimeline; i++)
				marker(f, d, px(i + 1, 0, n), py(r->timeline[i], 0, ymax), NULL);
	}
	fputs("</svg>\n", f);
}

/* --- random I/O: clat percentiles on a "nines" x axis and a log y axis --- */

static double nines(double pct)
{
	return -log10(1.0 - pct / 100.0);
}

static void chart_percentiles(FILE *f, const struct rand_pass_result *p, unsigned idx)
{
	static const char *const cls[2] = { "rd", "wr" }, *const dname[2] = { "read", "write" };
	static const double xt[] = { 50, 90, 99, 99.9, 99.99 };
	static const char *const xl[] = { "p50", "p90", "p99", "p99.9", "p99.99" };
	double lo = INFINITY, hi = 0, x0 = nines(lat_default_percentiles[0]),
	       x1 = nines(lat_default_percentiles[LAT_NPCT - 1]);
	char lbl[48];
	bool any = false;

	for (int d = 0; d < 2; d++) {
		const struct rand_dir_result *r = &p->dir_res[d];

		if (!r->present || !r->clat.n)
			continue;
		any = true;
		for (int i = 0; i < LAT_NPCT; i++) {
			double v = r->clat_pct[i] > 0 ? (double)r->clat_pct[i] : 1;

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	if (!any)
		return;
	/* whole decades of ns around the data */
	lo = floor(log10(lo));
	hi = ceil(log10(hi));
	if (hi <= lo)
		hi = lo + 1;
	snprintf(lbl, sizeof(lbl), "completion latency percentiles, pass %u", idx + 1);
	svg_open(f, "pctl", lbl);
	for (double e = lo; e <= hi + 1e-9; e += 1) {
		static const char *const u[] = { "ns", "\xc2\xb5s", "ms", "s" };
		int k = (int)e, g = k / 3 < 3 ? k / 3 : 3;

		/* decades: "1 ns", "10 us", "100 ms" */
		snprintf(lbl, sizeof(lbl), "%.0f %s", pow(10, k - 3 * g), u[g < 0 ? 0 : g]);
		svg_ytick(f, e, lo, hi, lbl);
	}
	for (size_t i = 0; i < sizeof(xt) / sizeof(xt[0]); i++)
		if (nines(xt[i]) <= x1 + 1e-9)
			svg_xtick(f, px(nines(xt[i]), x0, x1), xl[i]);
	svg_ylabel(f, "clat (log)");
	svg_xlabel(f, "percentile");
	for (int d = 0; d < 2; d++) {
		const struct rand_dir_result *r = &p->dir_res[d];

		if (!r->present || !r->clat.n)
			continue;
		fprintf(f, "<polyline class=\"%s pct-%s\" data-pass=\"%u\" data-n=\"%d\" points=\"", cls[d],
			dname[d], idx, LAT_NPCT);
		for (int i = 0; i < LAT_NPCT; i++) {
			double v = r->clat_pct[i] > 0 ? (double)r->clat_pct[i] : 1;

			fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(nines(lat_default_percentiles[i]), x0, x1),
				py(log10(v), lo, hi));
		}
		fputs("\"/>\n", f);
		for (int i = 0; i < LAT_NPCT; i++) {
			double v = r->clat_pct[i] > 0 ? (double)r->clat_pct[i] : 1;

			char tip[64];

			fmt_ns_html(lbl, sizeof(lbl), v);
			snprintf(tip, sizeof(tip), "p%g: %s", lat_default_percentiles[i], lbl);
			marker(f, d, px(nines(lat_default_percentiles[i]), x0, x1), py(log10(v), lo, hi), tip);
		}
	}
	fputs("</svg>\n", f);
}

static void legend(FILE *f, const struct rand_pass_result *p)
{
	fputs("<p class=\"note\">", f);
	if (p->dir_res[RD].present)
		fputs("<span class=\"lg lg-rd\"></span>read (solid, dots)", f);
	if (p->dir_res[WR].present)
		fputs("<span class=\"lg lg-wr\"></span>write (dashed, squares)", f);
	fputs("</p>\n", f);
}

static void dir_row(FILE *f, const struct rand_dir_result *d, const char *name)
{
	char iops[32], bw[32], p50[24], p99[24], p999[24], mx[24];
	int i50 = 6, i99 = 12, i999 = 14; /* lat_default_percentiles: 50, 99, 99.9 */

	fmt_num2str(iops, sizeof(iops), d->iops, false, NULL);
	fmt_num2str(bw, sizeof(bw), d->bw_bytes, true, "B/s");
	fprintf(f, "<tr><th>%s</th><td class=\"n\">", name);
	html_esc(f, iops);
	fputs("</td><td class=\"n\">", f);
	html_esc(f, bw);
	if (d->clat.n) {
		fmt_ns_html(p50, sizeof(p50), (double)d->clat_pct[i50]);
		fmt_ns_html(p99, sizeof(p99), (double)d->clat_pct[i99]);
		fmt_ns_html(p999, sizeof(p999), (double)d->clat_pct[i999]);
		fmt_ns_html(mx, sizeof(mx), (double)d->clat.max);
		fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"<td class=\"n\">%s</td></tr>\n", p50, p99, p999, mx);
	} else {
		fputs("</td><td colspan=\"4\">no completed I/O</td></tr>\n", f);
	}
}

static void html_rand(FILE *f, const struct bench_report *rep)
{
	const struct rand_result *r = &rep->rand;

	fputs("<section id=\"rand\"><h2>Random I/O (fio-style)</h2>\n", f);
	for (unsigned i = 0; i < r->npass; i++) {
		const struct rand_pass_result *p = &r->pass[i];

		fputs("<div class=\"card pass\"><h3>", f);
		escf(f, "%s", p->name);
		fputs("</h3>\n<p class=\"meta\">", f);
		if (p->rw == RW_RANDRW)
			escf(f, "randrw %u/%u", p->rwmixread, 100 - p->rwmixread);
		else
			escf(f, "%s", rand_rw_names[p->rw]);
		escf(f, ", bs %u B, qd %u x %u job%s, file %llu MiB, in %s", p->bs, p->iodepth_used,
		     p->jobs, p->jobs == 1 ? "" : "s", (unsigned long long)(p->size_bytes >> 20),
		     p->dir ? p->dir : "?");
		escf(f, "; storage %s%s%s", storage_class_name(p->storage.cls),
		     storage_class_graded(p->storage.cls) ? "" : ", not graded as a disk: ",
		     storage_class_graded(p->storage.cls) ? "" : p->storage.why);
		fputs("<br>", f);
		if (p->runtime_ms)
			escf(f, "%s, %s, %.2f s measured after %.1f s ramp, %s data",
			     p->engine[0] ? p->engine : "unknown engine",
			     p->direct ? "O_DIRECT" : "BUFFERED (page cache)",
			     (double)p->runtime_ms / 1000.0, (double)p->ramp_ms / 1000.0,
			     p->zero_data ? "zero" : "random");
		if (p->status != BENCH_OK)
			escf(f, "%s%s%s%s", p->runtime_ms ? "; " : "", bench_status_name(p->status),
			     p->reason[0] ? ": " : "", p->reason);
		fputs("</p>\n", f);
		if (!p->runtime_ms) {
			fputs("</div>\n", f);
			continue;
		}
		/* th.n: a figure's header on its column's right edge, as the figures */
		fputs("<div class=\"scroll\"><table><tr><th></th><th class=\"n\">IOPS</th>"
		      "<th class=\"n\">bandwidth</th><th class=\"n\">p50</th><th class=\"n\">p99</th>"
		      "<th class=\"n\">p99.9</th><th class=\"n\">max</th></tr>\n", f);
		if (p->dir_res[RD].present)
			dir_row(f, &p->dir_res[RD], "read");
		if (p->dir_res[WR].present)
			dir_row(f, &p->dir_res[WR], "write");
		fputs("</table></div>\n", f);
		legend(f, p);
		/* side by side where the page is wide enough for both */
		fputs("<div class=\"charts\">\n", f);
		chart_timeline(f, p, i);
		chart_percentiles(f, p, i);
		fputs("</div></div>\n", f);
	}
	fputs("</section>\n", f);
}

/* --- sequential: one bar per write run, the average as a dashed line, the read --- */

static void chart_seq(FILE *f, const struct seq_dir_result *r, unsigned di)
{
	unsigned nb = r->nruns + (r->read.mbps.ok ? 1 : 0);
	double ymax = 0, slot, bw;
	char lbl[64];

	if (nb == 0)
		return;
	for (unsigned i = 0; i < r->nruns; i++)
		ymax = r->runs[i].mbps > ymax ? r->runs[i].mbps : ymax;
	if (r->read.mbps.ok && r->read.mbps.v > ymax)
		ymax = r->read.mbps.v;
	ymax = nice_ceil(ymax > 0 ? ymax : 1);
	snprintf(lbl, sizeof(lbl), "sequential runs in MB/s, directory %u", di + 1);
	svg_open(f, "seqbars", lbl);
	for (int t = 1; t <= 4; t++) {
		fmt_axis(lbl, sizeof(lbl), ymax * t / 4);
		svg_ytick(f, ymax * t / 4, 0, ymax, lbl);
	}
	svg_ytick(f, 0, 0, ymax, "0");
	svg_ylabel(f, "MB/s");
	slot = (CW - ML - MR) / nb;
	bw = slot * 0.6;
	for (unsigned i = 0; i < nb; i++) {
		bool rd = i == r->nruns;
		double v = rd ? r->read.mbps.v : r->runs[i].mbps, x = ML + slot * i + (slot - bw) / 2;
		double y = py(v, 0, ymax);

		fprintf(f, "<rect class=\"%s\" data-mbps=\"%.1f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\"/>\n", rd ? "bar-rd" : "bar", v, x, y, bw, CH - MB - y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", x + bw / 2,
			y - 4 > MT ? y - 4 : MT + 10, v);
		if (rd)
			snprintf(lbl, sizeof(lbl), "read%s", r->read.direct == MB_TRUE ? "" : " *");
		else
			snprintf(lbl, sizeof(lbl), "run %u%s", i + 1, r->runs[i].outlier ? " *" : "");
		svg_xtick(f, x + bw / 2, lbl);
	}
	if (r->avg_mbps.ok) {
		double y = py(r->avg_mbps.v, 0, ymax);

		fprintf(f, "<line class=\"avg\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ML,
			y, CW - MR, y);
	}
	fputs("</svg>\n", f);
}

static void html_seq(FILE *f, const struct bench_report *rep, const struct bench_plan *plan)
{
	const struct seq_result *s = &rep->seq;

	fputs("<section id=\"seq\"><h2>Sequential I/O (dd-style)</h2>\n", f);
	for (unsigned i = 0; i < s->ndirs; i++) {
		const struct seq_dir_result *r = &s->dirs[i];

		fputs("<div class=\"card\"><div class=\"scroll\"><table>\n", f);
		row(f, "Directory", "%s (%s)", r->dir, r->fstype[0] ? r->fstype : "filesystem unknown");
		row(f, "Storage", "%s%s%s", storage_class_name(r->storage.cls),
		    storage_class_graded(r->storage.cls) ? "" : ", not graded as a disk: ",
		    storage_class_graded(r->storage.cls) ? "" : r->storage.why);
		if (r->size_bytes)
			row(f, "Method", "%s, %llu MiB x %u in %u KiB blocks%s",
			    r->direct == MB_TRUE ? "O_DIRECT + fdatasync" : "write + fdatasync",
			    (unsigned long long)(r->size_bytes >> 20), plan->seq.runs, r->bs >> 10,
			    r->scaled_down ? " (scaled down to fit the free space)" : "");
		if (r->status != SEQ_DONE)
			row(f, "Status", "%s", r->reason[0] ? r->reason : "not completed");
		for (unsigned k = 0; k < r->nruns; k++) {
			char lab[32];

			snprintf(lab, sizeof(lab), "Run %u", k + 1);
			row(f, lab, "%.0f MB/s (%.0f MiB/s), flush %.2f s%s", r->runs[k].mbps,
			    r->runs[k].mibps, r->runs[k].flush_seconds,
			    r->runs[k].outlier ? " (outlier)" : "");
		}
		if (r->avg_mbps.ok && r->avg_mibps.ok)
			row(f, "Average", "%.1f MB/s (%.1f MiB/s), mean of the runs", r->avg_mbps.v,
			    r->avg_mibps.v);
		if (r->total_mbps.ok)
			row(f, "Sustained", "%.1f MB/s (%.1f MiB/s), bytes / seconds (graded)",
			    r->total_mbps.v, r->total_mibps.v);
		if (r->cov.ok)
			row(f, "Spread", "CoV %.1f %%", r->cov.v * 100);
		if (r->read.mbps.ok)
			row(f, "Read", "%.0f MB/s (%s)", r->read.mbps.v,
			    r->read.direct == MB_TRUE ? "O_DIRECT" : "buffered, page cache dropped");
		else
			row(f, "Read", "unknown%s%s", r->read.reason[0] ? ": " : "", r->read.reason);
		fputs("</table></div>\n", f);
		chart_seq(f, r, i);
		fputs("<p class=\"note\">Bars: each write run (open to fdatasync) and the read; "
		      "dashed line: the average of the write runs; *: an outlier run, or a buffered "
		      "read.</p></div>\n", f);
	}
	fputs("</section>\n", f);
}

/* --- cpu: events/s per thread count (bars), steal % per second (line) --- */

static void chart_cpu_eps(FILE *f, const struct cpu_result *c)
{
	const struct cpu_prime_pass *p[2] = { &c->single, &c->multi };
	double ymax = 0, slot, bw;
	char lbl[64];

	for (int i = 0; i < 2; i++)
		if (p[i]->eps.ok && p[i]->eps.v > ymax)
			ymax = p[i]->eps.v;
	if (ymax <= 0)
		return;
	ymax = nice_ceil(ymax);
	svg_open(f, "cpubars", "prime events per second by thread count");
	for (int t = 1; t <= 4; t++) {
		fmt_axis(lbl, sizeof(lbl), ymax * t / 4);
		svg_ytick(f, ymax * t / 4, 0, ymax, lbl);
	}
	svg_ytick(f, 0, 0, ymax, "0");
	svg_ylabel(f, "events/s");
	svg_xlabel(f, "threads");
	slot = (CW - ML - MR) / 2;
	bw = slot * 0.5;
	for (int i = 0; i < 2; i++) {
		double x = ML + slot * i + (slot - bw) / 2, y;

		if (!p[i]->eps.ok)
			continue;
		y = py(p[i]->eps.v, 0, ymax);
		fprintf(f, "<rect class=\"bar\" data-threads=\"%u\" data-eps=\"%.2f\" x=\"%.1f\" "
			"y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", p[i]->threads, p[i]->eps.v, x, y,
			bw, CH - MB - y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
			x + bw / 2, y - 4 > MT ? y - 4 : MT + 10, p[i]->eps.v);
		snprintf(lbl, sizeof(lbl), "%u", p[i]->threads);
		svg_xtick(f, x + bw / 2, lbl);
	}
	fputs("</svg>\n", f);
}

static void chart_cpu_steal(FILE *f, const struct cpu_result *c)
{
	double ymax = 0;
	char lbl[48];
	unsigned n = c->nsteal;

	if (n == 0) {
		fputs("<p class=\"note\">No steal timeline (no whole second measured, or /proc/stat "
		      "unreadable).</p>\n", f);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ymax = c->steal_tl[i] > ymax ? c->steal_tl[i] : ymax;
	ymax = nice_ceil(ymax > 5 ? ymax : 5);
	svg_open(f, "steal", "CPU steal percent per second");
	for (int t = 1; t <= 4; t++) {
		snprintf(lbl, sizeof(lbl), "%g", ymax * t / 4);
		svg_ytick(f, ymax * t / 4, 0, ymax, lbl);
	}
	svg_ytick(f, 0, 0, ymax, "0");
	for (unsigned s = 0; s <= n; s += n <= 10 ? 1 : n <= 30 ? 5 : 10) {
		snprintf(lbl, sizeof(lbl), "%u", s);
		svg_xtick(f, px(s, 0, n), lbl);
	}
	svg_ylabel(f, "steal %");
	svg_xlabel(f, "seconds into the prime passes");
	fprintf(f, "<polyline class=\"wr\" data-n=\"%u\" points=\"", n);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(i + 1, 0, n), py(c->steal_tl[i], 0, ymax));
	fputs("\"/>\n</svg>\n", f);
}

/* A pass that did not get its CPU: its figure is shown, marked, not graded (as the text says). */
static const char *disturbed_note(char *buf, size_t n, const struct pass_cpu *c)
{
	if (!c->disturbed)
		return "";
	if (c->share.ok)
		snprintf(buf, n, " (disturbed: got %.0f%% of its CPU time; not graded)", 100.0 * c->share.v);
	else
		snprintf(buf, n, " (disturbed; not graded)");
	return buf;
}

static void html_cpu(FILE *f, const struct bench_report *rep)
{
	const struct cpu_result *c = &rep->cpu;
	char n1[80], nn[80];
	const char *d1 = disturbed_note(n1, sizeof(n1), &c->single.cpu);
	const char *dn = disturbed_note(nn, sizeof(nn), &c->multi.cpu);

	fputs("<section id=\"cpu\"><h2>CPU</h2>\n<div class=\"card\"><div class=\"scroll\"><table>\n", f);
	row(f, "Event", "sysbench cpu: primes below %u, %.1f s per pass", c->max_prime, c->time_s);
	row(f, "Threads", "%u (%s)", c->threads, c->threads_source ? c->threads_source : "?");
	if (c->single.eps.ok)
		row(f, "1 thread", "%.2f events/s%s", c->single.eps.v, d1);
	if (c->multi.eps.ok)
		row(f, "N threads", "%.2f events/s on %u threads%s", c->multi.eps.v, c->multi.threads, dn);
	if (c->scaling.ok)
		row(f, "Scaling", "%.2fx", c->scaling.v);
	if (c->crypto_available && !c->crypto_reason[0]) {
		char a[136], b[136];

		render_crypto_mbps(a, sizeof(a), &c->aes1);
		render_crypto_mbps(b, sizeof(b), &c->aesn);
		row(f, "AES-256-GCM", "%s (1 thread), %s (%u threads)", a, b, c->aesn.threads);
		render_crypto_mbps(a, sizeof(a), &c->sha1);
		render_crypto_mbps(b, sizeof(b), &c->shan);
		row(f, "SHA-256", "%s (1 thread), %s (%u threads)", a, b, c->shan.threads);
	}
	if (c->crypto_reason[0])
		row(f, "Crypto", "%s", c->crypto_reason);
	if (c->steal_pct.ok)
		row(f, "Steal", "%.2f %%", c->steal_pct.v);
	else
		row(f, "Steal", "unknown");
	if (c->throttled_periods.ok && c->throttled_s.ok)
		row(f, "Throttling", "%llu periods, %.2f s run-queue time summed over CPUs",
		    (unsigned long long)c->throttled_periods.v, c->throttled_s.v);
	fputs("</table></div>\n", f);
	chart_cpu_eps(f, c);
	chart_cpu_steal(f, c);
	fputs("<p class=\"note\">Bars: prime events per second on 1 and N threads; line: CPU "
	      "steal per second during the prime passes.</p></div></section>\n", f);
}

/* net (--net): yabs's iperf3 table, one row per server and family. */
static void html_net_cell(FILE *f, const struct net_dir *d)
{
	char buf[32];

	fputs("<td>", f);
	if (d->status == NET_DONE)
		net_fmt_bps(buf, sizeof(buf), d->bps.v);
	else
		snprintf(buf, sizeof(buf), "%s", net_status_name(d->status));
	html_esc(f, buf);
	if (d->status == NET_DONE && d->implausible)
		fputs(" <b class=\"implausible\">(implausible, not graded)</b>", f);
	fputs("</td>", f);
}

/* Per second of each direction, this host's side, Mbit/s; a dropping direction says so. */
static void chart_net_timeline(FILE *f, const struct net_row *w)
{
	static const char *const cls[2] = { "wr", "rd" }, *const dname[2] = { "send", "recv" };
	const struct net_dir *d[2] = { &w->send, &w->recv };
	unsigned n = 0;
	double ymax = 0;
	char lbl[160];

	for (int k = 0; k < 2; k++) {
		if (d[k]->status != NET_DONE)
			continue;
		n = d[k]->ntl > n ? d[k]->ntl : n;
		for (unsigned i = 0; i < d[k]->ntl; i++)
			ymax = d[k]->tl_bytes[i] * 8e-6 > ymax ? d[k]->tl_bytes[i] * 8e-6 : ymax;
	}
	if (n == 0)
		return;
	ymax = nice_ceil(ymax > 0 ? ymax : 1);
	snprintf(lbl, sizeof(lbl), "Mbit/s per second, %s IPv%d", w->srv.name, w->family);
	svg_open(f, "timeline", lbl);
	for (int t = 1; t <= 4; t++) {
		fmt_axis(lbl, sizeof(lbl), ymax * t / 4);
		svg_ytick(f, ymax * t / 4, 0, ymax, lbl);
	}
	svg_ytick(f, 0, 0, ymax, "0");
	for (unsigned s = 0; s <= n; s += n <= 10 ? 1 : n <= 30 ? 5 : 10) {
		snprintf(lbl, sizeof(lbl), "%u", s);
		svg_xtick(f, px(s, 0, n), lbl);
	}
	svg_ylabel(f, "Mbit/s");
	svg_xlabel(f, "seconds into the test (this host's side)");
	for (int k = 0; k < 2; k++) {
		if (d[k]->status != NET_DONE || !d[k]->ntl)
			continue;
		fprintf(f, "<polyline class=\"%s tl-%s\" data-n=\"%u\" data-drop=\"%s\" points=\"",
			cls[k], dname[k], d[k]->ntl, d[k]->drop == MB_TRUE ? "true" :
			d[k]->drop == MB_FALSE ? "false" : "unknown");
		for (unsigned i = 0; i < d[k]->ntl; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(i + 1, 0, n),
				py(d[k]->tl_bytes[i] * 8e-6, 0, ymax));
		fputs("\"/>\n", f);
	}
	fputs("</svg>\n", f);
	for (int k = 0; k < 2; k++)
		if (d[k]->drop == MB_TRUE)
			fprintf(f, "<p class=\"note\">%s: speed fell during the test (last third at "
				"%.0f%% of the first third).</p>\n", dname[k], d[k]->tail_ratio.v * 100);
}

static void html_net(FILE *f, const struct bench_report *rep)
{
	const struct net_result *r = &rep->net;
	char total[24];

	fputs("<section id=\"net\"><h2>Network (iperf3)</h2>\n<div class=\"card\"><div class=\"scroll\">"
	      "<table>\n<tr><th>Mode</th><th>Provider</th><th>Location</th><th>Send</th>"
	      "<th>Receive</th><th>Latency</th><th>Data</th><th>Note</th></tr>\n", f);
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];

		fprintf(f, "<tr><td>IPv%d</td><td>", w->family);
		html_esc(f, w->srv.name);
		fputs("</td><td>", f);
		html_esc(f, w->srv.location[0] ? w->srv.location : w->srv.host);
		fputs("</td>", f);
		html_net_cell(f, &w->send);
		html_net_cell(f, &w->recv);
		char lat[32] = "unknown", data[24];

		if (w->latency_ms.ok)
			net_fmt_ms(lat, sizeof(lat), w->latency_ms.v);
		net_fmt_bytes(data, sizeof(data), (double)(w->send.moved + w->recv.moved));
		fprintf(f, "<td>%s</td><td>%s</td><td>", lat, data);
		html_esc(f, w->status != NET_DONE ? w->reason : w->send.status != NET_DONE ?
		    w->send.reason : w->recv.status != NET_DONE ? w->recv.reason :
		    w->send.note[0] ? w->send.note : w->recv.note);
		fputs("</td></tr>\n", f);
	}
	net_fmt_bytes(total, sizeof(total), (double)r->moved);
	fprintf(f, "</table></div><p class=\"note\">%u parallel streams, %.0f s per direction; "
		"receiver-side figures; latency: round trip of the iperf3 control connection; "
		"data moved in all: %s.</p>", r->streams, r->duration_s, total);
	for (unsigned i = 0; i < r->nrows; i++)
		chart_net_timeline(f, &r->rows[i]);
	if (r->nhttp)
		fputs("<div class=\"scroll\"><table>\n<tr><th>URL</th><th>Average</th><th>Steady</th>"
		      "<th>First byte</th><th>Note</th></tr>\n", f);
	for (unsigned i = 0; i < r->nhttp; i++) {
		const struct net_http *h = &r->http[i];
		char a[32] = "unknown", s[32] = "unknown", t[32] = "unknown";

		if (h->avg_mbit_s.ok)
			net_fmt_bps(a, sizeof(a), h->avg_mbit_s.v * 1e6);
		if (h->steady_mbit_s.ok)
			net_fmt_bps(s, sizeof(s), h->steady_mbit_s.v * 1e6);
		if (h->ttfb_ms.ok)
			snprintf(t, sizeof(t), "%.1f ms", h->ttfb_ms.v);
		fputs("<tr><td>", f);
		html_esc(f, h->url);
		fputs("</td><td>", f);
		html_esc(f, a);
		fputs("</td><td>", f);
		html_esc(f, s);
		fputs("</td><td>", f);
		html_esc(f, t);
		fputs("</td><td>", f);
		html_esc(f, h->status == NET_DONE ? h->reason : net_status_name(h->status));
		if (h->status != NET_DONE)
			escf(f, ": %s", h->reason);
		fputs("</td></tr>\n", f);
	}
	if (r->nhttp)
		fputs("</table></div>", f);
	fputs("</div></section>\n", f);
}

/* --- grades, system, warnings --- */

static bool warn_affects_grades(const char *msg);

/* The warnings that qualify the grades, right under them. */
static void grade_warnings(FILE *f, const struct bench_report *rep)
{
	unsigned n = 0;

	for (unsigned i = 0; i < rep->warn.n; i++) {
		if (!warn_affects_grades(rep->warn.msg[i]))
			continue;
		if (!n++)
			fputs("<div class=\"gw\" id=\"grade-warnings\"><b>Read these grades with:</b>\n"
			      "<ul class=\"warn\">\n", f);
		fputs("<li>", f);
		html_esc(f, rep->warn.msg[i]);
		fputs("</li>\n", f);
	}
	if (n)
		fputs("</ul></div>\n", f);
}

/*
 * A warning from a module whose figures are graded (seq, rand: each
 * message starts with its module's name) qualifies those grades: tmpfs,
 * buffered I/O, a scaled-down file. It is shown under the grades.
 */
static bool warn_affects_grades(const char *msg)
{
	return strncmp(msg, "seq", 3) == 0 || strncmp(msg, "rand", 4) == 0;
}

/* The value cell: "480 ± 12 MB/s" and, under it, what the uncertainty came from. */
static void grade_value_cell(FILE *f, double v, double u, const char *unit, const struct metric *m)
{
	char val[96];

	mark_value(val, sizeof(val), v, u, unit);
	fputs("</td><td class=\"n\">", f);
	html_esc(f, val);
	if (m && m->uncert_from[0] && isfinite(u)) {
		fputs("<br><small>from ", f);
		html_esc(f, m->uncert_from);
		fputs("</small>", f);
	}
}

/*
 * Grades: each figure's value ± its 95% uncertainty, its tier with the
 * count ("tier 4 of 5 (5 = best)"), "between good and ideal" when
 * borderline (class "borderline", no tier colour), "weak" on the weak
 * figures; disturbed figures with their value and "disturbed: why" (class
 * "disturbed"), never a tier.
 */
static void html_grades(FILE *f, const struct bench_report *rep)
{
	const struct grade_result *g = &rep->grade;
	char num[32], tier[160];

	if (!g->graded)
		return;
	fputs("<section id=\"grades\"><h2>Grades</h2>\n<div class=\"scroll\"><table>"
	      "<tr><th>metric</th><th class=\"n\">value (± 95% interval)</th><th>grade (tier 1 = worst)</th>"
	      "<th>meaning</th></tr>\n", f);
	for (unsigned i = 0; i < g->n; i++) {
		const struct grade *x = &g->g[i];
		int t = x->ntiers < 2 ? 1 : x->rank == 0 ? 0 : x->rank + 1 >= x->ntiers ? 2 : 1;
		int w = mark_weak_pos(g, i);

		fprintf(f, "<tr class=\"%s\" data-metric=\"", x->borderline ? "borderline" :
			w >= 0 ? "weak" : "graded");
		html_esc(f, x->metric);
		fputs("\"><td>", f);
		html_esc(f, x->metric);
		grade_value_cell(f, x->value, mark_uncert(g, x), x->unit, mark_metric(g, x->metric));
		mark_tier(tier, sizeof(tier), x);
		if (x->borderline)
			fputs("</td><td class=\"t1\">", f);
		else
			fprintf(f, "</td><td class=\"t%d\">", t);
		html_esc(f, tier);
		if (w >= 0)
			fputs(" <b>weak</b>", f);
		fputs("</td><td>", f);
		html_esc(f, x->borderline ? "borderline: within its uncertainty of a tier bound, no tier named" :
			 x->meaning);
		fputs("</td></tr>\n", f);
	}
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (!mark_ungraded_shown(g, m))
			continue;
		fprintf(f, "<tr class=\"%s\" data-metric=\"", m->disturbed ? "disturbed" : "ungraded");
		html_esc(f, m->name);
		fputs("\"><td>", f);
		html_esc(f, m->name);
		grade_value_cell(f, m->value, m->uncert, mark_unit(m->name), m);
		fprintf(f, "</td><td class=\"t1\">%s</td><td>", m->disturbed ? "disturbed, not graded" :
			"not graded");
		if (m->disturbed)
			fputs("disturbed: ", f);
		html_esc(f, m->why_not[0] ? m->why_not : "");
		fputs("</td></tr>\n", f);
	}
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (m->measured || !m->selected || !m->why_not[0])
			continue;
		fputs("<tr><td>", f);
		html_esc(f, m->name);
		fputs("</td><td class=\"n\">not graded</td><td></td><td>", f);
		html_esc(f, m->why_not);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
	if (g->nweak) {
		fputs("<p id=\"weak\"><b>Weak for its size:</b> ", f);
		for (unsigned k = 0; k < g->nweak && k < GRADE_MAX_WEAK; k++) {
			if (g->weak[k] < 0 || (unsigned)g->weak[k] >= g->n)
				continue;
			if (k)
				fputs(", ", f);
			html_esc(f, g->g[g->weak[k]].metric);
			fprintf(f, " (ln distance %.2f)", g->weak_ln[k]);
		}
		fputs("</p>\n", f);
	}
	grade_warnings(f, rep);
	if (g->nreq) {
		fprintf(f, "<h3>Requirements: %s</h3>\n<ul>\n", g->requirements_failed ? "FAILED" : "met");
		for (unsigned i = 0; i < g->nreq; i++) {
			const struct require_result *r = &g->req[i];

			grade_fmt_value(num, sizeof(num), r->value);
			fprintf(f, "<li class=\"%s\">", r->passed ? "t2" : "t0");
			if (r->passed)
				escf(f, "pass %s (measured %s)", r->req.text, num);
			else
				escf(f, "FAIL %s: %s", r->req.text, r->reason);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</section>\n", f);
}

static void bytes_str(char *buf, size_t n, struct mu64 v)
{
	if (v.ok)
		fmt_bytes(buf, n, v.v);
	else
		snprintf(buf, n, "unknown");
}

/* Oversell signs as sysinfo read them: the signs seen in words, then each sign's state. */
static void html_oversell(FILE *f, const struct sys_mem *m)
{
	const struct host_mem_signs *s = &m->signs;
	char a[64] = "unknown", b[64] = "unknown", d[64] = "unknown", none[96];

	if (s->balloon != MB_UNKNOWN)
		snprintf(a, sizeof(a), "%s", s->balloon == MB_TRUE ? "virtio_balloon loaded" : "none");
	if (s->ksm_run == MB_TRUE && s->ksm_pages_sharing.ok)
		snprintf(b, sizeof(b), "active, %llu pages shared",
			 (unsigned long long)s->ksm_pages_sharing.v);
	else if (s->ksm_run != MB_UNKNOWN)
		snprintf(b, sizeof(b), "%s", s->ksm_run == MB_TRUE ? "active" : "off");
	if (s->psi_some_avg10.ok)
		snprintf(d, sizeof(d), "some %.2f%% (avg10)", s->psi_some_avg10.v);
	oversell_none_words(none, sizeof(none), m);
	html_oversell_flags(f, "Guest Memory", m->flags, m->nflags, true, none);
	row(f, "Balloon Driver", "%s", a);
	row(f, "KSM", "%s", b);
	row(f, "Memory Pressure", "%s", d);
}

static void html_sysinfo(FILE *f, const struct bench_report *rep)
{
	const struct sysinfo *si = &rep->sys;
	const struct sys_cpu *c = &si->cpu;
	const struct sys_mem *m = &si->mem;
	char a[32], b[32], d[32];

	fputs("<section id=\"system\"><h2>System</h2>\n<div class=\"scroll\"><table>\n", f);
	row(f, "CPU Model", "%s", or_unknown(c->model));
	if (c->online.ok)
		snprintf(a, sizeof(a), "%llu", (unsigned long long)c->online.v);
	else
		snprintf(a, sizeof(a), "unknown");
	if (c->usable.ok)
		snprintf(b, sizeof(b), " (%llu usable)", (unsigned long long)c->usable.v);
	else
		snprintf(b, sizeof(b), " (usable unknown)");
	if (c->freq_mhz.ok)
		row(f, "CPU Cores", "%s%s @ %.3f MHz", a, b, c->freq_mhz.v);
	else
		row(f, "CPU Cores", "%s%s @ unknown MHz", a, b);
	if (c->quota_limited == MB_TRUE && c->quota_cpus.ok)
		row(f, "CPU Quota", "%.2f CPUs (%s)", c->quota_cpus.v, c->quota_source);
	else
		row(f, "CPU Quota", "%s", c->quota_limited == MB_FALSE ? "none" : "unknown");
	bytes_str(a, sizeof(a), c->cache_bytes);
	row(f, "CPU Cache", "%s", a);
	row(f, "AES-NI", "%s", yes_no(c->aes));
	row(f, "VM-x/AMD-V", "%s", yes_no(c->virt_flag));
	bytes_str(a, sizeof(a), m->ram_total);
	bytes_str(b, sizeof(b), m->ram_used);
	bytes_str(d, sizeof(d), m->ram_avail);
	row(f, "Total RAM", "%s (%s used, %s available)", a, b, d);
	if (m->cgroup_limited == MB_TRUE) {
		bytes_str(a, sizeof(a), m->cgroup_limit);
		row(f, "RAM Limit (cgroup)", "%s", a);
	}
	bytes_str(a, sizeof(a), m->swap_total);
	bytes_str(b, sizeof(b), m->swap_used);
	row(f, "Total Swap", "%s (%s used)", a, b);
	html_oversell(f, m);
	for (unsigned i = 0; i < si->ndirs; i++) {
		const struct fs_info *fs = &si->dirs[i].fs;

		row(f, "Disk", "%s", fs->path[0] ? fs->path : si->dirs[i].arg);
		if (fs->mount_known)
			row(f, "  Filesystem", "%s on %s, mounted on %s", or_unknown(fs->fstype),
			    or_unknown(fs->device), or_unknown(fs->mountpoint));
		if (!si->dirs[i].err)
			row(f, "  Storage", "%s", storage_class_name(fs->storage.cls));
		if (fs->space_known) {
			fmt_bytes(a, sizeof(a), fs->total_bytes);
			fmt_bytes(b, sizeof(b), fs->used_bytes);
			fmt_bytes(d, sizeof(d), fs->avail_bytes);
			row(f, "  Size", "%s (%s used, %s available)", a, b, d);
		}
	}
	fmt_uptime(a, sizeof(a), si->uptime_s);
	row(f, "Uptime", "%s", a);
	if (si->load_avg[0].ok && si->load_avg[1].ok && si->load_avg[2].ok)
		row(f, "Load Average", "%.2f, %.2f, %.2f", si->load_avg[0].v, si->load_avg[1].v,
		    si->load_avg[2].v);
	else
		row(f, "Load Average", "unknown");
	row(f, "OS", "%s", or_unknown(si->os.name));
	row(f, "Arch", "%s", or_unknown(si->os.arch));
	row(f, "Kernel", "%s", or_unknown(si->os.kernel));
	row(f, "TCP CC", "%s", or_unknown(si->net.tcp_cc));
	row(f, "Virtualization", "%s%s%s%s", or_unknown(si->virt), si->hypervisor[0] ? " (hypervisor: " : "",
	    si->hypervisor, si->hypervisor[0] ? ")" : "");
	row(f, "IPv4/IPv6", "%s / %s", yes_no(si->net.ipv4), yes_no(si->net.ipv6));
	fputs("</table></div></section>\n", f);
}

static void html_notes(FILE *f, const struct bench_report *rep)
{
	bool any = false;
	unsigned left = 0;

	for (int i = 0; i < MOD_COUNT; i++) {
		const struct mod_outcome *o = &rep->outcome[i];

		if (o->status == BENCH_NOT_RUN || o->status == BENCH_OK)
			continue;
		if (!any)
			fputs("<section id=\"modules\"><h2>Modules not completed</h2>\n<ul>\n", f);
		any = true;
		fputs("<li>", f);
		escf(f, "%s: %s%s%s", bench_modules[i]->name, bench_status_name(o->status),
		     o->reason[0] ? ": " : "", o->reason);
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul></section>\n", f);
	for (unsigned i = 0; i < rep->warn.n; i++)
		if (!rep->grade.graded || !warn_affects_grades(rep->warn.msg[i]))
			left++;
	if (!left)
		return;
	fputs("<section id=\"warnings\"><h2>Warnings</h2>\n<ul class=\"warn\">\n", f);
	for (unsigned i = 0; i < rep->warn.n; i++) {
		if (rep->grade.graded && warn_affects_grades(rep->warn.msg[i]))
			continue; /* shown under the grades */
		fputs("<li>", f);
		html_esc(f, rep->warn.msg[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul></section>\n", f);
}

int render_html(FILE *f, const struct bench_report *rep, const struct bench_plan *plan)
{
	char when[64], who[LABEL_MAX_PAIRS * 140];
	struct tm tm;

	gmtime_r(&rep->start_real.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>vpsbench report ", f);
	html_esc(f, when);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body><main>\n<h1>vpsbench report</h1>\n"
		"<p class=\"meta\">", css);
	escf(f, "vpsbench %s, %s, profile %s, finished in %.1f s%s", VPSBENCH_VERSION, when,
	     plan->profile, rep->elapsed_s,
	     rep->interrupted ? " (interrupted: results incomplete)" : "");
	labels_join(who, sizeof(who), &rep->labels);
	if (who[0])
		escf(f, ", node %s", who);
	fputs("</p>\n", f);
	html_health(f, rep);
	html_grades(f, rep);
	if (render_section_ran(rep, MOD_cpu))
		html_cpu(f, rep);
	if (render_section_ran(rep, MOD_mem))
		html_mem(f, rep);
	if (render_section_ran(rep, MOD_seq))
		html_seq(f, rep, plan);
	if (render_section_ran(rep, MOD_rand))
		html_rand(f, rep);
	if (render_section_ran(rep, MOD_fsync))
		html_fsync(f, rep);
	if (render_section_ran(rep, MOD_cache))
		html_cache(f, rep);
	if (render_section_ran(rep, MOD_net))
		html_net(f, rep);
	if (render_section_ran(rep, MOD_sysinfo))
		html_sysinfo(f, rep);
	html_place(f, &rep->place);
	html_notes(f, rep);
	fputs("</main></body></html>\n", f);
	return ferror(f) ? -1 : 0;
}

/*
 * The page style and chart pieces, shared with the fleet page
 * (fleet_html.c) and the watch report (watch_html.c) so all draw alike.
 */

const char *html_css(void)
{
	return css;
}

double html_nice_ceil(double v)
{
	return nice_ceil(v);
}

double html_px(double x, double x0, double x1)
{
	return px(x, x0, x1);
}

void html_svg_open(FILE *f, const char *cls, const char *label)
{
	svg_open(f, cls, label);
}

void html_svg_xtick(FILE *f, double xx, const char *label)
{
	svg_xtick(f, xx, label);
}

void html_svg_xlabel(FILE *f, const char *text)
{
	svg_xlabel(f, text);
}

void html_svg_xtick_anchor(FILE *f, double xx, double tx, const char *anchor, const char *label)
{
	svg_xtick_anchor(f, xx, tx, anchor, label);
}

double html_py(double y, double y0, double y1)
{
	return py(y, y0, y1);
}

void html_svg_ytick(FILE *f, double y, double y0, double y1, const char *label)
{
	svg_ytick(f, y, y0, y1, label);
}

void html_svg_ylabel(FILE *f, const char *text)
{
	svg_ylabel(f, text);
}
