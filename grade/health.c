/*
 * health.c — the checks of the Health block, one function each: steal,
 * cgroup throttling, the CPU share of the cpu and mem passes, scaling above
 * the thread count, IOPS drop and CoV, memory-backed or cached storage,
 * this guest's memory state, starved memory bandwidth, the net servers. A
 * check runs only for a module that was asked for; one that could not run
 * says why. The bounds are the table's health bounds (health_bounds.c,
 * movable by --thresholds).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "health.h"
#include "report/report.h"

/* The table's health bounds, read once per health_assess. */
struct hbounds {
	double steal, cov, tail, slack, eff, psi;
};

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

static void check_steal(const struct bench_report *rep, const struct hbounds *b, struct health_result *h)
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
	if (rep->cpu.steal_pct.v > b->steal) {
		c->state = HEALTH_PROBLEM;
		say(c, "%.1f%% of CPU time was stolen by the hypervisor during the cpu module "
		    "(above %.0f%%): neighbours take a share of this CPU", rep->cpu.steal_pct.v,
		    b->steal);
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

static void check_scaling(const struct bench_report *rep, const struct hbounds *b, struct health_result *h)
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
	if (r->scaling.v > r->multi.threads * b->slack) {
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

static void check_iops(const struct bench_report *rep, const struct hbounds *b, struct health_result *h)
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
			if (t->value < b->tail) {
				c->state = HEALTH_PROBLEM;
				say(c, "IOPS of %s fell to %.0f%% in the last third of the pass (below %.0f%%): "
				    "burst credits running out or throttling", mp ? mp->name : "the main pass",
				    t->value * 100, b->tail * 100);
			}
		}
	}
	if ((c = check(h, "iops_cov"))) {
		raw = metric_get(&rep->grade.metrics, "rand_cov_pct");
		if (!v) {
			not_run(c, raw && raw->why_not[0] ? raw->why_not : "no main random pass");
		} else {
			fig(c, "rand_cov_pct", v->value);
			if (v->value > b->cov) {
				c->state = HEALTH_PROBLEM;
				say(c, "per-second IOPS of %s varied by %.1f%% (CoV above %.0f%%): noisy "
				    "neighbours or throttling", mp ? mp->name : "the main pass", v->value,
				    b->cov);
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
 * This guest's own memory state: what /proc/meminfo, /proc/vmstat,
 * /proc/pressure/memory and /sys/kernel/mm/ksm show are the guest kernel's
 * swap, KSM and pressure, not the host's: a guest cannot see whether its
 * host is oversold (steal is the one host sign it has, its own check). So
 * swap in use and KSM merging are figures and evidence, never a problem
 * alone: pages swapped out long ago cost nothing now, and KSM in a guest is
 * its admin's choice. A problem is memory this guest was short of while it
 * was measured: pages swapped in during the mem module, or pressure (PSI
 * some avg10) at or above the mem_psi_avg10 bound. Then reclaim and swap
 * stalls sit inside the figures. A loaded virtio_balloon driver is a figure
 * too (most KVM images load it), here as in System: never a sign.
 */
static void check_guest_memory(const struct bench_report *rep, const struct hbounds *b,
			       struct health_result *h)
{
	bool si = rep->outcome[MOD_sysinfo].status == BENCH_OK;
	bool mem = rep->outcome[MOD_mem].status == BENCH_OK;
	const struct host_mem_signs *s = si ? &rep->sys.mem.signs : &rep->mem.signs.host;
	const char *when = si ? "" : " (at the end of the mem module)";
	struct health_check *c;
	bool psi_high, swapin;

	if ((!asked(rep, MOD_sysinfo) && !asked(rep, MOD_mem)) || !(c = check(h, "guest_memory")))
		return;
	if (!si && !mem) {
		not_run(c, "neither sysinfo nor mem completed");
		return;
	}
	if (s->swap_used.ok)
		fig(c, "swap_used_bytes", (double)s->swap_used.v);
	if (mem && rep->mem.signs.swapin_pages.ok)
		fig(c, "swapin_pages", (double)rep->mem.signs.swapin_pages.v);
	if (s->psi_some_avg10.ok)
		fig(c, "psi_some_avg10", s->psi_some_avg10.v);
	if (s->ksm_run != MB_UNKNOWN)
		fig(c, "ksm_pages_sharing", s->ksm_run == MB_TRUE && s->ksm_pages_sharing.ok ?
		    (double)s->ksm_pages_sharing.v : 0);
	if (s->balloon != MB_UNKNOWN)
		fig(c, "balloon", s->balloon == MB_TRUE);
	swapin = mem && rep->mem.signs.swapin_pages.ok && rep->mem.signs.swapin_pages.v > 0;
	psi_high = s->psi_some_avg10.ok && s->psi_some_avg10.v >= b->psi;
	if (swapin) {
		c->state = HEALTH_PROBLEM;
		say(c, "this guest swapped in %llu pages during the mem module: its memory figures "
		    "include swap stalls", (unsigned long long)rep->mem.signs.swapin_pages.v);
	}
	if (psi_high) {
		c->state = HEALTH_PROBLEM;
		say(c, "this guest's memory pressure: tasks stalled %.1f%% of the last 10 s%s (at or "
		    "above %.1f%%)", s->psi_some_avg10.v, when, b->psi);
	}
	if (c->state != HEALTH_PROBLEM) {
		/* neither sign readable: this guest's memory state is unknown, not fine */
		if (!s->psi_some_avg10.ok && !(mem && rep->mem.signs.swapin_pages.ok))
			not_run(c, "neither memory pressure (/proc/pressure/memory) nor swap-in during "
				"the mem module was readable here");
		return;
	}
	/* the guest's own swap and KSM, as context for the problem; not problems themselves */
	if (s->swap_used.ok && s->swap_used.v > 0)
		say(c, "%.0f MiB of this guest's swap in use%s", (double)s->swap_used.v / 1048576.0, when);
	if (s->ksm_run == MB_TRUE && s->ksm_pages_sharing.ok && s->ksm_pages_sharing.v > 0)
		say(c, "this guest's KSM merging %llu pages", (unsigned long long)s->ksm_pages_sharing.v);
	say(c, "this guest's own memory, not a sign of the host's");
}

static void check_mem_bandwidth(const struct bench_report *rep, const struct hbounds *b,
				struct health_result *h)
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
	if (eff->value >= b->eff)
		return;
	/* a clear sign only with the CPU ruled out: the runs got their CPU (else not measured), no steal */
	if ((steal->ok && steal->v > b->steal) ||
	    (rep->cpu.steal_pct.ok && rep->cpu.steal_pct.v > b->steal)) {
		not_run(c, "per-vCPU bandwidth is low, but steal was high: the CPU, not the memory, "
			"may explain it");
		return;
	}
	c->state = HEALTH_PROBLEM;
	say(c, "with all %u threads streaming, each got %.0f%% of what one thread streams alone "
	    "(below %.0f%%), with its CPU and no steal: memory bandwidth capped or oversold",
	    rep->mem.st[1].threads, eff->value * 100, b->eff * 100);
}

/*
 * The net module: a public iperf3 or HTTP server that fails or times out is
 * that server's row (the Network section says why), never this machine's
 * problem: passed when any server was measured, not run when none was; the
 * failures are a figure.
 */
static void check_net(const struct bench_report *rep, struct health_result *h)
{
	const struct net_result *r = &rep->net;
	struct health_check *c;
	unsigned failed = 0, ok = 0;

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

		failed += bad;
		ok += w->status == NET_DONE; /* any direction measured */
	}
	for (unsigned i = 0; i < r->nhttp; i++) {
		failed += r->http[i].status == NET_FAILED || r->http[i].status == NET_TIMEOUT;
		ok += r->http[i].status == NET_DONE;
	}
	fig(c, "measured", ok);
	fig(c, "failed", failed);
	if (!ok)
		not_run(c, failed ? "every server or URL tested failed or timed out: those servers' "
			"rows, not this machine's health" : "no server or URL was measured");
}

void health_assess(const struct bench_report *rep, const struct grade_table *t,
		   struct health_result *out)
{
	const struct hbounds b = {
		.steal = grade_health_bound(t, "steal_pct"),
		.cov = grade_health_bound(t, "iops_cov_pct"),
		.tail = grade_health_bound(t, "iops_tail_ratio"),
		.slack = grade_health_bound(t, "scaling_slack"),
		.eff = grade_health_bound(t, "mem_eff_min"),
		.psi = grade_health_bound(t, "mem_psi_avg10"),
	};

	memset(out, 0, sizeof(*out));
	out->assessed = true;
	check_steal(rep, &b, out);
	check_throttle(rep, out);
	check_cpu_share(rep, out);
	check_scaling(rep, &b, out);
	check_mem_share(rep, out);
	check_mem_bandwidth(rep, &b, out);
	check_guest_memory(rep, &b, out);
	check_storage(rep, out);
	check_iops(rep, &b, out);
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
