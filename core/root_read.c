/*
 * root_read.c — small-file readers below a root prefix (root_read.h), for
 * the core readers and the modules that read /proc and /sys themselves.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "root_read.h"

static bool root_path(char *path, size_t n, const char *root, const char *rel)
{
	int len = snprintf(path, n, "%s%s", root ? root : "", rel);

	return len >= 0 && (size_t)len < n;
}

FILE *root_fopen(const char *root, const char *rel)
{
	char path[PATH_MAX];

	return root_path(path, sizeof(path), root, rel) ? fopen(path, "re") : NULL;
}

long root_read_file(const char *root, const char *rel, char *buf, size_t n)
{
	char path[PATH_MAX];
	size_t got = 0;
	int len, fd, err;

	if (n == 0)
		return -EINVAL;
	buf[0] = '\0';
	len = snprintf(path, sizeof(path), "%s%s", root ? root : "", rel);
	if (len < 0 || (size_t)len >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	while (got < n - 1) {
		ssize_t r = read(fd, buf + got, n - 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			close(fd);
			buf[0] = '\0';
			return err;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (long)got;
}

bool root_exists(const char *root, const char *rel)
{
	char path[PATH_MAX];

	return root_path(path, sizeof(path), root, rel) && access(path, F_OK) == 0;
}

bool root_cut_line(char *buf)
{
	char *nl = strchr(buf, '\n');
	size_t len;

	if (nl)
		*nl = '\0';
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return len > 0;
}

bool root_read_line(const char *root, const char *rel, char *buf, size_t n)
{
	FILE *f = root_fopen(root, rel);

	if (!f)
		return false;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	return root_cut_line(buf);
}

bool root_read_u64(const char *root, const char *rel, uint64_t *v)
{
	char buf[64], *end;

	if (!root_read_line(root, rel, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, &end, 10);
	return end != buf && *end == '\0';
}

bool root_read_key(const char *root, const char *rel, const char *key, uint64_t *v)
{
	FILE *f = root_fopen(root, rel);
	char line[256];
	size_t kl = strlen(key);
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) == 0 && (line[kl] == ' ' || line[kl] == ':' ||
						     line[kl] == '\t')) {
			char *p = line + kl + (line[kl] == ':'), *end;

			*v = strtoull(p, &end, 10);
			ok = end != p;
			break;
		}
	}
	fclose(f);
	return ok;
}
