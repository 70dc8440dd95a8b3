/*
 * atomic_file.c — temporary file, fsync, rename (see atomic_file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

/* The directory part of path, "." for a bare name. */
static void dir_of(const char *path, char *dir, size_t n)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, n, "%s", dirname(tmp));
}

int atomic_check_dir(const char *opt, const char *path, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;

	if (!path[0]) {
		snprintf(err, errlen, "%s needs a file name", opt);
		return -1;
	}
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) < 0) {
		snprintf(err, errlen, "%s %s: directory %s: %s", opt, path, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: %s is not a directory", opt, path, dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "%s %s: directory %s: %s", opt, path, dir, strerror(errno));
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s is a directory", opt, path);
		return -1;
	}
	return 0;
}

int atomic_open(struct atomic_file *a, const char *path, char *err, size_t errlen)
{
	char dir[4096], base[4096];
	int fd;

	memset(a, 0, sizeof(*a));
	if (strlen(path) >= sizeof(a->path) - 32) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	snprintf(a->path, sizeof(a->path), "%s", path);
	dir_of(path, dir, sizeof(dir));
	snprintf(base, sizeof(base), "%s", path);
	/* a dot name: the textfile collector reads *.prom only, globs skip it */
	if (snprintf(a->tmp, sizeof(a->tmp), "%.2000s/.%.1000s.XXXXXX", dir, basename(base)) >=
	    (int)sizeof(a->tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "creating a temporary file for %s: %s", path, strerror(errno));
		a->tmp[0] = '\0';
		return -1;
	}
	a->f = fdopen(fd, "w");
	if (!a->f) {
		snprintf(err, errlen, "fdopen %s: %s", a->tmp, strerror(errno));
		close(fd);
		unlink(a->tmp);
		a->tmp[0] = '\0';
		return -1;
	}
	return 0;
}

void atomic_abort(struct atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp[0])
		unlink(a->tmp);
	a->tmp[0] = '\0';
}

/* The mode the file will have: the target's, else what open(0666) would give. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	mode_t um;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	um = umask(022);
	umask(um);
	return 0666 & ~um;
}

int atomic_commit(struct atomic_file *a, char *err, size_t errlen)
{
	char dir[4096];
	int fd, dfd;

	if (!a->f) {
		snprintf(err, errlen, "%s: not open", a->path);
		return -1;
	}
	fd = fileno(a->f);
	if (fflush(a->f) != 0 || fsync(fd) < 0) {
		snprintf(err, errlen, "writing %s: %s", a->tmp, strerror(errno));
		goto fail;
	}
	if (fchmod(fd, target_mode(a->path)) < 0) {
		snprintf(err, errlen, "chmod %s: %s", a->tmp, strerror(errno));
		goto fail;
	}
	if (fclose(a->f) != 0) {
		a->f = NULL;
		snprintf(err, errlen, "writing %s: %s", a->tmp, strerror(errno));
		goto fail;
	}
	a->f = NULL;
	if (rename(a->tmp, a->path) < 0) {
		snprintf(err, errlen, "renaming %s to %s: %s", a->tmp, a->path, strerror(errno));
		goto fail;
	}
	a->tmp[0] = '\0';
	/* the rename itself survives a crash once the directory is synced */
	dir_of(a->path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd); /* best effort: some filesystems refuse fsync on a directory */
		close(dfd);
	}
	return 0;
fail:
	atomic_abort(a);
	return -1;
}

int atomic_write_string(const char *path, const char *data, char *err, size_t errlen)
{
	struct atomic_file a;

	if (atomic_open(&a, path, err, errlen) < 0)
		return -1;
	if (fputs(data, a.f) < 0 || fputc('\n', a.f) < 0) {
		snprintf(err, errlen, "writing %s: %s", a.tmp, strerror(errno));
		atomic_abort(&a);
		return -1;
	}
	return atomic_commit(&a, err, errlen);
}
