/*
 * mem_kern.c — the timed loops. STREAM's four kernels as plain loops,
 * each noinline in this file of its own, so none can be fused with
 * another or dropped (the caller times each and checks the arrays after).
 * They are vectorised (gcc's -O2 alone leaves them scalar: tree-vectorize
 * with the dynamic cost model, as -O3 does; SSE2 on x86-64), and the
 * loop-distribution pass is off so `copy` stays a load/store loop and is
 * not turned into a memcpy call (which may use non-temporal stores).
 * Checked with objdump -d build/rel/modules/mem/mem_kern.o: copy is
 * movupd/movups, scale mulpd, add addpd, triad mulpd+addpd, one loop each. The pointer
 * chase is a dependent load chain; the sysbench loops use volatile 8-byte
 * accesses as sysbench's ConcurrencyKit loads and stores do.
 */
#include "mem_kern.h"

#if defined(__clang__) /* the fuzz build: no optimize attribute, timing does not matter there */
#define KERNEL __attribute__((noinline))
#define SB_KERNEL __attribute__((noinline))
#else
#define KERNEL __attribute__((noinline, optimize("tree-vectorize", "vect-cost-model=dynamic", \
						  "no-tree-loop-distribute-patterns")))
/* sysbench 1.0.20's configure.ac builds it with -O2; a plain loop here was
 * bound by loop overhead (measured 0.38x Debian's sysbench read MiB/s), so
 * the one-load-per-word loop is unrolled, as tests/compare/vs-sysbench.sh checks */
#define SB_KERNEL __attribute__((noinline, optimize("unroll-loops")))
#endif

KERNEL void mem_k_copy(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

KERNEL void mem_k_scale(double *restrict b, const double *restrict c, double s, size_t n)
{
	for (size_t j = 0; j < n; j++)
		b[j] = s * c[j];
}

KERNEL void mem_k_add(double *restrict c, const double *restrict a, const double *restrict b,
		      size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j] + b[j];
}

KERNEL void mem_k_triad(double *restrict a, const double *restrict b, const double *restrict c,
			double s, size_t n)
{
	for (size_t j = 0; j < n; j++)
		a[j] = b[j] + s * c[j];
}

const struct mem_kernels mem_kernels_base = {
#if defined(__x86_64__)
	.isa = "sse2", /* x86-64's baseline, what -O2 vectorises to without -m flags */
#else
	.isa = "baseline",
#endif
	.copy = mem_k_copy,
	.scale = mem_k_scale,
	.add = mem_k_add,
	.triad = mem_k_triad,
};

const struct mem_kernels *mem_kernels_pick(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (mem_kernels_avx2.isa && __builtin_cpu_supports("avx2"))
		return &mem_kernels_avx2;
#endif
	return &mem_kernels_base;
}

__attribute__((noinline)) void *mem_k_chase(void *p, uint64_t n)
{
	void **q = p;

	/* unrolled by 8: still one dependent chain, less loop overhead per load */
	while (n >= 8) {
		q = *q; q = *q; q = *q; q = *q;
		q = *q; q = *q; q = *q; q = *q;
		n -= 8;
	}
	while (n--)
		q = *q;
	return q;
}

SB_KERNEL void mem_k_sb_read(const uint64_t *buf, size_t words)
{
	for (const volatile uint64_t *p = buf, *end = buf + words; p < end; p++)
		(void)*p;
}

SB_KERNEL void mem_k_sb_write(uint64_t *buf, size_t words)
{
	/* sysbench 1.0.20 stores the words left to the block's end, not a constant */
	for (volatile uint64_t *p = buf, *end = buf + words; p < end; p++)
		*p = (uint64_t)(end - p);
}
