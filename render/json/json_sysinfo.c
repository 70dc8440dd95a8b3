/*
 * json_sysinfo.c — the "sysinfo" object. Units are in the key names;
 * unknown is null, never 0.
 */
#include <string.h>

#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static void add_mbool_quota(cJSON *o, const struct sys_cpu *c)
{
	/* null when unknown or unlimited: "quota_limited" tells which */
	if (c->quota_limited == MB_TRUE)
		json_add_mdbl(o, "quota_cpus", c->quota_cpus);
	else
		cJSON_AddNullToObject(o, "quota_cpus");
	json_add_mbool(o, "quota_limited", c->quota_limited);
	json_add_str(o, "quota_source", c->quota_source);
}

static cJSON *cpu_obj(const struct sys_cpu *c)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	json_add_str(o, "model", c->model);
	json_add_str(o, "model_source", c->model_source);
	json_add_mu64(o, "cores_online", c->online);
	json_add_mu64(o, "cores_usable", c->usable);
	json_add_mu64(o, "physical_cores", c->physical_cores);
	add_mbool_quota(o, c);
	json_add_mdbl(o, "freq_mhz", c->freq_mhz);
	json_add_str(o, "freq_source", c->freq_source);
	json_add_mu64(o, "cache_bytes", c->cache_bytes);
	json_add_str(o, "cache_source", c->cache_source);
	json_add_mbool(o, "aes", c->aes);
	json_add_mbool(o, "virt_flag", c->virt_flag);
	json_add_str(o, "virt_flag_name", c->virt_flag_name);
	return o;
}

static cJSON *mem_obj(const struct sys_mem *m)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	json_add_mu64(o, "ram_total_bytes", m->ram_total);
	json_add_mu64(o, "ram_used_bytes", m->ram_used);
	json_add_mu64(o, "ram_available_bytes", m->ram_avail);
	cJSON_AddBoolToObject(o, "ram_available_estimated", m->avail_estimated);
	json_add_mu64(o, "swap_total_bytes", m->swap_total);
	json_add_mu64(o, "swap_used_bytes", m->swap_used);
	json_add_mbool(o, "cgroup_limited", m->cgroup_limited);
	json_add_mu64(o, "cgroup_limit_bytes", m->cgroup_limit);
	json_add_str(o, "cgroup_source", m->cgroup_source);
	/* the oversell signs now (the mem module adds what its run saw): null = unknown */
	if (json_add_oversell(o, &m->signs, NULL, m->flags, m->nflags) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *dir_obj(const struct sys_dir *d)
{
	const struct fs_info *fs = &d->fs;
	struct mu64 none = { 0, false };
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	json_add_str(o, "path", fs->path[0] ? fs->path : d->arg);
	if (d->err)
		json_add_str(o, "error", strerror(-d->err));
	json_add_str(o, "fstype", fs->mount_known ? fs->fstype : NULL);
	json_add_str(o, "mountpoint", fs->mount_known ? fs->mountpoint : NULL);
	json_add_str(o, "device", fs->mount_known ? fs->device : NULL);
	json_add_str(o, "block_device", fs->mount_known ? fs->blockdev : NULL);
	json_add_str(o, "mount_options", fs->mount_known ? fs->options : NULL);
	if (!d->err)
		json_add_storage(o, &fs->storage);
	json_add_mu64(o, "total_bytes", fs->space_known ? mu64_of(fs->total_bytes) : none);
	json_add_mu64(o, "used_bytes", fs->space_known ? mu64_of(fs->used_bytes) : none);
	json_add_mu64(o, "free_bytes", fs->space_known ? mu64_of(fs->free_bytes) : none);
	json_add_mu64(o, "avail_bytes", fs->space_known ? mu64_of(fs->avail_bytes) : none);
	return o;
}

cJSON *json_sysinfo(const struct bench_report *rep)
{
	const struct sysinfo *si = &rep->sys;
	cJSON *o = cJSON_CreateObject(), *x, *arr;

	if (!o)
		return NULL;
	if (!(x = cpu_obj(&si->cpu)) || !cJSON_AddItemToObject(o, "cpu", x))
		goto fail_x;
	if (!(x = mem_obj(&si->mem)) || !cJSON_AddItemToObject(o, "mem", x))
		goto fail_x;
	if (!(arr = cJSON_AddArrayToObject(o, "dirs")))
		goto fail;
	for (unsigned i = 0; i < si->ndirs; i++)
		if (!(x = dir_obj(&si->dirs[i])) || !cJSON_AddItemToArray(arr, x))
			goto fail_x;
	if (!(x = cJSON_AddObjectToObject(o, "os")))
		goto fail;
	json_add_str(x, "name", si->os.name);
	json_add_str(x, "kernel", si->os.kernel);
	json_add_str(x, "ostype", si->os.ostype);
	json_add_str(x, "arch", si->os.arch);
	if (!(x = cJSON_AddObjectToObject(o, "net")))
		goto fail;
	json_add_mbool(x, "ipv4", si->net.ipv4);
	json_add_mbool(x, "ipv6", si->net.ipv6);
	json_add_mbool(x, "ipv4_public", si->net.ipv4_public);
	json_add_mbool(x, "ipv6_public", si->net.ipv6_public);
	json_add_str(x, "tcp_cc", si->net.tcp_cc);
	cJSON_AddStringToObject(x, "detection", "passive: address and default route, no traffic");
	json_add_str(o, "virt", si->virt);
	json_add_str(o, "hypervisor", si->hypervisor);
	json_add_str(o, "virt_evidence", si->virt_evidence);
	json_add_mdbl(o, "uptime_s", si->uptime_s);
	if (!(arr = cJSON_AddArrayToObject(o, "load_avg")))
		goto fail;
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(arr, si->load_avg[i].ok ? cJSON_CreateNumber(si->load_avg[i].v)
							     : cJSON_CreateNull());
	return o;
fail_x:
	cJSON_Delete(x);
fail:
	cJSON_Delete(o);
	return NULL;
}

#endif
