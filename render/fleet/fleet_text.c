/*
 * fleet_text.c — the fleet as a table: one row per node, worst first,
 * then the fleet's median, p10 and p90; failing, unhealthy, outlier,
 * missing, disturbed and skipped nodes spelled out below. The published-results
 * columns ("pub% 4k IOPS": "p38 (n 339)", "—" when not placed) after the
 * graded metrics, their filter and caveat stated once above the table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet_render.h"
#include "render/text/text_put.h"

static int label_width(const struct fleet *fl)
{
	int w = 6;

	for (unsigned i = 0; i < fl->n; i++) {
		int n = (int)strlen(fl->node[i].label);

		if (n > w)
			w = n;
	}
	return w > 32 ? 32 : w;
}

/* The figure; "disturbed" for one measured but not ranked, "-" for none. */
static void cell(FILE *f, const struct fleet_metric *fm, bool has, double v, bool outlier,
		 bool disturbed)
{
	char num[40], out[48];
	int w = (int)strlen(fm->name);

	if (w < 9)
		w = 9;
	if (!has && disturbed)
		snprintf(out, sizeof(out), "disturbed");
	else if (!has || !isfinite(v))
		snprintf(out, sizeof(out), "-");
	else {
		grade_fmt_value(num, sizeof(num), v);
		snprintf(out, sizeof(out), "%s%s", num, outlier ? "*" : "");
	}
	fprintf(f, "  %*s", w, out);
}

#define PLACE_CELL_W 13   /* "p100 (n 1640)" */

static int place_width(unsigned c)
{
	int w = (int)strlen(fleet_place_cols[c].header);

	return w < PLACE_CELL_W ? PLACE_CELL_W : w;
}

/* "p38 (n 339)"; "—" (one column wide, three bytes) when not placed. */
static void place_cell(FILE *f, unsigned c, const struct fleet_place_cell *pc)
{
	char out[48];
	int w = place_width(c);

	if (!pc->placed) {
		fprintf(f, "  %*s—", w - 1, "");
		return;
	}
	snprintf(out, sizeof(out), "p%ld (n %u)", fleet_place_pct_shown(pc->pct), pc->n);
	fprintf(f, "  %*s", w, out);
}

/* The filter and the caveat, once: what the pub% columns are among. */
static void place_lines(FILE *f, const struct fleet *fl)
{
	const struct fleet_place_cell *ex = fleet_place_example(fl);
	long p;

	if (!fl->placed_any)
		return;
	fprintf(f, " pub%%: among published results: %s\n"
		"       a best-case sample: see data/published/README.md\n", fl->place_filter_text);
	if (!ex) {
		fputs("       no node's figure could be placed (why: --format json)\n", f);
	} else {
		p = fleet_place_pct_shown(ex->pct);
		fprintf(f, "       p%ld (n %u): at the %ld%s percentile of %u published results; "
			"—: not placed (why: --format json)\n", p, ex->n, p, fleet_ordinal(p), ex->n);
	}
	fputc('\n', f);
}

static void stat_row(FILE *f, const struct fleet *fl, int lw, const char *name, int which)
{
	fprintf(f, " %-*.*s  %-10s", lw, lw, name, "");
	for (unsigned m = 0; m < fl->nmetric; m++) {
		const struct fleet_metric *fm = &fl->metric[m];
		double v = which == 0 ? fm->median : which == 1 ? fm->p10 : fm->p90;

		if (fm->shown)
			cell(f, fm, fm->n > 0, v, false, false);
	}
	fputc('\n', f); /* the pub% columns, last, have no fleet row */
}

