/*
 * plan.h — what a run will do: the profile's passes with the command
 * line's overrides applied, validated before anything touches a disk.
 */
#ifndef VPSBENCH_PLAN_H
#define VPSBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define RAND_MAX_PASSES 8

enum rand_rw { RW_RANDREAD = 0, RW_RANDWRITE, RW_RANDRW };
enum rand_engine_kind { ENGINE_AUTO = 0, ENGINE_URING, ENGINE_LIBAIO, ENGINE_PSYNC };

extern const char *const rand_rw_names[];     /* "randread", ... NULL */
extern const char *const rand_engine_names[]; /* "auto", "io_uring", "libaio", "psync", NULL */

/* The mem module's parts, for --mem-tests (bit 1 << MEM_TEST_*). */
enum mem_test { MEM_TEST_STREAM = 0, MEM_TEST_LATENCY, MEM_TEST_SYSBENCH, MEM_NTESTS };
#define MEM_TESTS_ALL ((1u << MEM_NTESTS) - 1)
extern const char *const mem_test_names[];    /* "stream", "latency", "sysbench", NULL */

/* The mem parts to run: --mem-tests, else all of them. */
unsigned mem_tests_asked(const struct bench_opts *o);

struct rand_pass_spec {
	char name[32];
	enum rand_rw rw;
	unsigned rwmixread;    /* percent of reads for randrw */
	uint32_t bs;           /* bytes */
	unsigned iodepth;
	unsigned jobs;         /* 0 = usable CPUs */
	uint64_t size;         /* test file size, bytes */
	uint64_t runtime_ns;
	uint64_t ramp_ns;
	uint64_t rate_iops;    /* 0 = no cap; total over all jobs */
	uint64_t rate_iops_write; /* 0 = no cap on writes; total over all jobs */
	uint64_t seed;
};

struct seq_spec {
	unsigned runs;
	uint64_t size;         /* bytes per run */
	uint32_t bs;
	bool direct;           /* oflag=direct semantics */
	bool zero;             /* dd's /dev/zero data */
};

/* cpu: the prime passes' time and size, N (0 = effective CPUs) */
struct cpu_spec {
	uint64_t time_ns;      /* per prime pass; each crypto pass runs 8% of it */
	unsigned max_prime;
	unsigned threads;      /* 0 = affinity mask and cgroup quota decide */
};

/* fsync: etcd's recipe, whole (--profile etcd) or a time-capped sample */
struct fsync_spec {
	bool full;             /* the whole size, under a generous time cap */
	uint32_t bs;           /* bytes per write, default 2300 */
	uint64_t size;         /* stop after this many bytes (22 MiB) */
	uint64_t time_ns;      /* ... or after this long (sample 3 s, full 120 s) */
};

/* --profile storage: the cache cliff and the burst/sustained writes (modules/cache) */
#define CACHE_SPEC_MAX 16
enum cache_warm { CACHE_WARM_SEQ, CACHE_WARM_RANDOM, CACHE_WARM_BOTH };
extern const char *const cache_warm_names[]; /* "seq", "random", "both", NULL */
struct cache_spec {
	bool on;               /* --profile storage only: never in the default */
	uint64_t max_ns;       /* --storage-max-time: the whole part (default 5 min) */
	uint64_t point_ns;     /* measured time of each qd at each size (default 3 s) */
	uint64_t write_size;   /* cap on each write test's bytes; 0 = free space */
	unsigned repeats;      /* --storage-repeats: measurements per cliff size (default 3) */
	enum cache_warm warm;  /* --storage-warm (default both) */
	uint64_t write_ns;     /* --storage-write-time: each write test; 0 = its share of max_ns */
	uint64_t recover_idle_ns; /* --storage-recover-idle: 0 = no rewrite probe */
#define CACHE_RECOVER_REWRITE_NS (10ULL * 1000000000ULL) /* the probe's rewrite after its idle */
	uint64_t sizes[CACHE_SPEC_MAX];
	unsigned nsizes;
};

/*
 * The storage part's time: the cliff's share (60% of --storage-max-time),
 * and the whole part: the cap, or with --storage-write-time the cliff's
 * share + 2 x the write time; + --storage-recover-idle. The plan shown
 * before the run, the ETA and the part's deadline all read these.
 */
uint64_t plan_storage_cliff_ns(const struct cache_spec *c);
uint64_t plan_storage_ns(const struct cache_spec *c);

struct bench_plan {
	char profile[64];
	char profile_desc[160];
	struct seq_spec seq;
	struct cpu_spec cpu;
	struct fsync_spec fsync;
	struct cache_spec storage;
	struct rand_pass_spec rand[RAND_MAX_PASSES];
	unsigned nrand;
	enum rand_engine_kind engine;
	bool zero_buffers;
	bool verify;
	char note[320];        /* what --format changed in the plan, for stderr; "" = nothing */
};

/* The pass measures what yabs.sh's fio command does (randrw 50/50, qd64,
 * 2 jobs, one of its block sizes): its figures may go in yabs's fio[]. */
bool plan_pass_is_yabs(const struct rand_pass_spec *p);

/*
 * Builds the plan from --profile (built-in name or file) and the command
 * line's overrides. On error returns -1 with one line in err (naming the
 * option or key and the accepted form).
 */
int plan_build(const struct bench_opts *opts, struct bench_plan *plan,
	       char *err, size_t errlen);

/* NULL-terminated list of built-in profile names, for --help. */
extern const char *const plan_profile_names[];

#endif
