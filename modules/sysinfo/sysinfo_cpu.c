/*
 * sysinfo_cpu.c — CPU model, counts, cgroup quota, frequency, cache and
 * feature flags from /proc/cpuinfo, /sys/devices/system/cpu and the
 * cgroup tree. Keys are matched exactly: substring matching counted
 * "Common KVM processor" lines as CPUs in bench.sh.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cgroup_limits.h"
#include "sysinfo_priv.h"

#define MAX_ARM_IDS 4

struct arm_part {
	unsigned impl, part;
	const char *name;
};

/* The common cores; an unknown part is shown by number. */
static const struct arm_part arm_parts[] = {
	{ 0x41, 0xc07, "Cortex-A7" },      { 0x41, 0xc09, "Cortex-A9" },
	{ 0x41, 0xc0f, "Cortex-A15" },     { 0x41, 0xd01, "Cortex-A32" },
	{ 0x41, 0xd03, "Cortex-A53" },     { 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" },     { 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },     { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" },     { 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" },    { 0x41, 0xd0d, "Cortex-A77" },
	{ 0x41, 0xd40, "Neoverse-V1" },    { 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd44, "Cortex-X1" },      { 0x41, 0xd46, "Cortex-A510" },
	{ 0x41, 0xd47, "Cortex-A710" },    { 0x41, 0xd48, "Cortex-X2" },
	{ 0x41, 0xd49, "Neoverse-N2" },    { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd80, "Cortex-A520" },    { 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd84, "Neoverse-V3" },    { 0x41, 0xd8e, "Neoverse-N3" },
	{ 0x43, 0x0af, "ThunderX2 99xx" }, { 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "Kunpeng-920" },    { 0x4e, 0x004, "Carmel" },
	{ 0x50, 0x000, "X-Gene" },         { 0xc0, 0xac3, "Ampere-1" },
	{ 0xc0, 0xac4, "Ampere-1a" },
};

static const struct { unsigned impl; const char *name; } arm_vendors[] = {
	{ 0x41, "ARM" },      { 0x42, "Broadcom" }, { 0x43, "Cavium" },   { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },  { 0x50, "APM" },      { 0x51, "Qualcomm" },
	{ 0x53, "Samsung" },  { 0x61, "Apple" },    { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

const char *sysinfo_arm_part(unsigned implementer, unsigned part, const char **vendor)
{
	if (vendor) {
		*vendor = NULL;
		for (size_t i = 0; i < sizeof(arm_vendors) / sizeof(arm_vendors[0]); i++)
			if (arm_vendors[i].impl == implementer)
				*vendor = arm_vendors[i].name;
	}
	for (size_t i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
		if (arm_parts[i].impl == implementer && arm_parts[i].part == part)
			return arm_parts[i].name;
	return NULL;
}

int sysinfo_cpulist_count(const char *s)
{
	long total = 0;
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return -1;
	while (*p && *p != '\n') {
		char *e;
		long a, b;

		if (!isdigit((unsigned char)*p))
			return -1;
		a = strtol(p, &e, 10);
		b = a;
		if (*e == '-') {
			if (!isdigit((unsigned char)e[1]))
				return -1;
			b = strtol(e + 1, &e, 10);
		}
		if (b < a || a < 0 || b > 1 << 20)
			return -1;
		total += b - a + 1;
		if (total > 1 << 20)
			return -1;
		p = e;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n' && !isspace((unsigned char)*p))
			return -1;
		else
			break;
	}
	return (int)total;
}

struct cpuinfo_scan {
	char model_name[160], hardware[96], processor[160], other[160], other_key[16];
	char mhz[32], cache[32];
	char *flags, *features; /* malloc'd: flag lines can be long */
	unsigned nproc;
	unsigned arm_impl[MAX_ARM_IDS], arm_part[MAX_ARM_IDS], n_arm;
	long cur_impl;
};

static void keep_first(char *dst, size_t n, const char *val)
{
	if (!dst[0] && val[0])
		si_copy(dst, n, val);
}

static void add_arm_id(struct cpuinfo_scan *sc, unsigned part)
{
	unsigned impl = sc->cur_impl >= 0 ? (unsigned)sc->cur_impl : 0;

	for (unsigned i = 0; i < sc->n_arm; i++)
		if (sc->arm_impl[i] == impl && sc->arm_part[i] == part)
			return;
	if (sc->n_arm < MAX_ARM_IDS) {
		sc->arm_impl[sc->n_arm] = impl;
		sc->arm_part[sc->n_arm++] = part;
	}
}

static bool parse_hex(const char *s, unsigned *v)
{
	char *e;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &e, 0);
	if (e == s || *e || errno || x > 0xffff)
		return false;
	*v = (unsigned)x;
	return true;
}

static void scan_cpuinfo(const char *root, struct cpuinfo_scan *sc)
{
	/* flags lines exceed 1 KiB on modern x86 */
	char line[8192];
	FILE *f = si_fopen(root, "/proc/cpuinfo");

	sc->cur_impl = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *key, *val;
		unsigned v;

		if (!si_split_kv(line, &key, &val))
			continue;
		if (strcmp(key, "processor") == 0 && si_parse_u64(val, &(uint64_t){ 0 }))
			sc->nproc++;
		else if (strcmp(key, "model name") == 0)
			keep_first(sc->model_name, sizeof(sc->model_name), val);
		else if (strcmp(key, "Hardware") == 0)
			keep_first(sc->hardware, sizeof(sc->hardware), val);
		else if (strcmp(key, "Processor") == 0)
			keep_first(sc->processor, sizeof(sc->processor), val);
		else if ((strcmp(key, "cpu model") == 0 || strcmp(key, "cpu") == 0 ||
			  strcmp(key, "uarch") == 0) && !sc->other[0]) {
			si_copy(sc->other, sizeof(sc->other), val);
			si_copy(sc->other_key, sizeof(sc->other_key), key);
		} else if (strcmp(key, "cpu MHz") == 0)
			keep_first(sc->mhz, sizeof(sc->mhz), val);
		else if (strcmp(key, "cache size") == 0)
			keep_first(sc->cache, sizeof(sc->cache), val);
		else if (strcmp(key, "flags") == 0 && !sc->flags)
			sc->flags = strdup(val);
		else if (strcmp(key, "Features") == 0 && !sc->features)
			sc->features = strdup(val);
		else if (strcmp(key, "CPU implementer") == 0)
			sc->cur_impl = parse_hex(val, &v) ? (long)v : -1;
		else if (strcmp(key, "CPU part") == 0 && parse_hex(val, &v))
			add_arm_id(sc, v);
	}
	fclose(f);
}

/* "ARM Cortex-A55 + Cortex-A76" from the distinct implementer/part pairs. */
static void arm_model(const struct cpuinfo_scan *sc, char *buf, size_t n)
{
	size_t len = 0;
	const char *last_vendor = NULL;

	buf[0] = '\0';
	for (unsigned i = 0; i < sc->n_arm && len < n; i++) {
		const char *vendor, *name = sysinfo_arm_part(sc->arm_impl[i], sc->arm_part[i], &vendor);
		char part[48];
		int w;

		if (name)
			si_copy(part, sizeof(part), name);
		else
			snprintf(part, sizeof(part), "part 0x%03x", sc->arm_part[i]);
		if (vendor && (!last_vendor || strcmp(vendor, last_vendor) != 0))
			w = snprintf(buf + len, n - len, "%s%s %s", i ? " + " : "", vendor, part);
		else if (vendor)
			w = snprintf(buf + len, n - len, "%s%s", i ? " + " : "", part);
		else
			w = snprintf(buf + len, n - len, "%simplementer 0x%02x %s", i ? " + " : "",
				     sc->arm_impl[i], part);
		if (w < 0)
			break;
		len += (size_t)w;
		last_vendor = vendor;
	}
	if (sc->hardware[0] && len < n)
		snprintf(buf + len, n - len, " (%s)", sc->hardware);
}

static void cpu_model(const struct cpuinfo_scan *sc, struct sys_cpu *cpu)
{
	/* "ARMv7 Processor rev 4 (v7l)" says less than the part IDs */
	bool generic = strncmp(sc->model_name, "ARMv", 4) == 0;

	if (sc->model_name[0] && !(generic && sc->n_arm)) {
		si_copy(cpu->model, sizeof(cpu->model), sc->model_name);
		si_copy(cpu->model_source, sizeof(cpu->model_source), "model name");
	} else if (sc->n_arm) {
		arm_model(sc, cpu->model, sizeof(cpu->model));
		si_copy(cpu->model_source, sizeof(cpu->model_source), "arm-id");
	} else if (sc->processor[0]) {
		si_copy(cpu->model, sizeof(cpu->model), sc->processor);
		si_copy(cpu->model_source, sizeof(cpu->model_source), "Processor");
	} else if (sc->hardware[0]) {
		si_copy(cpu->model, sizeof(cpu->model), sc->hardware);
		si_copy(cpu->model_source, sizeof(cpu->model_source), "Hardware");
	} else if (sc->other[0]) {
		si_copy(cpu->model, sizeof(cpu->model), sc->other);
		si_copy(cpu->model_source, sizeof(cpu->model_source), sc->other_key);
	}
}

/* "1024 KB", "8 MB" -> bytes */
static bool parse_cache(const char *s, uint64_t *bytes)
{
	char *e;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &e, 10);
	if (e == s || errno || v == 0)
		return false;
	while (*e == ' ')
		e++;
	if (*e == 'K' || *e == 'k')
		v <<= 10;
	else if (*e == 'M' || *e == 'm')
		v <<= 20;
	else if (*e && *e != 'B')
		return false;
	*bytes = v;
	return true;
}

/* Largest-level cache of cpu0 from sysfs, when cpuinfo has no "cache size". */
static void sysfs_cache(const char *root, struct sys_cpu *cpu)
{
	uint64_t best_level = 0, best = 0;

	for (int i = 0; i < 8; i++) {
		char rel[128], buf[64];
		uint64_t level, bytes;

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (si_read_line(root, rel, buf, sizeof(buf)) < 0 || !si_parse_u64(buf, &level))
			continue;
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (si_read_line(root, rel, buf, sizeof(buf)) < 0 || !parse_cache(buf, &bytes))
			continue;
		if (level > best_level || (level == best_level && bytes > best)) {
			best_level = level;
			best = bytes;
		}
	}
	if (best) {
		cpu->cache_bytes = mu64_of(best);
		snprintf(cpu->cache_source, sizeof(cpu->cache_source), "sysfs L%u",
			 (unsigned)best_level);
	}
}

static void cpu_usable(const char *root, struct sys_cpu *cpu)
{
	char buf[32];
	uint64_t n;

	if (root[0]) {
		if (si_read_line(root, "/fixture/affinity_cpus", buf, sizeof(buf)) > 0 &&
		    si_parse_u64(buf, &n) && n > 0)
			cpu->usable = mu64_of(n);
		return;
	}
	/* a dynamic set: more than CPU_SETSIZE CPUs exist */
	for (int ncpu = 1024; ncpu <= 1 << 16; ncpu *= 4) {
		cpu_set_t *set = CPU_ALLOC(ncpu);
		size_t sz = CPU_ALLOC_SIZE(ncpu);
		int r;

		if (!set)
			return;
		r = sched_getaffinity(0, sz, set);
		if (r == 0 && CPU_COUNT_S(sz, set) > 0)
			cpu->usable = mu64_of((uint64_t)CPU_COUNT_S(sz, set));
		CPU_FREE(set);
		if (r == 0 || errno != EINVAL)
			return;
	}
}

/*
 * Physical cores: the distinct sibling sets (topology/core_cpus_list, else
 * the older thread_siblings_list) of the CPUs sysfs lists, so two
 * hyperthreads of one core count once. Unknown when no CPU has either.
 */
#define SI_MAX_TOPO_CPUS 4096
#define SI_SIB_LEN 64

static void cpu_physical_cores(const char *root, struct sys_cpu *cpu)
{
	char (*seen)[SI_SIB_LEN] = calloc(SI_MAX_TOPO_CPUS, SI_SIB_LEN);
	char rel[96], buf[SI_SIB_LEN];
	unsigned nseen = 0, misses = 0;

	if (!seen)
		return;
	for (unsigned i = 0; i < SI_MAX_TOPO_CPUS && misses < 64; i++) {
		bool dup = false;

		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/topology/core_cpus_list", i);
		if (si_read_line(root, rel, buf, sizeof(buf)) <= 0) {
			snprintf(rel, sizeof(rel),
				 "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", i);
			if (si_read_line(root, rel, buf, sizeof(buf)) <= 0) {
				misses++; /* offline or absent: CPU numbers may have holes */
				continue;
			}
		}
		misses = 0;
		for (unsigned k = 0; k < nseen && !dup; k++)
			dup = strcmp(seen[k], buf) == 0;
		if (!dup)
			si_copy(seen[nseen++], SI_SIB_LEN, buf);
	}
	if (nseen)
		cpu->physical_cores = mu64_of(nseen);
	free(seen);
}

void si_cpu(const char *root, struct sys_cpu *cpu)
{
	struct cpuinfo_scan sc;
	struct cgroup_cpu_quota q;
	char buf[4096];
	uint64_t khz;
	int n;

	memset(&sc, 0, sizeof(sc));
	scan_cpuinfo(root, &sc);
	cpu_model(&sc, cpu);

	if (si_read_line(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0 &&
	    (n = sysinfo_cpulist_count(buf)) > 0)
		cpu->online = mu64_of((uint64_t)n);
	else if (sc.nproc > 0) /* cpuinfo lists the online CPUs */
		cpu->online = mu64_of(sc.nproc);
	cpu_usable(root, cpu);
	cpu_physical_cores(root, cpu);

	cgroup_cpu_quota(root, &q);
	if (q.version && q.seen) {
		cpu->quota_limited = mbool_of(q.limited);
		if (q.limited)
			cpu->quota_cpus = mdbl_of(q.cpus);
		si_copy(cpu->quota_source, sizeof(cpu->quota_source),
			q.version == 2 ? "cgroup2 cpu.max" : "cgroup1 cfs_quota_us");
	}

	if (sc.mhz[0]) {
		char *e;
		double mhz = strtod(sc.mhz, &e);

		if (e != sc.mhz && !*e && mhz > 0 && mhz < 1e6) {
			cpu->freq_mhz = mdbl_of(mhz);
			si_copy(cpu->freq_source, sizeof(cpu->freq_source), "cpuinfo");
		}
	}
	if (!cpu->freq_mhz.ok &&
	    si_read_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf,
			 sizeof(buf)) > 0 && si_parse_u64(buf, &khz) && khz > 0) {
		cpu->freq_mhz = mdbl_of((double)khz / 1000.0);
		si_copy(cpu->freq_source, sizeof(cpu->freq_source), "cpufreq max");
	}

	if (sc.cache[0] && parse_cache(sc.cache, &khz)) {
		cpu->cache_bytes = mu64_of(khz);
		si_copy(cpu->cache_source, sizeof(cpu->cache_source), "cpuinfo");
	} else {
		sysfs_cache(root, cpu);
	}

	if (sc.flags) {
		cpu->aes = mbool_of(si_has_word(sc.flags, "aes"));
		if (si_has_word(sc.flags, "vmx"))
			si_copy(cpu->virt_flag_name, sizeof(cpu->virt_flag_name), "vmx");
		else if (si_has_word(sc.flags, "svm"))
			si_copy(cpu->virt_flag_name, sizeof(cpu->virt_flag_name), "svm");
		cpu->virt_flag = mbool_of(cpu->virt_flag_name[0] != '\0');
	} else if (sc.features) {
		/* ARM lists no virtualization extension here: VM-x stays unknown */
		cpu->aes = mbool_of(si_has_word(sc.features, "aes"));
	}
	free(sc.flags);
	free(sc.features);
}
