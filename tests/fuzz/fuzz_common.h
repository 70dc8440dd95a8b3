/*
 * fuzz_common.h — helpers shared by the libFuzzer targets: the input as a
 * C string, and as a file (memfd) that path-taking parsers can open.
 */
#ifndef VPSBENCH_FUZZ_COMMON_H
#define VPSBENCH_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* NUL-terminated copy (the parsers take C strings); NULL when out of memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input as a file named "/proc/self/fd/N" in path; returns the fd or -1. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t pathlen)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
