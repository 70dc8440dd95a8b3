/*
 * watch_report.c — `vpsbench watch --report`: reads the state directory's
 * history and prints what it covers. (First cut: rounds counted; the full
 * analysis and renderers follow.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/watch_report.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

struct counts {
	unsigned lines, malformed;
};

static int count_file(const char *path, struct counts *c, int must_exist)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!fp) {
		if (!must_exist && errno == ENOENT)
			return 0;
		fprintf(stderr, "vpsbench: watch --report: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, fp)) > 0) {
		cJSON *o = cJSON_Parse(line);

		if (o && cJSON_IsObject(o))
			c->lines++;
		else
			c->malformed++;
		cJSON_Delete(o);
	}
	free(line);
	fclose(fp);
	return 0;
}

int watch_report_run(const struct watch_report_args *a)
{
	char path[4096];
	struct counts c = { 0, 0 };
	struct stat st;
	FILE *out = a->out ? a->out : stdout;

	if (!a->state_dir || stat(a->state_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "vpsbench: watch --report: state directory %s: %s\n",
			a->state_dir ? a->state_dir : "(none)",
			a->state_dir && errno ? strerror(errno) : "not a directory");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/history.jsonl.1", a->state_dir);
	if (count_file(path, &c, 0) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/history.jsonl", a->state_dir);
	if (count_file(path, &c, 1) < 0)
		return 1;
	if (!c.lines) {
		fprintf(stderr, "vpsbench: watch --report: %s: no history rounds\n", path);
		return 1;
	}
	fprintf(out, "vpsbench watch report: %u rounds, %u malformed lines skipped\n",
		c.lines, c.malformed);
	return 0;
}
#else
int watch_report_run(const struct watch_report_args *a)
{
	(void)a;
	fprintf(stderr, "vpsbench: watch --report: unavailable: built without cJSON\n");
	return 1;
}
#endif
