/*
 * test_sysinfo.c — sysinfo_gather() against the fixture trees in
 * tests/fixtures/<system>/ (fake /proc, /sys, /etc; fixture/ holds what
 * only syscalls can tell). Asserts the values, and that unknown stays
 * unknown instead of turning into 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/sysinfo/sysinfo.h"
#include "th.h"

static struct sysinfo si; /* large: keep it off the stack */

static const struct sysinfo *gather(const char *name)
{
	static const char *const dirs[] = { "/" };
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/%s", th_srcdir(), name);
	TH_EQ_INT(sysinfo_gather(root, dirs, 1, &si), 0);
	return &si;
}

#define MB 1024ULL
#define KB(x) ((unsigned long long)(x) * 1024ULL)

TH_TEST(sysinfo_kvm_vps)
{
	const struct sysinfo *s = gather("kvm_vps");

	TH_EQ_STR(s->cpu.model, "Intel Xeon Processor (Skylake, IBRS)");
	TH_EQ_STR(s->cpu.model_source, "model name");
	TH_CHECK(s->cpu.online.ok && s->cpu.usable.ok);
	TH_EQ_INT(s->cpu.online.v, 4);
	TH_EQ_INT(s->cpu.usable.v, 4);
	TH_EQ_INT(s->cpu.quota_limited, MB_FALSE); /* cpu.max "max 100000" in user.slice */
	TH_CHECK(!s->cpu.quota_cpus.ok);
	TH_EQ_STR(s->cpu.quota_source, "cgroup2 cpu.max"); /* "max" is a v2 setting too */
	TH_CHECK(s->cpu.freq_mhz.ok);
	TH_NEAR(s->cpu.freq_mhz.v, 2394.454, 1e-6);
	TH_CHECK(s->cpu.cache_bytes.ok);
	TH_EQ_INT(s->cpu.cache_bytes.v, KB(16384));
	TH_EQ_INT(s->cpu.aes, MB_TRUE);
	TH_EQ_INT(s->cpu.virt_flag, MB_FALSE);

	TH_CHECK(s->mem.ram_total.ok && s->mem.ram_avail.ok && s->mem.ram_used.ok);
	TH_EQ_INT(s->mem.ram_total.v, KB(8140000));
	TH_EQ_INT(s->mem.ram_avail.v, KB(7000000));
	TH_EQ_INT(s->mem.ram_used.v, KB(1140000));
	TH_CHECK(!s->mem.avail_estimated);
	TH_EQ_INT(s->mem.swap_total.v, KB(2097148));
	TH_EQ_INT(s->mem.swap_used.v, KB(97148));
	TH_EQ_INT(s->mem.cgroup_limited, MB_FALSE);
	TH_CHECK(!s->mem.cgroup_limit.ok);

	TH_EQ_INT(s->ndirs, 1);
	TH_EQ_INT(s->dirs[0].err, 0);
	TH_CHECK(s->dirs[0].fs.mount_known);
	TH_EQ_STR(s->dirs[0].fs.fstype, "ext4");
	TH_EQ_STR(s->dirs[0].fs.device, "/dev/vda1");
	TH_EQ_STR(s->dirs[0].fs.mountpoint, "/");
	TH_EQ_STR(s->dirs[0].fs.blockdev, "vda1");
	TH_CHECK(s->dirs[0].fs.space_known); /* fixture/statvfs */
	TH_EQ_INT(s->dirs[0].fs.total_bytes, 4096ULL * 20000000);
	TH_EQ_INT(s->dirs[0].fs.used_bytes, 4096ULL * 5000000);
	TH_EQ_INT(s->dirs[0].fs.avail_bytes, 4096ULL * 14000000);

	TH_EQ_STR(s->os.name, "Debian GNU/Linux 12 (bookworm)");
	TH_EQ_STR(s->os.kernel, "6.1.0-18-amd64");
	TH_EQ_STR(s->os.ostype, "Linux");
	TH_EQ_STR(s->os.arch, "x86_64");
	TH_EQ_STR(s->net.tcp_cc, "bbr");
	TH_EQ_INT(s->net.ipv4, MB_TRUE);
	TH_EQ_INT(s->net.ipv4_public, MB_TRUE);
	TH_EQ_INT(s->net.ipv6, MB_TRUE); /* the lo ::/0 reject route does not count, eth0's does */
	TH_EQ_INT(s->net.ipv6_public, MB_TRUE);
	TH_EQ_STR(s->virt, "kvm");
	TH_EQ_STR(s->hypervisor, "kvm");
	TH_CHECK(strstr(s->virt_evidence, "cpuid KVMKVMKVM") != NULL);
	TH_CHECK(s->uptime_s.ok);
	TH_NEAR(s->uptime_s.v, 356521.47, 1e-6);
	TH_CHECK(s->load_avg[0].ok && s->load_avg[2].ok);
	TH_NEAR(s->load_avg[0].v, 0.15, 1e-9);
	TH_NEAR(s->load_avg[2].v, 0.05, 1e-9);
}

