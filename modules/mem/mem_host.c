/*
 * mem_host.c — what the mem module reads below ctx->root: cache sizes
 * (sysfs cache index dirs of cpu0), MemAvailable, the memory cgroup's
 * limit, and the oversell signs over the module's run (the snapshot from
 * core/host_mem.c, plus swap-in and stall time during it). Every reader
 * leaves "unknown" when its file is absent, so fixture trees can stand in
 * for /proc and /sys.
 */
#include <stdio.h>
#include <string.h>

#include "core/cgroup_limits.h"
#include "core/host_mem.h"
#include "core/root_read.h"
#include "mem.h"

#define MEM_PSI_FLAG_FRAC 0.01   /* stall share of the module's run */

static void read_caches(const char *root, struct mem_host *h)
{
	for (int i = 0; i < 16; i++) {
		char rel[128], buf[64];
		uint64_t level, bytes;

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!root_read_u64(root, rel, &level))
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (root_read_line(root, rel, buf, sizeof(buf)) && strcmp(buf, "Instruction") == 0)
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!root_read_line(root, rel, buf, sizeof(buf)) || !mem_parse_cache_size(buf, &bytes))
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
	if (h->llc.ok)
		h->cache_source = "sysfs";
	else if (!root[0] && mem_cpuid_caches(h)) /* a fixture root stands for another machine */
		h->cache_source = "cpuid";
	if (root_read_key(root, "/proc/meminfo", "MemAvailable", &kb))
		h->avail = mu64_of(kb * 1024);
	read_cgroup(root, h);
}

void mem_signs_begin(const char *root, struct mem_signs_start *s0)
{
	struct host_mem_signs h;

	host_mem_read(root, &h);
	s0->pswpin = h.pswpin;
	s0->psi_some_total_us = h.psi_some_total_us;
}

void mem_signs_end(const char *root, const struct mem_signs_start *s0, double seconds,
		   struct mem_signs *s)
{
	const struct host_mem_signs *h = &s->host;

	memset(s, 0, sizeof(*s));
	host_mem_read(root, &s->host);
	if (s0->pswpin.ok && h->pswpin.ok) {
		s->swapin_pages = mu64_of(h->pswpin.v >= s0->pswpin.v ? h->pswpin.v - s0->pswpin.v : 0);
		if (seconds > 0)
			s->swapin_per_s = mdbl_of((double)s->swapin_pages.v / seconds);
	}
	if (s0->psi_some_total_us.ok && h->psi_some_total_us.ok)
		s->psi_some_ms = mdbl_of(h->psi_some_total_us.v >= s0->psi_some_total_us.v ?
					 (h->psi_some_total_us.v - s0->psi_some_total_us.v) / 1000.0 : 0);

	/* the snapshot's signs as sysinfo words them, then what the run itself saw */
	s->nflags = host_mem_flags(h, false, s->flags, MEM_MAX_FLAGS);
	if (s->swapin_pages.ok && s->swapin_pages.v > 0)
		mem_flag(s, "%llu pages swapped in during the memory test",
			 (unsigned long long)s->swapin_pages.v);
	if ((h->psi_some_avg10.ok && h->psi_some_avg10.v >= HOST_MEM_PSI_FLAG_AVG10) ||
	    (s->psi_some_ms.ok && seconds > 0 &&
	     s->psi_some_ms.v / 1000.0 >= MEM_PSI_FLAG_FRAC * seconds))
		mem_flag(s, "memory pressure: some avg10 %.2f%%, %.0f ms stalled during the test",
			 h->psi_some_avg10.ok ? h->psi_some_avg10.v : 0.0,
			 s->psi_some_ms.ok ? s->psi_some_ms.v : 0.0);
}
