/*
 * rand_offset.h — per-job PRNG streams (seeded like fio: seed scrambled,
 * times the 1-based job number, plus a stream index), uniform
 * block-aligned offsets with replacement (fio's norandommap) and the
 * rwmixread Bernoulli draw from its own stream.
 */
#ifndef VPSBENCH_RAND_OFFSET_H
#define VPSBENCH_RAND_OFFSET_H

#include <stdbool.h>
#include <stdint.h>

#include "core/databuf.h"

/* fio's stream indexes: FIO_RAND_MIX_OFF and FIO_RAND_BLOCK_OFF. */
#define RAND_STREAM_MIX   4
#define RAND_STREAM_BLOCK 6
#define RAND_STREAM_DATA  7

struct rand_offgen {
	struct databuf_rng blk, mix;
	uint64_t base_block;  /* first block of the job's region */
	uint64_t nblocks;     /* blocks in the region, >= 1 */
	uint32_t bs;
	uint64_t read_thresh; /* read when the top 32 bits of a draw are below this */
};

/* Seed of stream 'stream' of job 'job' (0-based). */
uint64_t rand_stream_seed(uint64_t seed, unsigned job, unsigned stream);

void rand_offgen_init(struct rand_offgen *g, uint64_t seed, unsigned job,
		      uint64_t base_block, uint64_t nblocks, uint32_t bs, unsigned rwmixread);

/* Block number (absolute, in the file) of the next I/O. */
static inline uint64_t rand_next_block(struct rand_offgen *g)
{
	uint64_t r = databuf_next(&g->blk);

	return g->base_block + (uint64_t)(((unsigned __int128)g->nblocks * r) >> 64);
}

static inline uint64_t rand_next_offset(struct rand_offgen *g)
{
	return rand_next_block(g) * g->bs;
}

/* True: the next I/O is a read. */
static inline bool rand_next_is_read(struct rand_offgen *g)
{
	return (databuf_next(&g->mix) >> 32) < g->read_thresh;
}

#endif
