/*
 * mem.c — the mem module's run: the latency curve on huge pages first (its
 * knee names the cache levels when sysfs disagrees, and sizes the arrays),
 * 4 KiB pages at its top sizes, then STREAM with 1 and N pinned threads on
 * arrays past the cache (checked: Triad at S and 2S agree), the
 * sysbench-comparable figure, and the oversell signs over the whole module.
 * --mem-strict sizes by STREAM's rule instead (4x the sysfs LLC, best of
 * 10, no huge-page advice) and runs both latency curves in full.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/affinity.h"
#include "core/cgroup_limits.h"
#include "core/clock.h"
#include "core/options.h"
#include "core/plan.h"
#include "mem_priv.h"

#define MEM_SB_SECONDS 0.3 /* each of read and write: a cache-resident rate settles in far less */

/* A progress step with its planned time (mem.h), so the ETA holds during the module. */
static void step(const struct bench_ctx *ctx, const char *what, uint64_t ns, int phase)
{
	struct bench_step st = { .module = "mem", .what = what,
				 .ns = ns * (ctx->opts->mem_strict ? MEM_PLANNED_STRICT : 1) };

	bench_progress_step(ctx, &st, phase);
}

/* The LLC the sizing falls back on, and the budget all arrays may take. */
static void read_limits(struct mem_result *r)
{
	const struct mem_host *h = &r->host;

	r->llc_assumed = !h->llc.ok;
	r->llc_used = h->llc.ok ? h->llc.v : MEM_ASSUMED_LLC;
	r->llc_source = h->llc.ok ? h->cache_source : "assumed";
	r->llc_named = r->llc_used;
	r->levels_source = r->llc_source;
	r->budget_bytes = mem_budget(h->avail.ok ? h->avail.v : 0, h->cg_limit.ok ? h->cg_limit.v : 0,
				     h->cg_used.ok ? h->cg_used.v : 0);
}

/* STREAM's arrays: 4x the knee (default), 4x LLC (strict) or --mem-size, within the budget. */
static void size_arrays(const struct bench_ctx *ctx, struct mem_result *r)
{
	const struct bench_opts *o = ctx->opts;
	const struct mem_host *h = &r->host;
	bool over_budget;

	if (o->mem_size.set) {
		r->want_bytes = o->mem_size.v;
		r->size_source = "--mem-size";
	} else if (r->strict || !r->knee_bytes) {
		r->want_bytes = MEM_LLC_FACTOR * r->llc_used;
		if (!r->strict)
			r->want_bytes = mem_fast_size(r->llc_used);
		r->size_source = "LLC";
	} else {
		r->want_bytes = mem_fast_size(r->knee_bytes);
		r->size_source = "curve knee";
	}
	r->array_bytes = mem_array_bytes(r->want_bytes, r->budget_bytes, &over_budget);
	/* STREAM's rule against the LLC the levels were named from: below 4x it, cache is in the figures */
	r->capped = r->array_bytes < MEM_LLC_FACTOR * r->llc_named;
	if (!r->capped)
		return;
	if (over_budget)
		snprintf(r->cap_reason, sizeof(r->cap_reason),
			 "the three arrays may take %" PRIu64 " MiB (%s)", r->budget_bytes >> 20,
			 h->cg_limit.ok && r->budget_bytes < (h->avail.ok ? h->avail.v / 4 : UINT64_MAX) ?
			 "half the memory cgroup's room" : "a quarter of available memory");
	else if (o->mem_size.set)
		snprintf(r->cap_reason, sizeof(r->cap_reason), "--mem-size %" PRIu64 " MiB",
			 r->array_bytes >> 20);
	else
		snprintf(r->cap_reason, sizeof(r->cap_reason),
			 "the default bound of %llu MiB; --mem-strict takes 4x LLC",
			 (unsigned long long)(MEM_FAST_MAX >> 20));
}

