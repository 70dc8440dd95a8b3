/*
 * cpu_pool.c — the timed thread pass behind every CPU figure: threads
 * pinned one per CPU of the affinity mask, a start line, a stop flag
 * checked before each unit (as sysbench checks before each event, so a
 * pass overshoots its time by less than one unit), and the wall clock
 * from the release to the last join.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/affinity.h"
#include "core/clock.h"
#include "core/proc_stat.h"
#include "cpu_pool.h"

struct pool;

struct worker {
	pthread_t tid;
	struct pool *p;
	int cpu;              /* pinned to this CPU, -1 = not pinned */
	bool pinned;
	uint64_t count;
	_Atomic uint64_t live; /* count so far, published after each unit */
	double cpu_s;         /* CPU time the thread got while running units */
	int rc;
	char err[160];
};

struct pool {
	const struct cpu_work *work;
	atomic_uint ready;
	atomic_int go;        /* 1 = run, -1 = abandon */
	atomic_int stop;
	/*
	 * Workers also stop themselves at this time (read under mu after go): a
	 * controller that cannot get a CPU (every CPU running a worker under
	 * chrt -f) would otherwise never set stop. One vDSO clock read per unit.
	 */
	double deadline;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	void *state = NULL;
	uint64_t count = 0;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		w->pinned = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
	}
	if (p->work->init)
		w->rc = p->work->init(&state, p->work->arg, w->err, sizeof(w->err));
	pthread_mutex_lock(&p->mu);
	atomic_fetch_add(&p->ready, 1);
	pthread_cond_broadcast(&p->cv);
	while (atomic_load(&p->go) == 0)
		pthread_cond_wait(&p->cv, &p->mu);
	double deadline = p->deadline;
	pthread_mutex_unlock(&p->mu);
	if (w->rc == 0 && atomic_load(&p->go) > 0) {
		double c0 = thread_cpu_s();

		while (!atomic_load_explicit(&p->stop, memory_order_relaxed) && mono_s() < deadline) {
			if (p->work->unit(state, p->work->arg, &count, w->err, sizeof(w->err)) < 0) {
				w->rc = -1;
				break;
			}
			atomic_store_explicit(&w->live, count, memory_order_relaxed);
		}
		w->cpu_s = thread_cpu_s() - c0;
	}
	w->count = count;
	if (p->work->fini)
		p->work->fini(state);
	return NULL;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int cpu_pool_run(const struct bench_ctx *ctx, unsigned n, double seconds,
		 const struct cpu_work *work, struct cpu_pass_out *out, double *tl, unsigned *ntl)
{
	static int cpus[CPU_SETSIZE];
	struct pool p = { .work = work };
	struct worker *w;
	unsigned ncpu, started = 0, nrun;
	struct proc_stat *ps = calloc(3, sizeof(*ps)); /* start, previous sample, now */
	double t0, t1, next, sub_next, sub_t;
	uint64_t sub_c = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	w = calloc(n, sizeof(*w));
	if (!w || !ps) {
		free(w);
		free(ps);
		snprintf(out->err, sizeof(out->err), "cannot allocate %u workers: %s", n,
			 strerror(ENOMEM));
		return -1;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	ncpu = affinity_cpu_list(cpus, CPU_SETSIZE);
	/* the CPUs the pass runs on: its pinned ones, else the whole mask */
	nrun = n <= ncpu ? n : ncpu;
	for (unsigned i = 0; i < n; i++) {
		int e;

		w[i].p = &p;
		/* one thread per CPU; more threads than CPUs: the scheduler places them */
		w[i].cpu = n <= ncpu ? cpus[i] : -1;
		e = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		if (e != 0) {
			snprintf(out->err, sizeof(out->err), "pthread_create (thread %u of %u): %s",
				 i + 1, n, strerror(e));
			rc = -1;
			break;
		}
		started++;
	}
	pthread_mutex_lock(&p.mu);
	while (atomic_load(&p.ready) < started)
		pthread_cond_wait(&p.cv, &p.mu);
	t0 = mono_s();
	p.deadline = t0 + seconds;
	atomic_store(&p.go, rc == 0 ? 1 : -1);
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);

	proc_stat_read(ctx->root, &ps[0]);
	if (rc == 0) {
		ps[1] = ps[0];
		next = t0 + 1.0;
		sub_t = t0;
		sub_next = t0 + CPU_SUB_S;
		for (;;) {
			double now = mono_s(), wake = next < t0 + seconds ? next : t0 + seconds;

			if (wake > sub_next)
				wake = sub_next;
			if (now >= t0 + seconds || bench_stopped(ctx))
				break;
			sleep_s(wake - now > 0.1 ? 0.1 : wake - now);
			if ((now = mono_s()) >= sub_next && now < t0 + seconds) {
				uint64_t c = 0;

				for (unsigned i = 0; i < started; i++)
					c += atomic_load_explicit(&w[i].live, memory_order_relaxed);
				if (out->nsub < CPU_MAX_SUBS && now > sub_t)
					out->sub_rate[out->nsub++] = (double)(c - sub_c) / (now - sub_t);
				sub_c = c;
				sub_t = now;
				sub_next = now + CPU_SUB_S;
			}
			if (tl && ntl && mono_s() >= next) {
				struct mdbl s;

				proc_stat_read(ctx->root, &ps[2]);
				s = proc_stat_steal_pct(proc_stat_diff(&ps[1], &ps[2], cpus, nrun));
				if (*ntl < CPU_TL_MAX && s.ok)
					tl[(*ntl)++] = s.v;
				ps[1] = ps[2];
				next += 1.0;
			}
		}
		out->complete = !bench_stopped(ctx);
	}
	atomic_store(&p.stop, 1);
	out->pinned = started > 0;
	for (unsigned i = 0; i < started; i++) {
		pthread_join(w[i].tid, NULL);
		out->count += w[i].count;
		out->cpu_seconds += w[i].cpu_s;
		out->pinned &= w[i].pinned;
		out->idle += w[i].count == 0;
		if (w[i].rc != 0 && !out->err[0])
			snprintf(out->err, sizeof(out->err), "%s", w[i].err[0] ? w[i].err : "thread failed");
	}
	t1 = mono_s();
	out->seconds = t1 - t0;
	proc_stat_read(ctx->root, &ps[2]);
	out->steal_pct = proc_stat_steal_pct(proc_stat_diff(&ps[0], &ps[2], cpus, nrun));
	if (out->err[0])
		rc = -1;
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	free(w);
	free(ps);
	return rc;
}
