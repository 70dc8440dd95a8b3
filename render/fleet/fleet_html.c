/*
 * fleet_html.c — `vpsbench fleet --format html`: one self-contained page
 * in the report's style, a strip chart per metric (every node a dot, the
 * fleet's median and p10/p90 as lines, outliers in the warning colour)
 * and the ranked table, with a published-results column per placed
 * figure ("p38 (n 339)"; "—" with the reason as its title when not
 * placed) and the filter and caveat stated above it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet_render.h"
#include "render/html/html_chart.h"

#define PLOT_TOP HTML_MT
#define PLOT_BOT (HTML_CH - HTML_MB)

static void vline(FILE *f, double x, const char *cls, const char *dash)
{
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s%s%s/>\n", cls,
		x, PLOT_TOP, x, PLOT_BOT, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash ? "\"" : "");
}

static void strip_chart(FILE *f, const struct fleet *fl, unsigned m)
{
	const struct fleet_metric *fm = &fl->metric[m];
	double lo = INFINITY, hi = -INFINITY, x1;
	char label[160], num[40];

	for (unsigned i = 0; i < fl->n; i++) {
		if (!fl->node[i].has[m])
			continue;
		lo = fmin(lo, fl->node[i].v[m]);
		hi = fmax(hi, fl->node[i].v[m]);
	}
	if (!isfinite(lo))
		return;
	x1 = html_nice_ceil(hi);
	lo = lo < 0 ? -html_nice_ceil(-lo) : 0;
	fputs("<div class=\"card\"><h3>", f);
	html_esc(f, fm->name);
	fputs("</h3>\n", f);
	snprintf(label, sizeof(label), "%s of each node, %s", fm->name,
		 fm->higher_better ? "higher is better" : "lower is better");
	html_svg_open(f, "strip", label);
	for (int k = 0; k <= 4; k++) {
		double v = lo + (x1 - lo) * k / 4;

		grade_fmt_value(num, sizeof(num), v);
		html_svg_xtick(f, html_px(v, lo, x1), num);
	}
	snprintf(label, sizeof(label), "%s%s%s — dashed: median, dotted: p10 and p90", fm->unit,
		 fm->unit[0] ? ", " : "", fm->higher_better ? "higher is better" : "lower is better");
	html_svg_xlabel(f, label);
	vline(f, html_px(fm->p10, lo, x1), "ax", "2 3");
	vline(f, html_px(fm->p90, lo, x1), "ax", "2 3");
	vline(f, html_px(fm->median, lo, x1), "avg", NULL);
	for (unsigned i = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];
		double y = PLOT_TOP + (i + 0.5) / fl->n * (PLOT_BOT - PLOT_TOP);

		if (!nd->has[m])
			continue;
		grade_fmt_value(num, sizeof(num), nd->v[m]);
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>",
			nd->outlier[m] || nd->failing ? "mk-wr" : "mk-rd", html_px(nd->v[m], lo, x1), y);
		html_esc(f, nd->label);
		fprintf(f, ": %s %s%s</title></circle>\n", num, fm->unit, nd->outlier[m] ? " (outlier)" : "");
	}
	fputs("</svg></div>\n", f);
}

static void num_cell(FILE *f, bool has, double v, bool outlier)
{
	char num[40];

	if (!has || !isfinite(v)) {
		fputs("<td class=\"n\">-</td>", f);
		return;
	}
	grade_fmt_value(num, sizeof(num), v);
	fprintf(f, "<td class=\"n%s\">%s%s</td>", outlier ? " t0" : "", num, outlier ? "*" : "");
}

static void place_cell(FILE *f, const struct fleet_place_cell *pc)
{
	long p;

	if (!pc->placed) {
		fputs("<td class=\"n\" title=\"not placed: ", f);
		html_esc(f, pc->why);
		fputs("\">—</td>", f);
		return;
	}
	p = fleet_place_pct_shown(pc->pct);
	fprintf(f, "<td class=\"n\" title=\"at the %ld%s percentile of %u published results\">"
		"p%ld <span class=\"note\">(n %u)</span></td>", p, fleet_ordinal(p), pc->n, p, pc->n);
}

static void table(FILE *f, const struct fleet *fl)
{
	static const char *const stat_names[3] = { "median", "p10", "p90" };

	fputs("<div class=\"scroll\"><table>\n<tr><th>node</th><th>status</th>", f);
	for (unsigned m = 0; m < fl->nmetric; m++)
		if (fl->metric[m].shown) {
			fputs("<th class=\"n\">", f);
			html_esc(f, fl->metric[m].name);
			fputs("</th>", f);
		}
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
		if (fl->place_shown[c]) {
			fputs("<th class=\"n\">", f);
			html_esc(f, fleet_place_cols[c].header);
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];

		fputs("<tr><td>", f);
		html_esc(f, nd->label);
		if (nd->tags[0]) {
			fputs(" <span class=\"note\">", f);
			html_esc(f, nd->tags);
			fputs("</span>", f);
		}
		fprintf(f, "</td><td class=\"%s\">%s</td>", nd->failing || fleet_node_unhealthy(nd) ?
			"t0" : nd->noutliers || strcmp(fleet_node_status(nd), "ok") ? "t1" : "t2",
			fleet_node_status(nd));
		for (unsigned m = 0; m < fl->nmetric; m++)
			if (fl->metric[m].shown)
				num_cell(f, nd->has[m], nd->v[m], nd->outlier[m]);
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			if (fl->place_shown[c])
				place_cell(f, &nd->place[c]);
		fputs("</tr>\n", f);
	}
	for (int k = 0; k < 3; k++) {
		fprintf(f, "<tr><th>%s</th><td></td>", stat_names[k]);
		for (unsigned m = 0; m < fl->nmetric; m++) {
			const struct fleet_metric *fm = &fl->metric[m];

			if (fm->shown)
				num_cell(f, fm->n > 0, k == 0 ? fm->median : k == 1 ? fm->p10 : fm->p90, false);
		}
		fputs("</tr>\n", f); /* the pub% columns, last, have no fleet row */
	}
	fputs("</table></div>\n", f);
}