void fleet_text(FILE *f, const struct fleet *fl, const struct render_style *st)
{
	int lw = label_width(fl);
	unsigned nshown = 0;

	fprintf(f, "%s\n vpsbench fleet  —  %u node%s  —  profile%s %s\n"
		" outlier: a metric more than %g%% worse than the fleet median (marked *)\n%s\n",
		TEXT_RULE, fl->n, fl->n == 1 ? "" : "s", fl->mixed_profiles ? "s" : "", fl->profiles,
		fl->outlier_pct, TEXT_RULE);
	place_lines(f, fl);
	if (fl->mixed_profiles) {
		fprintf(f, " Profiles differ: compared on the metrics they share only");
		for (unsigned m = 0, k = 0; m < fl->nmetric; m++)
			if (fl->metric[m].left_out)
				fprintf(f, "%s%s", k++ ? ", " : "; left out: ", fl->metric[m].name);
		fputs("\n\n", f);
	}
	fprintf(f, " %-*s  %-10s", lw, "node", "status");
	for (unsigned m = 0; m < fl->nmetric; m++) {
		const struct fleet_metric *fm = &fl->metric[m];
		int w = (int)strlen(fm->name);

		if (!fm->shown)
			continue;
		fprintf(f, "  %*s", w < 9 ? 9 : w, fm->name);
		nshown++;
	}
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
		if (fl->place_shown[c])
			fprintf(f, "  %*s", place_width(c), fleet_place_cols[c].header);
	fputc('\n', f);
	for (unsigned i = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];
		const char *status = fleet_node_status(nd);
		const char *col = nd->failing || fleet_node_unhealthy(nd) ? "\033[31m" :
				  nd->noutliers || strcmp(status, "ok") ?
				  "\033[33m" : "\033[32m";

		fprintf(f, " %-*.*s  %s%-10s%s", lw, lw, nd->label, text_color(st, col), status,
			text_color(st, "\033[0m"));
		for (unsigned m = 0; m < fl->nmetric; m++)
			if (fl->metric[m].shown)
				cell(f, &fl->metric[m], nd->has[m], nd->v[m], nd->outlier[m],
				     fleet_node_disturbed(nd, m) != NULL);
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			if (fl->place_shown[c])
				place_cell(f, c, &nd->place[c]);
		fputc('\n', f);
	}
	if (!nshown)
		fputs(" (no graded metric is shared by these reports)\n", f);
	fputc('\n', f);
	stat_row(f, fl, lw, "median", 0);
	stat_row(f, fl, lw, "p10", 1);
	stat_row(f, fl, lw, "p90", 2);

	if (fl->nreq) {
		text_heading(f, st, "Failing --require");
		if (!fl->nfailing)
			fputs(" none\n", f);
		for (unsigned i = 0; i < fl->n; i++)
			if (fl->node[i].failing)
				fprintf(f, " %s: %s\n", fl->node[i].label, fl->node[i].fail_why);
	}
	for (unsigned i = 0, k = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];

		if (!fleet_node_unhealthy(nd))
			continue;
		if (!k++)
			text_heading(f, st, "Health problems (the report's own checks)");
		fprintf(f, " %s: %s\n", nd->label, nd->health_why);
	}
	if (fl->noutlier_nodes) {
		text_heading(f, st, "Outliers");
		for (unsigned i = 0; i < fl->n; i++) {
			const struct fleet_node *nd = &fl->node[i];

			for (unsigned m = 0; m < fl->nmetric; m++)
				if (nd->outlier[m])
					fprintf(f, " %s: %s %.0f%% worse than the median\n", nd->label,
						fl->metric[m].name, nd->worse_pct[m]);
		}
	}
	for (unsigned i = 0, k = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];

		if (!nd->missing[0] && nd->complete)
			continue;
		if (!k++)
			text_heading(f, st, "Incomplete nodes");
		fprintf(f, " %s:%s%s%s\n", nd->label, nd->complete ? "" : " run interrupted;",
			nd->missing[0] ? " no figure for " : "", nd->missing);
	}
	for (unsigned i = 0, k = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];

		for (unsigned j = 0; j < nd->ndist; j++) {
			if (!fl->metric[nd->dist[j].m].shown)
				continue;
			if (!k++)
				text_heading(f, st, "Disturbed figures (measured, not ranked: run again on a quiet machine)");
			fprintf(f, " %s: %s disturbed (%s)\n", nd->label,
				fl->metric[nd->dist[j].m].name, nd->dist[j].why);
		}
	}
	if (fl->nbroken) {
		text_heading(f, st, "Skipped files (not ranked)");
		for (unsigned i = 0; i < fl->nbroken; i++)
			fprintf(f, " %s: %s\n", fl->broken[i].file, fl->broken[i].why);
	}
	fprintf(f, "%s\n", TEXT_RULE);
}
