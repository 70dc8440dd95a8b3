/*
 * mem_stream.c — bandwidth based on a variant of the STREAM benchmark:
 * Copy, Scale, Add and Triad over three arrays of doubles, MEM_MIN_REPS to
 * MEM_REPS times (mem_rep_more), on T threads pinned one per usable CPU.
 * Each thread owns a static slice (first-touched by it when the caller
 * handed in unfaulted arrays); thread 0 times each kernel from one barrier
 * to the next, as OpenMP's parallel for does in stream.c. After the run
 * the arrays are checked against STREAM's expected values, so a kernel the
 * compiler dropped or fused would show as a failed check. Each thread's
 * CPU time over the timed reps against threads x their wall time is the
 * run's CPU share; the steal is that of the CPUs the threads ran on.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/live.h"
#include "core/proc_stat.h"
#include "core/uncert.h"
#include "mem_barrier.h"
#include "mem_kern.h"
#include "mem_priv.h"

struct stream_shared {
	double *a, *b, *c;
	size_t n;
	unsigned threads;
	bool strict;                   /* MEM_REPS always, else budgeted by time */
	const int *cpus;
	unsigned ncpus;
	struct mem_barrier bar;        /* spins: a futex wake-up would be timed (mem_barrier.h) */
	pthread_mutex_t mu;            /* the start gate: no thread runs until all exist */
	pthread_cond_t cv;
	int gate;                      /* 0 wait, 1 go, -1 give up */
	atomic_int stop;
	const struct bench_ctx *ctx;
	const struct mem_kernels *k;   /* AVX2 or the base loops, picked once for all threads */
	double t[MEM_REPS][MEM_NKERNELS];
	unsigned reps_done;
};

