/*
 * yabs.c — --format yabs: the report in yabs.sh's JSON shape, so results
 * can go to the sites that accept yabs JSON. Same keys, types and units
 * as yabs: speed_* are KiB/s labelled "KBps" (fio's terse bw, as yabs
 * really computes it), mem in KiB, disk in 1K blocks labelled "KB". fio[]
 * holds only passes with yabs's settings (plan_pass_is_yabs: randrw 50/50,
 * qd64, 2 jobs, its block sizes) that ran to the end with O_DIRECT;
 * sections that did not run are left out, as yabs does. One line, as
 * `yabs -j` prints it. Unknown values are null (yabs would print an empty
 * string or break).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/json/json_put.h"
#include "render.h"

#ifdef HAVE_CJSON

static const struct {
	uint32_t bs;
	const char *name;
} yabs_bs[] = {
	{ 4096, "4k" },
	{ 64 * 1024, "64k" },
	{ 512 * 1024, "512k" },
	{ 1024 * 1024, "1m" },
};

/* yabs's names: x64, x86, aarch64, arm (64-bit ARM kernels are "aarch64"). */
static const char *yabs_arch(const char *m)
{
	if (!m[0])
		return NULL;
	if (strstr(m, "x86_64") || strstr(m, "amd64"))
		return "x64";
	if (strlen(m) == 4 && m[0] == 'i' && m[2] == '8' && m[3] == '6')
		return "x86";
	if (strstr(m, "aarch64") || strstr(m, "arm64"))
		return "aarch64";
	if (strncmp(m, "arm", 3) == 0)
		return "arm";
	return m;
}

static void add_bool(cJSON *o, const char *k, enum mbool v)
{
	json_add_mbool(o, k, v);
}

/* KiB from bytes, as free(1) and /proc/meminfo give it. */
static void add_kib(cJSON *o, const char *k, struct mu64 v)
{
	json_add_mu64(o, k, (struct mu64){ v.v / 1024, v.ok });
}

/* yabs's net.ipv4/ipv6: a global address with a default route (not RFC 1918, ULA, link-local) */
static enum mbool yabs_global(enum mbool usable, enum mbool global)
{
	if (usable == MB_FALSE || global == MB_FALSE)
		return MB_FALSE;
	if (usable == MB_TRUE && global == MB_TRUE)
		return MB_TRUE;
	return MB_UNKNOWN;
}

static cJSON *os_obj(const struct sysinfo *si)
{
	cJSON *o = cJSON_CreateObject();
	char vm[32];

	if (!o)
		return NULL;
	json_add_str(o, "arch", yabs_arch(si->os.arch));
	json_add_str(o, "distro", si->os.name);
	json_add_str(o, "kernel", si->os.kernel);
	json_add_mdbl(o, "uptime", si->uptime_s);
	/* systemd-detect-virt in capitals, "NONE" on bare metal */
	snprintf(vm, sizeof(vm), "%s", si->virt);
	for (char *p = vm; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	json_add_str(o, "vm", vm);
	return o;
}

static cJSON *cpu_obj(const struct sys_cpu *c)
{
	cJSON *o = cJSON_CreateObject();
	char freq[48];

	if (!o)
		return NULL;
	json_add_str(o, "model", c->model);
	json_add_mu64(o, "cores", c->online);
	if (c->freq_mhz.ok) {
		snprintf(freq, sizeof(freq), "%.3f MHz", c->freq_mhz.v);
		cJSON_AddStringToObject(o, "freq", freq);
	} else {
		cJSON_AddNullToObject(o, "freq");
	}
	add_bool(o, "aes", c->aes);
	add_bool(o, "virt", c->virt_flag);
	return o;
}

/* Sum of the tested filesystems' sizes (each counted once), in 1K blocks. */
static struct mu64 disk_kb(const struct sysinfo *si)
{
	struct mu64 sum = { 0, false };

	for (unsigned i = 0; i < si->ndirs; i++) {
		const struct fs_info *a = &si->dirs[i].fs;
		bool seen = false;

		if (!a->space_known || !a->mount_known)
			continue;
		for (unsigned k = 0; k < i && !seen; k++) {
			const struct fs_info *b = &si->dirs[k].fs;

			seen = b->space_known && b->mount_known &&
			       strcmp(a->device, b->device) == 0 &&
			       strcmp(a->mountpoint, b->mountpoint) == 0;
		}
		if (!seen) {
			sum.v += a->total_bytes / 1024;
			sum.ok = true;
		}
	}
	return sum;
}

static cJSON *mem_obj(const struct sysinfo *si)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	add_kib(o, "ram", si->mem.ram_total);
	cJSON_AddStringToObject(o, "ram_units", "KiB");
	add_kib(o, "swap", si->mem.swap_total);
	cJSON_AddStringToObject(o, "swap_units", "KiB");
	json_add_mu64(o, "disk", disk_kb(si));
	cJSON_AddStringToObject(o, "disk_units", "KB");
	return o;
}

/* The pass yabs would have run for bs on the first tested dir, or NULL. */
static const struct rand_pass_result *yabs_pass(const struct rand_result *r, uint32_t bs,
						 const char *dir)
{
	for (unsigned i = 0; i < r->npass; i++) {
		const struct rand_pass_result *p = &r->pass[i];

		struct rand_pass_spec spec = { .rw = p->rw, .rwmixread = p->rwmixread, .bs = p->bs,
					       .iodepth = p->iodepth, .jobs = p->jobs };

		if (p->bs != bs || !plan_pass_is_yabs(&spec))
			continue;
		if (dir && p->dir && strcmp(p->dir, dir) != 0)
			continue;
		/* partial or buffered figures are not what yabs's fields mean */
		if (p->status != BENCH_OK || !p->direct)
			continue;
		return p;
	}
	return NULL;
}

