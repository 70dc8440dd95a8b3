/*
 * cpu_pool.h — a timed pass on N threads, each pinned to its own CPU of
 * the affinity mask: every thread sets up, waits at the start line, then
 * repeats its unit of work until the stop flag, counting what it did.
 * The clock runs from the release of the threads to the last join.
 */
#ifndef VPSBENCH_CPU_POOL_H
#define VPSBENCH_CPU_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/module.h"
#include "cpu.h"

struct cpu_work {
	/* per thread: set up state (NULL ok), 0 or -errno; err names the failure */
	int (*init)(void **state, const void *arg, char *err, size_t errlen);
	/* one unit of work: adds what it did to *count; 0 or -1 (err set) */
	int (*unit)(void *state, const void *arg, uint64_t *count, char *err, size_t errlen);
	void (*fini)(void *state);
	const void *arg;
};

/* the pass's count is read every this many seconds: two CFS periods of the default
 * 100 ms, so under a cgroup quota each sub-interval holds the same runtime */
#define CPU_SUB_S 0.2
#define CPU_MAX_SUBS 64     /* sub-interval rates kept (16 s of a pass) */

struct cpu_pass_out {
	uint64_t count;      /* sum over the threads */
	/* count / s over each whole sub-interval of CPU_SUB_S (the last, partial one left
	 * out): the repetitions the figure's uncertainty is told from */
	double sub_rate[CPU_MAX_SUBS];
	unsigned nsub;
	double seconds;
	double cpu_seconds;  /* CPU time the threads got over the pass */
	struct mdbl steal_pct; /* steal of the pass's CPUs (core/proc_stat.h); null = unknown */
	bool pinned;
	bool complete;       /* ran its whole time (not stopped by a signal) */
	unsigned idle;       /* threads that finished no unit of work in the window */
	char err[160];       /* non-empty: a thread failed (figure unusable) */
};

/*
 * Runs work on n threads for seconds (or until bench_stopped(ctx)).
 * When tl is given, appends a steal % sample of the pass's CPUs per whole second (max
 * CPU_TL_MAX in total, *ntl counts them). Returns 0, or -1 when threads
 * could not be started (out->err says why).
 */
int cpu_pool_run(const struct bench_ctx *ctx, unsigned n, double seconds,
		 const struct cpu_work *work, struct cpu_pass_out *out, double *tl, unsigned *ntl);

#endif
