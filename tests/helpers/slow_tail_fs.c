/*
 * slow_tail_fs.c — a FUSE filesystem for tests/smoke_storage_cliff.sh: a
 * simulated device with a cache of a known size. It passes a backing
 * directory through (create, read, write, unlink, statfs...), and every
 * read request whose offset lies at or beyond --fast-mib MiB of its file
 * is served after --delay-us microseconds, one such read at a time (a
 * single slow spindle behind the cache); reads below it are served at
 * once, in parallel. Files are opened direct_io, so the kernel's page
 * cache never serves a read: each one reaches this process. O_DIRECT
 * opens are accepted (FUSE's direct I/O path).
 *
 *   slow_tail_fs --backing DIR --fast-mib N [--delay-us US] MOUNTPOINT [fuse options]
 *
 * Built by the test script with `pkg-config fuse3`; not part of vpsbench.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static char backing[PATH_MAX];
static off_t fast_bytes;
static long delay_us = 1000;
static pthread_mutex_t slow = PTHREAD_MUTEX_INITIALIZER;

static int full(const char *path, char *out)
{
	if ((size_t)snprintf(out, PATH_MAX, "%s%s", backing, path) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

static void *stf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;   /* no page cache: every read comes here */
	cfg->hard_remove = 1; /* unlink an open file for real (vpsbench unlinks early) */
	cfg->use_ino = 0;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	return NULL;
}

static int stf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int r;

	if (fi && fi->fh)
		return fstat((int)fi->fh, st) < 0 ? -errno : 0;
	if ((r = full(path, p)) < 0)
		return r;
	return lstat(p, st) < 0 ? -errno : 0;
}

static int stf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	char p[PATH_MAX];
	DIR *d;
	struct dirent *e;
	int r;

	(void)off;
	(void)fi;
	(void)flags;
	if ((r = full(path, p)) < 0)
		return r;
	if (!(d = opendir(p)))
		return -errno;
	while ((e = readdir(d)))
		if (fill(buf, e->d_name, NULL, 0, 0))
			break;
	closedir(d);
	return 0;
}

static int stf_open_common(const char *path, struct fuse_file_info *fi, bool create, mode_t mode)
{
	char p[PATH_MAX];
	int r, fd, flags = fi->flags & ~(O_DIRECT | O_NOFOLLOW);

	if ((r = full(path, p)) < 0)
		return r;
	fd = create ? open(p, flags | O_CREAT, mode) : open(p, flags);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int stf_open(const char *path, struct fuse_file_info *fi)
{
	return stf_open_common(path, fi, false, 0);
}

static int stf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return stf_open_common(path, fi, true, mode);
}

static int stf_read(const char *path, char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	ssize_t got;

	(void)path;
	if (off >= fast_bytes) {
		/* beyond the cache: one read at a time, delay_us each */
		struct timespec ts = { delay_us / 1000000, (delay_us % 1000000) * 1000 };

		pthread_mutex_lock(&slow);
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		got = pread((int)fi->fh, buf, n, off);
		pthread_mutex_unlock(&slow);
	} else {
		got = pread((int)fi->fh, buf, n, off);
	}
	return got < 0 ? -errno : (int)got;
}

static int stf_write(const char *path, const char *buf, size_t n, off_t off, struct fuse_file_info *fi)
{
	ssize_t put;

	(void)path;
	put = pwrite((int)fi->fh, buf, n, off);
	return put < 0 ? -errno : (int)put;
}

static int stf_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	return close((int)fi->fh) < 0 ? -errno : 0;
}

static int stf_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	return (datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh)) < 0 ? -errno : 0;
}

static int stf_unlink(const char *path)
{
	char p[PATH_MAX];
	int r;

	if ((r = full(path, p)) < 0)
		return r;
	return unlink(p) < 0 ? -errno : 0;
}

static int stf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int r;

	if (fi && fi->fh)
		return ftruncate((int)fi->fh, size) < 0 ? -errno : 0;
	if ((r = full(path, p)) < 0)
		return r;
	return truncate(p, size) < 0 ? -errno : 0;
}

static int stf_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi)
{
	(void)path;
	return fallocate((int)fi->fh, mode, off, len) < 0 ? -errno : 0;
}

static int stf_statfs(const char *path, struct statvfs *st)
{
	(void)path;
	return statvfs(backing, st) < 0 ? -errno : 0;
}

static const struct fuse_operations ops = {
	.init = stf_init,
	.getattr = stf_getattr,
	.readdir = stf_readdir,
	.open = stf_open,
	.create = stf_create,
	.read = stf_read,
	.write = stf_write,
	.release = stf_release,
	.fsync = stf_fsync,
	.unlink = stf_unlink,
	.truncate = stf_truncate,
	.fallocate = stf_fallocate,
	.statfs = stf_statfs,
};

int main(int argc, char **argv)
{
	char *fargv[64];
	int fargc = 0;

	fargv[fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--backing") && i + 1 < argc) {
			if (!realpath(argv[++i], backing)) {
				fprintf(stderr, "slow_tail_fs: backing %s: %s\n", argv[i], strerror(errno));
				return 1;
			}
		} else if (!strcmp(argv[i], "--fast-mib") && i + 1 < argc) {
			fast_bytes = (off_t)strtoll(argv[++i], NULL, 10) << 20;
		} else if (!strcmp(argv[i], "--delay-us") && i + 1 < argc) {
			delay_us = strtol(argv[++i], NULL, 10);
		} else if (fargc < 62) {
			fargv[fargc++] = argv[i];
		}
	}
	if (!backing[0] || fast_bytes <= 0 || delay_us < 0) {
		fprintf(stderr, "usage: slow_tail_fs --backing DIR --fast-mib N [--delay-us US] MOUNTPOINT\n");
		return 1;
	}
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
