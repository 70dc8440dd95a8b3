/*
 * watch_probe.c — the probes of a `vpsbench watch` round, on the stages'
 * own code: core/rand_engine (the rand module's engines: io_uring, libaio,
 * psync, as the baseline's randread-4k-qd1 pass), core/lat_hist (fio's
 * histogram), the fsync module's write + fdatasync() sample, the cpu
 * module's prime event and the mem module's DRAM point.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/watch/watch_probe.h"
#include "core/clock.h"
#include "core/lat_hist.h"
#include "modules/cpu/cpu.h"
#include "modules/fsync/fsync.h"
#include "modules/mem/mem.h"

/* the randread region: WATCH_PROBE_FILE_BYTES, or the baseline report's rand file size
 * (watch_probe_set_region) so the probe reads over the same span as the report's pass */
static uint64_t region = WATCH_PROBE_FILE_BYTES;

void watch_probe_set_region(uint64_t bytes)
{
	region = bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0 ? bytes : WATCH_PROBE_FILE_BYTES;
}

uint64_t watch_probe_region(void)
{
	return region;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void fill_random(unsigned char *b, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t v = xorshift(rng);

		memcpy(b + i, &v, 8);
	}
}

static void fail(struct watch_probe_result *r, const char *fmt, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->status = WS_FAILED;
	snprintf(r->reason, sizeof(r->reason), fmt, what);
}

