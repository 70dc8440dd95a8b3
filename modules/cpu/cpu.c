/*
 * cpu.c — the CPU module: the prime pass on 1 thread, then on N (the
 * effective CPUs: affinity mask and cgroup quota, or --cpu-threads), the
 * crypto passes (AES-256-GCM, SHA-256; 1 and N threads), with /proc/stat
 * and cgroup cpu.stat read before and after so the steal and throttling
 * figures cover exactly the module's run.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/affinity.h"
#include "core/cgroup_limits.h"
#include "core/plan.h"
#include "core/proc_stat.h"
#include "core/uncert.h"
#include "cpu.h"
#include "cpu_crypto.h"
#include "cpu_env.h"
#include "cpu_pool.h"

/* A unit of the prime pass: one event; the count feeds a sink so it stays. */
static int prime_unit(void *st, const void *arg, uint64_t *count, char *err, size_t n)
{
	static __thread volatile unsigned long sink __attribute__((unused));

	(void)st;
	(void)err;
	(void)n;
	sink = cpu_prime_event(*(const unsigned long long *)arg);
	(*count)++;
	return 0;
}

static void step(const struct bench_ctx *ctx, const char *what, double s, int phase)
{
	struct bench_step st = { .module = "cpu", .what = what, .ns = (uint64_t)(s * 1e9) };

	bench_progress_step(ctx, &st, phase);
}

/* One prime pass into p; false when it could not run (reason in err). */
static bool prime_pass(const struct bench_ctx *ctx, struct cpu_result *r, unsigned threads,
		       struct cpu_prime_pass *p, char *err, size_t errlen)
{
	unsigned long long maxp = r->max_prime;
	struct cpu_work w = { NULL, prime_unit, NULL, &maxp };
	struct cpu_pass_out o;
	char what[96];
	int rc;

	snprintf(what, sizeof(what), "prime events, %u thread%s, %g s", threads,
		 threads == 1 ? "" : "s", r->time_s);
	p->threads = threads;
	step(ctx, what, r->time_s, 0);
	rc = cpu_pool_run(ctx, threads, r->time_s, &w, &o, r->steal_tl, &r->nsteal);
	step(ctx, what, r->time_s, 1);
	if (rc < 0) {
		snprintf(err, errlen, "prime pass on %u threads: %s", threads, o.err);
		return false;
	}
	p->events = o.count;
	p->seconds = o.seconds;
	p->cpu_seconds = o.cpu_seconds;
	pass_cpu_set_share_q(&p->cpu, o.cpu_seconds, threads, r->quota_cpus.ok ? r->quota_cpus.v : 0,
			     o.seconds);
	p->cpu.steal_pct = o.steal_pct;
	p->pinned = o.pinned;
	p->complete = o.complete;
	if (o.seconds > 0 && o.count > 0)
		p->eps = mdbl_of((double)o.count / o.seconds);
	p->nsub = o.nsub;
	p->eps_u = uncert_mean_ci95(o.sub_rate, o.nsub);
	return true;
}

static bool crypto_pass(const struct bench_ctx *ctx, struct cpu_result *r, const char *name,
			const struct cpu_work *w, unsigned threads, struct cpu_crypto_pass *p,
			char *err, size_t errlen)
{
	double s = r->time_s * CPU_CRYPTO_FRAC;
	struct cpu_pass_out o;
	char what[96];
	int rc;

	snprintf(what, sizeof(what), "%s, %u thread%s", name, threads, threads == 1 ? "" : "s");
	p->threads = threads;
	step(ctx, what, s, 0);
	rc = cpu_pool_run(ctx, threads, s, w, &o, NULL, NULL);
	step(ctx, what, s, 1);
	if (rc < 0) {
		snprintf(err, errlen, "%s pass: %s", name, o.err);
		return false;
	}
	p->bytes = o.count;
	p->seconds = o.seconds;
	p->cpu_seconds = o.cpu_seconds;
	pass_cpu_set_share_q(&p->cpu, o.cpu_seconds, threads, r->quota_cpus.ok ? r->quota_cpus.v : 0,
			     o.seconds);
	p->cpu.steal_pct = o.steal_pct;
	p->complete = o.complete && o.idle == 0 && o.seconds > 0;
	if (p->complete)
		p->mbps = mdbl_of((double)o.count / o.seconds / 1e6);
	else if (!o.complete)
		snprintf(p->null_reason, sizeof(p->null_reason), "stopped before the end of its window");
	else if (o.idle && threads == 1)
		snprintf(p->null_reason, sizeof(p->null_reason),
			 "its thread finished no 16 KiB unit in the %.3f s window: CPU busy elsewhere", s);
	else if (o.idle)
		snprintf(p->null_reason, sizeof(p->null_reason),
			 "%u of %u threads finished no 16 KiB unit in the %.3f s window: CPU busy elsewhere",
			 o.idle, threads, s);
	else
		snprintf(p->null_reason, sizeof(p->null_reason), "no time measured");
	return true;
}

