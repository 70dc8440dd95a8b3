/*
 * html_cache.c — the storage profile's section of the HTML page: the
 * cliff table, the cliff curves (qd32 IOPS and qd1 p99 against the
 * working-set size on a log2 axis) with the knee marked, and each write
 * test's timeline (MB/s per second) with the change point and the burst
 * and sustained levels drawn. Reads rep->cache only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "html_chart.h"
#include "render/render.h"

#define CW HTML_CW
#define CH HTML_CH
#define ML HTML_ML
#define MR HTML_MR
#define MT HTML_MT
#define MB HTML_MB

static void row(FILE *f, const char *label, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void row(FILE *f, const char *label, const char *fmt, ...)
{
	char buf[512];
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

static double gib(double b) { return b / (double)(1ULL << 30); }

/* "256M", "1G", "1.5G": short enough for a tick under every point */
static void size_label(char *buf, size_t n, uint64_t b)
{
	if (b >= (1ULL << 30))
		snprintf(buf, n, "%gG", gib((double)b));
	else
		snprintf(buf, n, "%gM", (double)b / (double)(1ULL << 20));
}

/* Self-contained, as html_mem.c: html.c calls this file, so nothing here calls back. */
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

static double px(double x, double x0, double x1)
{
	return x1 > x0 ? ML + (x - x0) / (x1 - x0) * (CW - ML - MR) : ML;
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

static void xlabel(FILE *f, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (ML + CW - MR) / 2, CH - 4);
	html_esc(f, text);
	fputs("</text>\n", f);
}

/* fmt_ns with the micro sign, as the rest of the page */
static void ns_html(char *buf, size_t n, double ns)
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

static double py(double y, double y1)
{
	return y1 > 0 ? CH - MB - y / y1 * (CH - MT - MB) : CH - MB;
}

static void ytick(FILE *f, double y, double y1, const char *label)
{
	double yy = py(y, y1);

	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke-dasharray=\"2 3\"/>\n", ML, yy, CW - MR, yy);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", ML - 6, yy + 4);
	html_esc(f, label);
	fputs("</text>\n", f);
}

static void ylabel(FILE *f, const char *text)
{
	fprintf(f, "<text class=\"yt\" x=\"4\" y=\"%.1f\" text-anchor=\"start\">", MT - 14);
	html_esc(f, text);
	fputs("</text>\n", f);
}

/* A size tick: the first label starts at the axis (clear of the y axis's "0"),
 * the last ends at the right edge, the others are centred. */
static void xtick(FILE *f, double xx, const char *label)
{
	bool first = xx <= ML + 0.5, last = xx >= CW - MR - 0.5;

	fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", xx, CH - MB,
		xx, CH - MB + 4);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", last ? CW - 2 : xx, CH - MB + 17,
		first ? "start" : last ? "end" : "middle");
	html_esc(f, label);
	fputs("</text>\n", f);
}

/* A dashed vertical marker with its label at the top, inside the plot. */
static void vmark(FILE *f, const char *cls, const char *data, double x, const char *label)
{
	bool left = x > (ML + CW - MR) / 2;

	fprintf(f, "<line class=\"avg %s\" %s x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
		data, x, MT, x, CH - MB);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", left ? x - 4 : x + 4, MT + 12,
		left ? "end" : "start");
	html_esc(f, label);
	fputs("</text>\n", f);
}

/* x of a working-set size on the log2 axis from lo to hi */
static double lx(double b, double lo, double hi)
{
	return hi > lo ? ML + (log2(b) - log2(lo)) / (log2(hi) - log2(lo)) * (CW - ML - MR) : ML;
}

/* The measured points of the cliff: those with repeats, in order. */
static unsigned measured(const struct cache_result *r, const struct cache_point **pt)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->npoints; i++)
		if (r->points[i].nrep && r->points[i].iops32 > 0)
			pt[n++] = &r->points[i];
	return n;
}

