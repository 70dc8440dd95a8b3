/*
 * databuf.c — xoshiro256** (Blackman & Vigna) seeded through splitmix64.
 */
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "databuf.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void databuf_seed(struct databuf_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t databuf_next(struct databuf_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

void databuf_fill(struct databuf_rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t v;

	while (len >= 8) {
		v = databuf_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		v = databuf_next(r);
		memcpy(p, &v, len);
	}
}

double databuf_measure_gbps(size_t bytes)
{
	enum { CHUNK = 1 << 20 };
	struct databuf_rng r;
	void *buf = malloc(CHUNK);
	size_t done = 0;
	double t0, secs;

	if (!buf)
		return 0.0;
	databuf_seed(&r, 1);
	t0 = mono_s();
	while (done < bytes) {
		databuf_fill(&r, buf, CHUNK);
		done += CHUNK;
	}
	secs = mono_s() - t0;
	/* keep the fill from being optimised away */
	__asm__ volatile("" : : "r"(buf) : "memory");
	free(buf);
	return secs > 0 ? (double)done / secs / 1e9 : 0.0;
}
