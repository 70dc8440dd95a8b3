/*
 * testfile.h — test files that never outlive the run: unique names made
 * with O_CREAT|O_EXCL|O_NOFOLLOW, a registry the signal handler empties.
 */
#ifndef VPSBENCH_TESTFILE_H
#define VPSBENCH_TESTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct testfile {
	int fd;
	char path[PATH_MAX];
	bool named;     /* still has a name on disk */
	int slot;       /* registry slot, -1 when not registered */
	int nocow;      /* btrfs: 1 NOCOW set, -errno could not; 0 not btrfs */
};

/*
 * Creates "<dir>/.vpsbench-<tag>-<pid>-<n>.tmp" opened O_RDWR plus extra
 * flags (e.g. O_DIRECT). On btrfs the empty file is made NOCOW
 * (FS_NOCOW_FL), so O_DIRECT stays direct: with data checksums, 6.14+
 * turns O_DIRECT writes into buffered ones. On error returns -errno with
 * a message in err.
 */
int testfile_create(const char *dir, const char *tag, int extra_flags,
		    struct testfile *tf, char *err, size_t errlen);

/* Unlinks the name now and keeps the descriptor (kill -9 leaves nothing). */
int testfile_unlink_early(struct testfile *tf);

/* Closes and removes the file; safe to call twice. */
void testfile_remove(struct testfile *tf);

/* Async-signal-safe: unlinks every registered name. For signal handlers and atexit. */
void testfile_cleanup_all(void);

/* Free space for an unprivileged writer (statvfs f_bavail), or -errno. */
int64_t testfile_avail_bytes(const char *dir);

#endif
