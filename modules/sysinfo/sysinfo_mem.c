/*
 * sysinfo_mem.c — RAM and swap from /proc/meminfo, the cgroup memory
 * limit from memory.max (v2) or memory.limit_in_bytes (v1). lxcfs can
 * serve an empty or zeroed meminfo: that is unknown, never 0 bytes.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sysinfo_priv.h"

/* v1 "no limit" is LONG_MAX rounded down to a page, e.g. 9223372036854771712 */
#define CG1_UNLIMITED (1ULL << 62)

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

struct memcg_walk {
	bool seen, limited;
	uint64_t limit;
	int version;
};

static bool memcg_level(const char *root, const char *dir, int ver, void *arg)
{
	struct memcg_walk *w = arg;
	char rel[PATH_MAX + 32], buf[64];
	uint64_t v;

	snprintf(rel, sizeof(rel), "%s/%s", dir, ver == 2 ? "memory.max" : "memory.limit_in_bytes");
	if (si_read_line(root, rel, buf, sizeof(buf)) < 0)
		return true;
	if (ver == 2 && strcmp(buf, "max") == 0) {
		w->seen = true;
	} else if (si_parse_u64(buf, &v) && v > 0) {
		w->seen = true;
		if (!(ver == 1 && v >= CG1_UNLIMITED) && (!w->limited || v < w->limit)) {
			w->limited = true;
			w->limit = v;
		}
	}
	w->version = ver;
	return true;
}

void si_mem(const char *root, struct sys_mem *mem)
{
	struct memcg_walk w = { 0 };

	meminfo(root, mem);
	if (si_cgroup_walk(root, "memory", memcg_level, &w) == 0 && w.seen) {
		mem->cgroup_limited = mbool_of(w.limited);
		if (w.limited)
			mem->cgroup_limit = mu64_of(w.limit);
		si_copy(mem->cgroup_source, sizeof(mem->cgroup_source),
			w.version == 2 ? "cgroup2 memory.max" : "cgroup1 limit_in_bytes");
	}
}