int watch_probes_open(struct watch_probes *p, const char *dir, const volatile sig_atomic_t *stop,
		      char *err, size_t errlen)
{
	const size_t chunk = 1 << 20;
	unsigned char *wbuf = NULL;
	int r;

	memset(p, 0, sizeof(*p));
	p->fd = p->fd_sync = -1;
	p->stop = stop;
	p->rng = 0x853c49e6748fea9bULL ^ (uint64_t)getpid() ^ mono_ns();
	snprintf(p->path, sizeof(p->path), "%s/.probe-%ld", dir, (long)getpid());
	p->fd = open(p->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_DIRECT, 0600);
	if (p->fd < 0 && errno == EINVAL) { /* tmpfs and others: no O_DIRECT */
		p->fd = open(p->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		snprintf(p->note, sizeof(p->note), "%s has no O_DIRECT: the randread probe reads "
			 "through the page cache", dir);
	} else {
		p->direct = true;
	}
	if (p->fd < 0) {
		snprintf(err, errlen, "creating the probe file %s: %s", p->path, strerror(errno));
		return -1;
	}
	p->fd_sync = open(p->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	r = p->fd_sync < 0 ? errno : 0;
	if (unlink(p->path) < 0 && !r)
		r = errno;
	if (r) {
		snprintf(err, errlen, "opening and unlinking the probe file %s: %s", p->path,
			 strerror(r));
		goto fail;
	}
	if (posix_memalign(&p->buf, 4096, 4096) || posix_memalign((void **)&wbuf, 4096, chunk) ||
	    !(p->data = malloc(WATCH_PROBE_SYNC_BS + 8))) {
		snprintf(err, errlen, "probe buffers: out of memory");
		goto fail;
	}
	fill_random(p->data, WATCH_PROBE_SYNC_BS + 8, &p->rng);
	/* the randread region: random data (nothing to compress or dedupe), on the disk */
	for (uint64_t off = 0; off < region; off += chunk) {
		ssize_t w;

		if (stop && *stop) {
			snprintf(err, errlen, "laying out the probe file: interrupted");
			goto fail;
		}
		fill_random(wbuf, chunk, &p->rng);
		do {
			w = pwrite(p->fd, wbuf, chunk, (off_t)off);
		} while (w < 0 && errno == EINTR);
		if (w != (ssize_t)chunk) {
			snprintf(err, errlen, "laying out the probe file in %s (%llu MiB): %s", dir,
				 (unsigned long long)((region + WATCH_PROBE_SYNC_BYTES) >> 20),
				 w < 0 ? strerror(errno) : "short write");
			goto fail;
		}
	}
	r = posix_fallocate(p->fd_sync, (off_t)region, (off_t)WATCH_PROBE_SYNC_BYTES);
	if (r == EOPNOTSUPP || r == EINVAL)
		r = 0; /* written on the fly, as fio does without fallocate */
	if (r || fdatasync(p->fd_sync) < 0) {
		snprintf(err, errlen, "preallocating the probe file in %s: %s", dir,
			 strerror(r ? r : errno));
		goto fail;
	}
	free(wbuf);
	wbuf = NULL;

	return 0;
fail:
	free(wbuf);
	watch_probes_close(p);
	return -1;
}

/* On the thread that reads: io_uring's SINGLE_ISSUER ring refuses any other (EINVAL). */
int watch_probes_engine_open(struct watch_probes *p, char *err, size_t errlen)
{
	char why[160] = "";
	int r;

	p->io.buf = p->buf;
	p->eng.fd = p->fd;
	p->eng.depth = 1;
	p->eng.bs = 4096;
	p->eng.ios = &p->io;
	p->eng.done = p->done;
	r = rand_engine_open(ENGINE_AUTO, "", &p->eng, why, sizeof(why));
	if (r < 0) {
		snprintf(err, errlen, "opening an I/O engine for the probe file: %s",
			 why[0] ? why : strerror(-r));
		return -1;
	}
	p->eng_open = true;
	if (why[0] && !p->note[0])
		snprintf(p->note, sizeof(p->note), "randread probe engine %s: %s", p->eng.ops->name, why);
	return 0;
}

void watch_probes_close(struct watch_probes *p)
{
	if (p->eng_open)
		rand_engine_close(&p->eng);
	p->eng_open = false;
	if (p->fd >= 0)
		close(p->fd);
	if (p->fd_sync >= 0)
		close(p->fd_sync);
	p->fd = p->fd_sync = -1;
	free(p->buf);
	free(p->data);
	p->buf = NULL;
	p->data = NULL;
}

/* One 4 KiB read at a random aligned offset: its latency in ns, or -errno. */
static int64_t read_one(struct watch_probes *p)
{
	struct rand_engine *e = &p->eng;
	uint64_t t0;
	int n, s;

	p->io.off = (xorshift(&p->rng) % (region / 4096)) * 4096;
	p->io.len = 4096;
	p->io.xfer = 0;
	p->io.ddir = 0;
	p->io.reissue = false;
	t0 = mono_ns();
	p->io.t_issue = t0;
	e->ops->queue(e, &p->io);
	s = e->ops->submit(e);
	if (s < 0)
		return s;
	/* reaped even when stopped: the next probe reuses the engine (on the disk thread, which
	 * may wait: the round gave up on it at --probe-timeout) */
	do {
		n = e->ops->reap(e, true, 1000000000ULL);
		if (n < 0 && n != -EINTR)
			return n;
	} while (n <= 0);
	if (e->done[0]->res < 0)
		return e->done[0]->res;
	if (e->done[0]->res != 4096)
		return -EIO;
	return (int64_t)(mono_ns() - t0);
}

void watch_probe_randread(struct watch_probes *p, uint64_t ns, struct watch_probe_result *r)
{
	struct lat_hist *h = &p->hist;
	uint64_t start = mono_ns(), now;

	lat_hist_reset(h);
	do {
		int64_t l = read_one(p);

		if (l < 0) {
			fail(r, "4k random read: %s", strerror((int)-l));
			return;
		}
		lat_hist_add(h, (uint64_t)l);
		now = mono_ns();
	} while (now - start < ns && !(p->stop && *p->stop));
	if (p->stop && *p->stop) {
		fail(r, "%s", "interrupted");
		return;
	}
	memset(r, 0, sizeof(*r));
	r->status = WS_OK;
	r->p50_us = mdbl_of((double)lat_hist_percentile(h, 50) / 1000.0);
	r->p99_us = mdbl_of((double)lat_hist_percentile(h, 99) / 1000.0);
	r->iops = mdbl_of((double)h->st.n / ((double)(now - start) / 1e9));
}

void watch_probe_fsync(struct watch_probes *p, uint64_t ns, struct watch_probe_result *r)
{
	struct lat_hist *h = &p->hist;
	char err[200];
	int rc;

	lat_hist_reset(h);
	rc = fsync_sample(p->fd_sync, region, WATCH_PROBE_SYNC_BYTES,
			  WATCH_PROBE_SYNC_BS, p->data, ns, p->stop, h, err, sizeof(err));
	if (rc < 0) {
		fail(r, "%s", err);
		return;
	}
	if ((p->stop && *p->stop) || h->st.n == 0) {
		fail(r, "%s", "interrupted");
		return;
	}
	memset(r, 0, sizeof(*r));
	r->status = WS_OK;
	r->p50_us = mdbl_of((double)lat_hist_percentile(h, 50) / 1000.0);
	r->p99_us = mdbl_of((double)lat_hist_percentile(h, 99) / 1000.0);
}

void watch_probe_prime(const volatile sig_atomic_t *stop, uint64_t ns, struct watch_probe_result *r)
{
	uint64_t start = mono_ns(), now, events = 0;
	volatile unsigned long sink = 0;

	do {
		sink += cpu_prime_event(CPU_DEFAULT_MAX_PRIME);
		events++;
		now = mono_ns();
	} while (now - start < ns && !(stop && *stop));
	(void)sink;
	if (stop && *stop) {
		fail(r, "%s", "interrupted");
		return;
	}
	memset(r, 0, sizeof(*r));
	r->status = WS_OK;
	r->eps = mdbl_of((double)events / ((double)(now - start) / 1e9));
}

void watch_probe_dram(const volatile sig_atomic_t *stop, struct watch_probe_result *r)
{
	char err[160];
	double ns = 0;
	enum mbool huge = MB_UNKNOWN;

	if (mem_dram_point("", stop, &ns, &huge, err, sizeof(err)) < 0) {
		fail(r, "DRAM latency point: %s", err);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->status = WS_OK;
	r->ns = mdbl_of(ns);
	/* the drift compares it with the report's figure on the same pages (huge or 4 KiB) */
	r->huge = huge;
}
