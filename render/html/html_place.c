/*
 * html_place.c — "Among published results" (struct place_result) in HTML:
 * per placed figure a distribution strip, an inline SVG (no scripts, no
 * external resources): min..max whiskers, the p10–p90 band, the p25–p75
 * box, the p50 tick and "this VPS" marked at its value, with the rank in
 * words under it; a figure not placed says why. The axis is logarithmic
 * for IOPS, MB/s and Mbits/sec when the drawn range spans more than 10x
 * (the axis says so), linear otherwise. The whole page of `vpsbench place
 * --html` is html_place_page.c's.
 *
 * Geometry (viewBox 420 x 92): the strip runs from x 20 to x 400; a value
 * v sits at 20 + 380 (v - lo) / (hi - lo), or with logs of v, lo, hi on a
 * log axis; lo/hi are min/max, widened to take in this run's value.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_chart.h"
#include "render/render.h"

#define SW 420.0
#define SH 92.0
#define X0 20.0
#define X1 400.0
#define YM 36.0 /* the strip's middle */
#define CAVEAT "a best-case sample: see data/published/README.md"

struct axis {
	double lo, hi;
	bool log;
};

static bool log_unit(const char *unit)
{
	return strcmp(unit, "IOPS") == 0 || strcmp(unit, "MB/s") == 0 || strcmp(unit, "Mbits/sec") == 0;
}

static struct axis axis_of(const struct place_item *it)
{
	struct axis a = { it->d.min, it->d.max, false };

	if (it->value.ok && it->value.v < a.lo)
		a.lo = it->value.v;
	if (it->value.ok && it->value.v > a.hi)
		a.hi = it->value.v;
	a.log = log_unit(it->unit) && a.lo > 0 && a.hi > 10 * a.lo;
	return a;
}

static double ax_x(const struct axis *a, double v)
{
	double t;

	if (a->hi <= a->lo)
		return (X0 + X1) / 2;
	if (a->log)
		t = (log(v > a->lo ? v : a->lo) - log(a->lo)) / (log(a->hi) - log(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return X0 + (X1 - X0) * t;
}

/* At most 5 characters, as the text ladder: "52.3k", "181k", "1.23M"; "938", "92.7", "88". */
static void num(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (a >= 1e6)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else if (a >= 1e5)
		snprintf(buf, n, "%.0fk", v / 1e3);
	else if (a >= 1e4)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else if (a >= 100)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.3g", v);
}

static void ordinal(char *buf, size_t n, long k)
{
	long t = k % 100, u = k % 10;
	const char *suf = (t >= 11 && t <= 13) ? "th" : u == 1 ? "st" : u == 2 ? "nd" : u == 3 ? "rd" : "th";

	snprintf(buf, n, "%ld%s", k, suf);
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	html_esc(f, s);
	fputs("</text>\n", f);
}

static void strip(FILE *f, const struct place_item *it)
{
	struct axis a = axis_of(it);
	double xmin = ax_x(&a, it->d.min), xmax = ax_x(&a, it->d.max), xv = ax_x(&a, it->value.v);
	double x10 = ax_x(&a, it->d.q[0]), x25 = ax_x(&a, it->d.q[1]), x50 = ax_x(&a, it->d.q[2]);
	double x75 = ax_x(&a, it->d.q[3]), x90 = ax_x(&a, it->d.q[4]);
	char b[32], c[96];
	double half;

	fprintf(f, "<svg class=\"strip\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", SW, SH);
	html_esc(f, it->label);
	fputs(": published distribution and this VPS\" preserveAspectRatio=\"xMidYMid meet\">\n", f);
	fprintf(f, "<line class=\"pl-whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"style=\"stroke:var(--mute)\"/>\n", xmin, YM, xmax, YM);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" style=\"stroke:var(--mute)\"/>\n",
		xmin, YM - 5, xmin, YM + 5);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" style=\"stroke:var(--mute)\"/>\n",
		xmax, YM - 5, xmax, YM + 5);
	fprintf(f, "<rect class=\"pl-band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" "
		"style=\"fill:var(--line)\"/>\n", x10, YM - 6, x90 - x10);
	fprintf(f, "<rect class=\"pl-box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" "
		"style=\"fill:var(--card);stroke:var(--mute)\"/>\n", x25, YM - 10, x75 - x25);
	fprintf(f, "<line class=\"pl-p50\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"style=\"stroke:var(--fg);stroke-width:2\"/>\n", x50, YM - 10, x50, YM + 10);
	/* this VPS: a line across the strip and a triangle above it */
	fprintf(f, "<line class=\"pl-this\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"style=\"stroke:var(--wr);stroke-width:2.5\"/>\n", xv, YM - 14, xv, YM + 14);
	fprintf(f, "<path d=\"M%.1f %.1fl-5 -7h10z\" style=\"fill:var(--wr)\"/>\n", xv, YM - 14);
	num(b, sizeof(b), it->value.v);
	snprintf(c, sizeof(c), "this VPS %s", b);
	text_at(f, xv < SW / 2 ? xv - 4 : xv + 4, 12, xv < SW / 2 ? "start" : "end", c);
	/* under the strip: p50, and min and max where they leave it room (7.5 units a character) */
	num(b, sizeof(b), it->d.q[2]);
	snprintf(c, sizeof(c), "p50 %s", b);
	text_at(f, x50, YM + 28, "middle", c);
	half = 7.5 * (double)strlen(c) / 2;
	num(b, sizeof(b), it->d.min);
	if (xmin + 7.5 * (double)strlen(b) + 6 < x50 - half)
		text_at(f, xmin, YM + 28, "start", b);
	num(b, sizeof(b), it->d.max);
	if (xmax - 7.5 * (double)strlen(b) - 6 > x50 + half)
		text_at(f, xmax, YM + 28, "end", b);
	snprintf(c, sizeof(c), "%s %s", it->unit, a.log ? "(log scale)" : "(linear)");
	text_at(f, SW - 2, SH - 4, "end", c);
	fputs("</svg>\n", f);
}

