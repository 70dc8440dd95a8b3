/*
 * watch_base_state.c — writing and reading drift_baseline.json
 * (watch_base_state.h; its format: README, "vpsbench watch").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/watch/watch_base_state.h"
#include "cmd/watch/watch_json.h"
#include "report/atomic_file.h"

#define SAVED_MAX_BYTES (1L << 20)

static void iso(char *buf, size_t n, double t)
{
	time_t sec = (time_t)t;
	struct tm tm;

	if (!(t > 0) || !gmtime_r(&sec, &tm) || !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "null");
}

int watch_base_state_save(const char *state_dir, const struct watch_drift *d,
			  const char *report_fnv1a, const char *probe_dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], ts[32];
	struct atomic_file a;
	struct timespec now;

	snprintf(path, sizeof(path), "%s/drift_baseline.json", state_dir);
	if (atomic_open(&a, path, err, errlen) < 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	iso(ts, sizeof(ts), (double)now.tv_sec);
	fprintf(a.f, "{\"schema\":\"vpsbench-watch-baseline-1\",\"report_fnv1a\":\"%s\","
		"\"written\":\"%s\",\"probe_dir\":", report_fnv1a, ts);
	watch_json_string(a.f, probe_dir);
	fputs(",\"metrics\":{", a.f);
	for (int i = 0; i < WBF_N; i++) {
		const struct watch_drift_fig *f = &d->fig[i];

		fprintf(a.f, "%s\"%s\":{\"value\":", i ? "," : "", watch_base_fig_names[i]);
		if (f->v.ok)
			fprintf(a.f, "%.10g", f->v.v);
		else
			fputs("null", a.f);
		fprintf(a.f, ",\"unit\":\"%s\",\"source\":\"%s\",\"measured_at\":",
			watch_base_fig_units[i], watch_base_src_str[f->v.ok ? f->src : WBS_NONE]);
		iso(ts, sizeof(ts), f->time);
		if (f->v.ok && f->time > 0)
			fprintf(a.f, "%.3f,\"measured\":\"%s\"}", f->time, ts);
		else
			fputs("null,\"measured\":null}", a.f);
	}
	fputs("}}\n", a.f);
	if (ferror(a.f)) {
		snprintf(err, errlen, "writing %.400s: %s", a.tmp, strerror(errno));
		atomic_abort(&a);
		return -1;
	}
	return atomic_commit(&a, err, errlen);
}

int watch_base_state_load(const char *state_dir, struct watch_base_saved *s, char *err,
			  size_t errlen)
{
	char path[PATH_MAX + 32], why[160];
	FILE *f;
	char *buf = NULL;
	long len;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/drift_baseline.json", state_dir);
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    len > SAVED_MAX_BYTES) {
		snprintf(err, errlen, "%s: cannot read (too large or not a file)", path);
		goto out;
	}
	buf = malloc((size_t)len + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "%s: read failed: %s", path,
			 ferror(f) ? strerror(errno) : "short read");
		goto out;
	}
	buf[len] = '\0';
	if (watch_base_saved_parse(buf, s, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	fclose(f);
	return rc;
}
