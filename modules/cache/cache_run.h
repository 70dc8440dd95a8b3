/*
 * cache_run.h — what the storage profile's parts share while it runs
 * (cache.c calls cache_cliff.c, then cache_write.c). Module-internal.
 */
#ifndef VPSBENCH_CACHE_RUN_H
#define VPSBENCH_CACHE_RUN_H

#include <stdint.h>

#include "core/lat_hist.h"
#include "core/module.h"
#include "core/plan.h"
#include "core/testfile.h"
#include "cache.h"
#include "cache_io.h"

#define CACHE_MiB (1ULL << 20)
#define CACHE_CHUNK CACHE_MiB

struct cache_run {
	const struct bench_ctx *ctx;
	const struct cache_spec *sp;
	const char *dir;
	struct testfile tf;          /* the cliff's file (unlinked early), fd -1 when none */
	void *buf;                   /* CACHE_CHUNK, 4096-aligned */
	struct lat_hist *h;
	int64_t avail;               /* free bytes at the start */
	uint64_t have;               /* bytes of tf laid out */
	uint64_t t0, deadline;       /* the whole part's start and cap */
	uint64_t cliff_end;          /* the cliff's share of the cap */
	uint64_t write_ns;           /* each write test's share */
	double remove_ns_per_byte;   /* closing the cliff's unlinked file (its extents freed), per byte; 0 unknown */
};

/* Bytes a test may use out of avail free ones: 10% (at least 64 MiB) kept. */
uint64_t cache_fit(int64_t avail);

/* Sequential 1 MiB O_DIRECT writes (extend, random data) or reads (warm) of [from, to). 0, 1 (deadline/stop), -1 (err). */
int cache_seq_io(struct cache_run *cr, uint64_t from, uint64_t to, bool write, uint64_t deadline,
		 char *err, size_t errlen);

/* The cliff: fills r->points, r->knee (cache_cliff.c). */
void cache_cliff(struct cache_run *cr, struct cache_result *r);

/* Random 4k writes over the cliff's file, then sequential 1 MiB writes into a fresh one (cache_write.c). */
void cache_write_rand(struct cache_run *cr, struct cache_result *r);
void cache_write_seq(struct cache_run *cr, struct cache_result *r);

#endif
