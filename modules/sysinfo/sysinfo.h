/*
 * sysinfo.h — what the machine is: CPU, memory, disks under test, OS,
 * network reachability (passive), virtualization. Every field may be
 * unknown ("" strings, .ok = false, MB_UNKNOWN); nothing is guessed.
 *
 * All files are read below a root prefix ("" on a live system, a fixture
 * tree in tests). What only a syscall can tell comes from the syscall when
 * root is "", and from these files when root is set, so fixtures are
 * deterministic (a missing file means unknown):
 *   <root>/fixture/uname_machine     uname().machine, e.g. "x86_64"
 *   <root>/fixture/affinity_cpus     CPUs in the sched_getaffinity mask
 *   <root>/fixture/cpuid_hypervisor  CPUID leaf 0x40000000 vendor, e.g. "KVMKVMKVM"
 *   <root>/fixture/statvfs           "frsize blocks bfree bavail" for every --dir
 *
 * Note: this struct shares its name with glibc's <sys/sysinfo.h>; no
 * vpsbench file includes that header (uptime comes from /proc/uptime).
 */
#ifndef VPSBENCH_SYSINFO_H
#define VPSBENCH_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/fsinfo.h"
#include "core/host_mem.h"
#include "core/options.h"
#include "core/value.h"

struct sys_cpu {
	char model[160];           /* "" = unknown */
	char model_source[24];     /* "model name", "arm-id", "Processor", ... */
	struct mu64 online;        /* /sys/devices/system/cpu/online, else cpuinfo entries */
	struct mu64 usable;        /* sched_getaffinity mask */
	struct mu64 physical_cores; /* distinct SMT sibling sets in sysfs topology; unknown without it */
	enum mbool quota_limited;  /* cgroup CPU quota set (FALSE: "max" / -1) */
	struct mdbl quota_cpus;    /* quota / period when limited, e.g. 1.5 */
	char quota_source[24];     /* "cgroup2 cpu.max", "cgroup1 cfs_quota_us" */
	struct mdbl freq_mhz;
	char freq_source[24];      /* "cpuinfo" (current) or "cpufreq max" */
	struct mu64 cache_bytes;
	char cache_source[24];     /* "cpuinfo" or "sysfs L3" etc. */
	enum mbool aes;            /* x86 flags / ARM Features "aes" */
	enum mbool virt_flag;      /* vmx or svm */
	char virt_flag_name[8];    /* "vmx", "svm" */
};

#define SYS_MEM_FLAGS 4

struct sys_mem {
	struct mu64 ram_total, ram_used, ram_avail;
	bool avail_estimated;      /* no MemAvailable: MemFree + Buffers + Cached */
	struct mu64 swap_total, swap_used;
	enum mbool cgroup_limited; /* memory.max / limit_in_bytes set */
	struct mu64 cgroup_limit;  /* bytes, when limited */
	char cgroup_source[24];
	struct host_mem_signs signs;  /* oversell signs now: balloon, KSM, swap, PSI */
	unsigned nflags;
	char flags[SYS_MEM_FLAGS][HOST_MEM_FLAG_LEN]; /* the signs seen, in words */
	char signs_unknown[48];       /* "KSM, swap, pressure": not readable here */
};

struct sys_dir {
	char arg[PATH_MAX];        /* the --dir as given */
	int err;                   /* 0, or -errno from realpath */
	struct fs_info fs;
};

struct sys_os {
	char name[128];            /* os-release PRETTY_NAME, or NAME VERSION_ID */
	char kernel[128];          /* /proc/sys/kernel/osrelease */
	char ostype[32];           /* /proc/sys/kernel/ostype */
	char arch[32];             /* uname machine */
};

struct sys_net {
	enum mbool ipv4, ipv6;               /* usable address + default route */
	enum mbool ipv4_public, ipv6_public; /* address is globally routable (not RFC 1918 / ULA) */
	char tcp_cc[32];
};

struct sysinfo {
	struct sys_cpu cpu;
	struct sys_mem mem;
	struct sys_dir dirs[BENCH_MAX_DIRS];
	unsigned ndirs;
	struct sys_os os;
	struct sys_net net;
	char virt[24];             /* container if any, else hypervisor, "none"; "" = unknown */
	char hypervisor[24];       /* "" = unknown */
	char virt_evidence[128];   /* which signals decided, e.g. "/.dockerenv; cpuid KVMKVMKVM" */
	struct mdbl uptime_s;
	struct mdbl load_avg[3];
};

/* Fills out from the tree below root ("" = this machine). dirs may be NULL
 * when ndirs is 0. Never fails: unknown fields stay unknown. Returns 0. */
int sysinfo_gather(const char *root, const char *const *dirs, unsigned ndirs,
		   struct sysinfo *out);

/* Helpers exposed for the unit tests. */
/* Counts a CPU list such as "0-3,8,10-11"; -1 when malformed. */
int sysinfo_cpulist_count(const char *s);
/* "Cortex-A72"-style name for an ARM implementer/part, or NULL. */
const char *sysinfo_arm_part(unsigned implementer, unsigned part, const char **vendor);

#endif
