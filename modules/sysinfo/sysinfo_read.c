/*
 * sysinfo_read.c — small-file helpers for the sysinfo readers. Every
 * read is bounded: /proc and /sys files are small, and a tree that is not
 * must not make sysinfo slow.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/root_read.h"
#include "sysinfo_priv.h"

bool si_path(char *buf, size_t n, const char *root, const char *rel)
{
	int len = snprintf(buf, n, "%s%s", root ? root : "", rel);

	return len >= 0 && (size_t)len < n;
}

long si_read(const char *root, const char *rel, char *buf, size_t n)
{
	/* a NUL inside (e.g. /proc/1/environ) ends C-string parsing early on
	 * purpose in most callers; environ's reader handles it itself */
	return root_read_file(root, rel, buf, n);
}

long si_read_line(const char *root, const char *rel, char *buf, size_t n)
{
	long r = si_read(root, rel, buf, n);
	char *nl;

	if (r < 0)
		return r;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	r = (long)strlen(buf);
	while (r > 0 && isspace((unsigned char)buf[r - 1]))
		buf[--r] = '\0';
	return r > 0 ? r : -ENODATA;
}

FILE *si_fopen(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (!si_path(path, sizeof(path), root, rel))
		return NULL;
	return fopen(path, "re");
}

bool si_exists(const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return si_path(path, sizeof(path), root, rel) && lstat(path, &st) == 0;
}

char *si_trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

bool si_split_kv(char *line, char **key, char **val)
{
	char *c = strchr(line, ':');

	if (!c)
		return false;
	*c = '\0';
	*key = si_trim(line);
	*val = si_trim(c + 1);
	return true;
}

bool si_parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return false;
	*v = x;
	return true;
}

void si_copy(char *dst, size_t n, const char *src)
{
	if (n)
		snprintf(dst, n, "%s", src ? src : "");
}

bool si_has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word)) != NULL) {
		bool start = p == list || isspace((unsigned char)p[-1]);
		bool end = p[wl] == '\0' || isspace((unsigned char)p[wl]);

		if (start && end)
			return true;
		p += wl;
	}
	return false;
}