/* One array of len bytes, 2 MiB aligned inside its mapping (map/maplen to unmap). */
struct mem_array {
	void *map;
	size_t maplen;
	double *p;
};

static int map_array(struct mem_array *a, size_t len, bool huge)
{
	size_t align = 2ULL << 20;

	a->maplen = len + align;
	a->map = mmap(NULL, a->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->map == MAP_FAILED) {
		a->map = NULL;
		return -1;
	}
	a->p = (double *)(((uintptr_t)a->map + align - 1) & ~(uintptr_t)(align - 1));
	/* best effort: without THP the figures stand, the report says which pages backed them */
	if (huge)
		(void)madvise(a->p, len, MADV_HUGEPAGE);
	return 0;
}

/*
 * The default sizing's check: 1-thread Triad at S and 2S (arrays of up to
 * room bytes each); while they differ by more than MEM_GROW_TOL, S doubles.
 * Returns the S to run STREAM at.
 */
static uint64_t grow_check(const struct bench_ctx *ctx, struct mem_result *r, double *arr[3],
			   uint64_t room)
{
	struct mem_grow *g = &r->grow;
	uint64_t s = r->array_bytes;

	memset(g, 0, sizeof(*g));
	step(ctx, "sizing: Triad at S and 2S", MEM_STEP_GROW_NS, 0);
	for (uint64_t z = s; z <= room && g->n < MEM_MAX_GROW && !bench_stopped(ctx); z *= 2) {
		double mbps, share;

		if (mem_triad_best(ctx, arr, (size_t)(z / sizeof(double)), &mbps, &share) < 0)
			break;
		g->bytes[g->n] = z;
		g->mbps[g->n++] = mbps;
		if (!mem_grow_step(g, share, &s))
			break;
	}
	step(ctx, "sizing: Triad at S and 2S", MEM_STEP_GROW_NS, 1);
	return s;
}

static enum bench_status run_stream(const struct bench_ctx *ctx, struct mem_result *r,
				    const int *cpus, unsigned ncpus, struct mod_outcome *out)
{
	struct mem_array a[3] = { { 0 } };
	double *arr[3];
	bool fast = !r->strict && !ctx->opts->mem_size.set;
	uint64_t room = r->array_bytes;
	char err[256] = "";
	enum bench_status st = BENCH_OK;
	long kb;

	/* room to grow: up to the default bound, within the budget */
	if (fast) {
		bool over;
		uint64_t top = mem_array_bytes(MEM_FAST_MAX, r->budget_bytes, &over);

		if (top > room)
			room = top;
	}
	for (int i = 0; i < 3; i++) {
		if (map_array(&a[i], (size_t)room, !r->strict) < 0) {
			int e = errno;

			for (int k = 0; k < i; k++)
				munmap(a[k].map, a[k].maplen);
			return bench_outcome(out, BENCH_SKIP, "cannot allocate 3 x %" PRIu64 " MiB arrays: %s",
					     room >> 20, strerror(e));
		}
		arr[i] = a[i].p;
	}
	if (fast && r->array_bytes * 2 <= room) {
		r->array_bytes = grow_check(ctx, r, arr, room);
		r->capped = r->array_bytes < MEM_LLC_FACTOR * r->llc_named;
		if (!r->capped)
			r->cap_reason[0] = '\0';
	}
	for (int t = 0; t < 2 && st == BENCH_OK && !bench_stopped(ctx); t++) {
		unsigned threads = t == 0 ? 1 : r->threads;
		char what[64];
		bool fresh = true;

		if (t == 1 && r->threads < 2)
			break;
		/* fresh pages, so each thread's first touch places its own slice */
		for (int i = 0; i < 3; i++)
			fresh &= madvise(arr[i], (size_t)room, MADV_DONTNEED) == 0;
		snprintf(what, sizeof(what), "STREAM variant, %u thread%s", threads,
			 threads > 1 ? "s" : "");
		step(ctx, what, MEM_STEP_STREAM_NS, 0);
		if (mem_stream_run(ctx, arr, (size_t)(r->array_bytes / sizeof(double)), threads, cpus,
				   ncpus, r->strict, r->quota_cpus, &r->st[t], err, sizeof(err)) < 0) {
			st = bench_outcome(out, BENCH_FAIL, "%s", err);
		} else {
			r->st[t].array_bytes = r->array_bytes;
			r->st[t].first_touch = fresh;
			kb = mem_huge_kb(arr[0]);
			r->st[t].huge_used = kb < 0 ? MB_UNKNOWN : mbool_of(kb > 0);
			if (!bench_stopped(ctx) && !r->st[t].validated)
				st = bench_outcome(out, BENCH_FAIL, "STREAM check failed with %u thread(s): "
						   "the arrays do not hold the expected values", threads);
		}
		step(ctx, what, MEM_STEP_STREAM_NS, 1);
	}
	for (int i = 0; i < 3; i++)
		munmap(a[i].map, a[i].maplen);
	return st;
}

