/*
 * test_fleet.c — the fleet analysis on in-memory nodes: percentiles against
 * hand-worked values, outlier direction for higher- and lower-better
 * metrics, --require per node, worst-first order, and the property that a
 * node identical to the median never changes another node's outlier flags.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/fleet.h"
#include "th.h"

static int metric_index(const char *name)
{
	for (int i = 0; grade_metric_names[i]; i++)
		if (!strcmp(grade_metric_names[i], name))
			return i;
	return -1;
}

static void node(struct fleet *f, const char *label, const char *metric, double v)
{
	struct fleet_node nd;
	int m = metric_index(metric);

	memset(&nd, 0, sizeof(nd));
	snprintf(nd.label, sizeof(nd.label), "%s", label);
	snprintf(nd.profile, sizeof(nd.profile), "default");
	nd.complete = true;
	if (m >= 0) {
		nd.has[m] = true;
		nd.v[m] = v;
	}
	fleet_add(f, &nd);
}

static const struct fleet_node *by_label(const struct fleet *f, const char *label)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->node[i].label, label))
			return &f->node[i];
	return NULL;
}

TH_TEST(fleet_percentile_linear)
{
	const double v[] = { 250, 440, 455, 460, 470, 480 };

	TH_NEAR(fleet_percentile(v, 6, 50), 457.5, 1e-9);
	TH_NEAR(fleet_percentile(v, 6, 10), 345, 1e-9);  /* rank 0.5: halfway 250..440 */
	TH_NEAR(fleet_percentile(v, 6, 90), 475, 1e-9);  /* rank 4.5 */
	TH_NEAR(fleet_percentile(v, 1, 90), 250, 1e-9);
	TH_CHECK(isnan(fleet_percentile(v, 0, 50)));
}

TH_TEST(fleet_outlier_direction)
{
	static struct fleet f;
	int iops = metric_index("rand_iops"), p99 = metric_index("lat_p99_ms");

	/* rand_iops: higher is better; median 10000; 6900 is 31% worse, 7100 29% */
	node(&f, "n1", "rand_iops", 10000);
	node(&f, "n2", "rand_iops", 10000);
	node(&f, "n3", "rand_iops", 6900);
	node(&f, "n4", "rand_iops", 7100);
	node(&f, "n5", "rand_iops", 20000); /* far better: never an outlier */
	node(&f, "l1", "lat_p99_ms", 2.0);
	node(&f, "l2", "lat_p99_ms", 2.0);
	node(&f, "l3", "lat_p99_ms", 2.7);  /* 35% higher latency: worse */
	node(&f, "l4", "lat_p99_ms", 1.0);  /* lower: better */
	fleet_analyse(&f, 30, NULL, 0);
	TH_NEAR(f.metric[iops].median, 10000, 1e-9);
	TH_CHECK(by_label(&f, "n3")->outlier[iops]);
	TH_NEAR(by_label(&f, "n3")->worse_pct[iops], 31, 1e-9);
	TH_CHECK(!by_label(&f, "n4")->outlier[iops]);
	TH_CHECK(!by_label(&f, "n5")->outlier[iops]);
	TH_NEAR(f.metric[p99].median, 2.0, 1e-9);
	TH_CHECK(by_label(&f, "l3")->outlier[p99]);
	TH_CHECK(!by_label(&f, "l4")->outlier[p99]);
	/* worst first: the two outliers lead */
	TH_CHECK(f.node[0].noutliers == 1 && f.node[1].noutliers == 1);
	TH_CHECK(f.node[f.n - 1].noutliers == 0);
	fleet_free(&f);
}

