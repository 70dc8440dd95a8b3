/* test_rand_offset.c — offsets (alignment, range, repeatability, per-job streams) and rwmix. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "modules/rand/rand_offset.h"
#include "th.h"

TH_TEST(rand_offsets_aligned_and_in_range)
{
	static const struct { uint64_t base, nblocks; uint32_t bs; } cases[] = {
		{ 0, 65536, 4096 }, { 0, 1, 4096 }, { 100, 7, 512 }, { 0, 3, 1 << 20 },
		{ 1000, 1ULL << 40, 4096 }, /* more than 2^32 blocks: no 32-bit truncation */
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct rand_offgen g;
		uint64_t lo = UINT64_MAX, hi = 0;
		int bad = 0;

		rand_offgen_init(&g, 0x89, 0, cases[c].base, cases[c].nblocks, cases[c].bs, 100);
		for (int i = 0; i < 20000; i++) {
			uint64_t off = rand_next_offset(&g), b = off / cases[c].bs;

			if (off % cases[c].bs || b < cases[c].base || b >= cases[c].base + cases[c].nblocks)
				bad++;
			lo = b < lo ? b : lo;
			hi = b > hi ? b : hi;
		}
		TH_EQ_INT(bad, 0);
		if (cases[c].nblocks == 1)
			TH_EQ_INT(lo, cases[c].base);
		if (cases[c].nblocks >= 65536) {
			/* uniform: both ends of the range are reached within a few percent */
			TH_CHECK(lo - cases[c].base < cases[c].nblocks / 50);
			TH_CHECK(cases[c].base + cases[c].nblocks - 1 - hi < cases[c].nblocks / 50);
		}
	}
}

TH_TEST(rand_offsets_uniform_buckets)
{
	struct rand_offgen g;
	unsigned hist[16] = { 0 };
	const int n = 160000;

	rand_offgen_init(&g, 1234, 0, 0, 1600, 4096, 100);
	for (int i = 0; i < n; i++)
		hist[rand_next_block(&g) / 100]++;
	for (int i = 0; i < 16; i++)
		TH_NEAR(hist[i], n / 16, n / 16 * 0.05); /* 10000 expected, sd ~97 */
}

TH_TEST(rand_offsets_repeatable_and_per_job)
{
	struct rand_offgen a, b, c, d;
	int same_ab = 0, same_ac = 0, same_ad = 0;

	rand_offgen_init(&a, 0x89, 0, 0, 1ULL << 20, 4096, 75);
	rand_offgen_init(&b, 0x89, 0, 0, 1ULL << 20, 4096, 75);
	rand_offgen_init(&c, 0x89, 1, 0, 1ULL << 20, 4096, 75);
	rand_offgen_init(&d, 0x8a, 0, 0, 1ULL << 20, 4096, 75);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rand_next_offset(&a);

		same_ab += x == rand_next_offset(&b);
		same_ac += x == rand_next_offset(&c);
		same_ad += x == rand_next_offset(&d);
	}
	TH_EQ_INT(same_ab, 1000);   /* same seed, same job: same sequence */
	TH_CHECK(same_ac < 5);      /* another job: another stream */
	TH_CHECK(same_ad < 5);      /* another seed */
	TH_CHECK(rand_stream_seed(0x89, 0, RAND_STREAM_BLOCK) !=
		 rand_stream_seed(0x89, 0, RAND_STREAM_MIX));
	TH_CHECK(rand_stream_seed(0x89, 0, RAND_STREAM_BLOCK) !=
		 rand_stream_seed(0x89, 1, RAND_STREAM_BLOCK));
}

TH_TEST(rand_rwmix_ratio)
{
	static const unsigned mixes[] = { 0, 25, 50, 75, 100 };

	for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
		struct rand_offgen g;
		unsigned reads = 0;
		const unsigned n = 100000;

		rand_offgen_init(&g, 0x89, 3, 0, 1024, 4096, mixes[m]);
		for (unsigned i = 0; i < n; i++)
			reads += rand_next_is_read(&g);
		/* Bernoulli: sd = sqrt(p(1-p)/n) <= 0.0016, allow 0.01 */
		TH_NEAR((double)reads / n, mixes[m] / 100.0, 0.01);
		if (mixes[m] == 0)
			TH_EQ_INT(reads, 0);
		if (mixes[m] == 100)
			TH_EQ_INT(reads, n);
	}
}

TH_TEST(rand_rwmix_independent_of_offsets)
{
	/* the mix has its own stream: offsets do not change with rwmixread */
	struct rand_offgen a, b;
	int same = 0;

	rand_offgen_init(&a, 7, 0, 0, 1 << 16, 4096, 75);
	rand_offgen_init(&b, 7, 0, 0, 1 << 16, 4096, 50);
	for (int i = 0; i < 500; i++) {
		(void)rand_next_is_read(&a);
		same += rand_next_offset(&a) == rand_next_offset(&b);
	}
	TH_EQ_INT(same, 500);
}