/*
 * Pins the calling thread to the first usable CPU, where the 1-thread
 * STREAM run ran: vCPUs of one VPS can differ in speed, and a figure that
 * moves between them from run to run is not one figure. *old gets the mask
 * to restore; false (and nothing changed) when it cannot be read or set.
 */
static bool pin_first_cpu(struct mem_result *r, const int *cpus, unsigned ncpus, cpu_set_t *old)
{
	cpu_set_t one;

	r->single_cpu = -1;
	if (ncpus == 0 || sched_getaffinity(0, sizeof(*old), old) < 0)
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0)
		return false;
	r->single_cpu = cpus[0];
	return true;
}

static void unpin(bool pinned, const cpu_set_t *old)
{
	if (pinned)
		(void)sched_setaffinity(0, sizeof(*old), old);
}

/* Levels of curve c from the sizes sysfs gave, or from the knee when it names them. */
static void name_levels(const struct mem_result *r, struct mem_curve *c)
{
	const struct mem_host *h = &r->host;
	bool curve = strcmp(r->levels_source, "curve") == 0;

	mem_plateaus(c->size, c->ns, c->n, h->l1d.ok ? h->l1d.v : 0, h->l2.ok ? h->l2.v : 0,
		     curve ? r->knee_bytes : h->llc.ok ? h->llc.v : 0, r->llc_named, c->level_ns);
}

/* The LLC floor of the plateau point: the size sysfs or CPUID gave, when it names the levels. */
static uint64_t plateau_floor(const struct mem_result *r)
{
	return r->levels_source && (strcmp(r->levels_source, "sysfs") == 0 ||
				    strcmp(r->levels_source, "cpuid") == 0) ? r->llc_named : 0;
}

/* The huge-page curve's pick: the knee, the levels it names, then the plateau point. */
static unsigned pick_huge(struct mem_curve *c, void *arg)
{
	struct mem_result *r = arg;
	const struct mem_host *h = &r->host;

	/*
	 * The knee: the cache edge below the plateau point (found without an LLC
	 * floor), else the last size below half the top's latency. The top alone
	 * moves with the translation cost (page walks at 256 MiB put a 64 MiB
	 * point under half of it); the plateau's edge does not.
	 */
	if (c->huge_used != MB_FALSE) {
		unsigned p = mem_plateau_point(c->size, c->ns, c->n, 0);

		r->knee_bytes = p < c->n ? mem_cache_edge(c->size, c->ns, p) :
			mem_knee(c->size, c->ns, c->n);
	}
	/* the knee names the levels where sysfs has no LLC or one more than 2x the
	 * cache this VM sees, and the curve reaches 4x the knee (a knee near the
	 * top is a noisy top, not a cache); --mem-strict keeps STREAM's rule */
	if (mem_knee_names_levels(r->knee_bytes, r->lat_max_bytes, h->llc.ok ? h->llc.v : 0, r->strict)) {
		r->llc_named = r->knee_bytes;
		r->levels_source = "curve";
	}
	name_levels(r, c);
	return mem_plateau_point(c->size, c->ns, c->n, plateau_floor(r));
}

