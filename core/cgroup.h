/*
 * cgroup.h — finding the process's cgroup directories for a controller
 * (v1 or v2) below a root prefix, for modules that read limits and
 * counters (cpu.max, cpu.stat...). Fixture trees work through root.
 */
#ifndef VPSBENCH_CGROUP_H
#define VPSBENCH_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

/* Called with a cgroup directory (relative to root) and the version; false stops the walk. */
typedef bool (*cgroup_fn)(const char *root, const char *dir, int version, void *arg);

/*
 * Calls fn for the process's cgroup directory of controller ctl ("cpu",
 * "memory"), then for each parent up to the hierarchy's mount point.
 * Returns the cgroup version (1 or 2), or 0 when none was found.
 */
int cgroup_walk(const char *root, const char *ctl, cgroup_fn fn, void *arg);

/* Reads root + dir + "/" + name (at most n-1 bytes, NUL-terminated); length or -errno. */
long cgroup_read(const char *root, const char *dir, const char *name, char *buf, size_t n);

#endif
