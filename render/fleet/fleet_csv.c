/*
 * fleet_csv.c — `vpsbench fleet --format csv` (RFC 4180): a header, one
 * row per node worst first, then median, p10 and p90 rows. Figures in the
 * units of the metric names; an empty cell is no figure. Per published
 * column two: pub_pct_KEY (the percentile) and pub_n_KEY (published rows);
 * both empty when the node was not placed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet_render.h"

static void field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void num(FILE *f, bool has, double v)
{
	fputc(',', f);
	if (has && isfinite(v))
		fprintf(f, "%.15g", v);
}

int fleet_csv(FILE *f, const struct fleet *fl)
{
	static const char *const stat_names[3] = { "median", "p10", "p90" };

	fputs("node,status,labels,profile,outliers,failed,file,health,health_problems", f);
	for (unsigned m = 0; m < fl->nmetric; m++)
		if (fl->metric[m].shown)
			fprintf(f, ",%s", fl->metric[m].name);
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
		if (fl->place_shown[c])
			fprintf(f, ",pub_pct_%s,pub_n_%s", fleet_place_cols[c].key, fleet_place_cols[c].key);
	fputs("\r\n", f);
	for (unsigned i = 0; i < fl->n; i++) {
		const struct fleet_node *nd = &fl->node[i];
		char outl[400] = "";

		for (unsigned m = 0; m < fl->nmetric; m++)
			if (nd->outlier[m]) {
				size_t u = strlen(outl);

				snprintf(outl + u, sizeof(outl) - u, "%s%s", u ? " " : "", fl->metric[m].name);
			}
		field(f, nd->label);
		fputc(',', f);
		field(f, fleet_node_status(nd));
		fputc(',', f);
		field(f, nd->tags);
		fputc(',', f);
		field(f, nd->profile);
		fputc(',', f);
		field(f, outl);
		fputc(',', f);
		field(f, nd->fail_why);
		fputc(',', f);
		field(f, nd->file);
		fputc(',', f);
		field(f, nd->health);
		fputc(',', f);
		field(f, nd->health_checks);
		for (unsigned m = 0; m < fl->nmetric; m++)
			if (fl->metric[m].shown)
				num(f, nd->has[m], nd->v[m]);
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			if (fl->place_shown[c]) {
				num(f, nd->place[c].placed, nd->place[c].pct);
				num(f, nd->place[c].placed, nd->place[c].n);
			}
		fputs("\r\n", f);
	}
	for (int k = 0; k < 3; k++) {
		fprintf(f, "%s,fleet,,", stat_names[k]);
		field(f, fl->mixed_profiles ? "shared" : fl->profiles);
		fputs(",,,,,", f);
		for (unsigned m = 0; m < fl->nmetric; m++) {
			const struct fleet_metric *fm = &fl->metric[m];

			if (fm->shown)
				num(f, fm->n > 0, k == 0 ? fm->median : k == 1 ? fm->p10 : fm->p90);
		}
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			if (fl->place_shown[c])
				fputs(",,", f);
		fputs("\r\n", f);
	}
	return ferror(f) ? -1 : 0;
}