TH_TEST(fleet_require_per_node)
{
	static struct fleet f;
	struct requirement req[REQUIRE_MAX];
	unsigned n = 0;
	char err[256];

	node(&f, "ok", "rand_iops", 9000);
	node(&f, "low", "rand_iops", 4000);
	node(&f, "none", "seq_write_mbps", 400); /* no rand_iops: not measured, fails */
	TH_EQ_INT(require_parse("rand_iops>=5000", req, REQUIRE_MAX, &n, err, sizeof(err)), 0);
	fleet_analyse(&f, 30, req, n);
	TH_EQ_INT(f.nfailing, 2);
	TH_CHECK(!by_label(&f, "ok")->failing);
	TH_CHECK(by_label(&f, "low")->failing);
	TH_CHECK(strstr(by_label(&f, "low")->fail_why, "measured 4000") != NULL);
	TH_CHECK(by_label(&f, "none")->failing);
	TH_EQ_STR(f.node[f.n - 1].label, "ok"); /* the passing node last */
	fleet_free(&f);
}

/*
 * A figure measured but disturbed (the report's metrics null, its
 * metrics_detail disturbed) is not "no figure": the node is DISTURBED, not
 * INCOMPLETE, ranks after incomplete nodes and before settled ones, stays
 * out of the median, and a --require on it fails saying disturbed and why.
 */
TH_TEST(fleet_disturbed_not_missing)
{
	static struct fleet f;
	struct requirement req[REQUIRE_MAX];
	int iops = metric_index("rand_iops");
	struct fleet_node nd;
	unsigned n = 0;
	char err[256];

	TH_CHECK(iops >= 0);
	node(&f, "a", "rand_iops", 9000);
	node(&f, "b", "rand_iops", 8000);
	memset(&nd, 0, sizeof(nd));
	snprintf(nd.label, sizeof(nd.label), "dist");
	snprintf(nd.profile, sizeof(nd.profile), "default");
	nd.complete = true;
	nd.ndist = 1;
	nd.dist[0].m = (unsigned)iops;
	nd.dist[0].v = 100;  /* far below: it would be an outlier and move the median */
	snprintf(nd.dist[0].why, sizeof(nd.dist[0].why), "io pressure 40%% (some)");
	fleet_add(&f, &nd);
	node(&f, "gone", "no_such_metric", 0);  /* no figure at all */
	TH_EQ_INT(require_parse("rand_iops>=5000", req, REQUIRE_MAX, &n, err, sizeof(err)), 0);
	fleet_analyse(&f, 30, NULL, 0);
	TH_NEAR(f.metric[iops].median, 8500, 1e-9);
	TH_EQ_INT(f.metric[iops].n, 2);
	TH_EQ_STR(fleet_node_status(by_label(&f, "dist")), "DISTURBED");
	TH_EQ_STR(by_label(&f, "dist")->missing, "");
	TH_EQ_INT(by_label(&f, "dist")->ndist_shown, 1);
	TH_CHECK(!by_label(&f, "dist")->outlier[iops]);
	TH_EQ_STR(fleet_node_status(by_label(&f, "gone")), "INCOMPLETE");
	TH_CHECK(strstr(by_label(&f, "gone")->missing, "rand_iops") != NULL);
	TH_EQ_STR(f.node[0].label, "gone");  /* incomplete, then disturbed, then the settled */
	TH_EQ_STR(f.node[1].label, "dist");
	TH_CHECK(fleet_node_disturbed(by_label(&f, "dist"), (unsigned)iops) != NULL);
	TH_CHECK(fleet_node_disturbed(by_label(&f, "a"), (unsigned)iops) == NULL);
	fleet_analyse(&f, 30, req, n);
	TH_CHECK(by_label(&f, "dist")->failing);
	TH_CHECK(strstr(by_label(&f, "dist")->fail_why, "disturbed: io pressure 40% (some)") != NULL);
	TH_CHECK(strstr(by_label(&f, "gone")->fail_why, "not measured") != NULL);
	fleet_free(&f);
}

