/*
 * fsinfo.h — which filesystem and device a directory lives on, and what
 * its figures can measure (its storage class). The mount is found by the
 * directory's st_dev against mountinfo's major:minor (right inside a
 * chroot or a container, where mountinfo's paths do not match), then by
 * path; the filesystem is named by statfs f_type when mountinfo has no
 * entry. /proc, /sys and <root>/fixture/dir_stat are read below a root
 * prefix so fixture trees can stand in for them.
 */
#ifndef VPSBENCH_FSINFO_H
#define VPSBENCH_FSINFO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storage.h"

struct fs_info {
	char path[PATH_MAX];       /* the directory as resolved (realpath) */
	bool mount_known;          /* mountinfo entry found (or fstype from f_type) */
	bool mount_by_dev;         /* the entry matched st_dev, not only the path */
	char fstype[64];
	char mountpoint[PATH_MAX];
	char device[256];          /* mount source, e.g. /dev/vda1 */
	char options[256];         /* per-mount options, e.g. rw,relatime */
	char blockdev[64];         /* kernel name of the block device by st_dev, e.g. "vda1"; "" if none */
	bool space_known;          /* statvfs succeeded */
	uint64_t total_bytes, used_bytes, free_bytes, avail_bytes;
	bool magic_known;          /* statfs f_type read */
	unsigned long magic;
	struct storage_verdict storage;
};

/* Fills fi for dir; fields that cannot be found stay unknown. Returns 0, or -errno from realpath. */
int fsinfo_for_path(const char *root, const char *dir, struct fs_info *fi);

/* The filesystem named by a statfs f_type magic, or NULL. */
const char *fs_magic_name(unsigned long magic);

/*
 * The class of a filesystem from its f_type magic (0 = unknown) and its
 * mountinfo type name ("" = unknown); zfs_version is /sys/module/zfs/version
 * ("" = unknown). Writes one line to why.
 */
enum storage_class storage_class_of(unsigned long magic, const char *fstype,
				    const char *zfs_version, char *why, size_t n);

/*
 * The physical check: pread()s up to n 4 KiB blocks at random offsets of
 * fd (opened O_DIRECT, size bytes long) one at a time and records the p50
 * (stopping once more than n/2 are at or above the bound);
 * below STORAGE_MEMORY_P50_NS a graded verdict becomes memory-backed.
 * Returns 0, or -errno of a failed read (the verdict is then unchanged).
 */
int storage_probe_direct(int fd, uint64_t size, unsigned n, struct storage_verdict *sv);

#endif
