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
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define GRADE_MAX_TIERS   8
#define GRADE_MAX_METRICS 32
#define REQUIRE_MAX       16
#define GRADE_MAX_RULES   16
#define GRADE_MAX_WEAK    8

struct grade_tier {
	double bound;        /* higher-better: value >= bound; lower-better: value <= bound */
	bool open;           /* no bound: the catch-all worst tier */
	char tier[24];       /* machine name: "very_slow" */
	char label[32];      /* "very slow" */
	char meaning[128];   /* one line for people */
};

/*
 * Where a bound comes from: a public URL and what it says (a quote), or,
 * for the project's own reasoning, a README anchor (url
 * "README.md#grades-...") and that reasoning in a line. Never empty: a
 * bound without a source is refused (grade_file.c) and fails a test.
 */
struct grade_source {
	char url[200];
	char says[480];
};

struct grade_def {
	char metric[32];     /* "seq_write_mbps" */
	char unit[16];       /* "MB/s" */
	char desc[96];       /* what is measured */
	bool higher_better;
	unsigned ntiers;     /* ordered worst ... best */
	struct grade_tier tiers[GRADE_MAX_TIERS];
	struct grade_source src; /* where every bound of tiers[] comes from */
};

/*
 * A health bound: the figure past which a Health check calls a problem
 * (steal above 10%, per-second IOPS CoV above 15%...). In the same table
 * as the tiers, so --thresholds moves them and --dump-thresholds shows
 * them with their sources; a value outside [min, max] is refused.
 */
#define GRADE_MAX_HEALTH 12
struct health_bound {
	char name[32];       /* "steal_pct" */
	char unit[16];
	char desc[128];      /* "a problem when ... above this" */
	double value;
	double min, max;     /* the range --thresholds may move it within */
	struct grade_source src;
};

/* The comparison of a --require expression and of a rule. */
enum grade_op { REQ_GE, REQ_GT, REQ_LE, REQ_LT };

/*
 * A fit-for rule: "fit for database when lat_p99_ms < 10 and fsync_p99_ms
 * < 10". Data, like the tiers: up to GRADE_MAX_COND conditions, all of
 * which must hold, and the public source of the numbers (src).
 */
#define GRADE_MAX_COND 3
struct grade_cond {
	char metric[32];
	enum grade_op op;
	double bound;
};

struct grade_rule {
	char rule[32];       /* machine name: "etcd" */
	char for_what[96];   /* "etcd and other write-ahead logs" */
	unsigned ncond;      /* 1..GRADE_MAX_COND */
	struct grade_cond cond[GRADE_MAX_COND];
	struct grade_source src; /* where the bounds come from, and what vpsbench applies them to */
};

struct grade_table {
	unsigned n;
	struct grade_def def[GRADE_MAX_METRICS];
	unsigned nrules;
	struct grade_rule rule[GRADE_MAX_RULES];
	unsigned nhealth;
	struct health_bound health[GRADE_MAX_HEALTH];
};

/* One measured figure, as taken from the report. */
struct metric {
	char name[32];
	double value;
	bool measured;
	bool selected;       /* its module was asked for: show why it was not graded */
	char why_not[128];   /* when !measured: why (not run, buffered, failed...) */
	double spread_pct;   /* the run's own relative spread (CoV %), < 0 unknown */
	/*
	 * The figure's own uncertainty: the half-width, in the metric's unit,
	 * of its 95% interval from its repetitions (runs, passes, per-second
	 * samples, order statistics). NAN = unknown: such a figure is shown,
	 * never graded (README "Grades": the borderline rule).
	 */
	double uncert;
	char uncert_from[64];  /* what it came from: "3 passes", "12 per-second samples" */
	/*
	 * Measured, shown, not graded: the pass was disturbed (foreign I/O on
	 * its device, io pressure or steal; for cpu/mem, it did not get its
	 * CPU). why_not says what was seen. Out of the verdict and the fit-for
	 * answers, which say "not answered: disturbed".
	 */
	bool disturbed;
	bool low_confidence; /* measured, from too small a sample: said beside any answer */
	char caveat[96];     /* why it is low-confidence */
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
	double bound_next;   /* the bound of the tier above the worst (NAN with one tier) */
	bool higher_better;
	double spread_pct;
	double uncert;       /* the metric's uncertainty (see struct metric) */
	/*
	 * The value is within its uncertainty of a tier bound: no tier is named.
	 * rank/tier/label are then those of the worse side, and between says
	 * "between good and ideal"; never a weakness.
	 */
	bool borderline;
	unsigned rank_hi;    /* borderline: the best tier the interval reaches */
	char between[80];
	struct grade_source src; /* the definition's source, for the report */
};

