/*
 * fuzz_sysinfo.c — the /proc and /sys parsers: sysinfo_gather against a
 * fixture root in a temp dir whose one file (chosen by the first input
 * byte) holds the rest of the input; every other file is absent.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "modules/sysinfo/sysinfo.h"

static const char *const files[] = {
	"proc/cpuinfo", "proc/meminfo", "proc/self/mountinfo", "proc/self/cgroup",
	"proc/1/cgroup", "proc/1/environ", "proc/loadavg", "proc/uptime",
	"proc/user_beancounters", "proc/net/route", "proc/net/if_inet6",
	"proc/net/ipv6_route", "proc/net/fib_trie", "proc/sys/kernel/osrelease",
	"proc/sys/net/ipv4/tcp_congestion_control", "etc/os-release",
	"sys/fs/cgroup/memory.max", "sys/fs/cgroup/cpu.max",
	"sys/fs/cgroup/memory/memory.limit_in_bytes",
	"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us",
	"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us",
	"sys/devices/system/cpu/online",
	"sys/devices/system/cpu/cpu0/cache/index0/size",
	"sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
	"sys/class/dmi/id/sys_vendor", "sys/hypervisor/type",
	"proc/device-tree/compatible", "fixture/affinity_cpus", "fixture/statvfs",
	"fixture/uname_machine", "fixture/cpuid_hypervisor", "fixture/dir_stat",
	"sys/module/zfs/version",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char root[PATH_MAX];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p) < 0 ? -1 : 0;
}

static void rm_root(void)
{
	if (root[0])
		(void)nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of the parent directories of root/rel. */
static int mkparents(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	(void)argc; (void)argv;
	snprintf(root, sizeof(root), "%s/vpsbench-fuzz.XXXXXX", tmp);
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(1);
	}
	atexit(rm_root);
	for (size_t i = 0; i < NFILES; i++)
		if (mkparents(files[i]) < 0) {
			perror("mkdir");
			exit(1);
		}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sysinfo si;
	const char *dirs[] = { "/" };
	char path[PATH_MAX];
	size_t which;
	int fd;

	if (size < 1)
		return 0;
	which = data[0] % NFILES;
	snprintf(path, sizeof(path), "%s/%s", root, files[which]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return 0;
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	close(fd);
	(void)sysinfo_gather(root, dirs, 1, &si);
	(void)unlink(path);
	return 0;
}
