/*
 * atomic_file.h — files that leave the process whole or not at all: the
 * data goes to a temporary file in the target's directory, is fsynced and
 * renamed over the target, so a reader (node_exporter's textfile
 * collector, a dashboard) sees the old file or the new one, never a part,
 * and a failed run leaves the previous file in place.
 */
#ifndef VPSBENCH_ATOMIC_FILE_H
#define VPSBENCH_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *f;             /* write here between open and commit */
	char tmp[4096];      /* the temporary file's path */
	char path[4096];     /* the target */
};

/*
 * Checks, before anything runs, that path's directory exists, is a
 * directory and is writable. -1 with one line in err naming opt and path.
 */
int atomic_check_dir(const char *opt, const char *path, char *err, size_t errlen);

/* Creates the temporary file beside path. -1 with one line in err. */
int atomic_open(struct atomic_file *a, const char *path, char *err, size_t errlen);

/*
 * Flushes, fsyncs, gives the file the target's mode (or 0666 & ~umask
 * for a new one), renames it over path and fsyncs the directory.
 * On failure removes the temporary file and leaves path untouched.
 */
int atomic_commit(struct atomic_file *a, char *err, size_t errlen);

/* Drops the temporary file; path is untouched. */
void atomic_abort(struct atomic_file *a);

/* atomic_open + data + "\n" + atomic_commit. */
int atomic_write_string(const char *path, const char *data, char *err, size_t errlen);

#endif
