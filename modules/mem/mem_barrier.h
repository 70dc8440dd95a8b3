/*
 * mem_barrier.h — the barrier between STREAM's timed kernels. Threads spin
 * on it (a bounded number of pause loops, then sched_yield) instead of
 * sleeping in a futex as pthread_barrier_wait does: on a VM, waking a vCPU
 * that went idle costs tens of microseconds to milliseconds, and thread 0's
 * clock runs until every thread is through, so a sleeping barrier adds that
 * wake-up to the kernel's time. OpenMP's runtime (STREAM) and likwid-bench
 * spin at their barriers too.
 */
#ifndef VPSBENCH_MEM_BARRIER_H
#define VPSBENCH_MEM_BARRIER_H

#include <stdatomic.h>

#define MEM_BARRIER_SPINS 200000u  /* pause loops before yielding: about 1-10 ms (pause is 10-140 cycles) */

struct mem_barrier {
	atomic_uint arrived;   /* threads in this round so far */
	atomic_uint round;     /* bumped by the last to arrive: releases the others */
	unsigned threads;
	unsigned spins;        /* 0 = yield at once (more threads than CPUs) */
};

void mem_barrier_init(struct mem_barrier *b, unsigned threads, unsigned spins);

/* Returns once all `threads` threads have called it for this round. */
void mem_barrier_wait(struct mem_barrier *b);

#endif
