/* test_rand_verify.c — stamps and the read-back check: corrupt, misplaced, lost. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/databuf.h"
#include "modules/rand/rand_verify.h"
#include "th.h"

static unsigned char *block(uint32_t bs, uint64_t off, uint32_t gen, uint64_t seed)
{
	unsigned char *b = malloc(bs);
	struct databuf_rng r;

	if (!b)
		return NULL;
	databuf_seed(&r, seed);
	databuf_fill(&r, b, bs);
	rand_stamp_verify(b, bs, off, gen);
	return b;
}

TH_TEST(rand_verify_good_block)
{
	unsigned char *b = block(4096, 8192, 3, 1);

	TH_CHECK(b != NULL);
	if (!b)
		return;
	TH_EQ_INT(rand_check_block(b, 4096, 8192, 3), RV_OK);
	TH_EQ_INT(rand_check_block(b, 4096, 8192, 0), RV_OK); /* any generation */
	/* the stamp is in every sector: offsets of the sectors, then the generation */
	for (unsigned s = 0; s < 4096; s += 512) {
		uint64_t o;
		uint32_t g;

		memcpy(&o, b + s, 8);
		memcpy(&g, b + s + 8, 4);
		TH_EQ_INT(o, 8192 + s);
		TH_EQ_INT(g, 3);
	}
	free(b);
}

TH_TEST(rand_verify_detects_corrupt)
{
	unsigned char *b = block(4096, 4096, 1, 2);

	TH_CHECK(b != NULL);
	if (!b)
		return;
	b[3000] ^= 0x10; /* one flipped bit in the data of the 6th sector */
	TH_EQ_INT(rand_check_block(b, 4096, 4096, 1), RV_CORRUPT);
	b[3000] ^= 0x10;
	b[512 + 12] ^= 1; /* the checksum field itself */
	TH_EQ_INT(rand_check_block(b, 4096, 4096, 1), RV_CORRUPT);
	free(b);
}

TH_TEST(rand_verify_detects_misplaced)
{
	/* a valid block of offset 12288 read back at 4096: written to the wrong place */
	unsigned char *b = block(4096, 12288, 1, 3);

	TH_CHECK(b != NULL);
	if (!b)
		return;
	TH_EQ_INT(rand_check_block(b, 4096, 4096, 1), RV_MISPLACED);
	TH_EQ_INT(rand_check_block(b, 4096, 12288, 1), RV_OK);
	free(b);
}

TH_TEST(rand_verify_detects_lost_write)
{
	/* generation 4 was written last, the disk still holds generation 3 */
	unsigned char *b = block(8192, 65536, 3, 4);

	TH_CHECK(b != NULL);
	if (!b)
		return;
	TH_EQ_INT(rand_check_block(b, 8192, 65536, 4), RV_LOST);
	TH_EQ_INT(rand_check_block(b, 8192, 65536, 3), RV_OK);
	/* layout data (generation 0) where nothing was written in the pass: fine */
	free(b);
	b = block(8192, 65536, 0, 5);
	TH_CHECK(b != NULL);
	if (!b)
		return;
	TH_EQ_INT(rand_check_block(b, 8192, 65536, 0), RV_OK);
	TH_EQ_INT(rand_check_block(b, 8192, 65536, 1), RV_LOST);
	free(b);
}

TH_TEST(rand_stamp_fast_defeats_dedupe)
{
	/* same buffer content, two offsets: the sectors differ */
	unsigned char a[1024], c[1024];

	memset(a, 0, sizeof(a));
	memset(c, 0, sizeof(c));
	rand_stamp_fast(a, sizeof(a), 0, 1);
	rand_stamp_fast(c, sizeof(c), 1024, 1);
	TH_CHECK(memcmp(a, c, 512) != 0);
	TH_CHECK(memcmp(a, a + 512, 512) != 0); /* sectors of one block differ too */
}
