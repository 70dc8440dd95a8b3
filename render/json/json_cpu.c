/*
 * json_cpu.c — the "cpu" object: the prime passes (events, seconds and
 * events/s, so events/s can be checked against its parts), scaling, the
 * crypto passes (bytes, seconds, MB/s; null ones with null_reasons), steal
 * and throttling. Unknown or not measured values are null.
 */
#include <math.h>
#include <stdio.h>

#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static cJSON *prime_obj(const struct cpu_prime_pass *p)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "threads", p->threads);
	cJSON_AddBoolToObject(o, "pinned", p->pinned);
	cJSON_AddNumberToObject(o, "events", (double)p->events);
	json_add_mdbl(o, "seconds", (struct mdbl){ p->seconds, p->eps.ok });
	json_add_mdbl(o, "events_per_s", p->eps);
	/* 95% half-width from the per-0.2 s rates (core/uncert.h); null when fewer than 2 */
	json_add_mdbl(o, "events_per_s_u95", (struct mdbl){ p->eps_u, p->eps.ok && isfinite(p->eps_u) });
	cJSON_AddNumberToObject(o, "rate_samples", p->nsub);
	json_add_mdbl(o, "cpu_seconds", (struct mdbl){ p->cpu_seconds, p->eps.ok });
	cJSON_AddBoolToObject(o, "complete", p->complete);
	json_add_pass_cpu(o, &p->cpu);
	return o;
}

static cJSON *crypto_obj(const struct cpu_crypto_pass *p)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "threads", p->threads);
	cJSON_AddNumberToObject(o, "bytes", (double)p->bytes);
	/* the window's wall and CPU time are measured whenever the pass ran, also
	 * when its MB/s is not (a thread idle: bytes / seconds would not be N threads') */
	json_add_mdbl(o, "seconds", (struct mdbl){ p->seconds, p->seconds > 0 });
	json_add_mdbl(o, "mbps", p->mbps);
	json_add_mdbl(o, "cpu_seconds", (struct mdbl){ p->cpu_seconds, p->seconds > 0 });
	cJSON_AddBoolToObject(o, "complete", p->complete);
	json_add_pass_cpu(o, &p->cpu);
	/* each null metric with its reason */
	if (!p->mbps.ok) {
		cJSON *nr = cJSON_AddObjectToObject(o, "null_reasons");
		const char *why = p->null_reason[0] ? p->null_reason : "not measured";

		if (nr) {
			cJSON_AddStringToObject(nr, "mbps", why);
			if (!(p->seconds > 0)) {
				cJSON_AddStringToObject(nr, "seconds", why);
				cJSON_AddStringToObject(nr, "cpu_seconds", why);
			}
		}
	}
	return o;
}

cJSON *json_cpu(const struct bench_report *rep)
{
	const struct cpu_result *r = &rep->cpu;
	cJSON *o = cJSON_CreateObject(), *pr, *cr, *tl;

	if (!o)
		return NULL;
	pr = cJSON_AddObjectToObject(o, "prime");
	if (!pr)
		goto fail;
	cJSON_AddStringToObject(pr, "event", "sysbench cpu 1.0.20: primes below max_prime by trial division");
	cJSON_AddNumberToObject(pr, "max_prime", r->max_prime);
	cJSON_AddNumberToObject(pr, "primes_found", (double)r->prime_count);
	cJSON_AddNumberToObject(pr, "time_s", r->time_s);
	cJSON_AddItemToObject(pr, "single", prime_obj(&r->single));
	cJSON_AddItemToObject(pr, "multi", prime_obj(&r->multi));
	json_add_mdbl(pr, "scaling", r->scaling);
	json_add_mdbl(pr, "scaling_u95", (struct mdbl){ r->scaling_u, r->scaling.ok && isfinite(r->scaling_u) });

	cJSON_AddNumberToObject(o, "threads", r->threads);
	json_add_str(o, "threads_source", r->threads_source);
	cJSON_AddNumberToObject(o, "affinity_cpus", r->affinity_cpus);
	json_add_mdbl(o, "quota_cpus", r->quota_cpus);
	/* a quota below the threads: every pass's cpu_share is against it, the figures are the quota's */
	if (r->quota_cpus.ok && r->quota_cpus.v < r->threads) {
		char note[160];

		snprintf(note, sizeof(note), "the CPU figures are for a cgroup quota of %.2g CPU: each "
			 "pass's cpu_share is against min(threads, %.2g)", r->quota_cpus.v, r->quota_cpus.v);
		cJSON_AddStringToObject(o, "quota_note", note);
	} else {
		cJSON_AddNullToObject(o, "quota_note");
	}

	cr = cJSON_AddObjectToObject(o, "crypto");
	if (!cr)
		goto fail;
	cJSON_AddBoolToObject(cr, "available", r->crypto_available);
	json_add_str(cr, "reason", r->crypto_reason);
	cJSON_AddNumberToObject(cr, "buffer_bytes", CPU_CRYPTO_BUF);
	json_add_mbool(cr, "aes_ni", r->aes_ni);
	json_add_mbool(cr, "sha_ext", r->sha_ext);
	if (r->crypto_available) {
		cJSON_AddItemToObject(cr, "aes_256_gcm_single", crypto_obj(&r->aes1));
		cJSON_AddItemToObject(cr, "aes_256_gcm_multi", crypto_obj(&r->aesn));
		cJSON_AddItemToObject(cr, "sha256_single", crypto_obj(&r->sha1));
		cJSON_AddItemToObject(cr, "sha256_multi", crypto_obj(&r->shan));
	}

	json_add_mdbl(o, "steal_pct", r->steal_pct);
	json_add_mu64(o, "steal_ticks", (struct mu64){ r->steal_ticks, r->steal_pct.ok });
	json_add_mu64(o, "total_ticks", (struct mu64){ r->total_ticks, r->steal_pct.ok });
	tl = cJSON_AddArrayToObject(o, "steal_timeline_pct");
	if (!tl)
		goto fail;
	for (unsigned i = 0; i < r->nsteal; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateNumber(r->steal_tl[i]));
	json_add_mu64(o, "cgroup_version",
		      (struct mu64){ (uint64_t)r->cgroup_version, r->cgroup_version > 0 });
	json_add_mu64(o, "nr_periods", r->nr_periods);
	json_add_mu64(o, "throttled_periods", r->throttled_periods);
	json_add_mdbl(o, "throttled_s", r->throttled_s);
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

#endif
