/*
 * cgroup_limits.c — the CPU quota and the memory limit over the levels of
 * the process's cgroup (a limit may sit on any ancestor: the lowest one
 * binds), and the effective CPU count. One reader for the cpu, mem and
 * sysinfo modules, so they agree on what the limits are.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cgroup_limits.h"
#include "root_read.h"

/* v1 "no limit" is LONG_MAX rounded down to a page, e.g. 9223372036854771712 */
#define CG1_MEM_UNLIMITED (1ULL << 62)

/* Strict unsigned decimal; trailing whitespace allowed. */
static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || *s < '0' || *s > '9')
		return false;
	x = strtoull(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*v = x;
	return true;
}

/* A one-line cgroup file, cut as root_cut_line does; false when absent or empty. */
static bool read_line(const char *root, const char *dir, const char *name, char *buf, size_t n)
{
	return cgroup_read(root, dir, name, buf, n) > 0 && root_cut_line(buf);
}

static bool quota_level(const char *root, const char *dir, int ver, void *arg)
{
	struct cgroup_cpu_quota *q = arg;
	char buf[96], pbuf[64], *sp;
	uint64_t quota = 0, period = 0;

	if (ver == 2) {
		if (!read_line(root, dir, "cpu.max", buf, sizeof(buf)))
			return true;
		sp = strchr(buf, ' ');
		if (!sp)
			return true;
		*sp = '\0';
		if (strcmp(buf, "max") == 0) {
			q->seen = true;
			return true;
		}
		if (!parse_u64(buf, &quota) || !parse_u64(sp + 1, &period))
			return true;
	} else {
		if (!read_line(root, dir, "cpu.cfs_quota_us", buf, sizeof(buf)))
			return true;
		if (strcmp(buf, "-1") == 0) {
			q->seen = true;
			return true;
		}
		if (!parse_u64(buf, &quota) ||
		    !read_line(root, dir, "cpu.cfs_period_us", pbuf, sizeof(pbuf)) ||
		    !parse_u64(pbuf, &period))
			return true;
	}
	if (quota > 0 && period > 0) {
		double c = (double)quota / (double)period;

		q->seen = true;
		if (!q->limited || c < q->cpus)
			q->cpus = c;
		q->limited = true;
	}
	return true;
}

void cgroup_cpu_quota(const char *root, struct cgroup_cpu_quota *q)
{
	memset(q, 0, sizeof(*q));
	q->version = cgroup_walk(root, "cpu", quota_level, q);
}

/* "key value" line of memory.stat */
static bool stat_key(const char *root, const char *dir, const char *key, uint64_t *v)
{
	char buf[8192];
	size_t kl = strlen(key);

	if (cgroup_read(root, dir, "memory.stat", buf, sizeof(buf)) <= 0)
		return false;
	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ' ') {
			char *end;

			*v = strtoull(p + kl + 1, &end, 10);
			return end != p + kl + 1;
		}
	}
	return false;
}

static bool memcg_level(const char *root, const char *dir, int ver, void *arg)
{
	struct cgroup_mem_limit *m = arg;
	char buf[64];
	uint64_t v, cur, file = 0;

	if (!read_line(root, dir, ver == 2 ? "memory.max" : "memory.limit_in_bytes", buf,
		       sizeof(buf)))
		return true;
	if (ver == 2 && strcmp(buf, "max") == 0) {
		m->seen = true;
		return true;
	}
	if (!parse_u64(buf, &v) || v == 0)
		return true;
	m->seen = true;
	if ((ver == 1 && v >= CG1_MEM_UNLIMITED) || (m->limited && v >= m->limit))
		return true;
	m->limited = true;
	m->limit = v;
	/* the binding level's usage; page cache can be reclaimed, so it is left out */
	m->used_ok = read_line(root, dir, ver == 2 ? "memory.current" : "memory.usage_in_bytes",
			       buf, sizeof(buf)) && parse_u64(buf, &cur);
	if (m->used_ok) {
		stat_key(root, dir, ver == 2 ? "file" : "total_cache", &file);
		m->used = cur > file ? cur - file : 0;
	}
	return true;
}

void cgroup_mem_limit(const char *root, struct cgroup_mem_limit *m)
{
	memset(m, 0, sizeof(*m));
	m->version = cgroup_walk(root, "memory", memcg_level, m);
}

unsigned cgroup_effective_cpus(unsigned affinity, double quota_cpus)
{
	unsigned n = affinity ? affinity : 1;

	if (quota_cpus > 0 && isfinite(quota_cpus)) {
		double q = ceil(quota_cpus - 1e-9);

		if (q < 1)
			q = 1;
		if (q < (double)n)
			n = (unsigned)q;
	}
	return n;
}
