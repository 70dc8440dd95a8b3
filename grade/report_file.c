/*
 * report_file.c — reads a saved report whole (see report_file.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_file.h"

char *report_file_read(const char *path, char *why, size_t wn)
{
	return report_file_read_max(path, REPORT_FILE_MAX_BYTES, why, wn);
}

char *report_file_read_max(const char *path, long max, char *why, size_t wn)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!fp) {
		snprintf(why, wn, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fseek(fp, 0, SEEK_END) < 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) < 0) {
		snprintf(why, wn, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (len > max) {
		snprintf(why, wn, "%ld bytes: too large for a report", len);
		goto out;
	}
	buf = malloc((size_t)len + 1);
	if (!buf) {
		snprintf(why, wn, "out of memory");
		goto out;
	}
	if (fread(buf, 1, (size_t)len, fp) != (size_t)len) {
		snprintf(why, wn, "read failed: %s", ferror(fp) ? strerror(errno) : "short read");
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[len] = '\0';
out:
	fclose(fp);
	return buf;
}
