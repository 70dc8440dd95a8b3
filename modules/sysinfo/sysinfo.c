/*
 * sysinfo.c — the sysinfo module: gathers CPU, memory, disks, OS,
 * network and virtualization facts into rep->sys. Reads only small files
 * below ctx->root; no subprocess, no sleep, no network traffic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/module.h"
#include "sysinfo_priv.h"

/* os-release value: strips quotes and backslash escapes. */
static void osr_value(const char *in, char *out, size_t n)
{
	char q = (*in == '"' || *in == '\'') ? *in++ : '\0';
	size_t k = 0;

	for (; *in && *in != '\n' && k + 1 < n; in++) {
		if (q && *in == q)
			break;
		if (q == '"' && *in == '\\' && in[1])
			in++;
		out[k++] = *in;
	}
	out[k] = '\0';
}

static void os_release(const char *root, struct sys_os *os)
{
	char buf[8192], pretty[128] = "", name[96] = "", ver[32] = "";
	char *save = NULL;

	if (si_read(root, "/etc/os-release", buf, sizeof(buf)) <= 0 &&
	    si_read(root, "/usr/lib/os-release", buf, sizeof(buf)) <= 0)
		return;
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "PRETTY_NAME=", 12) == 0)
			osr_value(l + 12, pretty, sizeof(pretty));
		else if (strncmp(l, "NAME=", 5) == 0)
			osr_value(l + 5, name, sizeof(name));
		else if (strncmp(l, "VERSION_ID=", 11) == 0)
			osr_value(l + 11, ver, sizeof(ver));
	}
	if (pretty[0])
		si_copy(os->name, sizeof(os->name), pretty);
	else if (name[0])
		snprintf(os->name, sizeof(os->name), "%s%s%s", name, ver[0] ? " " : "", ver);
}

static void os_info(const char *root, struct sys_os *os)
{
	struct utsname u;

	os_release(root, os);
	if (si_read_line(root, "/proc/sys/kernel/osrelease", os->kernel, sizeof(os->kernel)) < 0)
		os->kernel[0] = '\0';
	if (si_read_line(root, "/proc/sys/kernel/ostype", os->ostype, sizeof(os->ostype)) < 0)
		os->ostype[0] = '\0';
	if (root[0]) {
		if (si_read_line(root, "/fixture/uname_machine", os->arch, sizeof(os->arch)) < 0)
			os->arch[0] = '\0';
	} else if (uname(&u) == 0) {
		si_copy(os->arch, sizeof(os->arch), u.machine);
		if (!os->kernel[0]) /* /proc not mounted */
			si_copy(os->kernel, sizeof(os->kernel), u.release);
	}
}

static void uptime_load(const char *root, struct sysinfo *si)
{
	char buf[256];
	double up, l[3];

	if (si_read_line(root, "/proc/uptime", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%lf", &up) == 1 && up >= 0)
		si->uptime_s = mdbl_of(up);
	if (si_read_line(root, "/proc/loadavg", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
		for (int i = 0; i < 3; i++)
			if (l[i] >= 0)
				si->load_avg[i] = mdbl_of(l[i]);
}

/* Fixture stand-in for statvfs: "frsize blocks bfree bavail". */
static void fixture_space(const char *root, struct fs_info *fs)
{
	char buf[256];
	unsigned long long fr, blocks, bfree, bavail;

	fs->space_known = false;
	if (si_read_line(root, "/fixture/statvfs", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%llu %llu %llu %llu", &fr, &blocks, &bfree, &bavail) != 4 ||
	    bfree > blocks || bavail > bfree || fr == 0 || blocks > UINT64_MAX / fr)
		return;
	fs->space_known = true;
	fs->total_bytes = blocks * fr;
	fs->free_bytes = bfree * fr;
	fs->avail_bytes = bavail * fr;
	fs->used_bytes = fs->total_bytes - fs->free_bytes;
}

static void dirs_info(const char *root, const char *const *dirs, unsigned ndirs,
		      struct sysinfo *si)
{
	si->ndirs = ndirs < BENCH_MAX_DIRS ? ndirs : BENCH_MAX_DIRS;
	for (unsigned i = 0; i < si->ndirs; i++) {
		struct sys_dir *d = &si->dirs[i];

		si_copy(d->arg, sizeof(d->arg), dirs[i]);
		d->err = fsinfo_for_path(root, dirs[i], &d->fs);
		if (d->err == 0 && root[0])
			fixture_space(root, &d->fs);
	}
}

int sysinfo_gather(const char *root, const char *const *dirs, unsigned ndirs,
		   struct sysinfo *out)
{
	if (!root)
		root = "";
	memset(out, 0, sizeof(*out));
	si_cpu(root, &out->cpu);
	si_mem(root, &out->mem);
	os_info(root, &out->os);
	si_net(root, &out->net);
	si_virt(root, out->os.kernel, out);
	uptime_load(root, out);
	if (dirs)
		dirs_info(root, dirs, ndirs, out);
	return 0;
}

static enum bench_status sysinfo_run(const struct bench_ctx *ctx, void *result,
				     struct mod_outcome *out)
{
	struct sysinfo *si = result;

	bench_progress(ctx, "sysinfo", "reading system information", 0);
	sysinfo_gather(ctx->root, ctx->opts->dirs, ctx->opts->ndirs, si);
	/* the context's mask is the one the benchmarks use */
	if (!ctx->root[0] && ctx->cpus_usable)
		si->cpu.usable = mu64_of(ctx->cpus_usable);
	for (unsigned i = 0; i < si->ndirs; i++)
		if (si->dirs[i].err)
			bench_warn(ctx, "sysinfo: --dir %s: %s", si->dirs[i].arg,
				    strerror(-si->dirs[i].err));
	if (si->mem.avail_estimated)
		bench_warn(ctx, "sysinfo: no MemAvailable in /proc/meminfo (old kernel): "
			    "available RAM estimated as MemFree + Buffers + Cached");
	if (si->mem.cgroup_limited == MB_TRUE && si->mem.ram_total.ok &&
	    si->mem.cgroup_limit.v < si->mem.ram_total.v)
		bench_warn(ctx, "sysinfo: a cgroup limits memory to %llu MiB; "
			    "/proc/meminfo shows the host's",
			    (unsigned long long)(si->mem.cgroup_limit.v >> 20));
	if (si->cpu.quota_limited == MB_TRUE && si->cpu.quota_cpus.ok && si->cpu.usable.ok &&
	    si->cpu.quota_cpus.v < (double)si->cpu.usable.v)
		bench_warn(ctx, "sysinfo: a cgroup CPU quota allows %.2f of the %llu usable CPUs",
			    si->cpu.quota_cpus.v, (unsigned long long)si->cpu.usable.v);
	bench_progress(ctx, "sysinfo", "reading system information", 1);
	return bench_outcome(out, BENCH_OK, "%s", "");
}

const struct bench_module bench_mod_sysinfo = {
	.name = "sysinfo",
	.desc = "CPU, memory, disks, OS, network and virtualization facts",
	.run = sysinfo_run,
};
