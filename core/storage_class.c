/*
 * storage_class.c — what a filesystem's figures measure, from statfs
 * f_type (works inside a chroot, where mountinfo may have no entry) and
 * the mountinfo type name (tells fuse filesystems apart). Magic numbers
 * as in <linux/magic.h> and the filesystems' own sources, written out so
 * the static build needs no kernel headers.
 */
#include <stdio.h>
#include <string.h>

#include "fsinfo.h"

struct fs_magic {
	unsigned long magic;
	const char *name;
	enum storage_class cls;
};

static const struct fs_magic magics[] = {
	{ 0x01021994UL, "tmpfs", STORAGE_MEMORY },   /* also devtmpfs and shmem */
	{ 0x858458f6UL, "ramfs", STORAGE_MEMORY },
	{ 0x0000ef53UL, "ext4", STORAGE_DEVICE },    /* ext2/3/4 share it */
	{ 0x58465342UL, "xfs", STORAGE_DEVICE },
	{ 0x9123683eUL, "btrfs", STORAGE_DEVICE },
	{ 0x2fc12fc1UL, "zfs", STORAGE_DEVICE },     /* ZFS before 2.3: cached, below */
	{ 0xf2f52010UL, "f2fs", STORAGE_DEVICE },
	{ 0xca451a4eUL, "bcachefs", STORAGE_DEVICE },
	{ 0x52654973UL, "reiserfs", STORAGE_DEVICE },
	{ 0x3153464aUL, "jfs", STORAGE_DEVICE },
	{ 0x00003434UL, "nilfs2", STORAGE_DEVICE },
	{ 0x00004d44UL, "vfat", STORAGE_DEVICE },
	{ 0x2011bab0UL, "exfat", STORAGE_DEVICE },
	{ 0x5346544eUL, "ntfs", STORAGE_DEVICE },
	{ 0x7461636fUL, "ocfs2", STORAGE_DEVICE },
	{ 0x01161970UL, "gfs2", STORAGE_DEVICE },
	{ 0x00006969UL, "nfs", STORAGE_NETWORK },
	{ 0xff534d42UL, "cifs", STORAGE_NETWORK },
	{ 0xfe534d42UL, "smb3", STORAGE_NETWORK },
	{ 0x0000517bUL, "smbfs", STORAGE_NETWORK },
	{ 0x01021997UL, "9p", STORAGE_NETWORK },
	{ 0x00c36400UL, "ceph", STORAGE_NETWORK },
	{ 0x0bd00bd0UL, "lustre", STORAGE_NETWORK },
	{ 0x5346414fUL, "afs", STORAGE_NETWORK },
	{ 0x6b414653UL, "afs", STORAGE_NETWORK },
	{ 0x794c7630UL, "overlay", STORAGE_UNKNOWN }, /* the upper layer decides; not visible */
	{ 0x65735546UL, "fuse", STORAGE_UNKNOWN },    /* the subtype decides, below */
};

/* mountinfo names (fuse subtypes, and names the magic table does not know) */
static const struct fs_magic names[] = {
	{ 0, "tmpfs", STORAGE_MEMORY },
	{ 0, "ramfs", STORAGE_MEMORY },
	{ 0, "devtmpfs", STORAGE_MEMORY },
	{ 0, "ext2", STORAGE_DEVICE },
	{ 0, "ext3", STORAGE_DEVICE },
	{ 0, "ntfs3", STORAGE_DEVICE },
	{ 0, "fuseblk", STORAGE_DEVICE },             /* ntfs-3g and co. on a block device */
	{ 0, "nfs4", STORAGE_NETWORK },
	{ 0, "smb3", STORAGE_NETWORK },
	{ 0, "virtiofs", STORAGE_NETWORK },           /* the host's filesystem, shared */
	{ 0, "fuse.sshfs", STORAGE_NETWORK },
	{ 0, "fuse.rclone", STORAGE_NETWORK },
	{ 0, "fuse.s3fs", STORAGE_NETWORK },
	{ 0, "fuse.gcsfuse", STORAGE_NETWORK },
	{ 0, "fuse.glusterfs", STORAGE_NETWORK },
	{ 0, "fuse.juicefs", STORAGE_NETWORK },
	{ 0, "fuse.ceph-fuse", STORAGE_NETWORK },
	{ 0, "fuse.lxcfs", STORAGE_MEMORY },
	{ 0, "glusterfs", STORAGE_NETWORK },
};

const char *fs_magic_name(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (magics[i].magic == magic)
			return magics[i].name;
	return NULL;
}

const char *storage_class_name(enum storage_class c)
{
	switch (c) {
	case STORAGE_DEVICE: return "device";
	case STORAGE_MEMORY: return "memory-backed";
	case STORAGE_CACHED: return "cached";
	case STORAGE_NETWORK: return "network";
	case STORAGE_UNKNOWN: break;
	}
	return "unknown";
}

bool storage_class_graded(enum storage_class c)
{
	return c == STORAGE_DEVICE || c == STORAGE_UNKNOWN;
}

/* "2.1.11-1" -> true when below 2.3; false when unparsable (unknown stays graded) */
static bool zfs_before_2_3(const char *v)
{
	unsigned maj, min;

	if (!v || sscanf(v, "%u.%u", &maj, &min) != 2)
		return false;
	return maj < 2 || (maj == 2 && min < 3);
}

static const char *class_text(enum storage_class c)
{
	switch (c) {
	case STORAGE_DEVICE: return "a block device";
	case STORAGE_MEMORY: return "files live in RAM: the figures measure memory, not a disk";
	case STORAGE_NETWORK: return "network or host-shared storage: not graded as a local disk";
	case STORAGE_CACHED: return "O_DIRECT is served from a cache";
	case STORAGE_UNKNOWN: break;
	}
	return "cannot tell which storage serves it";
}

enum storage_class storage_class_of(unsigned long magic, const char *fstype,
				    const char *zfs_version, char *why, size_t n)
{
	enum storage_class c = STORAGE_UNKNOWN;
	const char *name = fstype && fstype[0] ? fstype : NULL;
	bool found = false;

	/* the mountinfo name first: it tells fuse subtypes and virtiofs apart */
	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0) {
			c = names[i].cls;
			found = true;
			break;
		}
	for (size_t i = 0; !found && i < sizeof(magics) / sizeof(magics[0]); i++)
		if ((magic && magics[i].magic == magic) ||
		    (!magic && name && strcmp(magics[i].name, name) == 0)) {
			c = magics[i].cls;
			if (!name)
				name = magics[i].name;
			found = true;
			break;
		}
	/* a magic names the truth even when mountinfo's name is a guess */
	if (magic == 0x01021994UL || magic == 0x858458f6UL)
		c = STORAGE_MEMORY;
	if (!name)
		name = "unknown filesystem";
	if ((magic == 0x2fc12fc1UL || (name && strcmp(name, "zfs") == 0)) && zfs_before_2_3(zfs_version)) {
		snprintf(why, n, "zfs %.32s (before 2.3): O_DIRECT reads are served from the ARC "
			 "(memory), not the disk", zfs_version);
		return STORAGE_CACHED;
	}
	snprintf(why, n, "%.64s: %s", name, class_text(c));
	return c;
}
