/*
 * mem_host.c — what the mem module reads below ctx->root: cache sizes
 * (sysfs cache index dirs of cpu0), MemAvailable, the memory cgroup's
 * limit, and the oversell signs (virtio_balloon, KSM, swap, swap-in,
 * /proc/pressure/memory). Every reader leaves "unknown" when its file is
 * absent, so fixture trees can stand in for /proc and /sys.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cgroup_limits.h"
#include "mem.h"

#define MEM_PSI_FLAG_AVG10 1.0   /* % of time some task stalled on memory */
#define MEM_PSI_FLAG_FRAC 0.01   /* stall share of the module's run */

static FILE *open_at(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s%s", root, rel) >= (int)sizeof(path))
		return NULL;
	return fopen(path, "re");
}

static bool exists_at(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s%s", root, rel) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* First line of a small file, trailing space cut; false when absent or empty. */
static bool read_line(const char *root, const char *rel, char *buf, size_t n)
{
	FILE *f = open_at(root, rel);
	size_t len;

	if (!f)
		return false;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return len > 0;
}

static bool read_u64(const char *root, const char *rel, uint64_t *v)
{
	char buf[64], *end;

	if (!read_line(root, rel, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, &end, 10);
	return end != buf && *end == '\0';
}

/* "key value" lines (/proc/meminfo with "key:", /proc/vmstat, memory.stat). */
static bool read_key(const char *root, const char *rel, const char *key, uint64_t *v)
{
	FILE *f = open_at(root, rel);
	char line[256];
	size_t kl = strlen(key);
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) == 0 && (line[kl] == ' ' || line[kl] == ':' ||
						     line[kl] == '\t')) {
			char *p = line + kl + (line[kl] == ':'), *end;

			*v = strtoull(p, &end, 10);
			ok = end != p;
			break;
		}
	}
	fclose(f);
	return ok;
}

static void read_caches(const char *root, struct mem_host *h)
{
	for (int i = 0; i < 16; i++) {
		char rel[128], buf[64];
		uint64_t level, bytes;

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!read_u64(root, rel, &level))
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (read_line(root, rel, buf, sizeof(buf)) && strcmp(buf, "Instruction") == 0)
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!read_line(root, rel, buf, sizeof(buf)) || !mem_parse_cache_size(buf, &bytes))
			continue;
		if (level == 1)
			h->l1d = mu64_of(bytes);
		else if (level == 2)
			h->l2 = mu64_of(bytes);
		if (level >= 2 && level >= h->llc_level) {
			h->llc = mu64_of(bytes);
			h->llc_level = (unsigned)level;
		}
	}
}

/* The memory cgroup's lowest limit on the way up, and that group's usage. */
static void read_cgroup(const char *root, struct mem_host *h)
{
	struct cgroup_mem_limit m;

	cgroup_mem_limit(root, &m);
	if (!m.limited)
		return;
	h->cg_limit = mu64_of(m.limit);
	if (m.used_ok)
		h->cg_used = mu64_of(m.used);
}

unsigned mem_threads(const char *root, unsigned affinity, unsigned override, const char **source)
{
	struct cgroup_cpu_quota q;
	unsigned n;

	if (affinity == 0)
		affinity = 1;
	if (override) {
		*source = "--mem-threads";
		return override;
	}
	cgroup_cpu_quota(root, &q);
	n = cgroup_effective_cpus(affinity, q.limited ? q.cpus : 0);
	*source = n < affinity ? "cgroup quota" : "affinity";
	return n;
}

void mem_read_host(const char *root, struct mem_host *h)
{
	uint64_t kb;

	memset(h, 0, sizeof(*h));
	read_caches(root, h);
	if (read_key(root, "/proc/meminfo", "MemAvailable", &kb))
		h->avail = mu64_of(kb * 1024);
	read_cgroup(root, h);
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=9209" */
static bool psi_line(const char *root, const char *kind, double *avg10, double *total_us)
{
	FILE *f = open_at(root, "/proc/pressure/memory");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char k[8];
		unsigned long long tot;

		if (sscanf(line, "%7s avg10=%lf avg60=%*f avg300=%*f total=%llu", k, avg10, &tot) == 3 &&
		    strcmp(k, kind) == 0) {
			*total_us = (double)tot;
			ok = true;
			break;
		}
	}
	fclose(f);
	return ok;
}

