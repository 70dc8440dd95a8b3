/*
 * fsinfo.c — the mountinfo entry of a directory: the one whose
 * major:minor is the directory's st_dev (the longest mount point prefix
 * among those, since bind mounts share a device), else the longest mount
 * point prefix (btrfs subvolumes have their own st_dev), else the name
 * from statfs f_type and the mount point found by walking up while
 * st_dev stays the same (what `stat -c %m` does). Inside a chroot the
 * kernel leaves out every mount not below the chroot, so path matching
 * alone finds nothing there. The block device is named from major:minor
 * through /sys/dev/block, since the mount source can be "/dev/root".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "fsinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* "DEVNAME=vda1" from /sys/dev/block/MAJ:MIN/uevent; "" for non-block (overlay, tmpfs) */
static void block_name(const char *root, unsigned maj, unsigned min, char *out, size_t n)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u/uevent", root ? root : "", maj, min);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			size_t len = strcspn(line + 8, "\n");

			/* a name that does not fit is no name */
			if (len < n) {
				memcpy(out, line + 8, len);
				out[len] = '\0';
			}
			break;
		}
	}
	fclose(f);
}

static bool is_prefix_dir(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(mnt, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The directory's st_dev, statfs f_type and mount point by st_dev; the
 * fixture "MAJ:MIN MAGIC MOUNTPOINT" stands in for them below a root. */
struct dir_stat {
	bool dev_ok, magic_ok;
	unsigned maj, min;
	unsigned long magic;
	char mnt[PATH_MAX];        /* "" unknown */
};

/* Walks up from path while st_dev stays the same: the top is the mount point. */
static void mount_by_walk(const char *path, dev_t dev, char *out, size_t n)
{
	char cur[PATH_MAX];
	struct stat st;

	snprintf(cur, sizeof(cur), "%s", path);
	for (;;) {
		char *slash = strrchr(cur, '/');
		char parent[PATH_MAX];

		if (!slash || strcmp(cur, "/") == 0)
			break;
		if (slash == cur)
			snprintf(parent, sizeof(parent), "/");
		else
			snprintf(parent, sizeof(parent), "%.*s", (int)(slash - cur), cur);
		if (stat(parent, &st) < 0 || st.st_dev != dev)
			break;
		snprintf(cur, sizeof(cur), "%s", parent);
	}
	snprintf(out, n, "%s", cur);
}

static void dir_stat_get(const char *root, const char *path, struct dir_stat *ds)
{
	char fx[PATH_MAX], line[PATH_MAX + 64];
	struct statfs sf;
	struct stat st;
	FILE *f;

	memset(ds, 0, sizeof(*ds));
	if (root && root[0]) {
		snprintf(fx, sizeof(fx), "%s/fixture/dir_stat", root);
		f = fopen(fx, "re");
		if (!f)
			return; /* a fixture tree without it: unknown, never the live system */
		if (fgets(line, sizeof(line), f)) {
			char mnt[PATH_MAX] = "";

			line[strcspn(line, "\n")] = '\0';
			if (sscanf(line, "%u:%u %lx %4095s", &ds->maj, &ds->min, &ds->magic, mnt) >= 2)
				ds->dev_ok = ds->magic_ok = true;
			snprintf(ds->mnt, sizeof(ds->mnt), "%s", mnt);
		}
		fclose(f);
		return;
	}
	if (stat(path, &st) == 0) {
		ds->dev_ok = true;
		ds->maj = major(st.st_dev);
		ds->min = minor(st.st_dev);
		mount_by_walk(path, st.st_dev, ds->mnt, sizeof(ds->mnt));
	}
	if (statfs(path, &sf) == 0) {
		ds->magic_ok = true;
		ds->magic = (unsigned long)sf.f_type & 0xffffffffUL;
	}
}

static void zfs_version(const char *root, char *out, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/module/zfs/version", root ? root : "");
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(out, (int)n, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

int fsinfo_for_path(const char *root, const char *dir, struct fs_info *fi)
{
	char mi_path[PATH_MAX], line[4096], zver[64] = "";
	struct statvfs st;
	struct dir_stat ds;
	size_t best = 0;
	unsigned best_maj = 0, best_min = 0;
	bool best_dev = false, best_prefix = false;
	FILE *f;

	memset(fi, 0, sizeof(*fi));
	if (!realpath(dir, fi->path))
		return -errno;

	if (statvfs(fi->path, &st) == 0) {
		uint64_t fr = st.f_frsize ? st.f_frsize : st.f_bsize;

		fi->space_known = true;
		fi->total_bytes = (uint64_t)st.f_blocks * fr;
		fi->free_bytes = (uint64_t)st.f_bfree * fr;
		fi->avail_bytes = (uint64_t)st.f_bavail * fr;
		fi->used_bytes = fi->total_bytes - fi->free_bytes;
	}
	dir_stat_get(root, fi->path, &ds);
	fi->magic_known = ds.magic_ok;
	fi->magic = ds.magic;

	snprintf(mi_path, sizeof(mi_path), "%s/proc/self/mountinfo", root ? root : "");
	f = fopen(mi_path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], opts[256], fstype[64], src[256];
		char *sep = strstr(line, " - ");
		unsigned maj, min;
		bool dev, prefix;
		size_t len;

		if (!sep)
			continue;
		if (sscanf(line, "%*s %*s %u:%u %*s %4095s %255s", &maj, &min, mnt, opts) != 4)
			continue;
		if (sscanf(sep + 3, "%63s %255s", fstype, src) != 2)
			continue;
		unescape(mnt);
		unescape(src);
		dev = ds.dev_ok && maj == ds.maj && min == ds.min;
		prefix = is_prefix_dir(mnt, fi->path);
		if (!dev && !prefix)
			continue;
		len = prefix ? strlen(mnt) : 0;
		/* a st_dev match beats a path match; among equals the longest
		 * prefix, and >= : a later mount on the same point shadows the earlier one */
		if (best_dev && !dev)
			continue;
		if (fi->mount_known && dev == best_dev && (len < best || (!prefix && best_prefix)))
			continue;
		best = len;
		best_dev = dev;
		best_prefix = prefix;
		fi->mount_known = true;
		snprintf(fi->mountpoint, sizeof(fi->mountpoint), "%s", mnt);
		snprintf(fi->fstype, sizeof(fi->fstype), "%s", fstype);
		snprintf(fi->device, sizeof(fi->device), "%s", src);
		snprintf(fi->options, sizeof(fi->options), "%s", opts);
		best_maj = maj;
		best_min = min;
	}
	if (f)
		fclose(f);
	fi->mount_by_dev = best_dev;
	/* matched by st_dev only (chroot): its mount point is outside our view */
	if (fi->mount_known && best_dev && !best_prefix)
		snprintf(fi->mountpoint, sizeof(fi->mountpoint), "%s", ds.mnt);
	if (!fi->mount_known && ds.dev_ok) {
		best_maj = ds.maj;
		best_min = ds.min;
		snprintf(fi->mountpoint, sizeof(fi->mountpoint), "%s", ds.mnt);
	}
	if (best_maj != 0)
		block_name(root, best_maj, best_min, fi->blockdev, sizeof(fi->blockdev));
	if (!fi->mount_known && fi->blockdev[0])
		snprintf(fi->device, sizeof(fi->device), "/dev/%s", fi->blockdev);
	/* no mountinfo entry: the name from f_type (ext2/3/4 share one: "ext4") */
	if (!fi->mount_known && ds.magic_ok && fs_magic_name(ds.magic)) {
		snprintf(fi->fstype, sizeof(fi->fstype), "%s", fs_magic_name(ds.magic));
		fi->mount_known = true;
	}
	zfs_version(root, zver, sizeof(zver));
	fi->storage.cls = storage_class_of(ds.magic_ok ? ds.magic : 0, fi->fstype, zver,
					   fi->storage.why, sizeof(fi->storage.why));
	return 0;
}
