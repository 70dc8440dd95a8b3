/*
 * mem_chase.c — load-to-use latency: a dependent-load pointer chase over a
 * random cyclic permutation of the cache lines of a buffer (Sattolo's
 * algorithm: one cycle through every line), one pointer per 64-byte line,
 * so each load waits for the one before and hardware prefetch cannot
 * guess the next line. Sizes go from 16 KiB up to the largest allowed
 * (or only its top few: 4 KiB pages, to show the page-walk cost); ns per
 * access = the median over timed chunks of elapsed / loads. The graded
 * point (the first plateau past the cache, mem_plateau_point) is chased
 * MEM_LAT_ROUNDS times, each on a fresh ring: the rounds give its figure
 * (their mean) and its uncertainty. Run on
 * transparent huge pages (MADV_HUGEPAGE) where the kernel has them, and on
 * 4 KiB pages (MADV_NOHUGEPAGE). The calling thread's CPU time over the
 * curve against its wall time is the curve's CPU share.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/clock.h"
#include "core/proc_stat.h"
#include "mem_kern.h"
#include "mem_priv.h"

#define LINE 64
#define HUGE_ALIGN (2ULL << 20)
/*
 * Each size is timed in chunks of CHASE_CHUNK loads and its figure is the
 * median chunk: a chunk that another task's time slice or an interrupt
 * landed in (tens of ms on a busy 2-CPU VPS, wall time) is an outlier, not
 * an average's share. 8192 loads take ~8 us from L1 (a clock read is
 * ~0.3% of that) and ~2.5 ms from DRAM with 4 KiB pages (a slice is 3+ ms).
 */
#define CHASE_CHUNK (1ULL << 13)   /* loads per timed chunk */
#define CHASE_MIN_CHUNKS 15        /* timed chunks per size at least ... */
#define CHASE_MAX_CHUNKS 128       /* ... and at most (1M loads) */
#define CHASE_NS (20ULL * 1000000) /* more than the least only while under 20 ms */
#define CHASE_WARM (1ULL << 16)    /* untimed loads first (a whole cycle when smaller): 4 MiB of
                                    * lines, past the L2 and the TLBs; the ring build has just
                                    * written every line, so the LLC holds ring lines already */

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

