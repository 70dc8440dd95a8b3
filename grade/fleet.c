/*
 * fleet.c — the fleet analysis: which metrics to compare, the fleet's
 * median/p10/p90, outliers against the median, --require per node, and
 * the worst-first order; each node's published-results cells taken from
 * its placement. Pure: nodes in, flags out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

const struct fleet_place_col fleet_place_cols[FLEET_PLACE_COLS] = {
	{ PLACE_M_FIO_IOPS, 4096, "fio_4k_total_iops", "pub% 4k IOPS" },
	{ PLACE_M_FIO_MBPS, 1048576, "fio_1m_total_mbps", "pub% 1m MB/s" },
	{ PLACE_M_CPU_1T, 0, "sysbench_1t_eps", "pub% cpu 1t" },
	{ PLACE_M_CPU_ALL, 0, "sysbench_all_eps", "pub% cpu all" },
	{ PLACE_M_DD, 0, "dd_write_mbps", "pub% dd write" },
};

static const struct place_item *find_item(const struct place_result *r,
					  const struct fleet_place_col *c)
{
	for (unsigned i = 0; i < r->nitems && i < PLACE_MAX_ITEMS; i++)
		if (!strcmp(r->item[i].metric, c->metric) && r->item[i].bs == c->bs)
			return &r->item[i];
	return NULL;
}

void fleet_place_node(struct fleet_node *nd, const struct place_result *r)
{
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++) {
		const struct fleet_place_col *col = &fleet_place_cols[c];
		const struct place_item *it = find_item(r, col);
		struct fleet_place_cell *cell = &nd->place[c];
		bool fio = col->bs != 0;

		memset(cell, 0, sizeof(*cell));
		if (it && it->placed && isfinite(it->pct) && it->d.n) {
			cell->placed = true;
			cell->pct = it->pct;
			cell->n = it->d.n;
		} else if (it) {
			cell->n = it->d.n;
			snprintf(cell->why, sizeof(cell->why), "%s", it->why[0] ? it->why : "not placed");
		} else if (fio && r->rand_note[0]) {
			snprintf(cell->why, sizeof(cell->why), "%s", r->rand_note);
		} else {
			snprintf(cell->why, sizeof(cell->why), "not measured in this report");
		}
	}
}

long fleet_place_pct_shown(double pct)
{
	long p = lround(pct);

	if (p >= 100 && pct < 100)
		return 99;
	if (p <= 0 && pct > 0)
		return 1;
	return p;
}

const char *fleet_ordinal(long n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

const struct fleet_place_cell *fleet_place_example(const struct fleet *f)
{
	for (unsigned i = 0; i < f->n; i++)
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			if (f->node[i].place[c].placed)
				return &f->node[i].place[c];
	return NULL;
}

int fleet_add(struct fleet *f, const struct fleet_node *node)
{
	if (f->n == f->cap) {
		unsigned cap = f->cap ? f->cap * 2 : 16;
		struct fleet_node *p = realloc(f->node, cap * sizeof(*p));

		if (!p)
			return -1;
		f->node = p;
		f->cap = cap;
	}
	f->node[f->n++] = *node;
	return 0;
}

void fleet_free(struct fleet *f)
{
	free(f->node);
	free(f->broken);
	memset(f, 0, sizeof(*f));
}

double fleet_percentile(const double *v, unsigned n, double p)
{
	double rank, lo;
	unsigned i;

	if (n == 0)
		return NAN;
	rank = p / 100.0 * (n - 1);
	lo = floor(rank);
	i = (unsigned)lo;
	if (i + 1 >= n)
		return v[n - 1];
	if (rank == lo)
		return v[i];
	return v[i] + (v[i + 1] - v[i]) * (rank - lo);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The profiles seen, in order of first appearance; mixed when more than one. */
