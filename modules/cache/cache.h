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
#define CACHE_TL_MAX 3600

/* One working-set size of the cliff. */
struct cache_point {
	uint64_t size;               /* bytes of the file read at random */
	enum bench_status status;    /* OK, SKIP (reason), INCOMPLETE (time cap) */
	char reason[160];
	uint64_t ios32;              /* 4k reads completed at qd32 */
	double secs32;               /* their measured window */
	double iops32;               /* ios32 / secs32; 0 = not measured */
	uint64_t ios1;               /* 4k reads at qd1 */
	double secs1;
	uint64_t p50_1_ns, p99_1_ns; /* qd1 latency percentiles (fio's rule) */
};

/* One write test: a per-second timeline and its change point. */
struct cache_burst {
	enum bench_status status;    /* NOT_RUN, OK, SKIP, INCOMPLETE */
	char reason[160];
	char kind[16];               /* "seq-1m", "rand-4k" */
	uint32_t bs;
	unsigned depth;
	uint64_t bytes;              /* written in the timeline's whole seconds */
	double secs;                 /* whole seconds in the timeline */
	unsigned n;                  /* samples */
	double tl[CACHE_TL_MAX];     /* bytes written in second i */
	bool size_capped;            /* stopped at the size cap */
	bool found;                  /* a drop that stays down */
	unsigned change_s;           /* the first sustained second */
	double burst_bps, sustained_bps;
	double burst_bytes;          /* written at the burst rate */
	bool recovered;
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
	uint64_t measured_up_to;     /* largest size measured (no knee: "up to") */
	struct cache_burst seq, rnd;
};

extern const struct bench_module bench_mod_cache;

#endif