void mem_signs_begin(const char *root, struct mem_signs_start *s0)
{
	uint64_t v;
	double a, t;

	memset(s0, 0, sizeof(*s0));
	if (read_key(root, "/proc/vmstat", "pswpin", &v))
		s0->pswpin = mu64_of(v);
	if (psi_line(root, "some", &a, &t))
		s0->psi_some_total_us = mdbl_of(t);
}

void mem_signs_end(const char *root, const struct mem_signs_start *s0, double seconds,
		   struct mem_signs *s)
{
	uint64_t v, free_kb;
	double a, t;
	char buf[32];

	memset(s, 0, sizeof(*s));
	if (exists_at(root, "/sys/module/virtio_balloon") ||
	    exists_at(root, "/sys/bus/virtio/drivers/virtio_balloon"))
		s->balloon = MB_TRUE;
	else if (exists_at(root, "/sys/module") || exists_at(root, "/sys/bus/virtio"))
		s->balloon = MB_FALSE;
	if (read_line(root, "/sys/kernel/mm/ksm/run", buf, sizeof(buf)))
		s->ksm_run = mbool_of(strcmp(buf, "1") == 0);
	if (read_u64(root, "/sys/kernel/mm/ksm/pages_sharing", &v))
		s->ksm_pages_sharing = mu64_of(v);
	if (read_key(root, "/proc/meminfo", "SwapTotal", &v) &&
	    read_key(root, "/proc/meminfo", "SwapFree", &free_kb)) {
		s->swap_total = mu64_of(v * 1024);
		s->swap_used = mu64_of(v > free_kb ? (v - free_kb) * 1024 : 0);
	}
	if (s0->pswpin.ok && read_key(root, "/proc/vmstat", "pswpin", &v)) {
		s->swapin_pages = mu64_of(v >= s0->pswpin.v ? v - s0->pswpin.v : 0);
		if (seconds > 0)
			s->swapin_per_s = mdbl_of((double)s->swapin_pages.v / seconds);
	}
	if (psi_line(root, "some", &a, &t)) {
		s->psi_some_avg10 = mdbl_of(a);
		if (s0->psi_some_total_us.ok)
			s->psi_some_ms = mdbl_of(t >= s0->psi_some_total_us.v ?
						 (t - s0->psi_some_total_us.v) / 1000.0 : 0);
	}
	if (psi_line(root, "full", &a, &t))
		s->psi_full_avg10 = mdbl_of(a);

	if (s->balloon == MB_TRUE)
		mem_flag(s, "virtio_balloon loaded: the host can take memory back");
	if (s->ksm_run == MB_TRUE)
		mem_flag(s, "KSM active (%llu pages sharing): memory is deduplicated",
			 (unsigned long long)(s->ksm_pages_sharing.ok ? s->ksm_pages_sharing.v : 0));
	if (s->swap_used.ok && s->swap_used.v > 0)
		mem_flag(s, "swap in use: %llu MiB", (unsigned long long)(s->swap_used.v >> 20));
	if (s->swapin_pages.ok && s->swapin_pages.v > 0)
		mem_flag(s, "%llu pages swapped in during the memory test",
			 (unsigned long long)s->swapin_pages.v);
	if ((s->psi_some_avg10.ok && s->psi_some_avg10.v >= MEM_PSI_FLAG_AVG10) ||
	    (s->psi_some_ms.ok && seconds > 0 &&
	     s->psi_some_ms.v / 1000.0 >= MEM_PSI_FLAG_FRAC * seconds))
		mem_flag(s, "memory pressure: some avg10 %.2f%%, %.0f ms stalled during the test",
			 s->psi_some_avg10.ok ? s->psi_some_avg10.v : 0.0,
			 s->psi_some_ms.ok ? s->psi_some_ms.v : 0.0);
}
