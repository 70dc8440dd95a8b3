/*
 * mem_cpuid.c — cache sizes from CPUID where sysfs has no cache dirs (some
 * VMs and containers hide /sys/devices/system/cpu/cpu0/cache). Intel's
 * leaf 4 (deterministic cache parameters) and AMD's 0x8000001D (cache
 * topology, with TOPOEXT) share one register layout, decoded by a pure
 * function so known dumps can test it. AMD's legacy 0x80000006 is not
 * used: its L3 field is the whole socket's (192 MiB on an EPYC whose
 * cores share 32 MiB per CCX), not the cache a core's working set sees.
 */
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "mem.h"

#define TOPOEXT_BIT (1U << 22)  /* CPUID 0x80000001 ECX: leaf 0x8000001D valid */
#define MAX_SUBLEAF 16

bool mem_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct mem_cpuid_cache *c)
{
	uint64_t ways = (ebx >> 22) + 1, parts = ((ebx >> 12) & 0x3ff) + 1;
	uint64_t line = (ebx & 0xfff) + 1, sets = (uint64_t)ecx + 1;

	memset(c, 0, sizeof(*c));
	c->type = eax & 0x1f;
	if (c->type == MEM_CPUID_NONE)
		return false;
	c->level = (eax >> 5) & 0x7;
	c->bytes = ways * parts * line * sets;
	return true;
}

/* Fills l1d, l2 and the last level from a decoded list; false when no data cache was in it. */
static bool take_caches(const struct mem_cpuid_cache *list, unsigned n, struct mem_host *h)
{
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		const struct mem_cpuid_cache *c = &list[i];

		if (c->type != MEM_CPUID_DATA && c->type != MEM_CPUID_UNIFIED)
			continue;
		any = true;
		if (c->level == 1)
			h->l1d = mu64_of(c->bytes);
		else if (c->level == 2)
			h->l2 = mu64_of(c->bytes);
		if (c->level >= 2 && c->level >= h->llc_level) {
			h->llc = mu64_of(c->bytes);
			h->llc_level = c->level;
		}
	}
	return any && h->llc.ok;
}

#if defined(__x86_64__) || defined(__i386__)
/* Subleaves of leaf until the type-0 terminator; how many were decoded. */
static unsigned read_leaf(unsigned leaf, struct mem_cpuid_cache *list)
{
	unsigned n = 0;

	for (unsigned sub = 0; sub < MAX_SUBLEAF; sub++) {
		unsigned a, b, c, d;

		__cpuid_count(leaf, sub, a, b, c, d);
		(void)d;
		if (!mem_cpuid_cache_decode(a, b, c, &list[n]))
			break;
		n++;
	}
	return n;
}

bool mem_cpuid_caches(struct mem_host *h)
{
	struct mem_cpuid_cache list[MAX_SUBLEAF];
	struct mem_host tmp;
	unsigned a, b, c, d, n;

	memset(&tmp, 0, sizeof(tmp));
	/* Intel (and others) leaf 4; AMD reserves it (zeros), then 0x8000001D */
	if (__get_cpuid_max(0, NULL) >= 4 && (n = read_leaf(4, list)) > 0 &&
	    take_caches(list, n, &tmp))
		goto found;
	memset(&tmp, 0, sizeof(tmp));
	if (__get_cpuid_max(0x80000000, NULL) >= 0x8000001D &&
	    __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & TOPOEXT_BIT) &&
	    (n = read_leaf(0x8000001D, list)) > 0 && take_caches(list, n, &tmp))
		goto found;
	return false;
found:
	h->l1d = tmp.l1d;
	h->l2 = tmp.l2;
	h->llc = tmp.llc;
	h->llc_level = tmp.llc_level;
	return true;
}
#else
bool mem_cpuid_caches(struct mem_host *h)
{
	(void)h;
	return false;
}
#endif

bool mem_cpuid_caches_from(const uint32_t (*regs)[3], unsigned n, struct mem_host *h)
{
	struct mem_cpuid_cache list[MAX_SUBLEAF];
	unsigned k = 0;

	for (unsigned i = 0; i < n && k < MAX_SUBLEAF; i++) {
		if (!mem_cpuid_cache_decode(regs[i][0], regs[i][1], regs[i][2], &list[k]))
			break;
		k++;
	}
	return take_caches(list, k, h);
}
