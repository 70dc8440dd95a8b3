/*
 * mem_kern.h — the timed loops of the mem module (mem_kern.c,
 * mem_kern_avx2.c), private.
 * Each is a separate noinline function in its own translation unit, so
 * the compiler can neither fuse two STREAM kernels nor drop one whose
 * result the next overwrites; copy is kept a loop (no memcpy call).
 */
#ifndef VPSBENCH_MEM_KERN_H
#define VPSBENCH_MEM_KERN_H

#include <stddef.h>
#include <stdint.h>

void mem_k_copy(double *restrict c, const double *restrict a, size_t n);
void mem_k_scale(double *restrict b, const double *restrict c, double s, size_t n);
void mem_k_add(double *restrict c, const double *restrict a, const double *restrict b, size_t n);
void mem_k_triad(double *restrict a, const double *restrict b, const double *restrict c,
		 double s, size_t n);

/*
 * One set of STREAM kernels and the instruction set of its loops. The
 * base set (mem_kern.c) is what the build targets: SSE2 on x86-64. The
 * AVX2 set (mem_kern_avx2.c, x86-64 only) moves 32 bytes an instruction,
 * as likwid-bench's best STREAM kernels (stream_avx, copy_avx) do. On the
 * 2-vCPU AMD EPYC development VPS, under load, one thread's Triad with it
 * over SSE2 measured 0.97 to 1.10 (medians of A/B pairs): within noise.
 */
struct mem_kernels {
	const char *isa;                   /* "avx2", "sse2", "baseline"; NULL = not built */
	void (*copy)(double *restrict c, const double *restrict a, size_t n);
	void (*scale)(double *restrict b, const double *restrict c, double s, size_t n);
	void (*add)(double *restrict c, const double *restrict a, const double *restrict b, size_t n);
	void (*triad)(double *restrict a, const double *restrict b, const double *restrict c,
		      double s, size_t n);
};

extern const struct mem_kernels mem_kernels_base;
extern const struct mem_kernels mem_kernels_avx2;

/*
 * The AVX2 set where the CPU and OS support AVX2 (__builtin_cpu_supports,
 * decided at run time: the static binary uses musl, which has no ifunc for
 * target_clones), else the base set.
 */
const struct mem_kernels *mem_kernels_pick(void);

/* Follows the ring from p for n dependent loads; returns where it stopped. */
void *mem_k_chase(void *p, uint64_t n);

/* sysbench memory's seq events: one pass of 8-byte volatile loads / stores over a block. */
void mem_k_sb_read(const uint64_t *buf, size_t words);
void mem_k_sb_write(uint64_t *buf, size_t words);

#endif