struct stream_thread {
	struct stream_shared *sh;
	unsigned id;
	pthread_t tid;
	double cpu_s;                  /* this thread's CPU time from the first rep's barrier to its end */
	double wall_s;                 /* the wall time around that window: cpu_s never exceeds it */
};

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pin(const struct stream_shared *sh, unsigned id)
{
	cpu_set_t set;

	if (!sh->ncpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(sh->cpus[id % sh->ncpus], &set);
	/* best effort: an unpinned thread still measures, only less evenly */
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *stream_worker(void *arg)
{
	struct stream_thread *th = arg;
	struct stream_shared *sh = th->sh;
	size_t per = (sh->n / sh->threads) & ~(size_t)7;
	size_t lo = per * th->id, hi = th->id + 1 == sh->threads ? sh->n : lo + per;
	double *a = sh->a + lo, *b = sh->b + lo, *c = sh->c + lo;
	size_t m = hi - lo;
	const double s = MEM_STREAM_SCALAR;
	struct live_slot *slot = live_slot(sh->ctx, th->id);
	double c0, c1;
	uint64_t w0, wc0;

	if (th->id) {
		int g;

		pthread_mutex_lock(&sh->mu);
		while ((g = sh->gate) == 0)
			pthread_cond_wait(&sh->cv, &sh->mu);
		pthread_mutex_unlock(&sh->mu);
		if (g < 0)
			return NULL;
	}
	pin(sh, th->id);
	/* first touch by the thread that will use the slice; STREAM's start values */
	for (size_t j = 0; j < m; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = 0.0;
	}
	for (size_t j = 0; j < m; j++)
		a[j] = 2.0 * a[j];
	mem_barrier_wait(&sh->bar);
	/* each thread's own window, the wall read outside its CPU reads: a descheduled
	 * thread 0 must not make the other thread's CPU exceed the wall it is shared by */
	wc0 = mono_ns();
	c0 = thread_cpu_s();
	w0 = mono_ns();
	for (unsigned r = 0; r < MEM_REPS; r++) {
		uint64_t t0 = 0;

		if (th->id == 0)
			atomic_store(&sh->stop, bench_stopped(sh->ctx) ||
				     !mem_rep_more(r, mono_ns() - w0, sh->strict));
		mem_barrier_wait(&sh->bar);
		if (atomic_load(&sh->stop))
			break;
		for (int k = 0; k < MEM_NKERNELS; k++) {
			if (th->id == 0)
				t0 = mono_ns();
			switch (k) {
			case MEM_COPY:  sh->k->copy(c, a, m); break;
			case MEM_SCALE: sh->k->scale(b, c, s, m); break;
			case MEM_ADD:   sh->k->add(c, a, b, m); break;
			default:        sh->k->triad(a, b, c, s, m); break;
			}
			mem_barrier_wait(&sh->bar);
			if (th->id == 0)
				sh->t[r][k] = (double)(mono_ns() - t0) / 1e9;
		}
		if (th->id == 0)
			sh->reps_done = r + 1;
		live_publish(slot, 0, r + 1, (uint64_t)(r + 1) * 10 * sizeof(double) * m);
	}
	c1 = thread_cpu_s();
	th->wall_s = (double)(mono_ns() - wc0) / 1e9;
	th->cpu_s = c0 >= 0 && c1 >= c0 ? c1 - c0 : -1;
	return NULL;
}

/* STREAM's checkSTREAMresults: the scalar recurrence, then a sample of every array. */
static bool stream_check(const struct stream_shared *sh, unsigned reps)
{
	double aj = 2.0, bj = 2.0, cj = 0.0, s = MEM_STREAM_SCALAR;
	size_t step = sh->n / 4096 ? sh->n / 4096 : 1;

	for (unsigned r = 0; r < reps; r++) {
		cj = aj;
		bj = s * cj;
		cj = aj + bj;
		aj = bj + s * cj;
	}
	for (size_t j = 0; j < sh->n; j += step) {
		if (fabs(sh->a[j] - aj) > 1e-13 * fabs(aj) || fabs(sh->b[j] - bj) > 1e-13 * fabs(bj) ||
		    fabs(sh->c[j] - cj) > 1e-13 * fabs(cj))
			return false;
	}
	return sh->a[sh->n - 1] == sh->a[0] && sh->c[sh->n - 1] == sh->c[0];
}

int mem_stream_run(const struct bench_ctx *ctx, double *arrays[3], size_t n, unsigned threads,
		   const int *cpus, unsigned ncpus, bool strict, double quota_cpus,
		   struct mem_stream *out, char *err, size_t errlen)
{
	struct stream_shared *sh = calloc(1, sizeof(*sh));
	struct stream_thread *th = calloc(threads, sizeof(*th));
	struct proc_stat *ps = calloc(2, sizeof(*ps));
	unsigned started = 0, nrun = threads < ncpus ? threads : ncpus;
	double cpu_s = 0, wall_s = 0;
	bool cpu_ok = true;
	int rc = -1, e = 0;

	memset(out, 0, sizeof(*out));
	if (!sh || !th || !ps) {
		snprintf(err, errlen, "STREAM: out of memory");
		goto out;
	}
	sh->a = arrays[0];
	sh->b = arrays[1];
	sh->c = arrays[2];
	sh->n = n;
	sh->threads = threads;
	sh->strict = strict;
	sh->cpus = cpus;
	sh->ncpus = ncpus;
	sh->ctx = ctx;
	sh->k = mem_kernels_pick();
	/* spin only while every thread has a CPU of its own */
	mem_barrier_init(&sh->bar, threads, ncpus && threads <= ncpus ? MEM_BARRIER_SPINS : 0);
	pthread_mutex_init(&sh->mu, NULL);
	pthread_cond_init(&sh->cv, NULL);
	proc_stat_read(ctx->root, &ps[0]);
	for (started = 1; started < threads; started++) { /* this thread is worker 0 */
		th[started].sh = sh;
		th[started].id = started;
		if ((e = pthread_create(&th[started].tid, NULL, stream_worker, &th[started])) != 0)
			break;
	}
	th[0].sh = sh;
	pthread_mutex_lock(&sh->mu);
	sh->gate = started == threads ? 1 : -1;
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
	if (started < threads) {
		for (unsigned i = 1; i < started; i++)
			pthread_join(th[i].tid, NULL);
		snprintf(err, errlen, "STREAM: pthread_create: %s", strerror(e));
		goto out;
	}
	{
		cpu_set_t old;
		bool have_old = pthread_getaffinity_np(pthread_self(), sizeof(old), &old) == 0;

		stream_worker(&th[0]);
		if (have_old)
			(void)pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	}
	for (unsigned i = 1; i < threads; i++)
		pthread_join(th[i].tid, NULL);
	proc_stat_read(ctx->root, &ps[1]);
	pthread_cond_destroy(&sh->cv);
	pthread_mutex_destroy(&sh->mu);
	for (unsigned i = 0; i < threads; i++) {
		cpu_ok &= th[i].cpu_s >= 0;
		cpu_s += th[i].cpu_s;
		wall_s += th[i].wall_s / threads;
	}
	if (cpu_ok)
		pass_cpu_set_share_q(&out->cpu, cpu_s, threads, quota_cpus, wall_s);
	out->cpu.steal_pct = proc_stat_steal_pct(proc_stat_diff(&ps[0], &ps[1], cpus, nrun));

	out->present = true;
	out->threads = threads;
	out->isa = sh->k->isa;
	out->reps = sh->reps_done;
	out->validated = sh->reps_done > 0 && stream_check(sh, sh->reps_done);
	for (int k = 0; k < MEM_NKERNELS; k++) {
		double col[MEM_REPS], rate[MEM_REPS], mn, avg, mx;

		out->mbps_u[k] = NAN;
		for (unsigned r = 0; r < sh->reps_done; r++)
			col[r] = sh->t[r][k];
		if (!mem_best_of(col, sh->reps_done, &mn, &avg, &mx))
			continue;
		/* the counted reps (the first is a warm-up, as in mem_best_of) as rates */
		for (unsigned r = 1; r < sh->reps_done; r++)
			rate[r - 1] = col[r] > 0 ? mem_mbps(mem_kernel_words[k], n, col[r]) : 0;
		out->mbps_u[k] = uncert_half_range(rate, sh->reps_done - 1);
		out->min_s[k] = mdbl_of(mn);
		out->avg_s[k] = mdbl_of(avg);
		out->max_s[k] = mdbl_of(mx);
		out->mbps[k] = mdbl_of(mem_mbps(mem_kernel_words[k], n, mn));
	}
	rc = 0;
out:
	free(ps);
	free(th);
	free(sh);
	return rc;
}

int mem_triad_best(const struct bench_ctx *ctx, double *arrays[3], size_t n, double *mbps,
		   double *share)
{
	const struct mem_kernels *k = mem_kernels_pick();
	double best = 0, c0 = thread_cpu_s(), c1;
	uint64_t w0 = mono_ns();

	/* the first repetition faults the pages in and is not counted, as in STREAM */
	for (unsigned r = 0; r < MEM_GROW_REPS && !bench_stopped(ctx); r++) {
		uint64_t t0 = mono_ns(), t1;

		k->triad(arrays[0], arrays[1], arrays[2], MEM_STREAM_SCALAR, n);
		t1 = mono_ns();
		if (r > 0 && t1 > t0 && (best == 0 || (double)(t1 - t0) < best))
			best = (double)(t1 - t0);
	}
	if (!(best > 0))
		return -1;
	*mbps = mem_mbps(mem_kernel_words[MEM_TRIAD], n, best / 1e9);
	c1 = thread_cpu_s();
	*share = c0 >= 0 && c1 >= c0 && mono_ns() > w0 ? (c1 - c0) / ((double)(mono_ns() - w0) / 1e9) : -1;
	return 0;
}
