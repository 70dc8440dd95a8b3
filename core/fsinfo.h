/*
 * fsinfo.h — which filesystem and device a directory lives on
 * (/proc/self/mountinfo below a root prefix, plus statvfs).
 */
#ifndef VPSBENCH_FSINFO_H
#define VPSBENCH_FSINFO_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct fs_info {
	char path[PATH_MAX];       /* the directory as resolved (realpath) */
	bool mount_known;          /* mountinfo entry found */
	char fstype[64];
	char mountpoint[PATH_MAX];
	char device[256];          /* mount source, e.g. /dev/vda1 */
	char options[256];         /* per-mount options, e.g. rw,relatime */
	char blockdev[64];         /* kernel name of the block device by st_dev, e.g. "vda1"; "" if none */
	bool space_known;          /* statvfs succeeded */
	uint64_t total_bytes, used_bytes, free_bytes, avail_bytes;
};

/* Fills fi for dir; fields that cannot be found stay unknown. Returns 0, or -errno from realpath. */
int fsinfo_for_path(const char *root, const char *dir, struct fs_info *fi);

#endif