static void notes(FILE *f, const struct fleet *fl)
{
	bool any = false;

	for (unsigned i = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];

		bool sep = nd->failing;

		if (!nd->failing && !nd->missing[0] && !nd->ndist_shown)
			continue;
		if (!any)
			fputs("<h2>Failing, incomplete and disturbed nodes</h2>\n<ul class=\"warn\">\n", f);
		any = true;
		fputs("<li>", f);
		html_esc(f, nd->label);
		fputs(": ", f);
		html_esc(f, nd->failing ? nd->fail_why : "");
		if (nd->missing[0]) {
			fputs(sep ? "; no figure for " : "no figure for ", f);
			html_esc(f, nd->missing);
			sep = true;
		}
		for (unsigned j = 0; j < nd->ndist; j++) {
			if (!fl->metric[nd->dist[j].m].shown)
				continue;
			fputs(sep ? "; " : "", f);
			html_esc(f, fl->metric[nd->dist[j].m].name);
			fputs(" disturbed (", f);
			html_esc(f, nd->dist[j].why);
			fputs(")", f);
			sep = true;
		}
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
	any = false;
	for (unsigned i = 0; i < fl->n; i++) {
		if (!fleet_node_unhealthy(&fl->node[i]))
			continue;
		if (!any)
			fputs("<h2>Health problems (the reports' own checks)</h2>\n<ul class=\"warn\">\n", f);
		any = true;
		fputs("<li>", f);
		html_esc(f, fl->node[i].label);
		fputs(": ", f);
		html_esc(f, fl->node[i].health_why);
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
	if (!fl->nbroken)
		return;
	fputs("<h2>Skipped files (not ranked)</h2>\n<ul class=\"warn\">\n", f);
	for (unsigned i = 0; i < fl->nbroken; i++) {
		fputs("<li>", f);
		html_esc(f, fl->broken[i].file);
		fputs(": ", f);
		html_esc(f, fl->broken[i].why);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

int fleet_html(FILE *f, const struct fleet *fl)
{
	char meta[512];

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>vpsbench fleet</title>\n<style>%s</style>\n</head><body><main>\n"
		"<h1>vpsbench fleet</h1>\n<p class=\"meta\">", html_css());
	snprintf(meta, sizeof(meta), "%u node%s, profile%s %s; outlier: a metric more than %g%% "
		 "worse than the fleet median", fl->n, fl->n == 1 ? "" : "s",
		 fl->mixed_profiles ? "s" : "", fl->profiles, fl->outlier_pct);
	html_esc(f, meta);
	fputs("</p>\n", f);
	if (fl->mixed_profiles) {
		fputs("<p class=\"note\">Profiles differ: compared on the metrics they share only.", f);
		for (unsigned m = 0, k = 0; m < fl->nmetric; m++)
			if (fl->metric[m].left_out) {
				fputs(k++ ? ", " : " Left out: ", f);
				html_esc(f, fl->metric[m].name);
			}
		fputs("</p>\n", f);
	}
	if (fl->placed_any) {
		const struct fleet_place_cell *ex = fleet_place_example(fl);

		fputs("<p class=\"note\">pub%: among published results: ", f);
		html_esc(f, fl->place_filter_text);
		fputs("; a best-case sample: see data/published/README.md. ", f);
		if (ex) {
			long p = fleet_place_pct_shown(ex->pct);

			fprintf(f, "p%ld (n %u): at the %ld%s percentile of %u published results; —: not "
				"placed (the cell's title says why).</p>\n", p, ex->n, p, fleet_ordinal(p),
				ex->n);
		} else {
			fputs("No node's figure could be placed.</p>\n", f);
		}
	}
	fputs("<h2>Nodes, worst first</h2>\n", f);
	table(f, fl);
	fputs("<h2>Each metric across the fleet</h2>\n", f);
	for (unsigned m = 0; m < fl->nmetric; m++)
		if (fl->metric[m].shown)
			strip_chart(f, fl, m);
	notes(f, fl);
	fputs("</main></body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
