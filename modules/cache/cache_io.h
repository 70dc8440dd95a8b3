/*
 * cache_io.h — the storage profile's I/O loops (cache_io.c): 4k random
 * I/O at a queue depth through core's engines, sequential O_DIRECT writes,
 * each stopping at a deadline.
 */
#ifndef VPSBENCH_CACHE_IO_H
#define VPSBENCH_CACHE_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lat_hist.h"
#include "core/module.h"

/*
 * 4k random reads (write false) or writes over [0, size) of fd at depth
 * for ns or until stop: ios completed, seconds, latency in h (may be NULL),
 * bytes per second in tl (may be NULL, at most tlmax). 0 or -errno (err).
 */
int cache_rand_io(const struct bench_ctx *ctx, int fd, uint64_t size, unsigned depth, bool write,
		  uint64_t ns, uint64_t *ios, double *secs, struct lat_hist *h, double *tl,
		  unsigned tlmax, unsigned *ntl, char *err, size_t errlen);

#endif