/* One cliff curve: what = 0 qd32 IOPS, 1 qd1 p99 in ms; the knee a dashed line. */
static void chart_cliff(FILE *f, const struct cache_result *r, int what)
{
	const struct cache_point *pt[CACHE_MAX_SIZES];
	unsigned n = measured(r, pt), every;
	double lo, hi, ymax = 0;
	char lbl[64];

	if (n < 2)
		return;
	lo = (double)pt[0]->size;
	hi = (double)pt[n - 1]->size;
	for (unsigned i = 0; i < n; i++) {
		double v = what ? (double)pt[i]->p99_1_ns / 1e6 : pt[i]->iops32_hi > pt[i]->iops32 ?
										pt[i]->iops32_hi : pt[i]->iops32;

		ymax = v > ymax ? v : ymax;
	}
	ymax = nice_ceil(ymax > 0 ? ymax : 1);
	svg_open(f, what ? "cliff cliff-p99" : "cliff cliff-iops",
		      what ? "qd1 p99 read latency in ms against the working-set size, log scale" :
			     "qd32 4k random read IOPS against the working-set size, log scale");
	for (int t = 0; t <= 4; t++) {
		fmt_num2str(lbl, sizeof(lbl), ymax * t / 4, false, NULL);
		ytick(f, ymax * t / 4, ymax, t ? lbl : "0");
	}
	/* a label under every point while they fit (about 36 units each), else every other */
	every = n <= 9 ? 1 : 2;
	for (unsigned i = 0; i < n; i += every) {
		size_label(lbl, sizeof(lbl), pt[i]->size);
		xtick(f, lx((double)pt[i]->size, lo, hi), lbl);
	}
	ylabel(f, what ? "qd1 p99 ms" : "qd32 IOPS");
	xlabel(f, "working set (log scale)");
	if (r->knee >= 0 && r->knee < (int)r->npoints && r->points[r->knee].nrep) {
		const struct cache_point *k = &r->points[r->knee];
		char data[64], sz[24];

		size_label(sz, sizeof(sz), k->size);
		snprintf(data, sizeof(data), "data-size=\"%llu\"", (unsigned long long)k->size);
		snprintf(lbl, sizeof(lbl), "cache up to ~%s", sz);
		vmark(f, "knee", data, lx((double)k->size, lo, hi), lbl);
	}
	/* the IOPS repeats' range: a whisker from the lowest to the highest at each size */
	for (unsigned i = 0; !what && i < n; i++)
		if (pt[i]->nrep > 1)
			fprintf(f, "<line class=\"rd rng\" data-lo=\"%.0f\" data-hi=\"%.0f\" x1=\"%.1f\" "
				"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", pt[i]->iops32_lo, pt[i]->iops32_hi,
				lx((double)pt[i]->size, lo, hi), py(pt[i]->iops32_lo, ymax),
				lx((double)pt[i]->size, lo, hi), py(pt[i]->iops32_hi, ymax));
	fprintf(f, "<polyline class=\"rd %s\" data-n=\"%u\" points=\"", what ? "cl-p99" : "cl-iops", n);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", lx((double)pt[i]->size, lo, hi),
			py(what ? (double)pt[i]->p99_1_ns / 1e6 : pt[i]->iops32, ymax));
	fputs("\"/>\n", f);
	for (unsigned i = 0; i < n; i++) {
		double v = what ? (double)pt[i]->p99_1_ns / 1e6 : pt[i]->iops32;

		size_label(lbl, sizeof(lbl), pt[i]->size);
		fprintf(f, "<circle class=\"mk-rd\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.8\"><title>%s: %.*f %s, "
			"median of %u</title></circle>\n", lx((double)pt[i]->size, lo, hi), py(v, ymax), lbl,
			what ? 3 : 0, v, what ? "ms" : "IOPS", pt[i]->nrep);
	}
	fputs("</svg>\n", f);
}

/* A level line from second a to b at v MB/s. */
static void level(FILE *f, const char *cls, double a, double b, unsigned n, double v, double ymax)
{
	fprintf(f, "<line class=\"avg %s\" data-mbps=\"%.3f\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n", cls, v, px(a, 0, n), py(v, ymax), px(b, 0, n), py(v, ymax));
}

