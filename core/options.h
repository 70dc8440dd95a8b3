/*
 * options.h — command-line options (a table drives getopt_long, the
 * parser and --help) and the values they leave in struct bench_opts.
 */
#ifndef VPSBENCH_OPTIONS_H
#define VPSBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "labels.h"

#define BENCH_MAX_DIRS 16

enum out_format { FMT_TEXT = 0, FMT_JSON, FMT_YABS, FMT_PROM, FMT_FIO };

/* --upload-format: what the upload body is (the saved --output stays JSON). */
enum upload_format { UPFMT_JSON = 0, UPFMT_YABS, UPFMT_PROM };
extern const char *const upload_format_names[];

#define OPT_LIST_MAX 16

/* A repeatable string option. */
struct opt_list {
	const char *v[OPT_LIST_MAX];
	unsigned n;
};

/* A value the user may or may not have given; profiles fill the unset ones. */
struct opt_u64 {
	uint64_t v;
	bool set;
};

struct bench_opts {
	const char *dirs[BENCH_MAX_DIRS];
	unsigned ndirs;
	unsigned only_mask;  /* bit per module id; 0 = not given */
	unsigned skip_mask;
	const char *profile; /* NULL = "default" */
	enum out_format format;
	const char *output;  /* JSON report file */
	bool quiet;
	bool no_color;

	/* rand: overrides of the profile's values */
	struct opt_u64 rw;          /* enum rand_rw */
	struct opt_u64 rwmixread;   /* percent */
	struct opt_u64 bs;          /* bytes */
	struct opt_u64 iodepth;
	struct opt_u64 jobs;
	struct opt_u64 size;        /* bytes */
	struct opt_u64 runtime_ns;
	struct opt_u64 ramp_ns;
	struct opt_u64 rate_iops;
	struct opt_u64 seed;
	struct opt_u64 engine;      /* enum rand_engine_kind */
	bool zero_buffers;
	bool verify;

	/* seq */
	struct opt_u64 seq_runs;
	struct opt_u64 seq_size;
	struct opt_u64 seq_bs;
	bool seq_direct;
	bool zero_fill;

	/* fsync */
	struct opt_u64 fsync_time_ns;
	struct opt_u64 fsync_size;
	struct opt_u64 fsync_bs;

	/* storage profile (modules/cache) */
	struct opt_u64 storage_max_time_ns;
	struct opt_u64 storage_point_time_ns;
	struct opt_u64 storage_write_size;
	struct opt_u64 storage_repeats;        /* measurements per cliff size */
	struct opt_u64 storage_warm;           /* index into cache_warm_names */
	struct opt_u64 storage_write_time_ns;  /* each write test's time (drains credit buckets) */
	struct opt_u64 storage_recover_idle_ns; /* idle before the rewrite probe; 0 = none */
	const char *storage_sizes;
	const char *storage_report; /* --storage-report FILE: a storage report to check rand against */

	/* cpu */
	struct opt_u64 cpu_time_ns;
	struct opt_u64 cpu_max_prime;
	struct opt_u64 cpu_threads;
	/* mem */
	struct opt_u64 mem_size;    /* bytes per array */
	struct opt_u64 mem_threads;
	struct opt_u64 mem_tests;   /* bit per enum mem_test; not set = all */
	bool mem_strict;            /* STREAM's rule: 4x the sysfs LLC, best of 10, no huge pages */

	/* grading */
	const char *thresholds;   /* JSON tiers file */
	const char *require;      /* "metric>=N,..." */
	bool dump_thresholds;
	bool show_help;           /* --help: options_parse returned -1, print options_help */

	/* placement among published results (grade/place.c parses the strings) */
	const char *place_kind, *place_vcpus, *place_years, *place_min_n;
	bool place_per_machine, place_include_cached;

	/* upload (libcurl); nothing is sent without --upload */
	struct opt_list upload;          /* URLs */
	struct opt_list upload_header;   /* "Name: value", never echoed */
	bool allow_http;
	const char *cacert;
	struct opt_u64 connect_timeout_ns; /* default 10 s */
	struct opt_u64 upload_timeout_ns;  /* default 30 s */
	bool include_host;               /* hostname/IPs in the report */
	struct opt_u64 upload_format;    /* enum upload_format; default json */

	struct bench_labels labels;      /* --label: the node's identity, nothing else */

	const char *html;                /* self-contained HTML report file */
	const char *prom_file;           /* Prometheus text file (textfile collector) */

	/* net (opt-in): nothing is sent without --net */
	bool net;
	struct opt_list net_server;      /* "host[:ports][,name,location]" */
	bool net_4, net_6;               /* family; neither = each the host has */
	struct opt_u64 net_streams;      /* default 8 */
	struct opt_u64 net_time_ns;      /* per direction, default 10 s */
	struct opt_u64 net_max_time_ns;  /* whole module, default 600 s */
	struct opt_list net_url;         /* HTTP download tests */
	struct opt_u64 net_conns;        /* parallel HTTP connections, default 4 */
	bool net_quick;                  /* 3 of the built-in servers (yabs -r) */
	const char *net_region;          /* built-in servers of this region only */
};

/*
 * Parses argv into opts. Returns 0 to go on, 1 after a usage error (one
 * line already printed to stderr), -1 when --help/--version was handled.
 */
int options_parse(int argc, char **argv, struct bench_opts *opts);

/* Prints the full --help text. */
/* --help text; the --require metrics and their meanings come from grade/. */
void options_help(FILE *f, const char *const *metric_names, const char *const *metric_descs);

/* True when module id is selected by --only/--skip. */
bool options_module_selected(const struct bench_opts *opts, int id);

#endif
