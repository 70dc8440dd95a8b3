/*
 * watch_history.c — history.jsonl: the line format of the spec (README,
 * "vpsbench watch") and the append that never leaves a partial line.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_history.h"
#include "cmd/watch/watch_json.h"

const char *const watch_probe_names[WP_COUNT] = { "randread", "fsync", "prime", "dram" };
const char *const watch_status_names[WS_COUNT] = { "ok", "skipped", "failed" };
const char *const watch_skip_reason_names[WR_COUNT] = {
	"", "load", "cpu", "psi", "budget", "hung", "stopped", "other",
};

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
}

int watch_history_open(struct watch_history *h, const char *dir, uint64_t max, char *err,
		       size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->max = max;
	snprintf(h->path, sizeof(h->path), "%s/history.jsonl", dir);
	snprintf(h->rotated, sizeof(h->rotated), "%s/history.jsonl.1", dir);
	h->fd = open_append(h->path);
	if (h->fd < 0) {
		snprintf(err, errlen, "opening the history %s: %s", h->path, strerror(errno));
		return -1;
	}
	return 0;
}

int watch_history_reopen(struct watch_history *h, char *err, size_t errlen)
{
	int fd = open_append(h->path);

	if (fd < 0) {
		snprintf(err, errlen, "reopening the history %s: %s", h->path, strerror(errno));
		return -1;
	}
	if (h->fd >= 0)
		close(h->fd);
	h->fd = fd;
	return 0;
}

void watch_history_close(struct watch_history *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

uint64_t watch_history_last_seq(const struct watch_history *h)
{
	char buf[8192 + 1];
	int fd = open(h->path, O_RDONLY | O_CLOEXEC);
	off_t end;
	ssize_t n;
	char *p, *q;
	unsigned long long seq = 0;

	if (fd < 0)
		return 0;
	end = lseek(fd, 0, SEEK_END);
	if (end <= 0) {
		close(fd);
		return 0;
	}
	n = pread(fd, buf, sizeof(buf) - 1, end > (off_t)sizeof(buf) - 1 ?
		  end - (off_t)sizeof(buf) + 1 : 0);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	p = strrchr(buf, '\n');
	p = p ? p + 1 : buf;
	q = strstr(p, "\"seq\":");
	if (q && sscanf(q + 6, "%llu", &seq) != 1)
		seq = 0;
	return seq;
}

int watch_history_append(struct watch_history *h, const char *line, size_t len)
{
	struct stat st;
	ssize_t w;
	int e;

	if (h->fd < 0 && watch_history_reopen(h, h->last_err, sizeof(h->last_err)) < 0) {
		h->errors++;
		return -1;
	}
	if (fstat(h->fd, &st) < 0) {
		e = errno;
		goto fail_noop;
	}
	if (st.st_size > 0 && (uint64_t)st.st_size + len > h->max) {
		if (rename(h->path, h->rotated) < 0) {
			e = errno;
			snprintf(h->last_err, sizeof(h->last_err), "rotating %s to %s: %s", h->path,
				 h->rotated, strerror(e));
			h->errors++;
			return -1;
		}
		if (watch_history_reopen(h, h->last_err, sizeof(h->last_err)) < 0) {
			h->errors++;
			return -1;
		}
		st.st_size = 0;
	}
	w = write(h->fd, line, len);
	if (w >= 0 && w < (ssize_t)len) {
		/* the rest once more: a full disk says so (ENOSPC) on the second write */
		ssize_t w2 = write(h->fd, line + w, len - (size_t)w);

		if (w2 < 0) {
			e = errno;
			snprintf(h->last_err, sizeof(h->last_err), "writing %s: %s", h->path,
				 strerror(e));
		} else {
			w += w2;
		}
		if (w < (ssize_t)len) {
			if (ftruncate(h->fd, st.st_size) < 0)
				snprintf(h->last_err, sizeof(h->last_err), "writing %s: %s; truncating "
					 "the partial line back: %s", h->path,
					 w2 < 0 ? strerror(e) : "short write", strerror(errno));
			else if (w2 >= 0)
				snprintf(h->last_err, sizeof(h->last_err), "writing %s: short write",
					 h->path);
			h->errors++;
			return -1;
		}
	}
	if (w != (ssize_t)len) {
		e = w < 0 ? errno : ENOSPC;
		/* never a partial line: back to the length before it */
		if (w > 0 && ftruncate(h->fd, st.st_size) < 0)
			snprintf(h->last_err, sizeof(h->last_err), "writing %s: %s; truncating the "
				 "partial line back: %s", h->path, w < 0 ? strerror(e) : "short write",
				 strerror(errno));
		else
			snprintf(h->last_err, sizeof(h->last_err), "writing %s: %s", h->path,
				 w < 0 ? strerror(e) : "short write");
		h->errors++;
		return -1;
	}
	if (fdatasync(h->fd) < 0) {
		e = errno;
		snprintf(h->last_err, sizeof(h->last_err), "fdatasync %s: %s", h->path, strerror(e));
		h->errors++;
		return -1;
	}
	h->last_err[0] = '\0';
	return 0;
fail_noop:
	snprintf(h->last_err, sizeof(h->last_err), "fstat %s: %s", h->path, strerror(e));
	h->errors++;
	return -1;
}

