/*
 * health.c — the checks of the Health block, one function each: steal,
 * cgroup throttling, the CPU share of the cpu and mem passes, scaling above
 * the thread count, IOPS drop and CoV, memory-backed or cached storage,
 * oversell signs, starved memory bandwidth, failed net rows. A check runs
 * only for a module that was asked for; one that could not run says why.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "health.h"
#include "report/report.h"

static bool asked(const struct bench_report *rep, int id)
{
	return rep->outcome[id].status != BENCH_NOT_RUN;
}

static struct health_check *check(struct health_result *h, const char *name)
{
	struct health_check *c;

	if (h->n >= HEALTH_MAX_CHECKS)
		return NULL;
	c = &h->c[h->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->check, sizeof(c->check), "%s", name);
	return c;
}

/* Appends "; text" to the check's evidence (text cut to fit, on purpose). */
static void __attribute__((format(printf, 2, 3))) say(struct health_check *c, const char *fmt, ...)
{
	size_t used = strlen(c->evidence);
	va_list ap;

	if (used + 3 >= sizeof(c->evidence))
		return;
	if (used)
		used += (size_t)snprintf(c->evidence + used, sizeof(c->evidence) - used, "; ");
	va_start(ap, fmt);
	vsnprintf(c->evidence + used, sizeof(c->evidence) - used, fmt, ap);
	va_end(ap);
}

static void fig(struct health_check *c, const char *name, double v)
{
	if (c->nfig >= HEALTH_MAX_FIGS)
		return;
	snprintf(c->fig[c->nfig].name, sizeof(c->fig[0].name), "%s", name);
	c->fig[c->nfig++].value = v;
}

static void not_run(struct health_check *c, const char *why)
{
	c->state = HEALTH_NOT_RUN;
	c->nfig = 0;
	c->evidence[0] = '\0';
	say(c, "%s", why);
}

static void check_steal(const struct bench_report *rep, struct health_result *h)
{
	struct health_check *c;

	if (!asked(rep, MOD_cpu) || !(c = check(h, "steal")))
		return;
	if (rep->outcome[MOD_cpu].status != BENCH_OK || !rep->cpu.steal_pct.ok) {
		not_run(c, rep->outcome[MOD_cpu].status != BENCH_OK ? "the cpu module did not complete" :
			"/proc/stat has no steal field here: steal unknown");
		return;
	}
	fig(c, "steal_pct", rep->cpu.steal_pct.v);
	if (rep->cpu.steal_pct.v > HEALTH_STEAL_PCT) {
		c->state = HEALTH_PROBLEM;
		say(c, "%.1f%% of CPU time was stolen by the hypervisor during the cpu module "
		    "(above %.0f%%): neighbours take a share of this CPU", rep->cpu.steal_pct.v,
		    HEALTH_STEAL_PCT);
	}
}

/*
 * A cgroup quota below the thread count: the CFS hands it out per period
 * (100 ms by default), and a throttled thread cannot see its pass's end, so a
 * pass of a few periods (the crypto passes: 0.08 s each) gets a share that
 * says more about where its start fell than about the quota: only the
 * prime passes (seconds long) are held to it.
 */
static bool quota_binds(const struct cpu_result *r)
{
	return r->quota_cpus.ok && r->quota_cpus.v < r->threads;
}

/*
 * Throttling under a quota is what the customer bought: a problem only when
 * the cpu passes got less than PASS_CPU_SHARE_MIN of what they were entitled
 * to, min(threads, quota) (core/pass_cpu.h), or when no quota explains it.
 */
