/*
 * text_sysinfo.c — the system section in bench.sh's layout ("CPU Model
 * : ...", "CPU Cores : 2 @ 2600.000 MHz", ...), every value fitted into
 * 80 columns, "unknown" for what could not be read.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"

/* 80 columns minus " " + 22-column label + ": " */
#define VAL_W 55

/* s cut to w columns with "..." in the middle (paths keep both ends). */
static const char *fit(char *buf, size_t n, const char *s, size_t w)
{
	size_t len = strlen(s), head;

	if (len <= w || w < 8 || n <= w) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	head = (w - 3) / 2;
	snprintf(buf, n, "%.*s...%s", (int)head, s, s + len - (w - 3 - head));
	return buf;
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static const char *yes_no(enum mbool b)
{
	return b == MB_TRUE ? "yes" : b == MB_FALSE ? "no" : "unknown";
}

static void bytes_or_unknown(char *buf, size_t n, struct mu64 v)
{
	if (v.ok)
		fmt_bytes(buf, n, v.v);
	else
		snprintf(buf, n, "unknown");
}

static const char *arch_bits(const char *arch)
{
	static const char *const b64[] = { "x86_64", "aarch64", "arm64", "ppc64", "ppc64le",
					   "s390x", "riscv64", "mips64", "loongarch64", "sparc64" };

	if (!arch[0])
		return "";
	for (size_t i = 0; i < sizeof(b64) / sizeof(b64[0]); i++)
		if (strcmp(arch, b64[i]) == 0)
			return " (64 Bit)";
	if ((arch[0] == 'i' && strcmp(arch + 2, "86") == 0) || strncmp(arch, "armv", 4) == 0)
		return " (32 Bit)";
	return "";
}

static void text_sys_cpu(FILE *f, const struct sys_cpu *c, const struct render_style *st)
{
	char buf[160], cores[96], q[48] = "";

	text_kv(f, st, "CPU Model", "%s", fit(buf, sizeof(buf), or_unknown(c->model), VAL_W));
	if (c->online.ok)
		snprintf(cores, sizeof(cores), "%llu", (unsigned long long)c->online.v);
	else
		snprintf(cores, sizeof(cores), "unknown");
	if (c->usable.ok && (!c->online.ok || c->usable.v != c->online.v))
		snprintf(cores + strlen(cores), sizeof(cores) - strlen(cores), " (%llu usable)",
			 (unsigned long long)c->usable.v);
	if (c->freq_mhz.ok)
		text_kv(f, st, "CPU Cores", "%s @ %.3f MHz%s", cores, c->freq_mhz.v,
			strcmp(c->freq_source, "cpufreq max") == 0 ? " (max)" : "");
	else
		text_kv(f, st, "CPU Cores", "%s @ unknown MHz", cores);
	if (c->quota_limited == MB_TRUE && c->quota_cpus.ok)
		snprintf(q, sizeof(q), "%.2f CPUs (%s)", c->quota_cpus.v, c->quota_source);
	else if (c->quota_limited == MB_FALSE)
		snprintf(q, sizeof(q), "none");
	text_kv(f, st, "CPU Quota", "%s", or_unknown(q));
	if (c->cache_bytes.ok) {
		char b[32];

		fmt_bytes(b, sizeof(b), c->cache_bytes.v);
		text_kv(f, st, "CPU Cache", "%s%s%s%s", b,
			strncmp(c->cache_source, "sysfs ", 6) == 0 ? " (" : "",
			strncmp(c->cache_source, "sysfs ", 6) == 0 ? c->cache_source + 6 : "",
			strncmp(c->cache_source, "sysfs ", 6) == 0 ? ")" : "");
	} else {
		text_kv(f, st, "CPU Cache", "unknown");
	}
	text_kv(f, st, "AES-NI", "%s", yes_no(c->aes));
	text_kv(f, st, "VM-x/AMD-V", "%s%s%s%s", yes_no(c->virt_flag),
		c->virt_flag_name[0] ? " (" : "", c->virt_flag_name,
		c->virt_flag_name[0] ? ")" : "");
}

/* The oversell signs one per line, then the ones seen in words (unknown stays unknown). */
static void text_oversell(FILE *f, const struct sys_mem *m, const struct render_style *st)
{
	const struct host_mem_signs *s = &m->signs;
	char none[96];

	text_kv(f, st, "Balloon Driver", "%s", s->balloon == MB_TRUE ? "virtio_balloon loaded" :
		s->balloon == MB_FALSE ? "none" : "unknown");
	if (s->ksm_run == MB_TRUE && s->ksm_pages_sharing.ok)
		text_kv(f, st, "KSM", "active, %llu pages shared",
			(unsigned long long)s->ksm_pages_sharing.v);
	else
		text_kv(f, st, "KSM", "%s", s->ksm_run == MB_TRUE ? "active" :
			s->ksm_run == MB_FALSE ? "off" : "unknown");
	if (s->psi_some_avg10.ok && s->psi_full_avg10.ok)
		text_kv(f, st, "Memory Pressure", "some %.2f%%, full %.2f%% (avg10)",
			s->psi_some_avg10.v, s->psi_full_avg10.v);
	else if (s->psi_some_avg10.ok)
		text_kv(f, st, "Memory Pressure", "some %.2f%% (avg10)", s->psi_some_avg10.v);
	else
		text_kv(f, st, "Memory Pressure", "unknown");
	oversell_none_words(none, sizeof(none), m);
	text_oversell_flags(f, st, "Guest Memory", m->flags, m->nflags, none);
}

static void text_mem(FILE *f, const struct sys_mem *m, const struct render_style *st)
{
	char t[32], u[32], a[32];

	bytes_or_unknown(t, sizeof(t), m->ram_total);
	bytes_or_unknown(u, sizeof(u), m->ram_used);
	bytes_or_unknown(a, sizeof(a), m->ram_avail);
	if (m->ram_total.ok)
		text_kv(f, st, "Total RAM", "%s (%s used, %s available%s)", t, u, a,
			m->avail_estimated ? ", est." : "");
	else
		text_kv(f, st, "Total RAM", "unknown");
	if (m->cgroup_limited == MB_TRUE) {
		bytes_or_unknown(t, sizeof(t), m->cgroup_limit);
		text_kv(f, st, "RAM Limit (cgroup)", "%s", t);
	} else if (m->cgroup_limited == MB_FALSE) {
		text_kv(f, st, "RAM Limit (cgroup)", "none");
	}
	bytes_or_unknown(t, sizeof(t), m->swap_total);
	bytes_or_unknown(u, sizeof(u), m->swap_used);
	if (m->swap_total.ok && m->swap_total.v == 0)
		text_kv(f, st, "Total Swap", "none");
	else if (m->swap_total.ok)
		text_kv(f, st, "Total Swap", "%s (%s used)", t, u);
	else
		text_kv(f, st, "Total Swap", "unknown");
	text_oversell(f, m, st);
}

static void text_dir(FILE *f, const struct sys_dir *d, const struct render_style *st)
{
	const struct fs_info *fs = &d->fs;
	char buf[PATH_MAX], b2[PATH_MAX], t[32], u[32], a[32];

	text_kv(f, st, "Disk", "%s",
		fit(buf, sizeof(buf), fs->path[0] ? fs->path : d->arg, VAL_W));
	if (d->err) {
		text_kv(f, st, "  Status", "%s", strerror(-d->err));
		return;
	}
	if (fs->mount_known) {
		const char *type = or_unknown(fs->fstype), *dev = or_unknown(fs->device);
		const char *base = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
		char blk[80] = "";
		size_t used, w;

		/* "/dev/root" or a label: name the disk too */
		if (fs->blockdev[0] && strcmp(base, fs->blockdev) != 0)
			snprintf(blk, sizeof(blk), " (%s)", fs->blockdev);
		used = strlen(type) + 4 + strlen(blk);
		w = used + 8 < VAL_W ? VAL_W - used : 8;
		text_kv(f, st, "  Filesystem", "%s on %s%s", type, fit(buf, sizeof(buf), dev, w), blk);
		text_kv(f, st, "  Mount Point", "%s", fit(b2, sizeof(b2), fs->mountpoint, VAL_W));
	} else {
		text_kv(f, st, "  Filesystem", "unknown");
	}
	text_kv(f, st, "  Storage", "%s", storage_class_name(fs->storage.cls));
	if (fs->space_known) {
		fmt_bytes(t, sizeof(t), fs->total_bytes);
		fmt_bytes(u, sizeof(u), fs->used_bytes);
		fmt_bytes(a, sizeof(a), fs->avail_bytes);
		text_kv(f, st, "  Size", "%s (%s used, %s available)", t, u, a);
	} else {
		text_kv(f, st, "  Size", "unknown");
	}
}

static void ip_text(char *buf, size_t n, enum mbool on, enum mbool pub, bool v6)
{
	if (on != MB_TRUE)
		snprintf(buf, n, "%s", yes_no(on));
	else if (pub == MB_TRUE)
		snprintf(buf, n, "yes (public)");
	else if (pub == MB_FALSE)
		snprintf(buf, n, "yes (%s addr)", v6 ? "non-global" : "private");
	else
		snprintf(buf, n, "yes");
}

void text_sysinfo(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct sysinfo *si = &rep->sys;
	char buf[160], b4[32], b6[32], la[64];

	text_heading(f, st, "System");
	text_sys_cpu(f, &si->cpu, st);
	text_mem(f, &si->mem, st);
	for (unsigned i = 0; i < si->ndirs; i++)
		text_dir(f, &si->dirs[i], st);
	fmt_uptime(buf, sizeof(buf), si->uptime_s);
	text_kv(f, st, "Uptime", "%s", buf);
	if (si->load_avg[0].ok && si->load_avg[1].ok && si->load_avg[2].ok)
		snprintf(la, sizeof(la), "%.2f, %.2f, %.2f", si->load_avg[0].v, si->load_avg[1].v,
			 si->load_avg[2].v);
	else
		snprintf(la, sizeof(la), "unknown");
	text_kv(f, st, "Load Average", "%s", la);
	text_kv(f, st, "OS", "%s", fit(buf, sizeof(buf), or_unknown(si->os.name), VAL_W));
	text_kv(f, st, "Arch", "%s%s", or_unknown(si->os.arch), arch_bits(si->os.arch));
	text_kv(f, st, "Kernel", "%s", fit(buf, sizeof(buf), or_unknown(si->os.kernel), VAL_W));
	text_kv(f, st, "TCP CC", "%s", or_unknown(si->net.tcp_cc));
	if (si->virt[0] && si->hypervisor[0] && strcmp(si->virt, si->hypervisor) != 0)
		text_kv(f, st, "Virtualization", "%s (hypervisor: %s)", si->virt, si->hypervisor);
	else
		text_kv(f, st, "Virtualization", "%s", or_unknown(si->virt));
	ip_text(b4, sizeof(b4), si->net.ipv4, si->net.ipv4_public, false);
	ip_text(b6, sizeof(b6), si->net.ipv6, si->net.ipv6_public, true);
	text_kv(f, st, "IPv4/IPv6", "%s / %s", b4, b6);
}
