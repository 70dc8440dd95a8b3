/*
 * watch_baseline.c — loading, copying and making the baseline report
 * (watch_baseline.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_baseline.h"
#include "grade/watch_base.h"
#include "report/atomic_file.h"

#define REPORT_MAX_BYTES (16L << 20)

static char *slurp(const char *path, long *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (*len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    *len > REPORT_MAX_BYTES) {
		snprintf(err, errlen, "%s: cannot read (too large or not a file)", path);
		goto out;
	}
	buf = malloc((size_t)*len + 1);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
		snprintf(err, errlen, "%s: read failed: %s", path,
			 ferror(f) ? strerror(errno) : "short read");
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[*len] = '\0';
out:
	fclose(f);
	return buf;
}

int watch_baseline_load(const char *path, struct watch_base_report *b, char hash[17], char *err,
			size_t errlen)
{
	long len = 0;
	char *buf = slurp(path, &len, err, errlen), why[200];
	int rc = -1;

	memset(b, 0, sizeof(*b));
	hash[0] = '\0';
	if (!buf)
		return -1;
	if ((long)strlen(buf) != len) {
		snprintf(err, errlen, "%s: not a vpsbench report (a NUL byte inside)", path);
		goto out;
	}
	if (watch_base_report_parse(buf, b, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	snprintf(hash, 17, "%016llx", (unsigned long long)watch_base_fnv1a(buf, (size_t)len));
	rc = 0;
out:
	free(buf);
	return rc;
}

int watch_baseline_usable(const struct watch_base_report *b, const char *path, FILE *log)
{
	int usable = 0;

	for (int i = 0; i < WBF_N; i++) {
		if (i == WBF_WAKEUP)
			continue;
		if (b->v[i] > 0)
			usable++;
		else if (log)
			fprintf(log, "vpsbench: watch: baseline %s: the report has no %s: %s\n", path,
				watch_base_fig_labels[i], b->why[i]);
	}
	return usable;
}

int watch_baseline_copy(const char *from, const char *path, char *err, size_t errlen)
{
	long len = 0;
	char *buf = slurp(from, &len, err, errlen);
	struct atomic_file a;
	int rc = -1;

	if (!buf)
		return -1;
	if (atomic_open(&a, path, err, errlen) < 0)
		goto out;
	if (fwrite(buf, 1, (size_t)len, a.f) != (size_t)len) {
		snprintf(err, errlen, "writing %.400s: %s", a.tmp, strerror(errno));
		atomic_abort(&a);
		goto out;
	}
	rc = atomic_commit(&a, err, errlen);
out:
	free(buf);
	return rc;
}

int watch_baseline_run(const char *path, const char *dir, const volatile sig_atomic_t *stop,
		       char *err, size_t errlen)
{
	const char *extra = getenv("VPSBENCH_WATCH_BASELINE_ARGS");
	char *copy = extra ? strdup(extra) : NULL, *save = NULL, *tok;
	char *argv[64];
	int argc = 0, status = 0, rc = -1;
	bool sent = false;
	pid_t pid, w;

	if (extra && !copy) {
		snprintf(err, errlen, "baseline run: out of memory");
		return -1;
	}
	argv[argc++] = "vpsbench";
	argv[argc++] = "--quiet";
	argv[argc++] = "--format";
	argv[argc++] = "json";
	argv[argc++] = "--dir";
	argv[argc++] = (char *)dir;
	argv[argc++] = "--output";
	argv[argc++] = (char *)path;
	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; tok && argc < 62;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "baseline run: fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "vpsbench: watch: baseline run: exec /proc/self/exe: %s\n",
			strerror(errno));
		_exit(127);
	}
	for (;;) {
		w = waitpid(pid, &status, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(err, errlen, "baseline run: waitpid: %s", strerror(errno));
			goto out;
		}
		if (stop && *stop && !sent) {
			kill(pid, SIGTERM);
			sent = true;
		}
	}
	if (stop && *stop) {
		snprintf(err, errlen, "baseline run: interrupted");
		goto out;
	}
	if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2 &&
				   WEXITSTATUS(status) != 3)) {
		snprintf(err, errlen, "baseline run (vpsbench --dir %s --output %s) %s %d", dir, path,
			 WIFEXITED(status) ? "exited with" : "killed by signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		goto out;
	}
	rc = 0;
out:
	free(copy);
	return rc;
}