static cJSON *fio_entry(const struct rand_pass_result *p, const char *bs)
{
	cJSON *o = cJSON_CreateObject();
	/* fio terse: integer KiB/s and IOPS, truncated; yabs sums them */
	uint64_t sr = (uint64_t)(p->dir_res[RD].bw_bytes / 1024.0);
	uint64_t sw = (uint64_t)(p->dir_res[WR].bw_bytes / 1024.0);
	uint64_t ir = (uint64_t)p->dir_res[RD].iops, iw = (uint64_t)p->dir_res[WR].iops;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "bs", bs);
	cJSON_AddNumberToObject(o, "speed_r", (double)sr);
	cJSON_AddNumberToObject(o, "iops_r", (double)ir);
	cJSON_AddNumberToObject(o, "speed_w", (double)sw);
	cJSON_AddNumberToObject(o, "iops_w", (double)iw);
	cJSON_AddNumberToObject(o, "speed_rw", (double)(sr + sw));
	cJSON_AddNumberToObject(o, "iops_rw", (double)(ir + iw));
	cJSON_AddStringToObject(o, "speed_units", "KBps");
	return o;
}

/* Device of the tested dir, from sysinfo when it ran. */
static const char *partition_of(const struct bench_report *rep, const char *dir)
{
	const struct sysinfo *si = &rep->sys;

	if (!render_section_ran(rep, MOD_sysinfo))
		return NULL;
	for (unsigned i = 0; i < si->ndirs; i++)
		if (dir && strcmp(si->dirs[i].arg, dir) == 0 && si->dirs[i].fs.mount_known)
			return si->dirs[i].fs.device;
	return si->ndirs && si->dirs[0].fs.mount_known ? si->dirs[0].fs.device : NULL;
}

static int add_fio(cJSON *root, const struct bench_report *rep, const struct bench_plan *plan)
{
	const struct rand_result *r = &rep->rand;
	const char *dir = r->npass ? r->pass[0].dir : NULL;
	const char *part;
	cJSON *arr = NULL, *e;

	(void)plan;
	if (!render_section_ran(rep, MOD_rand))
		return 0;
	for (size_t i = 0; i < sizeof(yabs_bs) / sizeof(yabs_bs[0]); i++) {
		const struct rand_pass_result *p = yabs_pass(r, yabs_bs[i].bs, dir);

		if (!p)
			continue;
		if (!arr) {
			part = partition_of(rep, dir);
			if (part && part[0])
				cJSON_AddStringToObject(root, "partition", part);
			arr = cJSON_AddArrayToObject(root, "fio");
			if (!arr)
				return -1;
		}
		if (!(e = fio_entry(p, yabs_bs[i].name)) || !cJSON_AddItemToArray(arr, e)) {
			cJSON_Delete(e);
			return -1;
		}
	}
	return 0;
}

char *render_yabs(const struct bench_report *rep, const struct bench_plan *plan)
{
	cJSON *root = cJSON_CreateObject(), *x, *rt;
	char when[32];
	char *out = NULL;
	struct tm tm;
	time_t t0 = rep->start_real.tv_sec, t1 = rep->end_real.tv_sec;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "version", "vpsbench-" VPSBENCH_VERSION);
	/* yabs: date '+%Y%m%d-%H%M%S', local time */
	if (!localtime_r(&t0, &tm) || !strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm))
		goto out;
	cJSON_AddStringToObject(root, "time", when);
	if (render_section_ran(rep, MOD_sysinfo)) {
		const struct sysinfo *si = &rep->sys;

		if (!(x = os_obj(si)) || !cJSON_AddItemToObject(root, "os", x))
			goto fail_x;
		if (!(x = cJSON_AddObjectToObject(root, "net")))
			goto out;
		/* yabs asks whether the internet answers: IPv4 reaches it through NAT
		 * from a private address, IPv6 only from a global one (not ULA) */
		add_bool(x, "ipv4", yabs_global(si->net.ipv4, si->net.ipv4_public));
		add_bool(x, "ipv6", yabs_global(si->net.ipv6, si->net.ipv6_public));
		if (!(x = cpu_obj(&si->cpu)) || !cJSON_AddItemToObject(root, "cpu", x))
			goto fail_x;
		if (!(x = mem_obj(si)) || !cJSON_AddItemToObject(root, "mem", x))
			goto fail_x;
	}
	if (add_fio(root, rep, plan) < 0 || yabs_add_iperf(root, rep) < 0)
		goto out;
	rt = cJSON_AddObjectToObject(root, "runtime");
	if (!rt)
		goto out;
	cJSON_AddNumberToObject(rt, "start", (double)t0);
	cJSON_AddNumberToObject(rt, "end", (double)t1);
	cJSON_AddNumberToObject(rt, "elapsed", (double)(t1 - t0));
	out = cJSON_PrintUnformatted(root);
	goto out;
fail_x:
	cJSON_Delete(x);
out:
	cJSON_Delete(root);
	return out;
}

#else

char *render_yabs(const struct bench_report *rep, const struct bench_plan *plan)
{
	(void)rep;
	(void)plan;
	return NULL;
}

#endif