long mem_huge_kb(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	bool in = false;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		/* a mapping's header "lo-hi perms ..."; field lines ("Size:") do not scan */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Links the first nl lines of buf into one random cycle; idx is scratch of nl entries. */
static void build_ring(char *buf, uint32_t *idx, size_t nl, uint64_t *seed)
{
	for (size_t i = 0; i < nl; i++)
		idx[i] = (uint32_t)i;
	for (size_t i = nl - 1; i > 0; i--) { /* Sattolo: j < i gives a single cycle */
		size_t j = (size_t)(xorshift(seed) % i);
		uint32_t t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
	for (size_t i = 0; i < nl; i++)
		*(void **)(buf + (size_t)i * LINE) = buf + (size_t)idx[i] * LINE;
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ns per load at one size: a fresh ring over nl lines, warmed, the median of timed chunks. */
static double chase_point(char *buf, uint32_t *idx, size_t nl, uint64_t *seed)
{
	uint64_t warm = nl < CHASE_WARM ? nl : CHASE_WARM, start, t0, t1;
	double chunk_ns[CHASE_MAX_CHUNKS];
	unsigned k = 0;
	void *p;
	static void *volatile sink __attribute__((unused));

	build_ring(buf, idx, nl, seed);
	p = mem_k_chase(buf, warm);
	start = t1 = mono_ns();
	while (k < CHASE_MAX_CHUNKS && (k < CHASE_MIN_CHUNKS || t1 - start < CHASE_NS)) {
		t0 = t1;
		p = mem_k_chase(p, CHASE_CHUNK);
		t1 = mono_ns();
		chunk_ns[k++] = (double)(t1 - t0) / (double)CHASE_CHUNK;
	}
	sink = p;
	return mem_median(chunk_ns, k);
}

int mem_chase_curve(const struct bench_ctx *ctx, const struct mem_chase_req *req,
		    struct mem_curve *out)
{
	uint64_t max = 0;
	size_t maplen;
	char *map, *buf;
	uint32_t *idx = NULL;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	struct proc_stat *ps = calloc(2, sizeof(*ps));
	double c0 = thread_cpu_s(), c1, w0 = mono_s();
	int cpu = req->cpu;
	long kb;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->huge = req->huge;
	out->page_walk = req->sizes != NULL;
	out->graded = MEM_MAX_SIZES;
	out->graded_u = NAN;
	if (!ps) {
		snprintf(out->reason, sizeof(out->reason), "out of memory");
		return -1;
	}
	proc_stat_read(ctx->root, &ps[0]);
	if (req->sizes) {
		out->n = req->nsizes < MEM_MAX_SIZES ? req->nsizes : MEM_MAX_SIZES;
		memcpy(out->size, req->sizes, out->n * sizeof(out->size[0]));
	} else {
		out->n = mem_lat_sizes(req->max, out->size, MEM_MAX_SIZES);
	}
	for (unsigned i = 0; i < out->n; i++)
		if (out->size[i] > max)
			max = out->size[i];
	if (!out->n || max < MEM_LAT_MIN) {
		snprintf(out->reason, sizeof(out->reason), "buffer below 16 KiB");
		out->n = 0;
		free(ps);
		return -1;
	}
	maplen = (size_t)max + HUGE_ALIGN;
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		snprintf(out->reason, sizeof(out->reason), "mmap %zu MiB: %s", maplen >> 20,
			 strerror(errno));
		out->n = 0;
		free(ps);
		return -1;
	}
	buf = (char *)(((uintptr_t)map + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	if (madvise(buf, (size_t)max, req->huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) < 0 && req->huge) {
		snprintf(out->reason, sizeof(out->reason), "madvise(MADV_HUGEPAGE): %s",
			 strerror(errno));
		out->n = 0;
		goto out;
	}
	idx = malloc((size_t)(max / LINE) * sizeof(*idx));
	if (!idx) {
		snprintf(out->reason, sizeof(out->reason), "index of %" PRIu64 " lines: out of memory",
			 max / LINE);
		out->n = 0;
		goto out;
	}
	memset(buf, 0, (size_t)max); /* fault every page in before timing */
	kb = mem_huge_kb(buf);
	out->huge_used = kb < 0 ? MB_UNKNOWN : mbool_of(kb > 0);
	if (req->huge && out->huge_used == MB_FALSE)
		snprintf(out->reason, sizeof(out->reason),
			 "MADV_HUGEPAGE accepted but no huge pages backed the buffer");

	for (unsigned i = 0; i < out->n; i++) {
		if (bench_stopped(ctx)) {
			out->n = i;
			break;
		}
		out->ns[i] = chase_point(buf, idx, (size_t)(out->size[i] / LINE), &seed);
	}
	out->present = out->n > 0;
	/* the graded point: its own repeat rounds, each a fresh ring (another random layout) */
	if (out->present && req->pick)
		out->graded = req->pick(out, req->arg);
	if (out->graded < out->n && !bench_stopped(ctx)) {
		size_t nl = (size_t)(out->size[out->graded] / LINE);

		out->round_ns[out->rounds++] = out->ns[out->graded];
		while (out->rounds < MEM_LAT_ROUNDS && !bench_stopped(ctx))
			out->round_ns[out->rounds++] = chase_point(buf, idx, nl, &seed);
		mem_graded_fill(out);
	}
	c1 = thread_cpu_s();
	if (c0 >= 0 && c1 >= c0)
		pass_cpu_set_share_q(&out->cpu, c1 - c0, 1, req->quota_cpus, mono_s() - w0);
	proc_stat_read(ctx->root, &ps[1]);
	out->cpu.steal_pct = proc_stat_steal_pct(proc_stat_diff(&ps[0], &ps[1], &cpu, cpu >= 0));
	rc = 0;
out:
	free(ps);
	free(idx);
	munmap(map, maplen);
	return rc;
}