TH_TEST(sysinfo_arm64_without_model_name)
{
	const struct sysinfo *s = gather("arm64_nomodel");

	TH_EQ_STR(s->cpu.model, "ARM Neoverse-N1");
	TH_EQ_STR(s->cpu.model_source, "arm-id");
	TH_EQ_INT(s->cpu.online.v, 4);
	TH_EQ_INT(s->cpu.aes, MB_TRUE);            /* Features: aes */
	TH_EQ_INT(s->cpu.virt_flag, MB_UNKNOWN);   /* ARM cpuinfo does not say */
	TH_CHECK(!s->cpu.freq_mhz.ok);             /* no cpu MHz, no cpufreq */
	TH_CHECK(s->cpu.cache_bytes.ok);
	TH_EQ_INT(s->cpu.cache_bytes.v, 32ULL << 20);
	TH_EQ_STR(s->cpu.cache_source, "sysfs L3");
	TH_EQ_INT(s->cpu.quota_limited, MB_UNKNOWN); /* no cgroup files at all */
	TH_EQ_STR(s->os.name, "Ubuntu 22.04");     /* NAME + VERSION_ID */
	TH_EQ_STR(s->os.arch, "aarch64");
	TH_EQ_INT(s->mem.swap_total.ok, 1);
	TH_EQ_INT(s->mem.swap_total.v, 0);         /* SwapTotal: 0 kB is a real 0 */
	TH_EQ_STR(s->virt, "kvm");                 /* DMI product "KVM Virtual Machine" beats "QEMU" */
	TH_EQ_INT(s->net.ipv4, MB_TRUE);
	TH_EQ_INT(s->net.ipv4_public, MB_FALSE);   /* 10.0.0.25 */
	TH_EQ_INT(s->net.ipv6, MB_FALSE);          /* link-local only */
	TH_EQ_INT(s->net.ipv6_public, MB_UNKNOWN);
}

TH_TEST(sysinfo_docker_cgroup2_limits)
{
	const struct sysinfo *s = gather("docker_v2");

	TH_EQ_STR(s->cpu.model, "AMD EPYC 7543 32-Core Processor");
	TH_EQ_INT(s->cpu.online.v, 8);
	TH_EQ_INT(s->cpu.quota_limited, MB_TRUE);
	TH_CHECK(s->cpu.quota_cpus.ok);
	TH_NEAR(s->cpu.quota_cpus.v, 1.5, 1e-9);
	TH_EQ_STR(s->cpu.quota_source, "cgroup2 cpu.max");
	TH_EQ_INT(s->cpu.virt_flag, MB_TRUE);
	TH_EQ_STR(s->cpu.virt_flag_name, "svm");
	TH_EQ_INT(s->mem.cgroup_limited, MB_TRUE);
	TH_CHECK(s->mem.cgroup_limit.ok);
	TH_EQ_INT(s->mem.cgroup_limit.v, 512ULL << 20);
	TH_EQ_INT(s->mem.ram_total.v, KB(32876000)); /* the host's, reported as such */
	TH_EQ_STR(s->virt, "docker");
	TH_EQ_STR(s->hypervisor, "kvm");
	TH_EQ_STR(s->dirs[0].fs.fstype, "overlay");
	TH_EQ_STR(s->dirs[0].fs.blockdev, "");       /* 0:52 is no block device */
	TH_CHECK(!s->dirs[0].fs.space_known);        /* no fixture/statvfs: unknown, not live */
	TH_EQ_STR(s->os.name, "Alpine Linux v3.19");
	TH_EQ_INT(s->net.ipv4, MB_TRUE);
	TH_EQ_INT(s->net.ipv6, MB_FALSE);
}