static void find_profiles(struct fleet *f)
{
	size_t used = 0;

	f->profiles[0] = '\0';
	f->mixed_profiles = false;
	for (unsigned i = 0; i < f->n; i++) {
		bool seen = false;

		for (unsigned j = 0; j < i && !seen; j++)
			seen = !strcmp(f->node[j].profile, f->node[i].profile);
		if (seen)
			continue;
		if (used)
			f->mixed_profiles = true;
		if (used < sizeof(f->profiles))
			used += (size_t)snprintf(f->profiles + used, sizeof(f->profiles) - used, "%s%s",
						 used ? ", " : "", f->node[i].profile);
	}
}

/* Shown: some node measured it and, across profiles, every profile has it. */
static void pick_columns(struct fleet *f)
{
	for (unsigned m = 0; m < f->nmetric; m++) {
		struct fleet_metric *fm = &f->metric[m];
		bool any = false, all_profiles = true;

		for (unsigned i = 0; i < f->n; i++)
			any |= f->node[i].has[m];
		for (unsigned i = 0; i < f->n && any; i++) {
			bool profile_has = false;

			for (unsigned j = 0; j < f->n && !profile_has; j++)
				profile_has = !strcmp(f->node[j].profile, f->node[i].profile) &&
					      f->node[j].has[m];
			if (!profile_has)
				all_profiles = false;
		}
		fm->shown = any && all_profiles;
		fm->left_out = any && !all_profiles;
	}
}

static void stats(struct fleet *f, double *buf)
{
	for (unsigned m = 0; m < f->nmetric; m++) {
		struct fleet_metric *fm = &f->metric[m];

		fm->n = 0;
		fm->median = fm->p10 = fm->p90 = NAN;
		if (!fm->shown)
			continue;
		for (unsigned i = 0; i < f->n; i++)
			if (f->node[i].has[m])
				buf[fm->n++] = f->node[i].v[m];
		qsort(buf, fm->n, sizeof(*buf), cmp_double);
		fm->median = fleet_percentile(buf, fm->n, 50);
		fm->p10 = fleet_percentile(buf, fm->n, 10);
		fm->p90 = fleet_percentile(buf, fm->n, 90);
	}
}

static void append(char *dst, size_t cap, const char *sep, const char *s)
{
	size_t used = strlen(dst);

	if (used < cap)
		snprintf(dst + used, cap - used, "%s%s", used ? sep : "", s);
}

static void flag_node(struct fleet *f, struct fleet_node *nd)
{
	struct metric_set ms;
	static struct grade_result gr; /* large: not on the stack */
	unsigned nfig = 0;
	double sum = 0;

	nd->noutliers = 0;
	nd->ndist_shown = 0;
	nd->missing[0] = '\0';
	nd->fail_why[0] = '\0';
	memset(&ms, 0, sizeof(ms));
	for (unsigned m = 0; m < f->nmetric; m++) {
		const struct fleet_metric *fm = &f->metric[m];
		const struct fleet_disturbed *dist;
		struct metric *x;

		nd->outlier[m] = false;
		nd->worse_pct[m] = NAN;
		dist = fleet_node_disturbed(nd, m);
		if ((nd->has[m] || dist) && (x = metric_add(&ms, fm->name)) != NULL) {
			/* a disturbed figure gates as "disturbed: why", not "not measured" */
			x->value = nd->has[m] ? nd->v[m] : dist->v;
			x->measured = true;
			x->disturbed = !nd->has[m];
			if (x->disturbed)
				snprintf(x->why_not, sizeof(x->why_not), "%s", dist->why);
			x->spread_pct = -1;
		}
		if (!fm->shown)
			continue;
		if (!nd->has[m]) {
			if (dist)
				nd->ndist_shown++;
			else
				append(nd->missing, sizeof(nd->missing), ", ", fm->name);
			continue;
		}
		if (fm->median == 0 || !isfinite(fm->median))
			continue; /* no relative distance from a zero median */
		nd->worse_pct[m] = (fm->higher_better ? fm->median - nd->v[m] : nd->v[m] - fm->median) /
				   fabs(fm->median) * 100.0;
		nd->outlier[m] = nd->worse_pct[m] > f->outlier_pct;
		nd->noutliers += nd->outlier[m];
		sum += nd->worse_pct[m];
		nfig++;
	}
	nd->score = nfig ? sum / nfig : 0;
	require_eval(f->req, f->nreq, &ms, &gr);
	nd->failing = gr.requirements_failed;
	for (unsigned r = 0; r < gr.nreq; r++) {
		char one[300];

		if (gr.req[r].passed)
			continue;
		snprintf(one, sizeof(one), "%s (%s)", gr.req[r].req.text, gr.req[r].reason);
		append(nd->fail_why, sizeof(nd->fail_why), "; ", one);
	}
}

