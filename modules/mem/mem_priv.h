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
 * the figures, the CPU share (against min(threads, quota_cpus); <= 0 no
 * quota) and the steal. 0, or -1 + err.
 */
int mem_stream_run(const struct bench_ctx *ctx, double *arrays[3], size_t n, unsigned threads,
		   const int *cpus, unsigned ncpus, bool strict, double quota_cpus,
		   struct mem_stream *out, char *err, size_t errlen);
/*
 * Best 1-thread Triad MB/s over MEM_GROW_REPS - 1 timed repetitions on n
 * doubles, and the CPU share the thread got meanwhile (-1 unknown). 0, or -1.
 */
int mem_triad_best(const struct bench_ctx *ctx, double *arrays[3], size_t n, double *mbps,
		   double *share);

/* What mem_chase_curve measures. */
struct mem_chase_req {
	uint64_t max;                 /* the grid's top (sizes NULL) */
	const uint64_t *sizes;        /* these sizes instead of the grid (page_walk: 4 KiB points) */
	unsigned nsizes;
	bool huge;                    /* MADV_HUGEPAGE, else MADV_NOHUGEPAGE */
	int cpu;                      /* the CPU the caller is pinned to (-1: none), for the steal */
	double quota_cpus;            /* cgroup CPU quota (<= 0 none): the share is against it */
	/* after the curve: the index of the point to grade (>= n: none), chased again
	 * MEM_LAT_ROUNDS - 1 times; NULL: no graded point */
	unsigned (*pick)(struct mem_curve *c, void *arg);
	void *arg;
};

/* Pointer-chase latency at the sizes req asks for, and the graded point's rounds. 0, or -1 + reason. */
int mem_chase_curve(const struct bench_ctx *ctx, const struct mem_chase_req *req,
		    struct mem_curve *out);

/* kB of AnonHugePages backing the mapping that holds p (/proc/self/smaps), -1 unknown. */
long mem_huge_kb(const void *p);

/* sysbench memory 1M seq read and write, `seconds` each, 1 thread on cpu (-1: unpinned). 0, or -1 + err. */
int mem_sysbench_run(const struct bench_ctx *ctx, double seconds, int cpu, double quota_cpus,
		     struct mem_sysbench *out, char *err, size_t errlen);

#endif