static void chart_burst(FILE *f, const struct cache_burst *b)
{
	unsigned n = b->n, step;
	double ymax = 0;
	char lbl[96];

	if (b->status != BENCH_OK || n < 2)
		return;
	for (unsigned i = 0; i < n; i++)
		ymax = b->tl[i] / 1e6 > ymax ? b->tl[i] / 1e6 : ymax;
	ymax = nice_ceil(ymax > 0 ? ymax : 1);
	snprintf(lbl, sizeof(lbl), "%s write MB/s per second over %.2f GiB, the floor after the last change",
		 b->kind, gib((double)b->region));
	svg_open(f, "burst", lbl);
	for (int t = 0; t <= 4; t++) {
		fmt_num2str(lbl, sizeof(lbl), ymax * t / 4, false, NULL);
		ytick(f, ymax * t / 4, ymax, t ? lbl : "0");
	}
	step = n <= 10 ? 1 : n <= 30 ? 5 : n <= 120 ? 10 : n <= 300 ? 30 : 60;
	for (unsigned s = 0; s <= n; s += step) {
		snprintf(lbl, sizeof(lbl), "%u", s);
		xtick(f, px(s, 0, n), lbl);
	}
	ylabel(f, strcmp(b->kind, "seq-1m") ? "random 4k write MB/s" : "sequential 1M write MB/s");
	xlabel(f, "seconds of writing");
	if (b->found) {
		char data[48];

		/* the burst level for the time it lasted, the floor from the last change on */
		double bs = b->burst_bps > 0 ? b->burst_bytes / b->burst_bps : 0;

		level(f, "lvl-burst", 0, bs < b->change_s ? bs : b->change_s, n, b->burst_bps / 1e6, ymax);
		level(f, "lvl-sustained", b->change_s, n, n, b->sustained_bps / 1e6, ymax);
		snprintf(data, sizeof(data), "data-second=\"%u\"", b->change_s);
		snprintf(lbl, sizeof(lbl), "floor from %u s", b->change_s);
		vmark(f, "change", data, px(b->change_s, 0, n), lbl);
	} else {
		level(f, "lvl-sustained", 0, n, n, b->burst_bps / 1e6, ymax);
	}
	/* second i is drawn at its end, i + 1, as the random I/O timelines */
	fprintf(f, "<polyline class=\"wr tl-%s\" data-n=\"%u\" points=\"", b->kind, n);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(i + 1, 0, n), py(b->tl[i] / 1e6, ymax));
	fputs("\"/>\n</svg>\n", f);
}

static void burst_row(FILE *f, const char *label, const struct cache_burst *b)
{
	char lbl[64];

	if (b->status == BENCH_NOT_RUN)
		return;
	if ((b->status != BENCH_OK && b->status != BENCH_INCOMPLETE) || !b->bytes) {
		row(f, label, "%s%s%s", bench_status_name(b->status), b->reason[0] ? ": " : "", b->reason);
		return;
	}
	if (!b->found)
		row(f, label, "%.1f MB/s for %.*f s / %.2f GiB, no drop%s", b->burst_bps / 1e6,
		    b->secs < 1 ? 2 : b->secs < 10 ? 1 : 0,
		    b->secs, gib((double)b->bytes), b->size_capped ? " (size cap)" : "");
	else
		row(f, label, "burst %.1f MB/s for %.2f GiB; drop after %u s / %.2f GiB to a floor of %.1f MB/s%s",
		    b->burst_bps / 1e6, gib(b->burst_bytes), b->change_s, gib((double)b->change_bytes),
		    b->sustained_bps / 1e6, b->recovered ? " (recovered at the end)" : ", did not recover");
	snprintf(lbl, sizeof(lbl), "%s: region", label);
	row(f, lbl, "%.2f GiB (%s); %s, depth %u", gib((double)b->region), b->region_why,
	    b->io.engine[0] ? b->io.engine : "unknown", b->io.depth);
	if (b->rec.run) {
		snprintf(lbl, sizeof(lbl), "%s: recovery", label);
		row(f, lbl, "after %.0f s idle: %.1f MB/s (%.0f%% of the burst), %.2f GiB in %.0f s", b->rec.idle_s,
		    b->rec.bps / 1e6, b->rec.share_of_burst * 100, gib((double)b->rec.bytes), b->rec.secs);
	}
	if (b->suggestion[0]) {
		snprintf(lbl, sizeof(lbl), "%s: longer run", label);
		row(f, lbl, "%s", b->suggestion);
	}
}

static const char *knee_by_words(enum cache_knee_by by)
{
	return by == CACHE_KNEE_BOTH ? "seen in qd32 IOPS and qd1 latency" :
	       by == CACHE_KNEE_LAT  ? "seen in qd1 latency; qd32 IOPS showed none" :
	       by == CACHE_KNEE_IOPS ? "seen in qd32 IOPS; qd1 latency showed none" : "";
}

