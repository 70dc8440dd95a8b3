/*
 * rand_verify.h — per-sector stamps that defeat dedupe and let a
 * read-back find corrupt, misplaced and lost writes.
 *
 * Every 512-byte sector of a written block starts with 16 bytes:
 * u64 offset of the sector in the file, u32 generation of the block
 * (its write count, 0 = layout), u32 checksum of the whole sector with
 * the checksum field taken as 0. The fast stamp (no --verify) writes the
 * offset and generation only: the checksum is left stale.
 */
#ifndef VPSBENCH_RAND_VERIFY_H
#define VPSBENCH_RAND_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define RAND_SECTOR 512u

enum rand_vres { RV_OK = 0, RV_CORRUPT, RV_MISPLACED, RV_LOST };

/* Cheap stamp for the hot loop: offset + generation in every sector. */
static inline void rand_stamp_fast(void *buf, uint32_t len, uint64_t off, uint32_t gen)
{
	unsigned char *p = buf;

	for (uint32_t s = 0; s < len; s += RAND_SECTOR) {
		uint64_t o = off + s;

		memcpy(p + s, &o, 8);
		memcpy(p + s + 8, &gen, 4);
	}
}

/* Full stamp with checksums (layout and --verify writes). */
void rand_stamp_verify(void *buf, uint32_t len, uint64_t off, uint32_t gen);

/*
 * Checks one block read from off. expect_gen 0 = any generation (block
 * not written by the pass). Checksum first (corrupt), then offset
 * (misplaced), then generation older than expected (lost).
 */
enum rand_vres rand_check_block(const void *buf, uint32_t len, uint64_t off,
				uint32_t expect_gen);

#endif
