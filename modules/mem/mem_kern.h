/*
 * mem_kern.h — the timed loops of the mem module (mem_kern.c), private.
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

/* Follows the ring from p for n dependent loads; returns where it stopped. */
void *mem_k_chase(void *p, uint64_t n);

/* sysbench memory's seq events: one pass of 8-byte volatile loads / stores over a block. */
void mem_k_sb_read(const uint64_t *buf, size_t words);
void mem_k_sb_write(uint64_t *buf, size_t words);

#endif
