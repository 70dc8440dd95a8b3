/*
 * mem_priv.h — the mem module's steps, private to modules/mem/.
 */
#ifndef VPSBENCH_MEM_PRIV_H
#define VPSBENCH_MEM_PRIV_H

#include <stddef.h>
#include <stdio.h>

#include "core/module.h"
#include "mem.h"

/*
 * STREAM on arrays[0..2] of n doubles with `threads` threads pinned over
 * cpus; strict = MEM_REPS repetitions, else budgeted (mem_rep_more). Fills
 * the figures, the CPU share and the steal. 0, or -1 + err.
 */
int mem_stream_run(const struct bench_ctx *ctx, double *arrays[3], size_t n, unsigned threads,
		   const int *cpus, unsigned ncpus, bool strict, struct mem_stream *out, char *err,
		   size_t errlen);
/*
 * Best 1-thread Triad MB/s over MEM_GROW_REPS - 1 timed repetitions on n
 * doubles, and the CPU share the thread got meanwhile (-1 unknown). 0, or -1.
 */
int mem_triad_best(const struct bench_ctx *ctx, double *arrays[3], size_t n, double *mbps,
		   double *share);

/*
 * Pointer-chase latency at every size up to max bytes (top > 0: only the
 * top that many); huge = MADV_HUGEPAGE; cpu = the CPU the caller is pinned
 * to (-1: none), for the steal. 0, or -1 + reason.
 */
int mem_chase_curve(const struct bench_ctx *ctx, uint64_t max, bool huge, unsigned top, int cpu,
		    struct mem_curve *out);

/* kB of AnonHugePages backing the mapping that holds p (/proc/self/smaps), -1 unknown. */
long mem_huge_kb(const void *p);

/* sysbench memory 1M seq read and write, `seconds` each, 1 thread on cpu (-1: unpinned). 0, or -1 + err. */
int mem_sysbench_run(const struct bench_ctx *ctx, double seconds, int cpu, struct mem_sysbench *out,
		     char *err, size_t errlen);

#endif