static void check_throttle(const struct bench_report *rep, struct health_result *h)
{
	const struct cpu_result *r = &rep->cpu;
	const struct pass_cpu *pass[6] = { &r->single.cpu, &r->multi.cpu, &r->aes1.cpu, &r->aesn.cpu,
					   &r->sha1.cpu, &r->shan.cpu };
	struct health_check *c;
	double lowest = INFINITY;
	bool short_of = false;

	if (!asked(rep, MOD_cpu) || !(c = check(h, "cpu_throttle")))
		return;
	if (rep->outcome[MOD_cpu].status != BENCH_OK || !r->throttled_periods.ok) {
		not_run(c, "no cgroup cpu.stat was readable");
		return;
	}
	fig(c, "throttled_periods", (double)r->throttled_periods.v);
	if (r->throttled_s.ok)
		fig(c, "throttled_s", r->throttled_s.v);
	if (r->throttled_periods.v == 0)
		return;
	/* under a binding quota only the prime passes tell: see check_cpu_share */
	for (unsigned i = 0; i < (quota_binds(r) ? 2u : 6u); i++)
		if (pass[i]->share.ok) {
			lowest = fmin(lowest, pass[i]->share.v);
			short_of |= pass[i]->disturbed;
		}
	if (r->quota_cpus.ok && !short_of && isfinite(lowest)) {
		fig(c, "quota_cpus", r->quota_cpus.v);
		fig(c, "lowest_share", lowest);
		say(c, "the cgroup CPU quota of %.2g CPU throttled %llu of %llu periods: what the quota "
		    "sells; every cpu pass got at least %.0f%% of its share of it (lowest %.0f%%)",
		    r->quota_cpus.v, (unsigned long long)r->throttled_periods.v,
		    (unsigned long long)(r->nr_periods.ok ? r->nr_periods.v : 0),
		    PASS_CPU_SHARE_MIN * 100, lowest * 100);
		return;
	}
	c->state = HEALTH_PROBLEM;
	say(c, "the cgroup CPU quota throttled %llu of %llu periods during the cpu module "
	    "(%.2f s lost)%s", (unsigned long long)r->throttled_periods.v,
	    (unsigned long long)(r->nr_periods.ok ? r->nr_periods.v : 0),
	    r->throttled_s.ok ? r->throttled_s.v : 0.0,
	    !r->quota_cpus.ok ? " with no quota read" :
	    short_of ? ", and a pass got less than its share of the quota" :
	    ", and no pass's CPU share was measured");
}

struct pass_ref {
	const char *key;              /* the figure's name: "prime_1t_share" */
	const char *name;             /* for people: "1-thread prime pass" */
	const struct pass_cpu *cpu;
};

/* One share check over a module's passes: problem if any was disturbed. */
static void share_check(struct health_result *h, const char *name, const char *module,
			const struct pass_ref *p, unsigned n)
{
	struct health_check *c = check(h, name);
	unsigned known = 0, unknown = 0;
	double lowest = INFINITY;
	char missing[160] = "";

	if (!c)
		return;
	for (unsigned i = 0; i < n; i++) {
		if (!p[i].cpu->share.ok) {
			size_t u = strlen(missing);

			unknown++;
			snprintf(missing + u, sizeof(missing) - u, "%s%s", u ? ", " : "", p[i].name);
			continue;
		}
		known++;
		lowest = fmin(lowest, p[i].cpu->share.v);
		if (p[i].cpu->disturbed) {
			c->state = HEALTH_PROBLEM;
			fig(c, p[i].key, p[i].cpu->share.v);
			say(c, "%s %.0f%%", p[i].name, p[i].cpu->share.v * 100);
		}
	}
	if (c->state == HEALTH_PROBLEM) {
		char list[sizeof(c->evidence)];

		snprintf(list, sizeof(list), "%s", c->evidence);
		snprintf(c->evidence, sizeof(c->evidence), "passes that got less than %.0f%% of their "
			 "CPU time (another process, a quota or the hypervisor): %.150s; their figures "
			 "are shown, not graded", fmin(fmax(PASS_CPU_SHARE_MIN * 100, 0), 100), list);
	}
	if (c->state == HEALTH_PROBLEM)
		return;
	if (!known) {
		char why[200];

		snprintf(why, sizeof(why), n ? "the CPU share of the %s passes was not measured" :
			 "no %s pass ran", module);
		not_run(c, why);
	} else if (unknown) {
		char why[240];

		snprintf(why, sizeof(why), "CPU share not measured for: %s", missing);
		not_run(c, why);
	} else {
		fig(c, "lowest_share", lowest);
	}
}

