/*
 * mem_point.c — one DRAM latency point for `vpsbench watch`: the chase of
 * mem_chase.c (Sattolo's single cycle over the cache lines, one pointer
 * per 64-byte line, the median of timed chunks) at one size past the
 * cache, on huge pages, mapped for the measurement and unmapped after.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/clock.h"
#include "mem.h"
#include "mem_kern.h"
#include "mem_priv.h"

#define LINE 64
#define HUGE_ALIGN (2ULL << 20)
#define POINT_CHUNK (1ULL << 13)  /* loads per timed chunk, as the curve's */
#define POINT_CHUNKS 32
#define POINT_WARM (1ULL << 18)

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int mem_dram_point(const char *root, const volatile int *stop, double *ns, enum mbool *huge_used,
		   char *err, size_t errlen)
{
	struct mem_host h;
	uint64_t size, seed = 0x9e3779b97f4a7c15ULL;
	size_t maplen, nl;
	char *map, *buf;
	uint32_t *idx = NULL;
	double chunk_ns[POINT_CHUNKS];
	void *volatile sink;
	void *p;
	unsigned k = 0;
	long kb;
	int rc = -1;

	mem_read_host(root, &h);
	size = h.llc.ok ? 4 * h.llc.v : MEM_POINT_MIN;
	size = size < MEM_POINT_MIN ? MEM_POINT_MIN : size > MEM_POINT_MAX ? MEM_POINT_MAX : size;
	maplen = (size_t)size + HUGE_ALIGN;
	nl = (size_t)(size / LINE);
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "mmap %zu MiB: %s", maplen >> 20, strerror(errno));
		return -1;
	}
	buf = (char *)(((uintptr_t)map + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	/* no THP in this kernel: the point is measured on 4 KiB pages (huge_used says so) */
	(void)madvise(buf, (size_t)size, MADV_HUGEPAGE);
	/* mapped, not malloc'd: each round's 4-16 MiB goes back at once (no allocator cache) */
	idx = mmap(NULL, nl * sizeof(*idx), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (idx == MAP_FAILED) {
		idx = NULL;
		snprintf(err, errlen, "index of %zu lines: mmap: %s", nl, strerror(errno));
		goto out;
	}
	memset(buf, 0, (size_t)size);
	kb = mem_huge_kb(buf);
	*huge_used = kb < 0 ? MB_UNKNOWN : mbool_of(kb > 0);
	for (size_t i = 0; i < nl; i++)
		idx[i] = (uint32_t)i;
	/* stop checked every 64Ki lines: on a loaded VM the shuffle's cache misses take seconds */
	for (size_t i = nl - 1; i > 0 && ((i & 0xffff) || !(stop && *stop)); i--) {
		size_t j = (size_t)(xorshift(&seed) % i);
		uint32_t t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
	for (size_t i = 0; i < nl && ((i & 0xffff) || !(stop && *stop)); i++)
		*(void **)(buf + i * LINE) = buf + (size_t)idx[i] * LINE;
	if (stop && *stop) {
		snprintf(err, errlen, "interrupted");
		goto out;
	}
	p = mem_k_chase(buf, POINT_WARM);
	while (k < POINT_CHUNKS && !(stop && *stop)) {
		uint64_t t0 = mono_ns(), t1;

		p = mem_k_chase(p, POINT_CHUNK);
		t1 = mono_ns();
		chunk_ns[k++] = (double)(t1 - t0) / (double)POINT_CHUNK;
	}
	sink = p;
	(void)sink;
	if (k < 3) {
		snprintf(err, errlen, "interrupted");
		goto out;
	}
	*ns = mem_median(chunk_ns, k);
	rc = 0;
out:
	if (idx)
		munmap(idx, nl * sizeof(*idx));
	munmap(map, maplen);
	return rc;
}