TH_TEST(sysinfo_lxc_lxcfs_empty_meminfo)
{
	const struct sysinfo *s = gather("lxc_lxcfs");

	TH_CHECK(!s->mem.ram_total.ok);
	TH_CHECK(!s->mem.ram_used.ok);
	TH_CHECK(!s->mem.ram_avail.ok);
	TH_CHECK(!s->mem.swap_total.ok);
	TH_CHECK(!s->mem.swap_used.ok);
	TH_EQ_INT(s->mem.cgroup_limited, MB_FALSE);  /* memory.max "max" */
	TH_EQ_INT(s->cpu.quota_limited, MB_FALSE);   /* cpu.max "max 100000" */
	TH_EQ_INT(s->cpu.online.v, 2);
	TH_EQ_STR(s->virt, "lxc");
	TH_CHECK(strstr(s->virt_evidence, "container=lxc") != NULL);
	TH_EQ_STR(s->hypervisor, "none");            /* Dell DMI, no hypervisor flag */
	TH_EQ_STR(s->dirs[0].fs.fstype, "zfs");
	TH_EQ_INT(s->net.ipv6, MB_TRUE);
	TH_EQ_INT(s->net.ipv6_public, MB_TRUE);
	TH_EQ_INT(s->net.ipv4_public, MB_FALSE);
}

TH_TEST(sysinfo_openvz_old_kernel)
{
	const struct sysinfo *s = gather("openvz");

	TH_EQ_STR(s->virt, "openvz");
	TH_EQ_STR(s->os.kernel, "2.6.32-042stab145.3");
	TH_EQ_STR(s->os.name, "CentOS Linux 7 (Core)");
	/* no MemAvailable: MemFree + Buffers + Cached, flagged as an estimate */
	TH_CHECK(s->mem.avail_estimated);
	TH_CHECK(s->mem.ram_avail.ok);
	TH_EQ_INT(s->mem.ram_avail.v, KB(524288 + 0 + 262144));
	TH_EQ_INT(s->mem.ram_used.v, KB(1048576 - 786432));
	TH_EQ_INT(s->cpu.online.v, 2);               /* no /sys: cpuinfo entries */
	TH_CHECK(!s->cpu.usable.ok || s->cpu.usable.v > 0);
	TH_EQ_INT(s->cpu.quota_limited, MB_UNKNOWN); /* no /proc/self/cgroup */
	TH_EQ_INT(s->mem.cgroup_limited, MB_UNKNOWN);
	TH_EQ_STR(s->net.tcp_cc, "");                /* unknown */
	TH_EQ_INT(s->net.ipv4, MB_TRUE);             /* venet0 default route without gateway */
	TH_EQ_INT(s->net.ipv4_public, MB_TRUE);
	TH_EQ_INT(s->net.ipv6, MB_FALSE);            /* no if_inet6: kernel without IPv6 */
	TH_CHECK(!s->dirs[0].fs.mount_known);
	TH_CHECK(s->uptime_s.ok);
	TH_NEAR(s->uptime_s.v, 86461.0, 1e-9);
}

TH_TEST(sysinfo_garbled_files_are_unknown)
{
	const struct sysinfo *s = gather("garbled");

	TH_EQ_STR(s->cpu.model, "");
	TH_CHECK(!s->cpu.online.ok);
	TH_CHECK(!s->cpu.usable.ok);                 /* affinity_cpus "0" is not a count */
	TH_EQ_INT(s->cpu.quota_limited, MB_UNKNOWN);
	TH_CHECK(!s->cpu.freq_mhz.ok);
	TH_CHECK(!s->cpu.cache_bytes.ok);
	TH_EQ_INT(s->cpu.aes, MB_UNKNOWN);
	TH_EQ_INT(s->cpu.virt_flag, MB_UNKNOWN);
	TH_CHECK(!s->mem.ram_total.ok);
	TH_CHECK(!s->mem.ram_used.ok);
	TH_CHECK(!s->mem.swap_total.ok);             /* overflowing value */
	TH_CHECK(!s->uptime_s.ok);
	TH_CHECK(!s->load_avg[0].ok && !s->load_avg[1].ok && !s->load_avg[2].ok);
	TH_EQ_STR(s->os.name, "");
	TH_EQ_STR(s->os.kernel, "");
	TH_EQ_STR(s->os.arch, "");
	TH_EQ_INT(s->net.ipv4, MB_UNKNOWN);
	TH_EQ_INT(s->net.ipv6, MB_UNKNOWN);
	TH_EQ_STR(s->virt, "");
	TH_EQ_STR(s->hypervisor, "");
	TH_CHECK(!s->dirs[0].fs.mount_known);
}

