/*
 * pass_io.c — the disturbance snapshot of a disk pass (pass_io.h):
 * diskstats of the test file's device, io pressure in a quiet window just
 * before the pass, steal during it.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsinfo.h"
#include "pass_io.h"
#include "root_read.h"

#define SECTOR 512u

bool pass_io_diskstats_find(const char *text, const char *name, struct pass_io_disk *d)
{
	const char *line = text;

	while (line && *line) {
		unsigned maj, min;
		char dev[64];
		unsigned long long v[7];
		const char *nl = strchr(line, '\n');

		/* major minor name rd_ios rd_merges rd_sect rd_ticks wr_ios wr_merges wr_sect */
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu", &maj, &min, dev,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 10 &&
		    strcmp(dev, name) == 0) {
			d->rd_ios = v[0];
			d->rd_sect = v[2];
			d->wr_ios = v[4];
			d->wr_sect = v[6];
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

bool pass_io_psi_some_total(const char *text, uint64_t *total_us)
{
	const char *p = strstr(text, "some ");
	unsigned long long v;

	if (!p || (p != text && p[-1] != '\n'))
		return false;
	p = strstr(p, "total=");
	if (!p || sscanf(p, "total=%llu", &v) != 1)
		return false;
	*total_us = v;
	return true;
}

uint64_t pass_io_foreign(uint64_t dev_bytes, uint64_t own_bytes, uint64_t allowance)
{
	uint64_t mine = own_bytes + allowance;

	return dev_bytes > mine ? dev_bytes - mine : 0;
}

uint64_t pass_io_allowance(uint64_t own_bytes, uint64_t nsyncs)
{
	return (uint64_t)((double)own_bytes * PASS_IO_META_FRAC) + nsyncs * PASS_IO_META_PER_SYNC;
}

static void add_why(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_why(char *why, size_t n, const char *fmt, ...)
{
	size_t len = strlen(why);
	va_list ap;

	if (len && len + 2 < n) {
		memcpy(why + len, "; ", 3);
		len += 2;
	}
	if (len >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(why + len, n - len, fmt, ap);
	va_end(ap);
}

/* "412 MB" (decimal, as the figures), "3.1 MB" below 10 MB. */
static const char *mb(char *buf, size_t n, uint64_t b)
{
	double v = (double)b / 1e6;

	snprintf(buf, n, v < 10 ? "%.1f MB" : "%.0f MB", v);
	return buf;
}

void pass_io_decide(struct pass_io *p)
{
	char a[32], b[32], c[32];

	p->disturbed = false;
	p->why[0] = '\0';
	if (!p->checked) {
		snprintf(p->why, sizeof(p->why), "disturbance not checked");
		return;
	}
	if (p->foreign_read_bytes.ok && p->foreign_write_bytes.ok) {
		uint64_t fr = p->foreign_read_bytes.v, fw = p->foreign_write_bytes.v, f = fr + fw;

		if (f > PASS_IO_FOREIGN_MIN_BYTES && (double)f > PASS_IO_FOREIGN_FRAC * (double)p->own_bytes) {
			p->disturbed = true;
			/* both directions when each is at least 1 MB, else the larger one */
			if (fr >= 1000000 && fw >= 1000000)
				add_why(p->why, sizeof(p->why), "foreign I/O on %s during the pass: %s written, "
					"%s read beside the pass's %s", p->dev, mb(a, sizeof(a), fw),
					mb(b, sizeof(b), fr), mb(c, sizeof(c), p->own_bytes));
			else
				add_why(p->why, sizeof(p->why), "foreign I/O on %s during the pass: %s %s "
					"beside the pass's %s", p->dev, mb(a, sizeof(a), f),
					fw >= fr ? "written" : "read", mb(c, sizeof(c), p->own_bytes));
		}
	}
	if (p->foreign_ios.ok && p->foreign_ios.v > PASS_IO_FOREIGN_MIN_IOS &&
	    (double)p->foreign_ios.v > PASS_IO_FOREIGN_FRAC * (double)p->own_ios) {
		p->disturbed = true;
		add_why(p->why, sizeof(p->why), "%" PRIu64 " foreign I/O requests on %s during the "
			"pass beside its %" PRIu64, p->foreign_ios.v, p->dev, p->own_ios);
	}
	if (p->io_some_pct_before.ok && p->io_some_pct_before.v > PASS_IO_SOME_MAX_PCT) {
		p->disturbed = true;
		add_why(p->why, sizeof(p->why), "io pressure %.0f%% (some) in the %g s before the "
			"pass, while vpsbench did no I/O", p->io_some_pct_before.v,
			PASS_IO_QUIET_MS / 1000.0);
	}
	if (p->steal_pct.ok && p->steal_pct.v > PASS_IO_STEAL_MAX_PCT) {
		p->disturbed = true;
		add_why(p->why, sizeof(p->why), "steal %.0f%% during the pass", p->steal_pct.v);
	}
	if (!p->disturbed && !(p->foreign_read_bytes.ok && p->foreign_write_bytes.ok))
		snprintf(p->why, sizeof(p->why), "foreign I/O not checked: %s",
			 p->dev[0] ? "the device's counters could not be read" : "device unknown");
}

void pass_io_dev_for(const char *root, const char *path, struct pass_io_dev *d)
{
	struct fs_info *fi = calloc(1, sizeof(*fi));
	struct pass_io_disk x;
	char *text, cand[64] = "";
	FILE *f;
	bool found = false;

	memset(d, 0, sizeof(*d));
	if (!fi) {
		snprintf(d->why, sizeof(d->why), "out of memory");
		return;
	}
	if (fsinfo_for_path(root, path, fi) != 0) {
		snprintf(d->why, sizeof(d->why), "the directory's filesystem is unknown");
		free(fi);
		return;
	}
	if (fi->blockdev[0]) {
		snprintf(cand, sizeof(cand), "%s", fi->blockdev);
	} else if (strncmp(fi->device, "/dev/", 5) == 0) {
		/* btrfs (an anonymous st_dev): the mount source; /dev/mapper/x -> dm-N */
		char real[PATH_MAX], full[PATH_MAX + 8];
		const char *base;

		snprintf(full, sizeof(full), "%s%s", root ? root : "", fi->device);
		base = realpath(full, real) ? strrchr(real, '/') : strrchr(fi->device, '/');
		snprintf(cand, sizeof(cand), "%s", base + 1);
	}
	if (!cand[0]) {
		snprintf(d->why, sizeof(d->why), "%s is on %s, no block device", path,
			 fi->fstype[0] ? fi->fstype : "an unknown filesystem");
		free(fi);
		return;
	}
	free(fi);
	f = root_fopen(root, "/proc/diskstats");
	text = malloc(512);
	if (f && text) {
		while (fgets(text, 512, f))
			if (pass_io_diskstats_find(text, cand, &x)) {
				found = true;
				break;
			}
	}
	if (f)
		fclose(f);
	free(text);
	if (!found) {
		snprintf(d->why, sizeof(d->why), "%s not in /proc/diskstats", cand);
		return;
	}
	d->known = true;
	snprintf(d->name, sizeof(d->name), "%s", cand);
}

static bool read_disk(const char *root, const char *name, struct pass_io_disk *d)
{
	FILE *f = root_fopen(root, "/proc/diskstats");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = pass_io_diskstats_find(line, name, d);
	fclose(f);
	return found;
}

static bool read_psi(const char *root, uint64_t *total)
{
	char buf[512];

	return root_read_file(root, "/proc/pressure/io", buf, sizeof(buf)) > 0 &&
	       pass_io_psi_some_total(buf, total);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pass_io_begin(const char *root, const struct pass_io_dev *d, struct pass_io_snap *s)
{
	uint64_t a, b;
	double t0, t1;
	struct timespec ts = { 0, (long)PASS_IO_QUIET_MS * 1000000L };

	memset(s, 0, sizeof(*s));
	/*
	 * io pressure counts every task waiting on I/O, ours too: read it over
	 * a window where vpsbench does no I/O, right before the pass.
	 */
	t0 = now_s();
	if (read_psi(root, &a)) {
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		t1 = now_s();
		if (read_psi(root, &b) && b >= a && t1 > t0)
			s->some_pct = mdbl_of((double)(b - a) / 1e6 / (t1 - t0) * 100.0);
	}
	if (d && d->known)
		s->disk_ok = read_disk(root, d->name, &s->disk);
	s->st = malloc(sizeof(*s->st));
	if (s->st) {
		proc_stat_read(root, s->st);
		if (s->st->n == 0) {
			free(s->st);
			s->st = NULL;
		}
	}
}

void pass_io_drop(struct pass_io_snap *s)
{
	free(s->st);
	s->st = NULL;
}

void pass_io_end(const char *root, const struct pass_io_dev *d, struct pass_io_snap *s,
		 uint64_t own_read, uint64_t own_write, uint64_t nsyncs, uint64_t own_ios,
		 struct pass_io *out)
{
	struct pass_io_disk e;

	memset(out, 0, sizeof(*out));
	out->checked = true;
	out->own_bytes = own_read + own_write;
	out->own_ios = own_ios;
	out->io_some_pct_before = s->some_pct;
	if (d && d->known)
		snprintf(out->dev, sizeof(out->dev), "%s", d->name);
	if (s->disk_ok && d && d->known && read_disk(root, d->name, &e) &&
	    e.rd_sect >= s->disk.rd_sect && e.wr_sect >= s->disk.wr_sect) {
		uint64_t rd = (e.rd_sect - s->disk.rd_sect) * SECTOR;
		uint64_t wr = (e.wr_sect - s->disk.wr_sect) * SECTOR;

		out->foreign_read_bytes = mu64_of(pass_io_foreign(rd, own_read,
						  pass_io_allowance(own_read, 0)));
		out->foreign_write_bytes = mu64_of(pass_io_foreign(wr, own_write,
						   pass_io_allowance(own_write, nsyncs)));
		if (own_ios && e.rd_ios >= s->disk.rd_ios && e.wr_ios >= s->disk.wr_ios)
			out->foreign_ios = mu64_of(pass_io_foreign(e.rd_ios - s->disk.rd_ios +
					e.wr_ios - s->disk.wr_ios, own_ios,
					(uint64_t)((double)own_ios * PASS_IO_META_FRAC)));
	}
	if (s->st) {
		struct proc_stat *st = malloc(sizeof(*st));

		if (st) {
			proc_stat_read(root, st);
			if (st->n)
				out->steal_pct = proc_stat_steal_pct(proc_stat_diff(s->st, st, NULL, 0));
			free(st);
		}
	}
	pass_io_drop(s);
	pass_io_decide(out);
}
