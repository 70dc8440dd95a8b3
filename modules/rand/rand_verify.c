/*
 * rand_verify.c — sector checksums and the block check.
 */
#include "rand_verify.h"

/* 64-bit multiply-xorshift over 8-byte words: cheap, and any flipped bit changes it. */
static uint32_t sector_sum(const unsigned char *s)
{
	uint64_t h = 0x6a09e667f3bcc908ULL, w;

	for (unsigned i = 0; i < RAND_SECTOR; i += 8) {
		memcpy(&w, s + i, 8);
		if (i == 8)
			w &= 0xffffffffULL; /* the checksum field counts as 0 */
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return (uint32_t)(h ^ (h >> 32));
}

void rand_stamp_verify(void *buf, uint32_t len, uint64_t off, uint32_t gen)
{
	unsigned char *p = buf;
	uint32_t sum;

	rand_stamp_fast(buf, len, off, gen);
	for (uint32_t s = 0; s < len; s += RAND_SECTOR) {
		sum = sector_sum(p + s);
		memcpy(p + s + 12, &sum, 4);
	}
}

enum rand_vres rand_check_block(const void *buf, uint32_t len, uint64_t off,
				uint32_t expect_gen)
{
	const unsigned char *p = buf;
	enum rand_vres worst = RV_OK;
	uint64_t o;
	uint32_t gen, sum;

	for (uint32_t s = 0; s < len; s += RAND_SECTOR) {
		memcpy(&o, p + s, 8);
		memcpy(&gen, p + s + 8, 4);
		memcpy(&sum, p + s + 12, 4);
		if (sum != sector_sum(p + s))
			return RV_CORRUPT;
		if (o != off + s)
			worst = RV_MISPLACED;
		else if (worst == RV_OK && expect_gen && gen != expect_gen)
			worst = RV_LOST;
	}
	return worst;
}
