/*
 * mem_barrier.c — a counting barrier with a round number (sense
 * reversal): the last thread to arrive resets the count, then bumps the
 * round that the others spin on. Why it spins: mem_barrier.h.
 */
#include <sched.h>

#include "mem_barrier.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

void mem_barrier_init(struct mem_barrier *b, unsigned threads, unsigned spins)
{
	atomic_init(&b->arrived, 0);
	atomic_init(&b->round, 0);
	b->threads = threads;
	b->spins = spins;
}

void mem_barrier_wait(struct mem_barrier *b)
{
	unsigned round = atomic_load_explicit(&b->round, memory_order_acquire);

	if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 == b->threads) {
		/* the reset is ordered before the release, so no thread of the next round sees a stale count */
		atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&b->round, 1, memory_order_release);
		return;
	}
	for (unsigned n = 0; atomic_load_explicit(&b->round, memory_order_acquire) == round; n++) {
		if (n < b->spins)
			cpu_relax();
		else
			sched_yield(); /* a thread sharing this CPU may be the one still working */
	}
}