static void check_cpu_share(const struct bench_report *rep, struct health_result *h)
{
	const struct cpu_result *r = &rep->cpu;
	struct pass_ref p[6] = { { 0 } };
	unsigned n = 0;

	if (!asked(rep, MOD_cpu))
		return;
	if (rep->outcome[MOD_cpu].status == BENCH_OK) {
		if (r->single.threads)
			p[n++] = (struct pass_ref){ "prime_1t_share", "1-thread prime pass", &r->single.cpu };
		if (r->multi.threads)
			p[n++] = (struct pass_ref){ "prime_nt_share", "N-thread prime pass", &r->multi.cpu };
		if (r->crypto_available && !quota_binds(r)) {
			p[n++] = (struct pass_ref){ "aes_1t_share", "1-thread AES pass", &r->aes1.cpu };
			p[n++] = (struct pass_ref){ "aes_nt_share", "N-thread AES pass", &r->aesn.cpu };
			p[n++] = (struct pass_ref){ "sha_1t_share", "1-thread SHA pass", &r->sha1.cpu };
			p[n++] = (struct pass_ref){ "sha_nt_share", "N-thread SHA pass", &r->shan.cpu };
		}
	}
	share_check(h, "cpu_share", "cpu", p, n);
	/* the shares are against min(threads, quota) (core/pass_cpu.h): say which quota */
	if (n && h->n && strcmp(h->c[h->n - 1].check, "cpu_share") == 0 && r->quota_cpus.ok &&
	    r->quota_cpus.v < r->threads)
		fig(&h->c[h->n - 1], "quota_cpus", r->quota_cpus.v);
}

static void check_mem_share(const struct bench_report *rep, struct health_result *h)
{
	const struct mem_result *m = &rep->mem;
	struct pass_ref p[5];
	unsigned n = 0;

	if (!asked(rep, MOD_mem))
		return;
	if (rep->outcome[MOD_mem].status == BENCH_OK) {
		if (m->st[0].present)
			p[n++] = (struct pass_ref){ "stream_1t_share", "1-thread STREAM run", &m->st[0].cpu };
		if (m->st[1].present)
			p[n++] = (struct pass_ref){ "stream_nt_share", "N-thread STREAM run", &m->st[1].cpu };
		if (m->lat[0].present)
			p[n++] = (struct pass_ref){ "chase_4k_share", "latency chase (4 KiB pages)", &m->lat[0].cpu };
		if (m->lat[1].present)
			p[n++] = (struct pass_ref){ "chase_huge_share", "latency chase (huge pages)", &m->lat[1].cpu };
		if (m->sb.present)
			p[n++] = (struct pass_ref){ "sysbench_mem_share", "sysbench-style memory pass", &m->sb.cpu };
	}
	share_check(h, "mem_share", "mem", p, n);
}

static void check_scaling(const struct bench_report *rep, struct health_result *h)
{
	const struct cpu_result *r = &rep->cpu;
	struct health_check *c;

	if (!asked(rep, MOD_cpu) || !(c = check(h, "cpu_scaling")))
		return;
	if (rep->outcome[MOD_cpu].status != BENCH_OK || !r->scaling.ok || r->multi.threads < 2) {
		not_run(c, r->multi.threads < 2 && r->scaling.ok ? "one effective CPU: no scaling" :
			"a prime pass did not finish");
		return;
	}
	fig(c, "scaling", r->scaling.v);
	fig(c, "threads", r->multi.threads);
	if (r->scaling.v > r->multi.threads * HEALTH_SCALING_SLACK) {
		c->state = HEALTH_PROBLEM;
		say(c, "%.2fx on %u threads is more than the threads can give: a pass was disturbed "
		    "(measurement, not machine); scaling not graded", r->scaling.v, r->multi.threads);
	}
}

