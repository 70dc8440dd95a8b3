/*
 * testfile.c — creation and guaranteed removal of test files.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <linux/fs.h>
#include <unistd.h>

#include "testfile.h"

#define TF_SLOTS 64
#define TF_BTRFS_MAGIC 0x9123683eUL

/* NOCOW only takes on an empty file: set it before a byte is written. */
static int tf_set_nocow(int fd)
{
	struct statfs sf;
	int flags;

	if (fstatfs(fd, &sf) < 0 || ((unsigned long)sf.f_type & 0xffffffffUL) != TF_BTRFS_MAGIC)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return -errno;
	flags |= FS_NOCOW_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		return -errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return -errno;
	return flags & FS_NOCOW_FL ? 1 : -EOPNOTSUPP;
}

/* Paths are written before the slot is published, so a handler sees whole names. */
static char tf_paths[TF_SLOTS][PATH_MAX];
static volatile sig_atomic_t tf_used[TF_SLOTS];
static unsigned tf_counter;

static int tf_register(const char *path)
{
	for (int i = 0; i < TF_SLOTS; i++) {
		if (!tf_used[i]) {
			snprintf(tf_paths[i], sizeof(tf_paths[i]), "%s", path);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			tf_used[i] = 1;
			return i;
		}
	}
	return -1;
}

static void tf_unregister(int slot)
{
	if (slot >= 0 && slot < TF_SLOTS)
		tf_used[slot] = 0;
}

int testfile_create(const char *dir, const char *tag, int extra_flags,
		    struct testfile *tf, char *err, size_t errlen)
{
	int fd, e;

	memset(tf, 0, sizeof(*tf));
	tf->fd = -1;
	tf->slot = -1;
	for (int attempt = 0; attempt < 100; attempt++) {
		unsigned n = __atomic_fetch_add(&tf_counter, 1, __ATOMIC_RELAXED);

		if ((size_t)snprintf(tf->path, sizeof(tf->path), "%s/.vpsbench-%s-%d-%u.tmp",
				     dir, tag, (int)getpid(), n) >= sizeof(tf->path)) {
			snprintf(err, errlen, "test file path in %s is too long", dir);
			return -ENAMETOOLONG;
		}
		fd = open(tf->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | extra_flags,
			  0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST) {
			e = errno;
			/* open(O_CREAT|O_DIRECT) creates the file before the fs refuses O_DIRECT */
			if (e == EINVAL && (extra_flags & O_DIRECT))
				unlink(tf->path);
			snprintf(err, errlen, "cannot create %s: %s", tf->path, strerror(e));
			return -e;
		}
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot find a free test file name in %s", dir);
		return -EEXIST;
	}
	tf->fd = fd;
	tf->named = true;
	tf->nocow = tf_set_nocow(fd);
	tf->slot = tf_register(tf->path);
	return 0;
}

int testfile_unlink_early(struct testfile *tf)
{
	if (!tf->named)
		return 0;
	if (unlink(tf->path) < 0)
		return -errno;
	tf->named = false;
	tf_unregister(tf->slot);
	tf->slot = -1;
	return 0;
}

void testfile_remove(struct testfile *tf)
{
	if (tf->fd >= 0) {
		close(tf->fd);
		tf->fd = -1;
	}
	if (tf->named) {
		unlink(tf->path);
		tf->named = false;
	}
	tf_unregister(tf->slot);
	tf->slot = -1;
}

void testfile_cleanup_all(void)
{
	for (int i = 0; i < TF_SLOTS; i++) {
		if (tf_used[i]) {
			unlink(tf_paths[i]);
			tf_used[i] = 0;
		}
	}
}

int64_t testfile_avail_bytes(const char *dir)
{
	struct statvfs st;

	if (statvfs(dir, &st) < 0)
		return -errno;
	return (int64_t)st.f_bavail * (int64_t)st.f_frsize;
}