/* A full 4 KiB curve (no huge-page plateau to reuse): the levels, then the plateau point. */
static unsigned pick_4k(struct mem_curve *c, void *arg)
{
	struct mem_result *r = arg;

	const struct mem_curve *hc = &r->lat[1];

	name_levels(r, c);
	if (c->n == 1 && hc->graded < hc->n && c->size[0] == hc->size[hc->graded])
		return 0; /* the one size asked: the huge-page curve's graded point */
	return mem_plateau_point(c->size, c->ns, c->n, plateau_floor(r));
}

static void run_latency(const struct bench_ctx *ctx, struct mem_result *r)
{
	struct mem_curve *hc = &r->lat[1], *sc = &r->lat[0];
	uint64_t max = ctx->opts->mem_size.set ? mem_array_bytes(ctx->opts->mem_size.v, r->budget_bytes,
								  &(bool){ false }) :
		       mem_lat_max(r->llc_used, r->budget_bytes, r->strict);
	struct mem_chase_req q = { .max = max, .huge = true, .cpu = r->single_cpu,
				   .quota_cpus = r->quota_cpus, .pick = pick_huge, .arg = r };
	uint64_t at[1], grid[MEM_MAX_SIZES];

	r->lat_max_bytes = max;
	step(ctx, "latency, huge pages", MEM_STEP_LAT_HUGE_NS, 0);
	mem_chase_curve(ctx, &q, hc);
	step(ctx, "latency, huge pages", MEM_STEP_LAT_HUGE_NS, 1);
	if (bench_stopped(ctx))
		return;
	/*
	 * 4 KiB pages: at the huge-page curve's graded point only (the same size,
	 * so the two figures differ by the page walks alone), unless there is no
	 * such point or --mem-strict asks for the whole curve.
	 */
	q.huge = false;
	q.pick = pick_4k;
	if (!r->strict && hc->graded < hc->n && hc->huge_used != MB_FALSE) {
		at[0] = hc->size[hc->graded];
		q.sizes = at;
		q.nsizes = 1;
	} else if (!r->strict) {
		/* no plateau to reuse: the grid's top MEM_LAT_4K_POINTS sizes, graded if one is a plateau */
		unsigned n = mem_lat_sizes(max, grid, MEM_MAX_SIZES);

		q.nsizes = n < MEM_LAT_4K_POINTS ? n : MEM_LAT_4K_POINTS;
		q.sizes = grid + n - q.nsizes;
	}
	step(ctx, "latency, 4 KiB pages (page walks)", MEM_STEP_LAT_4K_NS, 0);
	mem_chase_curve(ctx, &q, sc);
	step(ctx, "latency, 4 KiB pages (page walks)", MEM_STEP_LAT_4K_NS, 1);
}

static void warn_pass(const struct bench_ctx *ctx, const char *what, const struct pass_cpu *c)
{
	if (c->disturbed)
		bench_warn(ctx, "mem: %s got %.0f%% of its CPU time (steal %s%.1f%%): disturbed, not a "
			   "figure of this memory", what, 100.0 * c->share.v,
			   c->steal_pct.ok ? "" : "unknown, ", c->steal_pct.ok ? c->steal_pct.v : 0.0);
}

