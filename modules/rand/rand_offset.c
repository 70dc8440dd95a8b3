/*
 * rand_offset.c — seeding of the per-job streams.
 */
#include "rand_offset.h"

uint64_t rand_stream_seed(uint64_t seed, unsigned job, unsigned stream)
{
	/* fio: randseed multiplied by 0x9e370001 four times, then seed * thread_number + i */
	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	return seed * (uint64_t)(job + 1) + stream;
}

void rand_offgen_init(struct rand_offgen *g, uint64_t seed, unsigned job,
		      uint64_t base_block, uint64_t nblocks, uint32_t bs, unsigned rwmixread)
{
	databuf_seed(&g->blk, rand_stream_seed(seed, job, RAND_STREAM_BLOCK));
	databuf_seed(&g->mix, rand_stream_seed(seed, job, RAND_STREAM_MIX));
	g->base_block = base_block;
	g->nblocks = nblocks ? nblocks : 1;
	g->bs = bs;
	/* percent of 2^32; 100 -> 2^32, so every 32-bit draw is below it */
	g->read_thresh = ((uint64_t)(rwmixread > 100 ? 100 : rwmixread) << 32) / 100;
}
