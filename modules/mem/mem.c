/*
 * mem.c — the mem module's run: size the arrays from the LLC (sysfs) and
 * the memory there is, STREAM with 1 and N pinned threads, the latency
 * curves on 4 KiB and huge pages, the sysbench-comparable figure, and the
 * oversell signs seen over the whole module.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/clock.h"
#include "core/options.h"
#include "core/plan.h"
#include "mem_priv.h"

#define MEM_SB_SECONDS 0.5

static unsigned usable_cpu_list(int *cpus, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static void size_arrays(const struct bench_ctx *ctx, struct mem_result *r)
{
	const struct bench_opts *o = ctx->opts;
	const struct mem_host *h = &r->host;

	r->llc_assumed = !h->llc.ok;
	r->llc_used = h->llc.ok ? h->llc.v : MEM_ASSUMED_LLC;
	r->llc_source = h->llc.ok ? h->cache_source : "assumed";
	r->want_bytes = o->mem_size.set ? o->mem_size.v : MEM_LLC_FACTOR * r->llc_used;
	r->budget_bytes = mem_budget(h->avail.ok ? h->avail.v : 0, h->cg_limit.ok ? h->cg_limit.v : 0,
				     h->cg_used.ok ? h->cg_used.v : 0);
	r->array_bytes = mem_array_bytes(r->want_bytes, r->budget_bytes, &r->capped);
	if (r->capped)
		snprintf(r->cap_reason, sizeof(r->cap_reason),
			 "the three arrays may take %" PRIu64 " MiB (%s)", r->budget_bytes >> 20,
			 h->cg_limit.ok && r->budget_bytes < (h->avail.ok ? h->avail.v / 4 : UINT64_MAX) ?
			 "half the memory cgroup's room" : "a quarter of available memory");
	else if (r->array_bytes < MEM_LLC_FACTOR * r->llc_used)
		snprintf(r->cap_reason, sizeof(r->cap_reason), "--mem-size %" PRIu64 " MiB",
			 r->array_bytes >> 20);
	/* STREAM's rule: below 4x LLC the figures include cache, whatever the cause */
	r->capped = r->array_bytes < MEM_LLC_FACTOR * r->llc_used;
}