/* passes the chain never reached (a stop, a failed pass) say so */
static void crypto_not_run(struct cpu_result *r)
{
	struct cpu_crypto_pass *cp[4] = { &r->aes1, &r->aesn, &r->sha1, &r->shan };

	for (int i = 0; i < 4; i++)
		if (!cp[i]->complete && !cp[i]->null_reason[0])
			snprintf(cp[i]->null_reason, sizeof(cp[i]->null_reason), "not run: %s",
				 r->crypto_reason[0] ? "an earlier pass failed" : "the module was stopped");
}

static void choose_threads(const struct bench_ctx *ctx, struct cpu_result *r)
{
	int ver = 0;

	r->affinity_cpus = ctx->cpus_usable ? ctx->cpus_usable : 1;
	r->quota_cpus = cpu_quota_read(ctx->root, &ver);
	if (ctx->plan->cpu.threads) {
		r->threads = ctx->plan->cpu.threads;
		r->threads_source = "--cpu-threads";
		return;
	}
	r->threads = cgroup_effective_cpus(r->affinity_cpus, r->quota_cpus.ok ? r->quota_cpus.v : 0);
	r->threads_source = r->threads < r->affinity_cpus ? "cgroup quota" : "affinity";
}

static void cpu_warnings(const struct bench_ctx *ctx, const struct cpu_result *r)
{
	const struct cpu_prime_pass *p = &r->single;

	/* CPU time the threads got vs the CPU they were entitled to (a quota's share
	 * when there is one): others competed */
	if (p->eps.ok && p->cpu.share.ok && p->cpu.share.v < CPU_SHARE_WARN)
		bench_warn(ctx, "cpu: the 1-thread pass got only %.0f%% of %s (%.2f of %.2f s): "
			   "other processes competed, so the figures are below what %s can do",
			   100.0 * p->cpu.share.v, p->cpu.quota ? "its CPU quota" : "a CPU",
			   p->cpu_seconds, p->seconds * p->cpu.entitled,
			   p->cpu.quota ? "the quota" : "the CPU");
	if (r->scaling.ok && r->multi.threads > 1 && r->scaling.v < 1.25)
		bench_warn(ctx, "cpu: %u threads ran only %.2fx as fast as one: the provider caps "
			   "concurrency (or the CPUs are shared)", r->multi.threads, r->scaling.v);
	if (r->steal_pct.ok && r->steal_pct.v > CPU_STEAL_NOISY)
		bench_warn(ctx, "cpu: %.1f%% of CPU time was stolen by the hypervisor during the test: "
			   "noisy neighbours", r->steal_pct.v);
	if (r->throttled_periods.ok && r->throttled_periods.v > 0)
		bench_warn(ctx, "cpu: the cgroup CPU quota throttled %llu of %llu periods (%.2f s of "
			   "run-queue time, summed over CPUs)",
			   (unsigned long long)r->throttled_periods.v,
			   (unsigned long long)(r->nr_periods.ok ? r->nr_periods.v : 0),
			   r->throttled_s.ok ? r->throttled_s.v : 0);
}

