/*
 * root_read.c — small-file readers below a root prefix (root_read.h), for
 * the core readers and the modules that read /proc and /sys themselves.
 */
#include <ctype.h>
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