/* A pass whose threads ran less than PASS_CPU_SHARE_MIN of their wall time: said once each. */
static void mem_disturbed_warn(const struct bench_ctx *ctx, const struct mem_result *r)
{
	char what[64];

	for (int t = 0; t < 2; t++)
		if (r->st[t].present) {
			snprintf(what, sizeof(what), "the %u-thread STREAM run", r->st[t].threads);
			warn_pass(ctx, what, &r->st[t].cpu);
		}
	for (int k = 0; k < 2; k++)
		if (r->lat[k].present)
			warn_pass(ctx, k ? "the huge-page latency curve" : "the 4 KiB-page latency points",
				  &r->lat[k].cpu);
	if (r->sb.present)
		warn_pass(ctx, "the sysbench-style figure", &r->sb.cpu);
}

static enum bench_status mem_run(const struct bench_ctx *ctx, void *result, struct mod_outcome *out)
{
	struct mem_result *r = result;
	struct mem_signs_start s0;
	static int cpus[CPU_SETSIZE];
	unsigned ncpus = affinity_cpu_list(cpus, CPU_SETSIZE);
	cpu_set_t old;
	bool pinned, over;
	enum bench_status st;
	char err[256];
	double t0 = mono_s();

	memset(r, 0, sizeof(*r));
	r->single_cpu = -1;
	r->strict = ctx->opts->mem_strict;
	r->tests = mem_tests_asked(ctx->opts);
	mem_signs_begin(ctx->root, &s0);
	mem_read_host(ctx->root, &r->host);
	read_limits(r);
	{
		struct cgroup_cpu_quota q;

		cgroup_cpu_quota(ctx->root, &q);
		r->quota_cpus = q.limited ? q.cpus : 0;
	}
	r->threads = mem_threads(ctx->root, ctx->cpus_usable,
				 ctx->opts->mem_threads.set ? (unsigned)ctx->opts->mem_threads.v : 0,
				 &r->threads_source);
	if (mem_array_bytes(MEM_MIN_SIZE, r->budget_bytes, &over) < MEM_MIN_SIZE || over) {
		size_arrays(ctx, r);
		return bench_outcome(out, BENCH_SKIP, "not enough memory for the arrays: %s",
				     r->cap_reason[0] ? r->cap_reason : "no room for 3 x 1 MiB");
	}

	pinned = pin_first_cpu(r, cpus, ncpus, &old);
	if (r->tests & (1u << MEM_TEST_LATENCY))
		run_latency(ctx, r);
	unpin(pinned, &old);
	size_arrays(ctx, r);
	if (r->array_bytes < MEM_MIN_SIZE)
		return bench_outcome(out, BENCH_SKIP, "not enough memory for the arrays: %s",
				     r->cap_reason);

	st = BENCH_OK;
	if ((r->tests & (1u << MEM_TEST_STREAM)) && !bench_stopped(ctx)) {
		st = run_stream(ctx, r, cpus, ncpus, out);
		if (st == BENCH_SKIP)
			return st;
	}
	if (r->capped && (r->tests & ((1u << MEM_TEST_STREAM) | (1u << MEM_TEST_LATENCY))))
		bench_warn(ctx, "mem: arrays smaller than 4x LLC (%s): figures include cache",
			   r->cap_reason);
	pinned = pin_first_cpu(r, cpus, ncpus, &old);
	if ((r->tests & (1u << MEM_TEST_SYSBENCH)) && !bench_stopped(ctx)) {
		step(ctx, "sysbench-style 1 MiB blocks", MEM_PLANNED_SYSBENCH_NS, 0);
		if (mem_sysbench_run(ctx, MEM_SB_SECONDS, r->single_cpu, r->quota_cpus, &r->sb, err,
				     sizeof(err)) < 0)
			bench_warn(ctx, "mem: %s", err);
		step(ctx, "sysbench-style 1 MiB blocks", MEM_PLANNED_SYSBENCH_NS, 1);
	}
	unpin(pinned, &old);
	mem_signs_end(ctx->root, &s0, mono_s() - t0, &r->signs);
	for (unsigned i = 0; i < r->signs.nflags; i++)
		bench_warn(ctx, "mem: oversell sign: %s", r->signs.flags[i]);
	mem_disturbed_warn(ctx, r);
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