/* A JSON number, or null when unknown or not finite. */
static void num(FILE *f, struct mdbl v, const char *fmt)
{
	if (v.ok && isfinite(v.v))
		fprintf(f, fmt, v.v);
	else
		fputs("null", f);
}

static void str_or_null(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputs("null", f);
		return;
	}
	watch_json_string(f, s);
}

static void probe(FILE *f, const struct watch_probe_result *p, int id)
{
	fprintf(f, "\"%s\":{\"status\":\"%s\",\"reason\":", watch_probe_names[id],
		watch_status_names[p->status]);
	str_or_null(f, p->status == WS_OK ? NULL : p->reason);
	switch (id) {
	case WP_RANDREAD:
	case WP_FSYNC:
		fputs(",\"p50_us\":", f);
		num(f, p->p50_us, "%.1f");
		fputs(",\"p99_us\":", f);
		num(f, p->p99_us, "%.1f");
		if (id == WP_RANDREAD) {
			fputs(",\"iops\":", f);
			num(f, p->iops, "%.1f");
		}
		break;
	case WP_PRIME:
		fputs(",\"events_per_s\":", f);
		num(f, p->eps, "%.1f");
		break;
	default:
		fputs(",\"ns\":", f);
		num(f, p->ns, "%.1f");
		fprintf(f, ",\"huge\":%s", p->huge == MB_TRUE ? "true" : p->huge == MB_FALSE ?
			"false" : "null");
		break;
	}
	/* added after the figures: an older reader's keys keep their places */
	fputs(",\"skip\":", f);
	str_or_null(f, p->status == WS_SKIPPED ?
		    watch_skip_reason_names[p->skip > WR_NONE && p->skip < WR_COUNT ? p->skip : WR_OTHER] :
		    NULL);
	fputs(",\"duration_s\":", f);
	num(f, p->duration_s, "%.3f");
	fputc('}', f);
}

char *watch_history_line(const struct watch_round *r, const struct watch_drift *dr, size_t *len)
{
	char *buf = NULL, ts[32];
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	time_t sec = (time_t)r->unix_time;
	struct tm tm;

	if (!f)
		return NULL;
	if (!gmtime_r(&sec, &tm) || !strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(ts, sizeof(ts), "1970-01-01T00:00:00Z");
	fprintf(f, "{\"schema\":\"vpsbench-watch-1\",\"seq\":%llu,\"time\":\"%s\",\"unix\":%.3f,"
		"\"interval_s\":", (unsigned long long)r->seq, ts, r->unix_time);
	num(f, r->interval_s, "%.3f");
	fputs(",\"probes\":{", f);
	for (int i = 0; i < WP_COUNT; i++) {
		if (i)
			fputc(',', f);
		probe(f, &r->probe[i], i);
	}
	fputs("},\"deltas\":{\"steal_pct\":", f);
	num(f, r->d.steal_pct, "%.2f");
	fputs(",\"throttled_s\":", f);
	num(f, r->d.throttled_s, "%.3f");
	fputs(",\"psi_cpu_some_pct\":", f);
	num(f, r->d.psi_cpu_pct, "%.2f");
	fputs(",\"psi_mem_some_pct\":", f);
	num(f, r->d.psi_mem_pct, "%.2f");
	fputs(",\"pswpin\":", f);
	if (r->d.pswpin.ok)
		fprintf(f, "%llu", (unsigned long long)r->d.pswpin.v);
	else
		fputs("null", f);
	fputs(",\"psi_io_some_pct\":", f);
	num(f, r->d.psi_io_pct, "%.2f");
	fputs(",\"steal_s\":", f);
	num(f, r->d.steal_s, "%.3f");
	fputs("},\"wakeup\":{\"p99_us\":", f);
	num(f, r->wake.p99_us, "%.1f");
	fputs(",\"max_us\":", f);
	num(f, r->wake.max_us, "%.1f");
	fprintf(f, ",\"samples\":%llu},\"drift\":{", (unsigned long long)r->wake.samples);
	for (int i = 0; i < WD_COUNT; i++) {
		const struct watch_drift_metric *m = &dr->m[i];

		fprintf(f, "%s\"%s\":{\"median\":", i ? "," : "", watch_drift_names[i]);
		num(f, m->median, "%.1f");
		fputs(",\"baseline\":", f);
		num(f, m->baseline, "%.1f");
		fputs(",\"ratio\":", f);
		num(f, m->ratio, "%.3f");
		fprintf(f, ",\"degraded\":%s}", m->degraded == MB_TRUE ? "true" :
			m->degraded == MB_FALSE ? "false" : "null");
	}
	fprintf(f, "},\"write_errors\":%llu", (unsigned long long)r->write_errors);
	/* the further --dirs' disk probes, the same objects; left out with one --dir */
	for (unsigned x = 0; x < r->nextra && x < WATCH_MAX_DIRS - 1; x++) {
		fputs(x ? "},{\"dir\":" : ",\"disks\":[{\"dir\":", f);
		str_or_null(f, r->extra[x].dir);
		for (int i = 0; i < WP_DISK_COUNT; i++) {
			fputc(',', f);
			probe(f, &r->extra[x].probe[i], i);
		}
		if (x + 1 == r->nextra)
			fputs("}]", f);
	}
	fputs("}\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}
