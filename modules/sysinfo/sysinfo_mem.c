/*
 * sysinfo_mem.c — RAM and swap from /proc/meminfo, the cgroup memory
 * limit from memory.max (v2) or memory.limit_in_bytes (v1), the oversell
 * signs (core/host_mem.c, as the mem module reads them). lxcfs can serve an
 * empty or zeroed meminfo: that is unknown, never 0 bytes.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/cgroup_limits.h"
#include "core/host_mem.h"
#include "sysinfo_priv.h"

enum { MI_TOTAL, MI_FREE, MI_AVAIL, MI_BUFFERS, MI_CACHED, MI_SWTOTAL, MI_SWFREE, MI_N };

static const char *const mi_keys[MI_N] = {
	"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapTotal", "SwapFree",
};

/* "  24684084 kB" -> bytes; false when malformed */
static bool parse_kb(char *val, uint64_t *bytes)
{
	char *kb = strstr(val, " kB");
	uint64_t v;

	if (kb)
		*kb = '\0';
	if (!si_parse_u64(val, &v) || v > UINT64_MAX / 1024)
		return false;
	*bytes = kb ? v * 1024 : v;
	return true;
}

static void meminfo(const char *root, struct sys_mem *mem)
{
	struct mu64 mi[MI_N] = { { 0, false } };
	char line[256];
	FILE *f = si_fopen(root, "/proc/meminfo");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *key, *val;
		uint64_t b;

		if (!si_split_kv(line, &key, &val))
			continue;
		for (int i = 0; i < MI_N; i++)
			if (strcmp(key, mi_keys[i]) == 0 && !mi[i].ok && parse_kb(val, &b))
				mi[i] = mu64_of(b);
	}
	fclose(f);

	/* no or zero MemTotal: nothing in this file can be trusted */
	if (!mi[MI_TOTAL].ok || mi[MI_TOTAL].v == 0)
		return;
	mem->ram_total = mi[MI_TOTAL];
	if (mi[MI_AVAIL].ok) {
		mem->ram_avail = mi[MI_AVAIL];
	} else if (mi[MI_FREE].ok && mi[MI_BUFFERS].ok && mi[MI_CACHED].ok) {
		/* kernels before 3.14 have no MemAvailable */
		uint64_t est = mi[MI_FREE].v + mi[MI_BUFFERS].v + mi[MI_CACHED].v;

		mem->ram_avail = mu64_of(est < mi[MI_TOTAL].v ? est : mi[MI_TOTAL].v);
		mem->avail_estimated = true;
	}
	if (mem->ram_avail.ok && mem->ram_avail.v <= mem->ram_total.v)
		mem->ram_used = mu64_of(mem->ram_total.v - mem->ram_avail.v);
	if (mi[MI_SWTOTAL].ok) {
		mem->swap_total = mi[MI_SWTOTAL];
		if (mi[MI_SWFREE].ok && mi[MI_SWFREE].v <= mi[MI_SWTOTAL].v)
			mem->swap_used = mu64_of(mi[MI_SWTOTAL].v - mi[MI_SWFREE].v);
	}
}

/* Which signs could not be read, so "none seen" does not claim more than was looked at. */
static void unknown_signs(const struct host_mem_signs *s, char *buf, size_t n)
{
	/* the balloon driver is a figure (its own row), not a sign */
	const char *name[3] = { "KSM", "swap", "pressure" };
	bool unknown[3] = { s->ksm_run == MB_UNKNOWN, !s->swap_used.ok, !s->psi_some_avg10.ok };
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (unknown[i] && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", name[i]);
}

void si_mem(const char *root, struct sys_mem *mem)
{
	struct cgroup_mem_limit w;

	meminfo(root, mem);
	host_mem_read(root, &mem->signs);
	mem->nflags = host_mem_flags(&mem->signs, true, mem->flags, SYS_MEM_FLAGS);
	unknown_signs(&mem->signs, mem->signs_unknown, sizeof(mem->signs_unknown));
	cgroup_mem_limit(root, &w);
	if (w.version && w.seen) {
		mem->cgroup_limited = mbool_of(w.limited);
		if (w.limited)
			mem->cgroup_limit = mu64_of(w.limit);
		si_copy(mem->cgroup_source, sizeof(mem->cgroup_source),
			w.version == 2 ? "cgroup2 memory.max" : "cgroup1 limit_in_bytes");
	}
}
