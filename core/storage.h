/*
 * storage.h — what a directory's figures measure (its storage class):
 * plain data that modules fill and grade and render read.
 */
#ifndef VPSBENCH_STORAGE_H
#define VPSBENCH_STORAGE_H

#include <stdbool.h>

#include "value.h"

/* What a directory's figures measure. */
enum storage_class {
	STORAGE_UNKNOWN = 0, /* cannot tell (overlay, fuse, an unknown f_type): graded */
	STORAGE_DEVICE,      /* a block-device filesystem: graded */
	STORAGE_MEMORY,      /* tmpfs, ramfs, or reads seen served from memory: not graded */
	STORAGE_CACHED,      /* O_DIRECT does not bypass a cache (ZFS before 2.3): not graded */
	STORAGE_NETWORK,     /* NFS, SMB, 9p, virtiofs, sshfs...: not graded as a disk */
};

/*
 * Below this p50, O_DIRECT 4 KiB reads at queue depth 1 were not served
 * by a block device: the fastest ones (Optane-class) need about 5 us
 * device time alone, flash NVMe 40-100 us; tmpfs or an ARC hit takes 1-3 us.
 */
#define STORAGE_MEMORY_P50_NS 5000ULL

struct storage_verdict {
	enum storage_class cls;
	char why[192];              /* one line: what decided the class */
	struct mu64 probe_p50_ns;   /* O_DIRECT 4k qd1 read p50, when probed */
};

/* "device", "memory-backed", "cached", "network", "unknown" (JSON and text). */
const char *storage_class_name(enum storage_class c);

/* Whether figures of this class are graded as a disk's. */
bool storage_class_graded(enum storage_class c);

#endif