TH_TEST(fleet_profiles_share_metrics_only)
{
	static struct fleet f;
	struct fleet_node nd;
	int iops = metric_index("rand_iops"), p99 = metric_index("lat_p99_ms");

	node(&f, "a", "rand_iops", 1000);
	f.node[0].has[p99] = true;
	f.node[0].v[p99] = 1;
	memset(&nd, 0, sizeof(nd));
	snprintf(nd.label, sizeof(nd.label), "y");
	snprintf(nd.profile, sizeof(nd.profile), "yabs");
	nd.complete = true;
	nd.has[iops] = true;
	nd.v[iops] = 2000;
	fleet_add(&f, &nd);
	fleet_analyse(&f, 30, NULL, 0);
	TH_CHECK(f.mixed_profiles);
	TH_CHECK(f.metric[iops].shown);
	TH_CHECK(!f.metric[p99].shown && f.metric[p99].left_out);
	fleet_free(&f);
}

/* xorshift: a fixed sequence, so a failure repeats */
static unsigned long long rng_state = 88172645463325252ULL;
static double rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

TH_TEST(fleet_median_node_changes_no_flag)
{
	static struct fleet f, g;
	static bool before[64][GRADE_MAX_METRICS];

	for (int trial = 0; trial < 300; trial++) {
		unsigned n = 1 + (unsigned)(rnd() * 40);
		struct fleet_node med;

		memset(&f, 0, sizeof(f));
		for (unsigned i = 0; i < n; i++) {
			struct fleet_node nd;

			memset(&nd, 0, sizeof(nd));
			snprintf(nd.label, sizeof(nd.label), "n%03u", i);
			snprintf(nd.profile, sizeof(nd.profile), "default");
			nd.complete = true;
			for (int m = 0; grade_metric_names[m]; m++) {
				nd.has[m] = rnd() > 0.15; /* some nodes miss a module */
				/* ties and spread: integers around 100, sometimes far off */
				nd.v[m] = floor(50 + rnd() * 100) * (rnd() < 0.1 ? 0.3 : 1);
			}
			fleet_add(&f, &nd);
		}
		fleet_analyse(&f, 5 + rnd() * 50, NULL, 0);
		for (unsigned i = 0; i < f.n; i++)
			memcpy(before[i], f.node[i].outlier, sizeof(before[i]));
		memset(&med, 0, sizeof(med));
		snprintf(med.label, sizeof(med.label), "zz-median");
		snprintf(med.profile, sizeof(med.profile), "default");
		med.complete = true;
		for (unsigned m = 0; m < f.nmetric; m++) {
			med.has[m] = f.metric[m].shown;
			med.v[m] = f.metric[m].median;
		}
		memset(&g, 0, sizeof(g));
		for (unsigned i = 0; i < f.n; i++)
			fleet_add(&g, &f.node[i]);
		fleet_add(&g, &med);
		fleet_analyse(&g, f.outlier_pct, NULL, 0);
		for (unsigned i = 0; i < f.n; i++) {
			const struct fleet_node *x = by_label(&g, f.node[i].label);

			TH_CHECK(x != NULL);
			if (!x)
				break;
			if (memcmp(before[i], x->outlier, sizeof(before[i])) != 0) {
				TH_CHECK(!"a median node changed an outlier flag");
				trial = 1000;
				break;
			}
		}
		TH_CHECK(by_label(&g, "zz-median")->noutliers == 0);
		fleet_free(&f);
		fleet_free(&g);
	}
}

static struct place_item *item(struct place_result *r, const char *metric, uint32_t bs)
{
	struct place_item *it = &r->item[r->nitems++];

	memset(it, 0, sizeof(*it));
	snprintf(it->metric, sizeof(it->metric), "%s", metric);
	it->bs = bs;
	return it;
}

/* A placement into the node's cells: the column's metric and block size
 * only, the percentile and n where placed, the why where not. */