static void *map_array(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static enum bench_status run_stream(const struct bench_ctx *ctx, struct mem_result *r,
				    struct mod_outcome *out)
{
	double *arr[3] = { NULL, NULL, NULL };
	size_t len = (size_t)r->array_bytes;
	int cpus[CPU_SETSIZE];
	unsigned ncpus = usable_cpu_list(cpus, CPU_SETSIZE);
	char err[256] = "";
	enum bench_status st = BENCH_OK;

	for (int i = 0; i < 3; i++) {
		arr[i] = map_array(len);
		if (!arr[i]) {
			int e = errno;

			for (int k = 0; k < i; k++)
				munmap(arr[k], len);
			return bench_outcome(out, BENCH_SKIP, "cannot allocate 3 x %zu MiB arrays: %s",
					     len >> 20, strerror(e));
		}
	}
	for (int t = 0; t < 2 && st == BENCH_OK; t++) {
		unsigned threads = t == 0 ? 1 : r->threads;
		char what[64];

		if (t == 1 && r->threads < 2)
			break;
		snprintf(what, sizeof(what), "STREAM variant, %u thread%s", threads,
			 threads > 1 ? "s" : "");
		bench_progress(ctx, "mem", what, 0);
		if (mem_stream_run(ctx, arr, len / sizeof(double), threads, cpus, ncpus, &r->st[t],
				   err, sizeof(err)) < 0)
			st = bench_outcome(out, BENCH_FAIL, "%s", err);
		else if (!bench_stopped(ctx) && !r->st[t].validated)
			st = bench_outcome(out, BENCH_FAIL, "STREAM check failed with %u thread(s): the "
					   "arrays do not hold the expected values", threads);
		bench_progress(ctx, "mem", what, 1);
	}
	for (int i = 0; i < 3; i++)
		munmap(arr[i], len);
	return st;
}

/*
 * Pins the calling thread to the first usable CPU, where the 1-thread
 * STREAM run ran: vCPUs of one VPS can differ in speed, and a figure that
 * moves between them from run to run is not one figure. *old gets the mask
 * to restore; false (and nothing changed) when it cannot be read or set.
 */
static bool pin_first_cpu(struct mem_result *r, cpu_set_t *old)
{
	int cpus[CPU_SETSIZE];
	cpu_set_t one;

	r->single_cpu = -1;
	if (usable_cpu_list(cpus, CPU_SETSIZE) == 0 || sched_getaffinity(0, sizeof(*old), old) < 0)
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		return false;
	r->single_cpu = cpus[0];
	return true;
}

static void run_latency(const struct bench_ctx *ctx, struct mem_result *r)
{
	const struct mem_host *h = &r->host;

	for (int k = 0; k < 2 && !bench_stopped(ctx); k++) {
		struct mem_curve *c = &r->lat[k];
		const char *what = k ? "latency, huge pages" : "latency, 4 KiB pages";

		bench_progress(ctx, "mem", what, 0);
		if (mem_chase_curve(ctx, r->array_bytes, k == 1, c) == 0)
			mem_plateaus(c->size, c->ns, c->n, h->l1d.ok ? h->l1d.v : 0, h->l2.ok ? h->l2.v : 0,
				     h->llc.ok ? h->llc.v : 0, r->llc_used, c->level_ns);
		bench_progress(ctx, "mem", what, 1);
	}
}

static enum bench_status mem_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	struct mem_result *r = result;
	struct mem_signs_start s0;
	cpu_set_t old;
	bool pinned;
	enum bench_status st;
	char err[256];
	double t0 = mono_s();

	memset(r, 0, sizeof(*r));
	r->single_cpu = -1;
	r->tests = mem_tests_asked(ctx->opts);
	mem_signs_begin(ctx->root, &s0);
	mem_read_host(ctx->root, &r->host);
	size_arrays(ctx, r);
	r->threads = mem_threads(ctx->root, ctx->cpus_usable,
				 ctx->opts->mem_threads.set ? (unsigned)ctx->opts->mem_threads.v : 0,
				 &r->threads_source);
	if (r->array_bytes < MEM_MIN_SIZE)
		return bench_outcome(out, BENCH_SKIP, "not enough memory for the arrays: %s",
				     r->cap_reason);
	if (r->capped && (r->tests & ((1u << MEM_TEST_STREAM) | (1u << MEM_TEST_LATENCY))))
		bench_warn(ctx, "mem: arrays smaller than 4x LLC (%s): figures include cache",
			   r->cap_reason);

	st = BENCH_OK;
	if (r->tests & (1u << MEM_TEST_STREAM)) {
		st = run_stream(ctx, r, out);
		if (st == BENCH_SKIP)
			return st;
	}
	pinned = pin_first_cpu(r, &old);
	if (r->tests & (1u << MEM_TEST_LATENCY))
		run_latency(ctx, r);
	if ((r->tests & (1u << MEM_TEST_SYSBENCH)) && !bench_stopped(ctx)) {
		bench_progress(ctx, "mem", "sysbench-style 1 MiB blocks", 0);
		if (mem_sysbench_run(ctx, MEM_SB_SECONDS, &r->sb, err, sizeof(err)) < 0)
			bench_warn(ctx, "mem: %s", err);
		bench_progress(ctx, "mem", "sysbench-style 1 MiB blocks", 1);
	}
	if (pinned)
		(void)sched_setaffinity(0, sizeof(old), &old);
	mem_signs_end(ctx->root, &s0, mono_s() - t0, &r->signs);
	for (unsigned i = 0; i < r->signs.nflags; i++)
		bench_warn(ctx, "mem: oversell sign: %s", r->signs.flags[i]);
	if (st != BENCH_OK)
		return st;
	if (bench_stopped(ctx))
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	return bench_outcome(out, BENCH_OK, NULL);
}

const struct bench_module bench_mod_mem = {
	.name = "mem",
	.desc = "memory bandwidth (a STREAM variant), latency, oversell signs",
	.run = mem_run,
};
