/*
 * place.h — where this run stands among the published runs
 * (grade/published.h), only where the workload is the same:
 *   yabs's fio (--profile yabs): each block size's total IOPS and MB/s
 *     (yabs's MB/s: KiB/s / 1000) among yabs_disk.csv;
 *   the cpu module's prime events/s (1 thread, all threads; max_prime
 *     10000) among the ecs/NodeQuality sysbench lines;
 *   the seq write (conv=fdatasync, 1 GiB a run) among bench.sh's dd;
 *   each iperf3 server row (8 streams) among the published rows of the
 *     same server and family.
 * A figure of another workload is "not placed: why".
 *
 * Three steps, each pure but the first: the input is taken from a run
 * (place_input_from_report, place_input.c) or from a saved JSON report
 * (place_input_from_json, place_load.c); place_compute (place.c) filters
 * the published tables and ranks the input; renderers read the result.
 *
 * The rank: percentile = 100 x (below + equal / 2) / n (the mid-rank: 0
 * under the minimum, 100 over the maximum, ties share their middle). The
 * ladder p10..p90: linear interpolation between order statistics,
 * h = (n - 1) p (numpy's default, R's type 7).
 */
#ifndef VPSBENCH_PLACE_H
#define VPSBENCH_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/value.h"
#include "published.h"

#define PLACE_MIN_N_DEFAULT 20   /* fewer rows after the filter: not placed */
#define PLACE_MAX_ITEMS     48   /* 8 fio + 2 cpu + 1 dd + 36 iperf3 directions */
#define PLACE_MAX_FIO       8
#define PLACE_MAX_NET       18   /* iperf3 rows (server x family) */
#define PLACE_NQ            5    /* the ladder: p10, p25, p50, p75, p90 */
#define PLACE_MAX_POP       96   /* published tables */

/* The metric names (tables and items): fio ones per block size. */
#define PLACE_M_FIO_IOPS  "fio_total_iops"   /* read + write IOPS, yabs's fio */
#define PLACE_M_FIO_MBPS  "fio_total_mbps"   /* read + write, yabs's MB/s (KiB/s / 1000) */
#define PLACE_M_CPU_1T    "sysbench_1t_eps"  /* prime events/s, 1 thread */
#define PLACE_M_CPU_ALL   "sysbench_all_eps" /* prime events/s, all threads */
#define PLACE_M_DD        "dd_write_mbps"    /* dd conv=fdatasync, mean of the runs, MB/s */
#define PLACE_M_NET_SEND  "iperf_send_mbits" /* iperf3 send (client to server), Mbit/s */
#define PLACE_M_NET_RECV  "iperf_recv_mbits" /* iperf3 -R, Mbit/s */

/* The filters the user sets (--place-*; `vpsbench place` takes the same). */
struct place_filter {
	int kind;                /* enum pub_kind; PUB_KIND_UNKNOWN = any (--place-kind any) */
	unsigned vcpus_lo, vcpus_hi;  /* 0, 0 = any; else runs printing a vCPU count in range */
	unsigned year_lo, year_hi;    /* 0, 0 = any (undated runs kept); else dated runs in range */
	bool per_machine;        /* one run per machine: its first published one */
	bool include_cached;     /* keep yabs runs with 1m > 15 GB/s (disk tables) */
	unsigned min_n;          /* rows needed to place (default PLACE_MIN_N_DEFAULT) */
};

/* Defaults: kind vps, any vCPUs, any year, every run, cached left out, min 20. */
void place_filter_default(struct place_filter *f);

/* One --place-* option by its name without dashes ("place-kind",
 * "place-vcpus", "place-years", "place-min-n"; "place-per-machine" and
 * "place-include-cached" take val NULL). 0, or -1 with one line in err. */
int place_filter_arg(struct place_filter *f, const char *name, const char *val,
		     char *err, size_t errlen);

/* One --place-* option of a subcommand's argv at *i ("--place-kind V",
 * "--place-kind=V" or a flag; *i advanced past a value): 1 = not a
 * --place-* option, 0 = taken, -1 = usage error (one line in err). */
int place_filter_argv(struct place_filter *f, int argc, char **argv, int *i, char *err,
		      size_t errlen);

struct bench_opts;
/* The filter of a run's --place-* options (core/options.h keeps their
 * strings): 0, or -1 with one line in err naming the option. */
int place_filter_from_opts(const struct bench_opts *o, struct place_filter *f, char *err,
			   size_t errlen);

/* "kind vps, any vCPUs, all years, every run, cache-inflated left out": the
 * filter in words, as every format shows it. */
void place_filter_text(const struct place_filter *f, char *buf, size_t n);

/* What was measured, in the published units. */
struct place_fio {
	uint32_t bs;
	struct mdbl iops;        /* read + write IOPS */
	struct mdbl mbps;        /* read + write, yabs's MB/s: (bytes/s / 1024) / 1000 */
	uint64_t runtime_ms, size_bytes; /* against yabs's 30 s and 2 GiB */
	char why[160];           /* not placeable: incomplete, buffered...; "" = fine */
};

struct place_net {
	char server[64], location[96];   /* the row's name and location as given */
	int family;                      /* 4 or 6 */
	struct mdbl send_mbits, recv_mbits;  /* the receiver's figure, as iperf3/yabs print */
	char why_send[128], why_recv[128];   /* why a direction has no figure or is not placeable */
};

