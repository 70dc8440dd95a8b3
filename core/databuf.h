/*
 * databuf.h — incompressible test data, fast enough not to be the
 * bottleneck (xoshiro256** fills 8 bytes per step).
 */
#ifndef VPSBENCH_DATABUF_H
#define VPSBENCH_DATABUF_H

#include <stddef.h>
#include <stdint.h>

struct databuf_rng {
	uint64_t s[4];
};

void databuf_seed(struct databuf_rng *r, uint64_t seed);
uint64_t databuf_next(struct databuf_rng *r);

/* Fills len bytes (any length) with random data. */
void databuf_fill(struct databuf_rng *r, void *buf, size_t len);

/* Measures the generator: GB/s (decimal) over about 'bytes' of output. */
double databuf_measure_gbps(size_t bytes);

#endif
