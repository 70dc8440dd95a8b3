/*
 * prom_place.c — "Among published results" (struct place_result) in the
 * Prometheus text format: per figure placed,
 *   vpsbench_published_percentile{metric,bs,server,location,family,
 *     kind,vcpus,years,per_machine,include_cached} P   (0..100, mid-rank)
 *   vpsbench_published_n{...} N                         (rows ranked among)
 * and for every figure vpsbench_published_placed{...} 1 or 0, so a figure
 * that could not be placed (too few rows, another workload) is visible
 * without a percentile that means nothing. The filter is in the labels:
 * kind vps|dedicated|any, vcpus and years "any" or "N"/"N-M".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_put.h"
#include "render.h"

static void put_label(FILE *f, bool first, const char *key, const char *val)
{
	fprintf(f, "%s%s=\"", first ? "{" : ",", key);
	prom_put_escaped(f, val);
	fputc('"', f);
}

/* "any", "4", "2-8" */
static void range_words(char *buf, size_t n, unsigned lo, unsigned hi)
{
	if (!lo && !hi)
		snprintf(buf, n, "any");
	else if (lo == hi)
		snprintf(buf, n, "%u", lo);
	else
		snprintf(buf, n, "%u-%u", lo, hi);
}

/* One sample: name{the item's and the filter's labels} value. */
static void put_sample(FILE *f, const char *name, const struct place_result *p,
		       const struct place_item *it, double v)
{
	const struct place_filter *fl = &p->filter;
	char bs[16] = "", vc[24], yr[24], num[40];

	if (strncmp(it->metric, "fio_", 4) == 0)
		snprintf(bs, sizeof(bs), "%u", (unsigned)it->bs);
	range_words(vc, sizeof(vc), fl->vcpus_lo, fl->vcpus_hi);
	range_words(yr, sizeof(yr), fl->year_lo, fl->year_hi);
	fputs(name, f);
	put_label(f, true, "metric", it->metric);
	put_label(f, false, "bs", bs);
	put_label(f, false, "server", it->server);
	put_label(f, false, "location", it->location);
	put_label(f, false, "family", it->family);
	put_label(f, false, "kind",
		  fl->kind == PUB_KIND_VPS ? "vps" : fl->kind == PUB_KIND_DEDICATED ? "dedicated" : "any");
	put_label(f, false, "vcpus", vc);
	put_label(f, false, "years", yr);
	put_label(f, false, "per_machine", fl->per_machine ? "true" : "false");
	put_label(f, false, "include_cached", fl->include_cached ? "true" : "false");
	prom_number(num, sizeof(num), v);
	fprintf(f, "} %s\n", num);
}

static void put_family(FILE *f, const struct place_result *p, const char *name, const char *help,
		       int what)
{
	bool any = false;

	for (unsigned i = 0; i < p->nitems && i < PLACE_MAX_ITEMS; i++) {
		const struct place_item *it = &p->item[i];

		if (what != 2 && !it->placed)
			continue;
		if (!any)
			fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
		any = true;
		put_sample(f, name, p, it, what == 0 ? it->pct : what == 1 ? (double)it->d.n : it->placed);
	}
}

int render_place_prom(FILE *f, const struct place_result *p)
{
	if (!p->ran)
		return 0;
	put_family(f, p, "vpsbench_published_placed",
		   "1 when the figure was placed among published results, 0 when not (too few rows, another workload)",
		   2);
	put_family(f, p, "vpsbench_published_percentile",
		   "mid-rank percentile (0..100) of the figure among the published results under the filter "
		   "(a best-case sample: see data/published/README.md)",
		   0);
	put_family(f, p, "vpsbench_published_n", "published results the figure was ranked among", 1);
	return ferror(f) ? -1 : 0;
}
