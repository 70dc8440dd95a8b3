/*
 * mem_priv.h — the mem module's steps, private to modules/mem/.
 */
#ifndef VPSBENCH_MEM_PRIV_H
#define VPSBENCH_MEM_PRIV_H

#include <stddef.h>
#include <stdio.h>

#include "core/module.h"
#include "mem.h"

/* STREAM on arrays[0..2] of n doubles with `threads` threads pinned over cpus. 0, or -1 + err. */
int mem_stream_run(const struct bench_ctx *ctx, double *arrays[3], size_t n, unsigned threads,
		   const int *cpus, unsigned ncpus, struct mem_stream *out, char *err, size_t errlen);

/* Pointer-chase latency at every size up to max bytes; huge = MADV_HUGEPAGE. 0, or -1 + reason. */
int mem_chase_curve(const struct bench_ctx *ctx, uint64_t max, bool huge, struct mem_curve *out);

/* sysbench memory 1M seq read and write, `seconds` each, 1 thread. 0, or -1 + err. */
int mem_sysbench_run(const struct bench_ctx *ctx, double seconds, struct mem_sysbench *out,
		     char *err, size_t errlen);

#endif
