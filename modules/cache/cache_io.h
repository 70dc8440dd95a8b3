/*
 * cache_io.h — the storage profile's I/O loop (cache_io.c): 4k random
 * I/O at a queue depth through core's engines, stopping at a deadline.
 */
#ifndef VPSBENCH_CACHE_IO_H
#define VPSBENCH_CACHE_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lat_hist.h"
#include "core/module.h"
#include "cache.h"

/* One run's timeline: bytes per second (1 s samples), NULL for none; sub: bytes per sub_ns of the start (NULL none). */
struct cache_io_tl {
	double *v;
	unsigned max, n;
	double *sub;
	unsigned submax, nsub;
	uint64_t sub_ns;
};

/*
 * 4k random reads (write false) or writes over [0, size) of fd at depth
 * for ns or until stop. st gets ios, seconds, the engine that ran and
 * its depth (psync runs at 1), and this thread's CPU time; latency in h
 * (may be NULL), bytes per second in tl (may be NULL). 0 or -errno (err).
 */
int cache_rand_io(const struct bench_ctx *ctx, int fd, uint64_t size, unsigned depth, bool write,
		  uint64_t ns, struct cache_io_stat *st, struct lat_hist *h, struct cache_io_tl *tl,
		  char *err, size_t errlen);

#endif