static const struct metric *measured(const struct bench_report *rep, const char *name)
{
	const struct metric *m = metric_get(&rep->grade.metrics, name);

	return m && m->measured && isfinite(m->value) ? m : NULL;
}

static void check_iops(const struct bench_report *rep, struct health_result *h)
{
	const struct rand_pass_result *mp = grade_main_pass(&rep->rand);
	const struct metric *t = measured(rep, "rand_tail_ratio"), *v = measured(rep, "rand_cov_pct");
	const struct metric *raw;
	struct health_check *c;

	if (!asked(rep, MOD_rand))
		return;
	if ((c = check(h, "iops_drop"))) {
		raw = metric_get(&rep->grade.metrics, "rand_tail_ratio");
		if (!t) {
			not_run(c, raw && raw->why_not[0] ? raw->why_not : "no main random pass");
		} else {
			fig(c, "rand_tail_ratio", t->value);
			if (t->value < HEALTH_TAIL_RATIO) {
				c->state = HEALTH_PROBLEM;
				say(c, "IOPS of %s fell to %.0f%% in the last third of the pass (below %.0f%%): "
				    "burst credits running out or throttling", mp ? mp->name : "the main pass",
				    t->value * 100, HEALTH_TAIL_RATIO * 100);
			}
		}
	}
	if ((c = check(h, "iops_cov"))) {
		raw = metric_get(&rep->grade.metrics, "rand_cov_pct");
		if (!v) {
			not_run(c, raw && raw->why_not[0] ? raw->why_not : "no main random pass");
		} else {
			fig(c, "rand_cov_pct", v->value);
			if (v->value > HEALTH_COV_PCT) {
				c->state = HEALTH_PROBLEM;
				say(c, "per-second IOPS of %s varied by %.1f%% (CoV above %.0f%%): noisy "
				    "neighbours or throttling", mp ? mp->name : "the main pass", v->value,
				    HEALTH_COV_PCT);
			}
		}
	}
}

static void storage_one(struct health_check *c, const char *dir, const struct storage_verdict *s)
{
	if (s->cls != STORAGE_MEMORY && s->cls != STORAGE_CACHED)
		return;
	if (strstr(c->evidence, dir) && c->evidence[0])
		return; /* seq and rand of one directory: said once */
	c->state = HEALTH_PROBLEM;
	say(c, "%s is %s storage (%.120s): its disk figures measure %s", dir,
	    storage_class_name(s->cls), s->why, s->cls == STORAGE_MEMORY ? "RAM" : "a cache");
}

static void check_storage(const struct bench_report *rep, struct health_result *h)
{
	struct health_check *c;
	unsigned seen = 0;

	if ((!asked(rep, MOD_seq) && !asked(rep, MOD_rand) && !asked(rep, MOD_fsync)) ||
	    !(c = check(h, "storage")))
		return;
	for (unsigned i = 0; i < rep->seq.ndirs; i++, seen++)
		storage_one(c, rep->seq.dirs[i].dir, &rep->seq.dirs[i].storage);
	for (unsigned i = 0; i < rep->rand.npass; i++, seen++)
		storage_one(c, rep->rand.pass[i].dir ? rep->rand.pass[i].dir : "?",
			    &rep->rand.pass[i].storage);
	for (unsigned i = 0; i < rep->fsync.ndirs; i++, seen++)
		storage_one(c, rep->fsync.dirs[i].dir, &rep->fsync.dirs[i].storage);
	if (!seen)
		not_run(c, "no disk pass ran");
	else
		fig(c, "passes_checked", seen);
}

/*
 * Oversell: the signs that the host's memory is short now, from the
 * structured snapshot: KSM merging pages, swap in use, pages swapped in
 * during the mem module, memory pressure. A loaded balloon driver alone is
 * not one (most KVM images load it); it is kept as a figure.
 */