struct place_input {
	char profile[64];
	/* fio: the yabs-shaped passes (randrw 50/50, qd64, 2 jobs) of the first directory */
	unsigned nfio;
	struct place_fio fio[PLACE_MAX_FIO];
	bool rand_ran;           /* the rand module ran passes */
	char rand_other[160];    /* rand ran, none yabs-shaped: its workload ("randrw 75/25, 4k, qd64") */
	/* cpu: sysbench's prime event */
	bool cpu_ran;
	unsigned max_prime;
	struct mdbl cpu_1t, cpu_all;     /* events/s */
	unsigned cpu_threads;            /* threads of the all-threads pass */
	char why_1t[128], why_all[128];  /* disturbed, incomplete... "" = fine */
	/* seq: the dd-style write of the first directory */
	bool seq_ran;
	struct mdbl dd_mbps;             /* mean of the runs' rates, decimal MB/s (as bench.sh) */
	uint32_t seq_bs;
	uint64_t seq_size;               /* bytes a run */
	unsigned seq_runs;
	bool seq_direct, seq_zero;
	char why_dd[128];
	/* net: iperf3 rows */
	bool net_ran;
	unsigned net_streams;
	unsigned nnet;
	struct place_net net[PLACE_MAX_NET];
};

/* The published rows a filter left in one table, summarised: what an item
 * is ranked among, and a line of the population. */
struct place_dist {
	unsigned n;              /* rows after the filter */
	double q[PLACE_NQ];      /* p10 p25 p50 p75 p90 of the rows */
	double min, max;
	unsigned year_lo, year_hi;   /* the rows' dates (full years; 0 when none dated) */
	unsigned undated;            /* rows without a date */
	unsigned cached_out;         /* rows left out as cache-inflated */
};

struct place_item {
	char metric[24];         /* PLACE_M_* */
	uint32_t bs;             /* fio items */
	char server[64], location[96], family[8];   /* iperf3 items */
	char label[96];          /* "4k total IOPS", "1 thread", "Clouvider London, UK (10G) IPv4 send" */
	char unit[16];           /* the published unit */
	struct mdbl value;       /* this run, in unit; null when not measured */
	bool placed;
	char why[192];           /* not placed: why ("12 published rows match the filter (minimum 20)") */
	char note[192];          /* how the figure relates to the published ones; "" = same workload */
	struct place_dist d;     /* the rows ranked among (all 0 when not placed) */
	unsigned below, equal;   /* of them, below and equal to value */
	double pct;              /* the mid-rank percentile, 0..100 */
};

struct place_result {
	bool ran;                /* place_compute was called */
	struct place_filter filter;
	char filter_text[160];
	const char *source;      /* pub_source */
	char profile[64];
	char rand_note[224];     /* rand ran but not yabs's workload: "… run --profile yabs to place it" */
	unsigned nitems;
	struct place_item item[PLACE_MAX_ITEMS];
};

/* The population under a filter: per published table, what is left. */
struct place_pop_table {
	const struct pub_table *t;
	struct place_dist d;     /* no minimum applied: n may be 0 (then q, min, max NAN) */
};
struct place_pop {
	struct place_filter filter;
	char filter_text[160];
	unsigned ntables;
	struct place_pop_table table[PLACE_MAX_POP];
};
/* Fills pop for every table of pub_tables under f (no minimum applied). */
void place_population(const struct place_filter *f, struct place_pop *pop);

/* Mid-rank percentile of v among sorted[0..n-1] (ascending); below/equal out. */
double place_percentile(const double *sorted, unsigned n, double v, unsigned *below,
			unsigned *equal);
/* The p-quantile (0..1) of sorted[0..n-1], type 7; NAN when n == 0. */
double place_quantile(const double *sorted, unsigned n, double p);

/* Ranks in among the published tables under f. */
void place_compute(const struct place_input *in, const struct place_filter *f,
		   struct place_result *out);

struct bench_report;
struct bench_plan;
/* The input from a finished run (place_input.c). */
void place_input_from_report(const struct bench_report *rep, const struct bench_plan *plan,
			     struct place_input *in);

/* The input from a saved JSON report's text (place_load.c). 0, or -1 with
 * one line in err: not JSON, not a vpsbench report ("schema"). */
int place_input_from_json(const char *text, struct place_input *in, char *err, size_t errlen);

/*
 * Shared by the two readers (place_input.c, place_load.c), so that a run and
 * its saved JSON report give the same input. Each writes why ("" = fine).
 */
/* A rand pass's workload in words: "randrw 75/25, 4k, qd64", appended to buf ("; " between). */
void place_rand_describe(char *buf, size_t n, const char *rw, unsigned rwmixread, uint32_t bs,
			 unsigned iodepth);
/* A yabs-shaped pass: ok (its status), direct and not disturbed, else why. */
void place_fio_why(char *why, size_t n, bool ok, const char *status, const char *reason,
		   bool direct, const char *direct_reason, bool disturbed, const char *dist_why);
/* A prime pass: measured, complete and not disturbed (share: of its CPU), else why. */
void place_cpu_why(char *why, size_t n, struct mdbl eps, bool complete, bool disturbed,
		   double share);
/* The seq write: the first dir's pass done, else why (its reason, the module's, its status). */
void place_seq_why(char *why, size_t n, bool done, const char *status, const char *dir_reason,
		   const char *mod_reason);
/* A disk figure of storage that is not graded as a disk's (memory-backed, cached,
 * network): why names the class and what decided it; graded: why untouched. */
void place_storage_why(char *why, size_t n, bool graded, const char *cls, const char *reason);
/* One iperf3 direction: measured and plausible, else why. */
void place_net_why(char *why, size_t n, struct mdbl bps, bool implausible, const char *status);

#endif
