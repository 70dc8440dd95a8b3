/*
 * fsync_loop.h — private to the fsync module: the timed write + fdatasync
 * loop, run by a stall worker so a call stuck in the kernel cannot hang
 * the run. Everything the worker touches lives in struct fsync_work (heap):
 * a worker given up on keeps it, it is never freed then.
 */
#ifndef VPSBENCH_FSYNC_LOOP_H
#define VPSBENCH_FSYNC_LOOP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lat_hist.h"
#include "core/stall.h"

struct fsync_work {
	struct stall_worker sw;   /* first: the body casts back; sw.ctx is the worker's */
	int fd;
	uint32_t bs;
	uint64_t size;            /* stop once this many bytes are written */
	uint64_t cap_ns;          /* ... or once this long has passed */
	unsigned char *pool;      /* random data the blocks are cut from */
	size_t nslots;            /* blocks of bs in the pool */
	uint64_t nonce;           /* stamped into every block: no two alike */
	/* results */
	struct lat_hist sync_h, write_h;
	uint64_t writes, syncs;
	uint64_t t0, t1;          /* mono ns: before the first write, after the last sync */
	bool stopped, time_capped;
	int err;                  /* -errno of the failed call, 0 = none */
	bool err_in_sync;         /* the failed call was fdatasync(), else write() */
	uint64_t err_off;         /* file offset of the failed call */
};

/* Allocates a work item with a random pool for bs-byte blocks; NULL with err set. */
struct fsync_work *fsync_work_new(const struct bench_ctx *ctx, uint32_t bs, char *err,
				  size_t errlen);

/* Frees w; only for a worker that returned (stall_run gave 0). */
void fsync_work_free(struct fsync_work *w);

#endif
