/*
 * grade.h — turning measured figures into tiers with a meaning, gating
 * with --require, and the metric set that compare reads back.
 *
 * Grading is pure: metrics in, grades out. The built-in tiers are data in
 * grade_table.c; --thresholds FILE replaces or extends them.
 */
#ifndef VPSBENCH_GRADE_H
#define VPSBENCH_GRADE_H

#include <stdbool.h>
#include <stddef.h>

#define GRADE_MAX_TIERS   8
#define GRADE_MAX_METRICS 24
#define REQUIRE_MAX       16

struct grade_tier {
	double bound;        /* higher-better: value >= bound; lower-better: value <= bound */
	bool open;           /* no bound: the catch-all worst tier */
	char tier[24];       /* machine name: "very_slow" */
	char label[32];      /* "very slow" */
	char meaning[128];   /* one line for people */
};

struct grade_def {
	char metric[32];     /* "seq_write_mbps" */
	char unit[16];       /* "MB/s" */
	char desc[96];       /* what is measured */
	bool higher_better;
	unsigned ntiers;     /* ordered worst ... best */
	struct grade_tier tiers[GRADE_MAX_TIERS];
};

struct grade_table {
	unsigned n;
	struct grade_def def[GRADE_MAX_METRICS];
};

/* One measured figure, as taken from the report. */
struct metric {
	char name[32];
	double value;
	bool measured;
	bool selected;       /* its module was asked for: show why it was not graded */
	char why_not[128];   /* when !measured: why (not run, buffered, failed...) */
	double spread_pct;   /* the run's own relative spread (CoV %), < 0 unknown */
};

struct metric_set {
	unsigned n;
	struct metric m[GRADE_MAX_METRICS];
};

struct grade {
	char metric[32];
	double value;
	char unit[16];
	char tier[24];
	char label[32];
	char meaning[128];
	unsigned rank;       /* 0 = worst tier */
	unsigned ntiers;
	double spread_pct;
};

struct requirement {
	char metric[32];
	enum { REQ_GE, REQ_GT, REQ_LE, REQ_LT } op;
	double bound;
	char text[96];       /* as given, e.g. "seq_write_mbps>=200" */
};

struct require_result {
	struct requirement req;
	bool passed;
	bool measured;
	double value;
	char reason[160];
};

struct grade_result {
	bool graded;
	unsigned n;
	struct grade g[GRADE_MAX_METRICS];
	int weakest;                 /* index into g, -1 none */
	char verdict[256];
	unsigned nreq;
	struct require_result req[REQUIRE_MAX];
	bool requirements_failed;
	struct metric_set metrics;   /* everything considered, measured or not */
};

/* The built-in table (grade_table.c). */
const struct grade_table *grade_builtin_table(void);

/* The documented metric names, for --help and --require checks. NULL-terminated. */
extern const char *const grade_metric_names[];
extern const char *const grade_metric_descs[];

/* Finds a definition, or NULL. */
const struct grade_def *grade_find(const struct grade_table *t, const char *metric);

/* Grades one value against a definition: returns the tier index. */
unsigned grade_tier_of(const struct grade_def *d, double value);

/* Grades every measured metric of ms that has a definition; builds the verdict. */
void grade_apply(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out);

/*
 * Loads a thresholds file (JSON, same shape as --dump-thresholds prints) into
 * t, replacing definitions of the same metric and adding new ones. On error
 * returns -1 with "FILE:LINE: key: problem" in err.
 */
int grade_load_file(const char *path, struct grade_table *t, char *err, size_t errlen);

/* Parses "m>=1,m2<3" into reqs. On error returns -1 with one line in err. */
int require_parse(const char *s, struct requirement *reqs, unsigned max, unsigned *n,
		  char *err, size_t errlen);

/* Evaluates reqs against ms into out->req; sets requirements_failed. */
void require_eval(const struct requirement *reqs, unsigned n, const struct metric_set *ms,
		  struct grade_result *out);

struct bench_report;
struct bench_plan;
struct rand_result;
struct rand_pass_result;
/* Takes the graded figures out of a finished report (grade_metrics.c). */
void grade_collect(const struct bench_report *rep, const struct bench_plan *plan,
		   struct metric_set *ms);

/* The passes grade_collect reads: rand_iops etc. (main) and lat_p*_ms (lat); NULL = none. */
const struct rand_pass_result *grade_main_pass(const struct rand_result *r);
const struct rand_pass_result *grade_lat_pass(const struct rand_result *r);

/* The graded grade of metric, or NULL (not measured or no tiers). */
const struct grade *grade_get(const struct grade_result *g, const char *metric);

/* After grade_apply: warnings the grades imply (an IOPS drop), into the report's list. */
void grade_warn(struct bench_report *rep);

/* A figure for people: 18400, 481, 0.452, 12.5 (no exponents). */
void grade_fmt_value(char *buf, size_t n, double v);

/* metric_set helpers */
struct metric *metric_add(struct metric_set *ms, const char *name);
const struct metric *metric_get(const struct metric_set *ms, const char *name);

#endif