static void oversell_signs(struct health_check *c, const struct host_mem_signs *s, const char *when)
{
	if (s->ksm_run == MB_TRUE && s->ksm_pages_sharing.ok && s->ksm_pages_sharing.v > 0) {
		c->state = HEALTH_PROBLEM;
		say(c, "KSM merging %llu pages%s", (unsigned long long)s->ksm_pages_sharing.v, when);
	}
	if (s->swap_used.ok && s->swap_used.v > 0) {
		c->state = HEALTH_PROBLEM;
		say(c, "%.0f MiB of swap in use%s", (double)s->swap_used.v / 1048576.0, when);
	}
	if (s->psi_some_avg10.ok && s->psi_some_avg10.v >= HOST_MEM_PSI_FLAG_AVG10) {
		c->state = HEALTH_PROBLEM;
		say(c, "memory pressure: tasks stalled %.1f%% of the last 10 s%s", s->psi_some_avg10.v,
		    when);
	}
}

static void check_oversell(const struct bench_report *rep, struct health_result *h)
{
	bool si = rep->outcome[MOD_sysinfo].status == BENCH_OK;
	bool mem = rep->outcome[MOD_mem].status == BENCH_OK;
	const struct host_mem_signs *s = si ? &rep->sys.mem.signs : &rep->mem.signs.host;
	struct health_check *c;

	if ((!asked(rep, MOD_sysinfo) && !asked(rep, MOD_mem)) || !(c = check(h, "oversell")))
		return;
	if (!si && !mem) {
		not_run(c, "neither sysinfo nor mem completed");
		return;
	}
	if (s->balloon != MB_UNKNOWN)
		fig(c, "balloon", s->balloon == MB_TRUE);
	if (s->swap_used.ok)
		fig(c, "swap_used_bytes", (double)s->swap_used.v);
	oversell_signs(c, s, si ? "" : " (at the end of the mem module)");
	if (mem && rep->mem.signs.swapin_pages.ok && rep->mem.signs.swapin_pages.v > 0) {
		c->state = HEALTH_PROBLEM;
		fig(c, "swapin_pages", (double)rep->mem.signs.swapin_pages.v);
		say(c, "%llu pages swapped in during the mem module",
		    (unsigned long long)rep->mem.signs.swapin_pages.v);
	}
	if (c->state != HEALTH_PROBLEM && (s->ksm_run == MB_UNKNOWN || !s->swap_used.ok ||
					   !s->psi_some_avg10.ok)) {
		char why[160];

		snprintf(why, sizeof(why), "none seen, but not readable here:%s%s%s",
			 s->ksm_run == MB_UNKNOWN ? " KSM" : "", !s->swap_used.ok ? " swap" : "",
			 !s->psi_some_avg10.ok ? " pressure" : "");
		not_run(c, why);
	}
}

static void check_mem_bandwidth(const struct bench_report *rep, struct health_result *h)
{
	const struct metric *eff = measured(rep, "mem_scaling_eff");
	const struct metric *raw = metric_get(&rep->grade.metrics, "mem_scaling_eff");
	const struct mdbl *steal = &rep->mem.st[1].cpu.steal_pct;
	struct health_check *c;

	if (!asked(rep, MOD_mem) || !(c = check(h, "mem_bandwidth")))
		return;
	if (!eff) {
		not_run(c, raw && raw->why_not[0] ? raw->why_not : "no multi-thread STREAM run");
		return;
	}
	fig(c, "mem_scaling_eff", eff->value);
	if (eff->value >= HEALTH_MEM_EFF_MIN)
		return;
	/* a clear sign only with the CPU ruled out: the runs got their CPU (else not measured), no steal */
	if ((steal->ok && steal->v > HEALTH_STEAL_PCT) ||
	    (rep->cpu.steal_pct.ok && rep->cpu.steal_pct.v > HEALTH_STEAL_PCT)) {
		not_run(c, "per-vCPU bandwidth is low, but steal was high: the CPU, not the memory, "
			"may explain it");
		return;
	}
	c->state = HEALTH_PROBLEM;
	say(c, "with all %u threads streaming, each got %.0f%% of what one thread streams alone "
	    "(below %.0f%%), with its CPU and no steal: memory bandwidth capped or oversold",
	    rep->mem.st[1].threads, eff->value * 100, HEALTH_MEM_EFF_MIN * 100);
}

