/*
 * mem_kern_avx2.c — STREAM's four kernels again, compiled for AVX2
 * (target attribute, so the rest of the binary stays baseline x86-64 and
 * mem_kernels_pick() runs these only where the CPU has AVX2). The same
 * rules as mem_kern.c: one noinline loop each in a file of its own, called
 * through a table, vectorised, loop distribution off so copy is no memcpy
 * call, and no FMA (avx2 alone does not enable it: b + s*c stays a multiply
 * and an add, as in the base set). Checked with objdump -d
 * build/rel/modules/mem/mem_kern_avx2.o: copy is vmovupd ymm load/store,
 * scale vmulpd, add vaddpd, triad vmulpd+vaddpd, one 256-bit loop each.
 */
#include "mem_kern.h"

#if defined(__x86_64__)

#if defined(__clang__) /* the fuzz build: no optimize attribute, timing does not matter there */
#define AVX2_KERNEL __attribute__((noinline, target("avx2")))
#else
#define AVX2_KERNEL __attribute__((noinline, target("avx2"), \
				   optimize("tree-vectorize", "vect-cost-model=dynamic", \
					    "no-tree-loop-distribute-patterns")))
#endif

static AVX2_KERNEL void copy_avx2(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

static AVX2_KERNEL void scale_avx2(double *restrict b, const double *restrict c, double s, size_t n)
{
	for (size_t j = 0; j < n; j++)
		b[j] = s * c[j];
}

static AVX2_KERNEL void add_avx2(double *restrict c, const double *restrict a,
				 const double *restrict b, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j] + b[j];
}

static AVX2_KERNEL void triad_avx2(double *restrict a, const double *restrict b,
				   const double *restrict c, double s, size_t n)
{
	for (size_t j = 0; j < n; j++)
		a[j] = b[j] + s * c[j];
}

const struct mem_kernels mem_kernels_avx2 = {
	.isa = "avx2",
	.copy = copy_avx2,
	.scale = scale_avx2,
	.add = add_avx2,
	.triad = triad_avx2,
};

#else

const struct mem_kernels mem_kernels_avx2 = { .isa = NULL };

#endif