TH_TEST(sysinfo_missing_sys)
{
	const struct sysinfo *s = gather("no_sys");

	/* bench.sh counted "Common KVM processor" as a CPU: exact keys only */
	TH_EQ_STR(s->cpu.model, "Common KVM processor");
	TH_EQ_INT(s->cpu.online.v, 3);
	TH_CHECK(!s->cpu.usable.ok);
	TH_EQ_INT(s->cpu.aes, MB_FALSE);
	TH_EQ_INT(s->cpu.quota_limited, MB_UNKNOWN);
	TH_EQ_INT(s->mem.cgroup_limited, MB_UNKNOWN);
	TH_EQ_INT(s->mem.ram_total.v, KB(2048000));
	/* a hypervisor flag but nothing naming it: unknown, not a guess */
	TH_EQ_STR(s->virt, "");
	TH_EQ_STR(s->hypervisor, "");
	TH_CHECK(strstr(s->virt_evidence, "hypervisor") != NULL);
	TH_EQ_INT(s->net.ipv4, MB_UNKNOWN);
	TH_EQ_INT(s->net.ipv6, MB_UNKNOWN);
	TH_EQ_STR(s->net.tcp_cc, "reno");
}

/* The oversell signs, read as the mem module reads them: flagged when seen, unknown stays unknown. */
TH_TEST(sysinfo_oversell_signs)
{
	const struct sysinfo *s = gather("mem_oversell");
	const struct host_mem_signs *o = &s->mem.signs;

	TH_EQ_INT(o->balloon, MB_TRUE);
	TH_EQ_INT(o->ksm_run, MB_TRUE);
	TH_CHECK(o->ksm_pages_sharing.ok && o->ksm_pages_sharing.v == 4242);
	TH_CHECK(o->swap_used.ok && o->swap_used.v == 512ULL << 20);
	TH_CHECK(o->psi_some_avg10.ok && o->psi_full_avg10.ok);
	TH_NEAR(o->psi_some_avg10.v, 2.5, 1e-9);
	TH_NEAR(o->psi_full_avg10.v, 0.5, 1e-9);
	/* the balloon is a figure (o->balloon), not a sign */
	TH_EQ_INT(s->mem.nflags, 3);
	TH_CHECK(strstr(s->mem.flags[0], "KSM") && strstr(s->mem.flags[0], "4242"));
	TH_CHECK(strstr(s->mem.flags[1], "swap in use: 512 MiB") != NULL);
	TH_CHECK(strstr(s->mem.flags[2], "pressure") && strstr(s->mem.flags[2], "2.50%"));

	/* seen and absent: /sys/module without virtio_balloon, KSM off, PSI below 1% */
	s = gather("kvm_vps");
	o = &s->mem.signs;
	TH_EQ_INT(o->balloon, MB_FALSE);
	TH_EQ_INT(o->ksm_run, MB_FALSE);
	TH_CHECK(o->ksm_pages_sharing.ok && o->ksm_pages_sharing.v == 0);
	TH_CHECK(o->psi_some_avg10.ok);
	TH_NEAR(o->psi_some_avg10.v, 0.1, 1e-9);
	TH_CHECK(o->swap_used.ok && o->swap_used.v == KB(97148));
	TH_EQ_INT(s->mem.nflags, 1); /* only the swap in use */
	TH_EQ_STR(s->mem.flags[0], "swap in use: 94 MiB");

	/* no /sys, no PSI: unknown, not "no" */
	s = gather("no_sys");
	o = &s->mem.signs;
	TH_EQ_INT(o->balloon, MB_UNKNOWN);
	TH_EQ_INT(o->ksm_run, MB_UNKNOWN);
	TH_CHECK(!o->ksm_pages_sharing.ok && !o->psi_some_avg10.ok && !o->psi_full_avg10.ok);
	TH_CHECK(o->swap_used.ok && o->swap_used.v == 0);
	TH_EQ_INT(s->mem.nflags, 0);
	TH_EQ_STR(s->mem.signs_unknown, "KSM, pressure"); /* "none seen" says what was not looked at */
}