struct requirement {
	char metric[32];
	enum grade_op op;
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

enum fit_answer { FIT_UNKNOWN = 0, FIT_YES, FIT_NO };

/*
 * One rule's answer: yes/no when every condition's figure was measured and
 * not disturbed, else unknown and why ("not measured: ...", "not answered:
 * disturbed (...)").
 */
struct fit_result {
	struct grade_rule rule;
	enum fit_answer answer;
	bool asked;          /* a condition's module was asked for: the verdict names the answer */
	bool measured;       /* every condition's figure measured */
	double value;        /* the first condition's figure (NAN unknown) */
	double values[GRADE_MAX_COND]; /* each condition's figure (NAN unknown) */
	bool disturbed;      /* a condition's figure was disturbed: not answered */
	bool low_confidence; /* a condition's figure is low-confidence */
	char why[320];       /* "lat_p99_ms 0.41 < 10, fsync_p99_ms 3.21 < 10" or "not measured: ..." */
};

struct grade_result {
	bool graded;
	unsigned n;
	struct grade g[GRADE_MAX_METRICS];
	/*
	 * Every figure robustly in its metric's worst tier (not borderline, not
	 * disturbed, not a health figure), furthest off first by |ln(value /
	 * bound of the tier above)|: the same distance for "half" and "double".
	 */
	unsigned nweak;
	int weak[GRADE_MAX_WEAK];    /* indexes into g */
	double weak_ln[GRADE_MAX_WEAK];
	unsigned nfit;
	struct fit_result fit[GRADE_MAX_RULES];
	char verdict[2048];  /* every weak figure with its meaning fits */
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

/*
 * Grades every measured metric of ms that has a definition, picks the one
 * resource weak for the machine's size (grade_weak.c) and answers the
 * fit-for rules; the verdict line is written by verdict_build (verdict.h).
 */
void grade_apply(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out);

/* The built-in fit-for rules (grade_rules.c), appended to t by grade_builtin_table. */
extern const struct grade_rule grade_builtin_rules[];
extern const unsigned grade_builtin_nrules;

/* Answers t's rules against ms into out->fit. */
void rules_eval(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out);

/*
 * Fills out->nweak/weak[]/weak_ln[] from out's grades: every figure
 * robustly in its worst tier (grade_weak.c).
 */
void grade_pick_weak(const struct grade_table *t, struct grade_result *out);

/* The health bound called name: t's, else the built-in one; NAN for an unknown name. */
double grade_health_bound(const struct grade_table *t, const char *name);

/* The built-in health bounds (health_bounds.c), copied into t by grade_builtin_table. */
extern const struct health_bound grade_builtin_health[];
extern const unsigned grade_builtin_nhealth;

/* Whether name is a documented metric (grade_metric_names). */
bool grade_known_metric(const char *name);

/* "<", ">=": the operator's text; parses one back (-1 unknown). */
const char *grade_op_text(enum grade_op op);
int grade_op_parse(const char *s, enum grade_op *op);
/* Whether v op bound holds. */
bool grade_op_holds(enum grade_op op, double v, double bound);

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


/* --storage-report FILE (storage_ref.c): a --profile storage report's cliff, checked against the rand passes. */
struct storage_ref {
	bool loaded;         /* the file was read and has a storage section */
	bool checked;        /* a rand pass ran in its directory */
	bool cache_served;   /* a pass's file is no larger than the knee */
	uint64_t knee_size;  /* the last cache-served size; 0 = no knee measured */
	char path[PATH_MAX];
	char dir[PATH_MAX];  /* the storage report's directory */
};
/* A rand file of rand_size is served from the cache whose knee is knee_size (0 = none). */
bool storage_ref_cache_served(uint64_t rand_size, uint64_t knee_size);
/* The storage section's dir and knee_size of the JSON report at path: 0, or -1 and err. */
int storage_ref_load(const char *path, char *dir, size_t dirlen, uint64_t *knee, char *err, size_t errlen);
/* Fills rep->storage_ref and warns for each rand pass in its dir below the knee. */
void storage_ref_apply(struct bench_report *rep, const char *path);

#endif
