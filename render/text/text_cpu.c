/*
 * text_cpu.c — the CPU section in the ecs/LemonBench layout ("1 Thread
 * Test : 4123 events/s"), then scaling, crypto throughput, steal and
 * throttling; "unknown" where a figure could not be measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"

static const char *yes_no(enum mbool b)
{
	return b == MB_TRUE ? "yes" : b == MB_FALSE ? "no" : "unknown";
}

/* "1234 events/s" plus the grade of metric, or the reason there is no figure. */
static void eps_line(FILE *f, const struct render_style *st, const struct grade_result *g,
		     const char *label, const struct cpu_prime_pass *p, const char *metric)
{
	char v[160], pc[64];

	if (!p->eps.ok) {
		text_kv(f, st, label, "not measured");
		return;
	}
	text_pass_cpu(pc, sizeof(pc), &p->cpu);
	if (isfinite(p->eps_u))
		snprintf(v, sizeof(v), "%.2f ± %.2f events/s (%llu in %.2f s; %s)%s", p->eps.v, p->eps_u,
			 (unsigned long long)p->events, p->seconds, pc, p->complete ? "" : " [partial]");
	else
		snprintf(v, sizeof(v), "%.2f events/s (%llu in %.2f s; %s)%s", p->eps.v,
			 (unsigned long long)p->events, p->seconds, pc, p->complete ? "" : " [partial]");
	fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), label, text_color(st, "\033[0m"), v);
	text_grade_tag(f, st, g, metric, 25 + strlen(v), 25);
}

static void crypto_line(FILE *f, const struct render_style *st, const char *label,
			const struct cpu_crypto_pass *one, const struct cpu_crypto_pass *n)
{
	char a[136], b[136], v[320], head[64];

	render_crypto_mbps(a, sizeof(a), one);
	render_crypto_mbps(b, sizeof(b), n);
	snprintf(v, sizeof(v), "%s (1 thread), %s (%u thread%s)", a, b, n->threads,
		 n->threads == 1 ? "" : "s");
	if (25 + strlen(v) <= 80) {
		text_kv(f, st, label, "%s", v);
		return;
	}
	/* a "not measured: <why>" is long: wrapped under the value, as text_kv lays it out */
	snprintf(head, sizeof(head), " %s%-22s%s:", text_color(st, "\033[36m"), label,
		 text_color(st, "\033[0m"));
	text_wrap(f, head, 24, v);
}

void text_cpu(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct cpu_result *r = &rep->cpu;
	const struct grade_result *g = &rep->grade;
	char label[32];

	text_heading(f, st, "CPU (sysbench-comparable prime events)");
	text_kv(f, st, "Event", "primes below %u (%lu found), %.1f s per pass", r->max_prime,
		r->prime_count, r->time_s);
	if (r->quota_cpus.ok)
		text_kv(f, st, "Threads", "%u (%s; %u CPUs in the affinity mask, quota %.2f CPUs)",
			r->threads, r->threads_source ? r->threads_source : "?", r->affinity_cpus,
			r->quota_cpus.v);
	else
		text_kv(f, st, "Threads", "%u (%s; %u CPUs in the affinity mask, no quota)", r->threads,
			r->threads_source ? r->threads_source : "?", r->affinity_cpus);
	/* a quota below the threads: the figures (and each pass's CPU share) are the quota's */
	if (r->quota_cpus.ok && r->quota_cpus.v < r->threads)
		text_kv(f, st, "Graded against", "a cgroup quota of %.2g CPU: the CPU figures are for "
			"that quota, each pass's CPU share is of min(threads, %.2g)", r->quota_cpus.v,
			r->quota_cpus.v);
	eps_line(f, st, g, "1 Thread Test", &r->single, "cpu_single_eps");
	snprintf(label, sizeof(label), "%u Thread%s Test", r->multi.threads,
		 r->multi.threads == 1 ? "" : "s");
	eps_line(f, st, g, label, &r->multi, "cpu_multi_eps");
	if (r->scaling.ok) {
		char v[64];

		snprintf(v, sizeof(v), "%.2fx on %u thread%s", r->scaling.v, r->multi.threads,
			 r->multi.threads == 1 ? "" : "s");
		fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), "Scaling",
			text_color(st, "\033[0m"), v);
		text_grade_tag(f, st, g, "cpu_scaling", 25 + strlen(v), 25);
	} else {
		text_kv(f, st, "Scaling", "unknown");
	}
	text_kv(f, st, "AES-NI / SHA ext", "%s / %s", yes_no(r->aes_ni), yes_no(r->sha_ext));
	if (r->crypto_available && !r->crypto_reason[0]) {
		crypto_line(f, st, "AES-256-GCM (16 KiB)", &r->aes1, &r->aesn);
		crypto_line(f, st, "SHA-256 (16 KiB)", &r->sha1, &r->shan);
	} else {
		text_kv(f, st, "AES-256-GCM / SHA-256", "%s", r->crypto_reason);
	}
	if (r->steal_pct.ok) {
		char v[96];

		snprintf(v, sizeof(v), "%.2f%% (%llu of %llu busy + steal ticks)", r->steal_pct.v,
			 (unsigned long long)r->steal_ticks, (unsigned long long)r->total_ticks);
		fprintf(f, " %s%-22s%s: %s", text_color(st, "\033[36m"), "Steal",
			text_color(st, "\033[0m"), v);
		text_grade_tag(f, st, g, "cpu_steal_pct", 25 + strlen(v), 25);
	} else {
		text_kv(f, st, "Steal", "unknown (/proc/stat unreadable or without a steal field)");
	}
	if (r->throttled_periods.ok)
		text_kv(f, st, "Throttling", "%llu of %llu periods throttled, %.2f s run-queue time summed over CPUs (cgroup v%d)",
			(unsigned long long)r->throttled_periods.v,
			(unsigned long long)(r->nr_periods.ok ? r->nr_periods.v : 0),
			r->throttled_s.ok ? r->throttled_s.v : 0, r->cgroup_version);
	else
		text_kv(f, st, "Throttling", "unknown (no readable cgroup cpu.stat)");
}
