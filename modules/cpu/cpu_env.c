/*
 * cpu_env.c — cgroup CPU quota (v2 cpu.max, v1 cfs_quota_us/period_us),
 * cpu.stat throttling counters per level, and the crypto flags of
 * /proc/cpuinfo, all read below ctx->root so fixture trees stand in.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cgroup.h"
#include "core/cgroup_limits.h"
#include "cpu_env.h"

struct mdbl cpu_quota_read(const char *root, int *version)
{
	struct cgroup_cpu_quota q;

	cgroup_cpu_quota(root, &q);
	if (version)
		*version = q.version;
	return q.limited ? mdbl_of(q.cpus) : (struct mdbl){ 0, false };
}

static bool throttle_level(const char *root, const char *dir, int ver, void *arg)
{
	struct cpu_throttle_snap *s = arg;
	char buf[1024];

	s->version = ver;
	if (s->n >= CPU_CG_LEVELS)
		return false;
	if (cgroup_read(root, dir, "cpu.stat", buf, sizeof(buf)) > 0)
		cpu_throttle_parse(buf, ver, &s->lvl[s->n]);
	else
		memset(&s->lvl[s->n], 0, sizeof(s->lvl[0]));
	s->n++;
	return true;
}

void cpu_throttle_read(const char *root, struct cpu_throttle_snap *s)
{
	memset(s, 0, sizeof(*s));
	cgroup_walk(root, "cpu", throttle_level, s);
}

void cpu_throttle_delta(const struct cpu_throttle_snap *a, const struct cpu_throttle_snap *b,
			struct cpu_result *r)
{
	bool any = false;
	uint64_t best_thr = 0, best_per = 0, best_ns = 0;

	r->cgroup_version = b->version;
	for (unsigned i = 0; i < a->n && i < b->n; i++) {
		const struct cpu_throttle_counters *x = &a->lvl[i], *y = &b->lvl[i];
		uint64_t thr, per, ns;

		if (!x->ok || !y->ok || y->nr_throttled < x->nr_throttled ||
		    y->nr_periods < x->nr_periods || y->throttled_ns < x->throttled_ns)
			continue;
		thr = y->nr_throttled - x->nr_throttled;
		per = y->nr_periods - x->nr_periods;
		ns = y->throttled_ns - x->throttled_ns;
		/* the level whose quota bit hardest: most time lost */
		if (!any || ns > best_ns || (ns == best_ns && thr > best_thr)) {
			best_thr = thr;
			best_per = per;
			best_ns = ns;
		}
		any = true;
	}
	if (!any)
		return;
	r->throttled_periods = mu64_of(best_thr);
	r->nr_periods = mu64_of(best_per);
	r->throttled_s = mdbl_of((double)best_ns / 1e9);
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)) != NULL; p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\n' || p[n] == '\t';

		if (start && end)
			return true;
	}
	return false;
}

void cpu_flags_read(const char *root, enum mbool *aes, enum mbool *sha)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f;

	*aes = *sha = MB_UNKNOWN;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root ? root : "");
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');
		bool x86 = strncmp(line, "flags", 5) == 0, arm = strncmp(line, "Features", 8) == 0;

		if (!colon || !(x86 || arm))
			continue;
		*aes = mbool_of(has_word(colon + 1, "aes"));
		*sha = mbool_of(has_word(colon + 1, x86 ? "sha_ni" : "sha2"));
		break;
	}
	free(line);
	fclose(f);
}