static void one_item(FILE *f, const struct place_item *it)
{
	char v[32], ord[16], words[512], q[5][32], mn[32], mx[32], yrs[64];

	fputs("<div class=\"card pl-item\"><h3>", f);
	html_esc(f, it->label);
	fputs("</h3>\n", f);
	if (it->placed && it->value.ok) {
		strip(f, it);
		num(v, sizeof(v), it->value.v);
		ordinal(ord, sizeof(ord), lround(it->pct));
		for (unsigned k = 0; k < PLACE_NQ; k++)
			num(q[k], sizeof(q[k]), it->d.q[k]);
		num(mn, sizeof(mn), it->d.min);
		num(mx, sizeof(mx), it->d.max);
		if (it->d.year_lo && it->d.year_hi != it->d.year_lo)
			snprintf(yrs, sizeof(yrs), "%u\xe2\x80\x93%u", it->d.year_lo, it->d.year_hi);
		else if (it->d.year_lo)
			snprintf(yrs, sizeof(yrs), "%u", it->d.year_lo);
		else
			snprintf(yrs, sizeof(yrs), "undated");
		if (it->d.year_lo && it->d.undated)
			snprintf(yrs + strlen(yrs), sizeof(yrs) - strlen(yrs), "; %u undated", it->d.undated);
		snprintf(words, sizeof(words),
			 "%s %s: at the %s percentile of %u published results (%s); "
			 "min %s, p10 %s, p25 %s, p50 %s, p75 %s, p90 %s, max %s",
			 v, it->unit, ord, it->d.n, yrs, mn, q[0], q[1], q[2], q[3], q[4], mx);
		fputs("<p class=\"pl-rank\">", f);
		html_esc(f, words);
		fputs("</p>\n", f);
		if (it->d.cached_out) {
			snprintf(words, sizeof(words), "%u cache-inflated published runs left out",
				 it->d.cached_out);
			fputs("<p class=\"note\">", f);
			html_esc(f, words);
			fputs("</p>\n", f);
		}
	} else {
		fputs("<p class=\"pl-why\">", f);
		if (it->value.ok) {
			num(v, sizeof(v), it->value.v);
			snprintf(words, sizeof(words), "this VPS %s %s; ", v, it->unit);
			html_esc(f, words);
		}
		fputs("not placed: ", f);
		html_esc(f, it->why[0] ? it->why : "no published rows");
		fputs("</p>\n", f);
	}
	if (it->note[0]) {
		fputs("<p class=\"note\">", f);
		html_esc(f, it->note);
		fputs("</p>\n", f);
	}
	fputs("</div>\n", f);
}

void html_place(FILE *f, const struct place_result *p)
{
	if (!p->ran || (!p->nitems && !p->rand_note[0]))
		return;
	fputs("<section id=\"placement\"><h2>Among published results</h2>\n<p class=\"meta\">", f);
	html_esc(f, p->filter_text);
	fputs("; " CAVEAT "</p>\n<p class=\"note\">Each strip: the published results' range (whiskers, "
	      "min to max), p10\xe2\x80\x93p90 (band), p25\xe2\x80\x93p75 (box), p50 (tick) and this VPS "
	      "(the orange mark).</p>\n", f);
	for (unsigned i = 0; i < p->nitems && i < PLACE_MAX_ITEMS; i++)
		one_item(f, &p->item[i]);
	if (p->rand_note[0]) {
		fputs("<p class=\"note\">", f);
		html_esc(f, p->rand_note);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
}