static void check_net(const struct bench_report *rep, struct health_result *h)
{
	const struct net_result *r = &rep->net;
	struct health_check *c;
	unsigned failed = 0;

	if (!asked(rep, MOD_net) || !(c = check(h, "net")))
		return;
	if (rep->outcome[MOD_net].status == BENCH_UNAVAIL || (!r->nrows && !r->nhttp)) {
		not_run(c, rep->outcome[MOD_net].reason[0] ? rep->outcome[MOD_net].reason :
			"no server or URL was tested");
		return;
	}
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct net_row *w = &r->rows[i];
		bool bad = w->status == NET_FAILED || w->status == NET_TIMEOUT ||
			   w->send.status == NET_FAILED || w->send.status == NET_TIMEOUT ||
			   w->recv.status == NET_FAILED || w->recv.status == NET_TIMEOUT;

		if (!bad)
			continue;
		failed++;
		c->state = HEALTH_PROBLEM;
		say(c, "%s (IPv%d) failed: %.100s", w->srv.name, w->family,
		    w->reason[0] ? w->reason : w->send.reason[0] ? w->send.reason : w->recv.reason);
	}
	for (unsigned i = 0; i < r->nhttp; i++) {
		if (r->http[i].status != NET_FAILED && r->http[i].status != NET_TIMEOUT)
			continue;
		failed++;
		c->state = HEALTH_PROBLEM;
		say(c, "%.100s failed: %.100s", r->http[i].url, r->http[i].reason);
	}
	fig(c, "failed", failed);
}

void health_assess(const struct bench_report *rep, struct health_result *out)
{
	memset(out, 0, sizeof(*out));
	out->assessed = true;
	check_steal(rep, out);
	check_throttle(rep, out);
	check_cpu_share(rep, out);
	check_scaling(rep, out);
	check_mem_share(rep, out);
	check_mem_bandwidth(rep, out);
	check_oversell(rep, out);
	check_storage(rep, out);
	check_iops(rep, out);
	check_net(rep, out);
	for (unsigned i = 0; i < out->n; i++) {
		out->nproblems += out->c[i].state == HEALTH_PROBLEM;
		out->nnot_run += out->c[i].state == HEALTH_NOT_RUN;
	}
}

const char *health_status(const struct health_result *h)
{
	return h->nproblems ? "problems" : h->nnot_run ? "incomplete" : "ok";
}

/* "a, b": the checks in state st. */
static void names(const struct health_result *h, enum health_state st, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < h->n && used < n; i++)
		if (h->c[i].state == st)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
						 h->c[i].check);
}

void health_summary(const struct health_result *h, char *buf, size_t n)
{
	char list[200];

	if (!h->assessed || h->n == 0) {
		snprintf(buf, n, "health: not assessed (no module with a health check ran)");
	} else if (h->nproblems) {
		names(h, HEALTH_PROBLEM, list, sizeof(list));
		snprintf(buf, n, "health: %u problem%s (%s)", h->nproblems, h->nproblems == 1 ? "" : "s",
			 list);
	} else if (h->nnot_run) {
		names(h, HEALTH_NOT_RUN, list, sizeof(list));
		snprintf(buf, n, "health: no problem in the %u check%s that ran; not run: %s",
			 h->n - h->nnot_run, h->n - h->nnot_run == 1 ? "" : "s", list);
	} else {
		snprintf(buf, n, "health: no problem found (%u check%s)", h->n, h->n == 1 ? "" : "s");
	}
}