TH_TEST(fleet_place_cells_from_result)
{
	static struct place_result r;
	static struct fleet f;
	struct fleet_node nd;
	struct place_item *it;

	memset(&r, 0, sizeof(r));
	it = item(&r, PLACE_M_FIO_IOPS, 65536);   /* 64k: not the 4k column */
	it->placed = true;
	it->pct = 12.5;
	it->d.n = 300;
	it = item(&r, PLACE_M_FIO_IOPS, 4096);
	it->placed = true;
	it->pct = 38.25;
	it->d.n = 339;
	it = item(&r, PLACE_M_FIO_MBPS, 1048576);
	snprintf(it->why, sizeof(it->why), "12 published rows match the filter (minimum 20)");
	it->d.n = 12;
	it = item(&r, PLACE_M_CPU_ALL, 0);
	it->placed = true;
	it->pct = 100;
	it->d.n = 40;
	it = item(&r, PLACE_M_NET_SEND, 0);        /* iperf3: never a fleet column */
	it->placed = true;
	it->pct = 50;
	it->d.n = 90;
	memset(&nd, 0, sizeof(nd));
	fleet_place_node(&nd, &r);
	TH_EQ_STR(fleet_place_cols[0].metric, PLACE_M_FIO_IOPS);
	TH_EQ_INT(fleet_place_cols[0].bs, 4096);
	TH_CHECK(nd.place[0].placed);
	TH_NEAR(nd.place[0].pct, 38.25, 1e-12);
	TH_EQ_INT(nd.place[0].n, 339);
	TH_CHECK(!nd.place[1].placed);                /* 1m MB/s: too few rows */
	TH_CHECK(strstr(nd.place[1].why, "minimum 20") != NULL);
	TH_CHECK(!nd.place[2].placed);                /* 1 thread: no item */
	TH_EQ_STR(nd.place[2].why, "not measured in this report");
	TH_CHECK(nd.place[3].placed);
	TH_NEAR(nd.place[3].pct, 100, 1e-12);
	TH_EQ_INT(nd.place[3].n, 40);
	TH_CHECK(!nd.place[4].placed);

	/* no fio item but the rand note: the note is the fio columns' why */
	memset(&r, 0, sizeof(r));
	snprintf(r.rand_note, sizeof(r.rand_note), "randrw 75/25, 4k, qd64: run --profile yabs to place it");
	fleet_place_node(&nd, &r);
	TH_EQ_STR(nd.place[0].why, r.rand_note);
	TH_EQ_STR(nd.place[1].why, r.rand_note);
	TH_EQ_STR(nd.place[2].why, "not measured in this report");

	/* a column is shown when at least one node was placed on it */
	memset(&f, 0, sizeof(f));
	fleet_add(&f, &nd);
	nd.place[3].placed = true;
	nd.place[3].pct = 61;
	nd.place[3].n = 149;
	fleet_add(&f, &nd);
	fleet_analyse(&f, 30, NULL, 0);
	for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
		TH_CHECK(f.place_shown[c] == (c == 3));
	fleet_free(&f);
}

/* p0 and p100 say "below / above every published figure": only then. */
TH_TEST(fleet_place_pct_shown_ends)
{
	TH_EQ_INT(fleet_place_pct_shown(0), 0);
	TH_EQ_INT(fleet_place_pct_shown(0.15), 1);
	TH_EQ_INT(fleet_place_pct_shown(38.2), 38);
	TH_EQ_INT(fleet_place_pct_shown(38.5), 39);
	TH_EQ_INT(fleet_place_pct_shown(99.85), 99);
	TH_EQ_INT(fleet_place_pct_shown(100), 100);
	TH_EQ_STR(fleet_ordinal(1), "st");
	TH_EQ_STR(fleet_ordinal(2), "nd");
	TH_EQ_STR(fleet_ordinal(3), "rd");
	TH_EQ_STR(fleet_ordinal(11), "th");
	TH_EQ_STR(fleet_ordinal(12), "th");
	TH_EQ_STR(fleet_ordinal(13), "th");
	TH_EQ_STR(fleet_ordinal(22), "nd");
	TH_EQ_STR(fleet_ordinal(38), "th");
	TH_EQ_STR(fleet_ordinal(100), "th");
}