/* 2: interrupted or a shown figure missing; 1: a shown figure disturbed; 0: neither. */
static int unsettled(const struct fleet_node *nd)
{
	if (!nd->complete || nd->missing[0])
		return 2;
	return nd->ndist_shown ? 1 : 0;
}

const struct fleet_disturbed *fleet_node_disturbed(const struct fleet_node *nd, unsigned m)
{
	for (unsigned i = 0; i < nd->ndist && i < FLEET_MAX_DISTURBED; i++)
		if (nd->dist[i].m == m)
			return &nd->dist[i];
	return NULL;
}

/* Worst first: failing, unhealthy, more outlier metrics, incomplete, disturbed,
 * then further below the median. */
static int cmp_node(const void *a, const void *b)
{
	const struct fleet_node *x = a, *y = b;

	if (x->failing != y->failing)
		return x->failing ? -1 : 1;
	if (fleet_node_unhealthy(x) != fleet_node_unhealthy(y))
		return fleet_node_unhealthy(x) ? -1 : 1;
	if (x->noutliers != y->noutliers)
		return x->noutliers > y->noutliers ? -1 : 1;
	if (unsettled(x) != unsettled(y))
		return unsettled(x) > unsettled(y) ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return strcmp(x->label, y->label);
}

void fleet_analyse(struct fleet *f, double outlier_pct, const struct requirement *reqs,
		   unsigned nreq)
{
	const struct grade_table *t = grade_builtin_table();
	double *buf = malloc((f->n ? f->n : 1) * sizeof(*buf));

	f->outlier_pct = outlier_pct;
	f->nreq = nreq < REQUIRE_MAX ? nreq : REQUIRE_MAX;
	if (f->nreq)
		memcpy(f->req, reqs, f->nreq * sizeof(*reqs));
	f->nmetric = 0;
	for (unsigned m = 0; grade_metric_names[m] && m < GRADE_MAX_METRICS; m++) {
		struct fleet_metric *fm = &f->metric[m];
		const struct grade_def *d = grade_find(t, grade_metric_names[m]);

		memset(fm, 0, sizeof(*fm));
		fm->name = grade_metric_names[m];
		fm->higher_better = d ? d->higher_better : !strstr(fm->name, "_ms");
		snprintf(fm->unit, sizeof(fm->unit), "%s", d ? d->unit : "");
		f->nmetric++;
	}
	find_profiles(f);
	pick_columns(f);
	if (buf)
		stats(f, buf);
	free(buf);
	f->nfailing = f->noutlier_nodes = 0;
	for (unsigned i = 0; i < f->n; i++) {
		flag_node(f, &f->node[i]);
		f->nfailing += f->node[i].failing;
		f->noutlier_nodes += f->node[i].noutliers > 0;
	}
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++) {
		f->place_shown[c] = false;
		for (unsigned i = 0; i < f->n; i++)
			f->place_shown[c] |= f->node[i].place[c].placed;
	}
	qsort(f->node, f->n, sizeof(*f->node), cmp_node);
}

bool fleet_node_unhealthy(const struct fleet_node *nd)
{
	return strcmp(nd->health, "problems") == 0;
}

const char *fleet_node_status(const struct fleet_node *nd)
{
	if (nd->failing)
		return "FAIL";
	if (fleet_node_unhealthy(nd))
		return "UNHEALTHY";
	if (nd->noutliers)
		return "OUTLIER";
	switch (unsettled(nd)) {
	case 2:
		return "INCOMPLETE";
	case 1:
		return "DISTURBED";
	default:
		return "ok";
	}
}
