/*
 * cgroup.c — the process's cgroup directory for a controller:
 * /proc/self/cgroup gives the path, /proc/self/mountinfo where that
 * hierarchy is mounted (and which part of it: a container sees only its
 * subtree). Limits may sit on any ancestor, so callers walk up.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "root_read.h"

#define CG_MAX_DEPTH 64

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

static FILE *open_below(const char *root, const char *rel)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof(path), "%s%s", root, rel);

	if (len < 0 || (size_t)len >= sizeof(path))
		return NULL;
	return fopen(path, "re");
}

/* ctl in a comma list such as "cpu,cpuacct" or "rw,cpu,cpuacct" */
static bool in_list(const char *list, const char *ctl)
{
	size_t n = strlen(ctl);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, ctl, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* The cgroup path of controller ctl: version 1 or 2, 0 when not found. */
static int own_cgroup(const char *root, const char *ctl, char *path, size_t n)
{
	char line[4096], v2[PATH_MAX] = "";
	int ver = 0;
	FILE *f = open_below(root, "/proc/self/cgroup");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		*c1 = *c2 = '\0';
		c2[strcspn(c2 + 1, "\r\n") + 1] = '\0';
		if (c2 == c1 + 1 && strcmp(line, "0") == 0) {
			copy(v2, sizeof(v2), c2 + 1);
		} else if (in_list(c1 + 1, ctl)) {
			copy(path, n, c2 + 1);
			ver = 1;
			break;
		}
	}
	fclose(f);
	if (!ver && v2[0] == '/') {
		copy(path, n, v2);
		ver = 2;
	}
	return ver;
}

/* Mount point and mount root of the hierarchy; false when not in mountinfo. */
static bool find_mount(const char *root, const char *ctl, int ver, char *mnt, size_t mn,
		       char *mroot, size_t rn)
{
	char line[4096];
	bool found = false;
	FILE *f = open_below(root, "/proc/self/mountinfo");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char r[PATH_MAX], m[PATH_MAX], fstype[32], super[512];
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2)
			continue;
		if (sscanf(sep + 3, "%31s %*s %511s", fstype, super) != 2)
			continue;
		if (ver == 2 ? strcmp(fstype, "cgroup2") != 0 :
		    strcmp(fstype, "cgroup") != 0 || !in_list(super, ctl))
			continue;
		copy(mnt, mn, m);
		copy(mroot, rn, r);
		found = true;
	}
	fclose(f);
	return found;
}

int cgroup_walk(const char *root, const char *ctl, cgroup_fn fn, void *arg)
{
	char cg[PATH_MAX], mnt[PATH_MAX], mroot[PATH_MAX], dir[PATH_MAX * 2], probe[PATH_MAX];
	const char *rel;
	struct stat st;
	int ver;
	size_t rl;

	root = root ? root : "";
	ver = own_cgroup(root, ctl, cg, sizeof(cg));
	if (!ver)
		return 0;
	if (!find_mount(root, ctl, ver, mnt, sizeof(mnt), mroot, sizeof(mroot))) {
		/* no mountinfo: the usual places */
		snprintf(probe, sizeof(probe), "%s/sys/fs/cgroup/cpu,cpuacct", root);
		if (ver == 2)
			copy(mnt, sizeof(mnt), "/sys/fs/cgroup");
		else if (strcmp(ctl, "cpu") == 0 && stat(probe, &st) == 0)
			copy(mnt, sizeof(mnt), "/sys/fs/cgroup/cpu,cpuacct");
		else
			snprintf(mnt, sizeof(mnt), "/sys/fs/cgroup/%s", ctl);
		copy(mroot, sizeof(mroot), "/");
	}
	/* the part of our path below the mounted subtree */
	rl = strlen(mroot);
	if (strcmp(mroot, "/") == 0)
		rel = cg;
	else if (strncmp(cg, mroot, rl) == 0 && (cg[rl] == '/' || cg[rl] == '\0'))
		rel = cg + rl;
	else
		rel = ""; /* a namespace hides the rest: the mount is our cgroup */
	if (strcmp(mnt, "/") == 0)
		mnt[0] = '\0';
	snprintf(dir, sizeof(dir), "%s%s", mnt, rel);
	rl = strlen(dir);
	while (rl > 1 && dir[rl - 1] == '/')
		dir[--rl] = '\0';
	for (int depth = 0; depth < CG_MAX_DEPTH; depth++) {
		char *slash;

		if (!fn(root, dir[0] ? dir : "/", ver, arg))
			break;
		if (strlen(dir) <= strlen(mnt))
			break;
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
		if (strlen(dir) < strlen(mnt))
			break;
	}
	return ver;
}

long cgroup_read(const char *root, const char *dir, const char *name, char *buf, size_t n)
{
	char rel[PATH_MAX];
	int len = snprintf(rel, sizeof(rel), "%s/%s", dir, name);

	if (n)
		buf[0] = '\0';
	if (len < 0 || (size_t)len >= sizeof(rel))
		return -ENAMETOOLONG;
	return root_read_file(root, rel, buf, n);
}
