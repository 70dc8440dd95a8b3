/*
 * fleet.h — `vpsbench fleet REPORT...|DIR`: many nodes' JSON reports side
 * by side. Per graded metric the fleet's median, p10 and p90; a node is an
 * outlier on a metric worse than the median by more than --outlier PCT,
 * failing when it misses --require. Nodes sorted worst first.
 *
 * Per node also where its figures stand among the published results
 * (grade/place.h), for the metrics that mean the same on every node:
 * the percentile and n of each column of fleet_place_cols.
 *
 * Loading (fleet_load.c) reads the files and places each report; the
 * analysis (fleet.c) is pure, so tests build fleets in memory.
 */
#ifndef VPSBENCH_FLEET_H
#define VPSBENCH_FLEET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grade.h"
#include "place.h"

#define FLEET_DEFAULT_OUTLIER_PCT 30.0
#define FLEET_MAX_FILES 100000

/* The published-results columns: figures placed the same way on every
 * node (no iperf3 rows: those are per server). */
#define FLEET_PLACE_COLS 5
struct fleet_place_col {
	const char *metric;        /* PLACE_M_* */
	uint32_t bs;               /* fio columns: the block size; 0 otherwise */
	const char *key;           /* JSON and CSV: "fio_4k_total_iops" */
	const char *header;        /* text and HTML: "pub% 4k IOPS" */
};
extern const struct fleet_place_col fleet_place_cols[FLEET_PLACE_COLS];

/* One node's figure among the published ones. */
struct fleet_place_cell {
	bool placed;
	double pct;                /* the mid-rank percentile, 0..100 */
	unsigned n;                /* published rows after the filter */
	char why[224];             /* not placed: why */
};

/*
 * A figure the report measured and did not grade because its pass was
 * disturbed ("metrics" has null, "metrics_detail" says disturbed and why):
 * not a figure to rank or gate on, but not "no figure" either.
 */
#define FLEET_MAX_DISTURBED GRADE_MAX_METRICS
struct fleet_disturbed {
	unsigned m;                /* index in grade_metric_names */
	double v;                  /* what it measured, disturbed */
	char why[128];             /* the report's why, as grade.h's why_not holds it */
};

struct fleet_node {
	char file[PATH_MAX];
	char label[80];            /* --label NAME, else the file name without .json */
	char tags[400];            /* "dc=fra1, rack=4" from --label key=value, or "" */
	char profile[64];
	char verdict[512];         /* the report's own verdict text */
	char health[16];           /* its health.status: "ok", "problems", "incomplete"; "unknown" without one */
	char health_checks[160];   /* the checks that found a problem: "steal, cpu_share" */
	char health_why[400];      /* their evidence, "; "-joined */
	bool complete;             /* run.complete */
	bool has[GRADE_MAX_METRICS];
	double v[GRADE_MAX_METRICS];  /* by index in grade_metric_names */
	struct fleet_place_cell place[FLEET_PLACE_COLS]; /* by index in fleet_place_cols */
	unsigned ndist;            /* figures measured but disturbed (has[m] false) */
	struct fleet_disturbed dist[FLEET_MAX_DISTURBED];

	/* filled by fleet_analyse */
	bool outlier[GRADE_MAX_METRICS];
	double worse_pct[GRADE_MAX_METRICS]; /* how much worse than the median, %; < 0 = better */
	unsigned noutliers;
	bool failing;
	char fail_why[400];        /* "rand_iops>=5000 (measured 3100); ..." */
	char missing[200];         /* shown metrics this node has no figure for, disturbed ones aside */
	unsigned ndist_shown;      /* shown metrics whose figure was disturbed */
	double score;              /* mean worse_pct over its figures: the sort key */
};

struct fleet_metric {
	const char *name;          /* grade_metric_names[i] */
	char unit[16];
	bool higher_better;
	bool shown;                /* a column: measured, and shared by every profile */
	bool left_out;             /* measured by some profiles only */
	unsigned n;                /* nodes with a figure */
	double median, p10, p90;
};

struct fleet_broken {
	char file[PATH_MAX];
	char why[256];
};

struct fleet {
	unsigned n, cap;
	struct fleet_node *node;
	unsigned nbroken, capb;
	struct fleet_broken *broken;
	unsigned nmetric;          /* entries of grade_metric_names */
	struct fleet_metric metric[GRADE_MAX_METRICS];
	double outlier_pct;
	unsigned nreq;
	struct requirement req[REQUIRE_MAX];
	bool mixed_profiles;
	char profiles[256];        /* "default, quick" */
	unsigned nfailing, noutlier_nodes;
	/* the published-results placement */
	bool placed_any;           /* fleet_load placed the reports (a filter is set) */
	struct place_filter place_filter;
	char place_filter_text[160];
	bool place_shown[FLEET_PLACE_COLS]; /* some node placed: a column */
};

/*
 * Loads reports: each path a file or a directory (its *.json files). A file
 * named on the command line that is not a vpsbench report is an error (-1,
 * err names it); in a directory the broken ones go to f->broken and the
 * rest are kept. -1 with err when no report could be read. Each report is
 * placed among the published results under pf (place_input_from_json,
 * place_compute).
 */
int fleet_load(struct fleet *f, const char *const *paths, unsigned npaths,
	       const struct place_filter *pf, char *err, size_t errlen);

/* The disturbed figure of metric m, or NULL. */
const struct fleet_disturbed *fleet_node_disturbed(const struct fleet_node *nd, unsigned m);

/* The node's cells of fleet_place_cols from its placement r: percentile
 * and n where placed, else why (the item's, the rand note, or "not
 * measured"). */
void fleet_place_node(struct fleet_node *nd, const struct place_result *r);

/* The percentile as text and HTML print it ("p38"): rounded, but 0 and
 * 100 only for a figure below or above every published one (99.85 is 99). */
long fleet_place_pct_shown(double pct);
/* "st", "nd", "rd" or "th": "the 38th percentile". */
const char *fleet_ordinal(long n);
/* The first placed cell, worst-first node order, column order: the
 * example the legend reads out; NULL when none. */
const struct fleet_place_cell *fleet_place_example(const struct fleet *f);

/* Appends a copy of node (tests, fleet_load). -1 on no memory. */
int fleet_add(struct fleet *f, const struct fleet_node *node);

/* Columns, median/p10/p90, outlier and failing flags, worst-first order;
 * the published columns some node was placed on. */
void fleet_analyse(struct fleet *f, double outlier_pct, const struct requirement *reqs,
		   unsigned nreq);

/* The p-th percentile (0..100) of sorted v[0..n-1], linear between ranks. */
double fleet_percentile(const double *sorted, unsigned n, double p);

/* Whether the node's report names a health problem. */
bool fleet_node_unhealthy(const struct fleet_node *nd);

/* "FAIL", "UNHEALTHY", "OUTLIER", "INCOMPLETE" (interrupted, or a shown
 * metric with no figure), "DISTURBED" (a shown figure measured but
 * disturbed: run it again on a quiet machine) or "ok". */
const char *fleet_node_status(const struct fleet_node *nd);

void fleet_free(struct fleet *f);

#endif
