/*
 * cache.h — results of the storage profile (--profile storage): the
 * cache cliff (4k random reads over growing working sets) and burst then
 * sustained writes (sequential 1 MiB O_DIRECT, 4k random), one --dir (the
 * first). Filled by cache.c, read by grade/ and the renderers.
 */
#ifndef VPSBENCH_CACHE_H
#define VPSBENCH_CACHE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/module.h"

#define CACHE_MAX_SIZES 16
/* 1 s samples of a write test: 2 h (--storage-write-time's maximum), 57 KB each */
#define CACHE_TL_MAX 7200
/* Sub-second samples of a write test's start: 100 x 100 ms */
#define CACHE_SUB_MAX 100
/* Repeats of each cliff size (--storage-repeats): the knee reads their medians. */
#define CACHE_MAX_REPEATS 9

/* One run of cache_io.c's loop: what it did and on what. */
struct cache_io_stat {
	uint64_t ios;                /* I/Os completed */
	double secs;                 /* their measured window */
	double cpu_s;                /* this thread's CPU seconds in it; NAN unknown */
	char engine[16];             /* io_uring, libaio, psync: the one that ran */
	unsigned depth;              /* the depth it ran at (psync: 1 whatever was asked) */
};

/* One repeat of one cliff size: qd32 IOPS, then qd1 latency. */
struct cache_rep {
	struct cache_io_stat q32, q1;
	double iops32;               /* q32.ios / q32.secs */
	uint64_t p50_1_ns, p99_1_ns; /* qd1 latency percentiles (fio's rule) */
};

/* One working-set size of the cliff, measured nrep times (interleaved with the other sizes). */
struct cache_point {
	uint64_t size;               /* bytes of the file read at random */
	enum bench_status status;    /* OK, SKIP (reason: no room, or the cap never reached it), INCOMPLETE, FAIL */
	char reason[160];
	unsigned nrep;
	struct cache_rep rep[CACHE_MAX_REPEATS];
	/* over the repeats: the median and the range (min, max); 0 = not measured */
	double iops32, iops32_lo, iops32_hi;
	double p50_1_ns, p50_1_lo_ns, p50_1_hi_ns;
	double p99_1_ns;             /* median of the repeats' p99 */
	double cpu_share;            /* largest qd32 CPU share (cpu_s / secs) of the repeats; NAN unknown */
	bool cpu_bound;              /* the loop, not the disk, may have set the pace */
};

/* What showed the knee: qd32 IOPS, qd1 p50 latency, or both. */
enum cache_knee_by { CACHE_KNEE_NONE, CACHE_KNEE_IOPS, CACHE_KNEE_LAT, CACHE_KNEE_BOTH };

/* The idle-then-rewrite probe after a drop (--storage-recover-idle). */
struct cache_recovery {
	bool run;                    /* probed: the fields below hold */
	double idle_s;               /* idle before the rewrite */
	double secs;                 /* the rewrite window */
	uint64_t bytes;              /* written in it */
	double bps;                  /* bytes / secs */
	double share_of_burst;       /* bps / the burst rate */
	char why[96];                /* not run: why (null_reasons) */
};

/* One write test: a per-second timeline, sub-second samples of its start, and its levels. */
struct cache_burst {
	enum bench_status status;    /* NOT_RUN, OK, SKIP, INCOMPLETE */
	char reason[160];
	char kind[16];               /* "seq-1m", "rand-4k" */
	uint32_t bs;
	unsigned depth;
	uint64_t bytes;              /* all bytes written */
	double secs;                 /* the real elapsed time (may be under 1 s) */
	uint64_t region;             /* rand: the bytes written over (past the knee when there is one) */
	char region_why[128];        /* how that region was chosen */
	struct cache_io_stat io;     /* engine, depth and CPU of the run */
	unsigned n;                  /* 1 s samples */
	double tl[CACHE_TL_MAX];     /* bytes written in second i */
	unsigned nsub;               /* sub-second samples of the start */
	double sub_dt;               /* their length, s */
	double sub[CACHE_SUB_MAX];   /* bytes written in each */
	bool size_capped;            /* stopped at the size cap */
	bool found;                  /* a drop to a floor that lasts */
	unsigned change_s;           /* the last change: the floor's first second */
	uint64_t change_bytes;       /* bytes written before it */
	double burst_bps, sustained_bps; /* the burst level; the floor (no drop: both the mean) */
	double burst_bytes;          /* written until the burst level ended */
	bool recovered;              /* the tail climbed back to the burst level */
	struct cache_recovery rec;
	char suggestion[224];        /* no drop: the write time a credit bucket needs; "" none */
};

struct cache_result {
	char dir[PATH_MAX];
	uint64_t max_time_ns;        /* --storage-max-time */
	uint64_t planned_ns;         /* what the plan expected, shown before it starts */
	bool time_capped;            /* the cap ended it: partial, marked incomplete */
	double elapsed_s;
	uint64_t free_bytes;         /* free space seen at the start */
	unsigned npoints;
	struct cache_point points[CACHE_MAX_SIZES];
	int knee;                    /* index of the last cache-served point, -1 none */
	enum cache_knee_by knee_by;  /* which figure showed it */
	unsigned repeats;            /* measurements per size asked for */
	char warm[8];                /* warm pass before the reads: "seq", "random" */
	char engine[16];             /* the engine of the cliff's runs */
	unsigned depth;              /* the depth qd32 ran at (psync: 1) */
	char engine_why[128];        /* psync though not asked: why io_uring and libaio were not used */
	uint64_t measured_up_to;     /* largest size measured (no knee: "up to") */
	struct cache_burst seq, rnd;
	char fio_equivalent[400];    /* the fio command the qd32 figure equals (cache_fio.c); "" unknown */
};

extern const struct bench_module bench_mod_cache;

#endif