TH_TEST(sysinfo_cgroup_v1_bare_metal)
{
	const struct sysinfo *s = gather("cgroup_v1_host");

	TH_EQ_INT(s->cpu.quota_limited, MB_FALSE);   /* cfs_quota_us -1 */
	TH_EQ_STR(s->cpu.quota_source, "cgroup1 cfs_quota_us");
	TH_EQ_INT(s->mem.cgroup_limited, MB_FALSE);  /* 9223372036854771712 = unlimited */
	TH_CHECK(!s->mem.cgroup_limit.ok);
	TH_EQ_STR(s->mem.cgroup_source, "cgroup1 limit_in_bytes");
	TH_EQ_INT(s->cpu.virt_flag, MB_TRUE);
	TH_EQ_STR(s->cpu.virt_flag_name, "vmx");
	TH_EQ_STR(s->virt, "none");
	TH_EQ_STR(s->hypervisor, "none");
	/* the mount source says /dev/root; major:minor names the disk */
	TH_EQ_STR(s->dirs[0].fs.device, "/dev/root");
	TH_EQ_STR(s->dirs[0].fs.blockdev, "sda2");
	TH_EQ_INT(s->net.ipv4, MB_FALSE);            /* LAN route only */
	TH_EQ_INT(s->net.ipv6, MB_FALSE);
	TH_EQ_INT(s->mem.swap_used.v, 0);
}

TH_TEST(sysinfo_docker_cgroup1_nested_quota)
{
	const struct sysinfo *s = gather("docker_v1");

	/* 0.5 CPU on the container, 2 on its parent: the smaller one binds */
	TH_EQ_INT(s->cpu.quota_limited, MB_TRUE);
	TH_NEAR(s->cpu.quota_cpus.v, 0.5, 1e-9);
	TH_EQ_INT(s->cpu.online.v, 4);
	TH_EQ_INT(s->cpu.usable.v, 2);
	/* memory mount root is the container's own cgroup */
	TH_EQ_INT(s->mem.cgroup_limited, MB_TRUE);
	TH_EQ_INT(s->mem.cgroup_limit.v, 1ULL << 30);
	TH_EQ_STR(s->virt, "docker");                /* from /proc/1/cgroup, no /.dockerenv */
	TH_EQ_STR(s->hypervisor, "microsoft");
}

TH_TEST(sysinfo_wsl2)
{
	const struct sysinfo *s = gather("wsl2");

	TH_EQ_STR(s->virt, "wsl");
	TH_EQ_STR(s->hypervisor, "microsoft");
	TH_EQ_INT(s->cpu.online.v, 8);
}

TH_TEST(sysinfo_missing_root_is_all_unknown)
{
	const struct sysinfo *s = gather("does_not_exist");

	TH_EQ_STR(s->cpu.model, "");
	TH_CHECK(!s->cpu.online.ok && !s->mem.ram_total.ok && !s->uptime_s.ok);
	TH_EQ_INT(s->net.ipv4, MB_UNKNOWN);
	TH_EQ_STR(s->virt, "");
}

TH_TEST(sysinfo_cpulist_count_table)
{
	static const struct { const char *in; int want; } cases[] = {
		{ "0", 1 }, { "0-3", 4 }, { "0-3,8,10-11\n", 7 }, { "0,2,4,6", 4 },
		{ "", -1 }, { "x", -1 }, { "3-1", -1 }, { "0-", -1 }, { "0-3,", 4 }, { "1;2", -1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TH_EQ_INT(sysinfo_cpulist_count(cases[i].in), cases[i].want);
}

TH_TEST(sysinfo_arm_part_table)
{
	const char *vendor = NULL;

	TH_EQ_STR(sysinfo_arm_part(0x41, 0xd08, &vendor), "Cortex-A72");
	TH_EQ_STR(vendor, "ARM");
	TH_EQ_STR(sysinfo_arm_part(0xc0, 0xac3, &vendor), "Ampere-1");
	TH_EQ_STR(vendor, "Ampere");
	TH_CHECK(sysinfo_arm_part(0x51, 0x999, &vendor) == NULL);
	TH_EQ_STR(vendor, "Qualcomm");
	TH_CHECK(sysinfo_arm_part(0x99, 0x001, &vendor) == NULL);
	TH_CHECK(vendor == NULL);
}

TH_TEST(sysinfo_live_system)
{
	const char *const dirs[] = { "." };

	TH_EQ_INT(sysinfo_gather("", dirs, 1, &si), 0);
	/* every Linux has these; their values are the machine's */
	TH_CHECK(si.os.kernel[0] != '\0');
	TH_CHECK(si.os.arch[0] != '\0');
	TH_CHECK(si.cpu.usable.ok && si.cpu.usable.v >= 1);
	TH_CHECK(!si.cpu.online.ok || si.cpu.online.v >= si.cpu.usable.v);
	TH_CHECK(si.dirs[0].err == 0 && si.dirs[0].fs.space_known);
	TH_CHECK(!si.mem.ram_total.ok || si.mem.ram_total.v > 0);
}