/* The cliff table: medians over the repeats with their range, the repeats, the marks. */
static void cliff_table(FILE *f, const struct cache_result *r)
{
	fputs("<tr><th>Working set</th><th class=\"n\">qd32 IOPS (range)</th><th class=\"n\">qd1 p50 (range)"
	      "</th><th class=\"n\">qd1 p99</th><th class=\"n\">runs</th><th></th></tr>\n", f);
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *p = &r->points[i];
		char sz[24], a[48], b[48], c[48];

		fmt_bytes(sz, sizeof(sz), p->size);
		fputs("<tr><th>", f);
		html_esc(f, sz);
		if (!p->nrep) {
			fprintf(f, "</th><td colspan=\"5\">%s: ", bench_status_name(p->status));
			html_esc(f, p->reason);
			fputs("</td></tr>\n", f);
			continue;
		}
		fprintf(f, "</th><td class=\"n\">%.0f (%.0f&ndash;%.0f)</td><td class=\"n\">", p->iops32,
			p->iops32_lo, p->iops32_hi);
		ns_html(a, sizeof(a), p->p50_1_ns);
		ns_html(b, sizeof(b), p->p50_1_lo_ns);
		ns_html(c, sizeof(c), p->p50_1_hi_ns);
		html_esc(f, a);
		fputs(" (", f);
		html_esc(f, b);
		fputs("&ndash;", f);
		html_esc(f, c);
		fputs(")</td><td class=\"n\">", f);
		ns_html(a, sizeof(a), p->p99_1_ns);
		html_esc(f, a);
		fprintf(f, "</td><td class=\"n\">%u</td><td>%s%s", p->nrep,
			r->knee < 0 ? "" : (int)i > r->knee ? "device" : "cache", p->cpu_bound ? " cpu-bound" : "");
		if (p->status != BENCH_OK) {
			fputs(" ", f);
			html_esc(f, p->reason);
		}
		fputs("</td></tr>\n", f);
	}
}

void html_cache(FILE *f, const struct bench_report *rep)
{
	const struct cache_result *r = &rep->cache;

	fputs("<section id=\"storage\"><h2>Storage profile: cache cliff and burst writes</h2>\n"
	      "<div class=\"card\"><h3>", f);
	html_esc(f, r->dir);
	fputs("</h3>\n<div class=\"scroll\"><table>\n", f);
	if (r->time_capped)
		row(f, "Status", "incomplete: --storage-max-time (%.0f s) reached", (double)r->max_time_ns / 1e9);
	if (r->knee >= 0 && r->knee + 1 < (int)r->npoints && r->points[r->knee + 1].nrep) {
		const struct cache_point *k = &r->points[r->knee], *d = &r->points[r->knee + 1];

		row(f, "Knee", "served from a cache up to ~%.2f GiB (%s); beyond it: %.0f IOPS, p99 %.2f ms",
		    gib((double)k->size), knee_by_words(r->knee_by), d->iops32, (double)d->p99_1_ns / 1e6);
	} else if (r->measured_up_to) {
		row(f, "Knee", "no cache effect up to %.2f GiB", gib((double)r->measured_up_to));
	}
	/* the engine and the depth qd32 really ran at: psync is depth 1, never qd32 */
	if (!r->engine[0])
		row(f, "Engine", "unknown: no cliff size measured");
	else if (r->depth >= 32)
		row(f, "Engine", "%s, qd%u", r->engine, r->depth);
	else
		row(f, "Engine", "%s: depth %u, not qd32%s%s%s", r->engine, r->depth, r->engine_why[0] ? " (" : "",
		    r->engine_why, r->engine_why[0] ? ")" : "");
	row(f, "Time", "used %.1f s of the %.0f s budget", r->elapsed_s, (double)r->planned_ns / 1e9);
	if (r->fio_equivalent[0])
		row(f, "qd32 figure", "= %s", r->fio_equivalent);
	row(f, "Cliff runs", "each size measured %u times in interleaved rounds, warm pass %s; medians shown",
	    r->repeats, r->warm[0] ? r->warm : "seq");
	burst_row(f, "Sequential write 1M", &r->seq);
	burst_row(f, "Random write 4k", &r->rnd);
	fputs("</table></div>\n<div class=\"scroll\"><table class=\"cliff\">\n", f);
	cliff_table(f, r);
	fputs("</table></div>\n<div class=\"charts\">\n", f);
	chart_cliff(f, r, 0);
	chart_cliff(f, r, 1);
	chart_burst(f, &r->seq);
	chart_burst(f, &r->rnd);
	fputs("</div>\n<p class=\"note\">Cliff: 4k random reads over each working set after its warm "
	      "pass, each size measured in interleaved rounds: medians of qd32 IOPS (the whisker: the "
	      "lowest to the highest repeat) and qd1 p99; the dashed line is the knee, the last size "
	      "served from a cache. Timelines: MB/s written per second; dashed: the burst level, the "
	      "last change and the floor after it.</p></div></section>\n", f);
}