static enum bench_status cpu_run(const struct bench_ctx *ctx, void *result,
				 struct mod_outcome *out)
{
	struct cpu_result *r = result;
	struct cpu_throttle_snap th0, th1;
	struct proc_stat *ps = calloc(2, sizeof(*ps));
	struct proc_stat_delta d;
	static int cpus[CPU_SETSIZE];
	unsigned ncpus = affinity_cpu_list(cpus, CPU_SETSIZE);
	const struct cpu_work *aes = cpu_crypto_aes_gcm(), *sha = cpu_crypto_sha256();
	char err[256] = "";
	bool ok;

	memset(r, 0, sizeof(*r));
	r->max_prime = ctx->plan->cpu.max_prime;
	r->time_s = (double)ctx->plan->cpu.time_ns / 1e9;
	choose_threads(ctx, r);
	cpu_flags_read(ctx->root, &r->aes_ni, &r->sha_ext);
	r->crypto_available = aes && sha;
	if (!r->crypto_available)
		snprintf(r->crypto_reason, sizeof(r->crypto_reason), "unavailable: %s",
			 cpu_crypto_unavailable());
	r->prime_count = cpu_prime_event(r->max_prime); /* outside the clock: the event's answer */

	if (ps)
		proc_stat_read(ctx->root, &ps[0]);
	cpu_throttle_read(ctx->root, &th0);
	ok = prime_pass(ctx, r, 1, &r->single, err, sizeof(err));
	if (ok && !bench_stopped(ctx))
		ok = prime_pass(ctx, r, r->threads, &r->multi, err, sizeof(err));
	if (ok && r->crypto_available) {
		ok = !bench_stopped(ctx) &&
		     crypto_pass(ctx, r, "AES-256-GCM", aes, 1, &r->aes1, err, sizeof(err)) &&
		     !bench_stopped(ctx) &&
		     crypto_pass(ctx, r, "AES-256-GCM", aes, r->threads, &r->aesn, err, sizeof(err)) &&
		     !bench_stopped(ctx) &&
		     crypto_pass(ctx, r, "SHA-256", sha, 1, &r->sha1, err, sizeof(err)) &&
		     !bench_stopped(ctx) &&
		     crypto_pass(ctx, r, "SHA-256", sha, r->threads, &r->shan, err, sizeof(err));
		if (!ok && err[0]) {
			/* a library failure costs the crypto figures, not the prime ones */
			snprintf(r->crypto_reason, sizeof(r->crypto_reason), "failed: %.80s", err);
			bench_warn(ctx, "cpu: %s", err);
			err[0] = '\0';
			ok = true;
		}
		crypto_not_run(r);
	}
	cpu_throttle_read(ctx->root, &th1);
	if (ps) {
		proc_stat_read(ctx->root, &ps[1]);
		/* no mask read: every CPU's busy + steal ticks, still no idle ones */
		d = proc_stat_diff(&ps[0], &ps[1], cpus, ncpus);
		r->steal_pct = proc_stat_steal_pct(d);
		if (r->steal_pct.ok) {
			r->steal_ticks = d.steal;
			r->total_ticks = d.busy + d.steal;
		}
		free(ps);
	}
	cpu_throttle_delta(&th0, &th1, r);

	r->scaling_u = NAN;
	if (r->single.eps.ok && r->multi.eps.ok && r->single.complete && r->multi.complete) {
		r->scaling = mdbl_of(r->multi.eps.v / r->single.eps.v);
		r->scaling_u = uncert_ratio(r->multi.eps.v, r->multi.eps_u, r->single.eps.v,
					    r->single.eps_u);
	}
	cpu_warnings(ctx, r);
	if (err[0])
		return bench_outcome(out, BENCH_FAIL, "%s", err);
	if (bench_stopped(ctx) || !r->single.complete || !r->multi.complete)
		return bench_outcome(out, BENCH_INCOMPLETE, "interrupted");
	return bench_outcome(out, BENCH_OK, NULL);
}

const struct bench_module bench_mod_cpu = {
	.name = "cpu",
	.desc = "sysbench-comparable prime events/s (1 and N threads), AES-GCM and SHA-256 MB/s, steal and throttling",
	.run = cpu_run,
};
