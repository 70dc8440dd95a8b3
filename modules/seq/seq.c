/*
 * seq.c — dd-style sequential passes: `runs` fresh files written with
 * write() + fdatasync() (conv=fdatasync) or O_DIRECT (oflag=direct),
 * timed from open() to the return of fdatasync(), then an O_DIRECT
 * sequential read of the last file. Blocks are cut from a random pool
 * and stamped per 512-byte sector, so compression and dedupe cannot
 * shortcut them; --zero-fill writes zeros like dd if=/dev/zero.
 * The I/O of each write run and of the read runs in a worker thread with
 * a deadline (max(30 s, bytes at 1 MB/s)): stalled storage fails the pass
 * as "timeout" instead of hanging the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/fsinfo.h"
#include "core/io_full.h"
#include "core/live.h"
#include "core/pass_io.h"
#include "core/plan.h"
#include "core/stall.h"
#include "core/testfile.h"
#include "seq.h"

#define SEQ_POOL_TARGET (4u << 20)     /* fits a 64 MiB memory cgroup easily */
#define SEQ_GEN_MEASURE (256ULL << 20) /* bytes of blocks for the generator figure */
#define SEQ_PRNG_MEASURE (64u << 20)    /* bytes of random data for the PRNG figure */
#define SEQ_PAGE 4096u
#define SEQ_ZFS_INFLATION_DEFAULT 24u
#define SEQ_PROBE_READS 64u            /* 4k O_DIRECT reads of the physical check */

struct seq_data {
	unsigned char *pool;
	size_t pool_len;
	size_t stride;  /* bs rounded up to a page: every slot is O_DIRECT-aligned */
	size_t nslots;
	uint32_t bs;
	bool zero;
	uint64_t nonce; /* differs per run of vpsbench: no dedupe across runs either */
};

enum run_rc { RUN_OK, RUN_NODIRECT, RUN_NOSPACE, RUN_SKIP, RUN_FAIL, RUN_STOPPED, RUN_TIMEOUT };

/*
 * One write run's I/O or one read loop, done by a worker thread so that a
 * write(), fdatasync() or read() stuck in the kernel cannot hang the run.
 * Everything the worker touches lives here (heap), so when the waiter gives
 * up on it the struct, its descriptor and its data pool are leaked on
 * purpose and the worker can still return from the syscall safely.
 */
struct seq_work {
	struct stall_worker sw;     /* first: the body casts back; sw.ctx is the worker's */
	struct seq_data d;          /* copy of the pool handle */
	bool read;                  /* the read loop instead of the write run */
	int fd;
	bool direct;
	uint64_t size, tag;
	unsigned char *buf;         /* read: into this pool slot */
	int rc;                     /* write: enum run_rc; read: read_all's return */
	uint64_t got;               /* read: bytes read */
	double tf0, t1;             /* write: fdatasync() called / returned */
	char path[PATH_MAX];
	char err[384];
};

/* Reasons may name long paths; cutting them short is fine. */
static void msg(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void msg(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, n, fmt, ap);
	va_end(ap);
}

static const char *human(char *buf, size_t n, uint64_t bytes)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, n, "%.1f GiB", (double)bytes / (double)(1ULL << 30));
	else
		snprintf(buf, n, "%.0f MiB", (double)bytes / (double)(1ULL << 20));
	return buf;
}

static bool is_nospace(int e)
{
	return e == ENOSPC || e == EDQUOT;
}

static int seq_data_init(struct seq_data *d, uint32_t bs, bool zero, char *err, size_t errlen)
{
	struct databuf_rng rng;
	void *p = NULL;
	int rc;

	memset(d, 0, sizeof(*d));
	d->bs = bs;
	d->zero = zero;
	d->stride = ((size_t)bs + SEQ_PAGE - 1) / SEQ_PAGE * SEQ_PAGE;
	d->nslots = SEQ_POOL_TARGET / d->stride;
	if (d->nslots == 0)
		d->nslots = 1;
	d->pool_len = d->stride * d->nslots;
	rc = posix_memalign(&p, SEQ_PAGE, d->pool_len);
	if (rc != 0) {
		msg(err, errlen, "cannot allocate a %zu-byte data pool: %s", d->pool_len,
			 strerror(rc));
		return -rc;
	}
	d->pool = p;
	if (getrandom(&d->nonce, sizeof(d->nonce), GRND_NONBLOCK) != (ssize_t)sizeof(d->nonce))
		d->nonce = (uint64_t)getpid() << 32 ^ (uint64_t)(mono_s() * 1e9);
	if (zero) {
		memset(d->pool, 0, d->pool_len);
	} else {
		databuf_seed(&rng, d->nonce);
		databuf_fill(&rng, d->pool, d->pool_len);
	}
	return 0;
}

/* The block for file offset off: a pool slot, stamped unless zero data. */
static inline const unsigned char *seq_block(struct seq_data *d, uint64_t off, uint64_t tag)
{
	unsigned char *p = d->pool + (size_t)((off / d->bs) % d->nslots) * d->stride;

	if (!d->zero)
		seq_stamp(p, d->bs, off, tag, d->nonce);
	return p;
}

/* Rate of the fill path the timed loop uses (seq_block), decimal GB/s. */
static struct mdbl seq_measure_generator(struct seq_data *d)
{
	uint64_t n = SEQ_GEN_MEASURE / d->bs, sink = 0;
	double t0, t1;

	if (d->zero)
		return (struct mdbl){ 0, false };
	if (n < 16)
		n = 16;
	t0 = mono_s();
	for (uint64_t i = 0; i < n; i++)
		sink += seq_block(d, i * d->bs, UINT64_MAX)[d->bs - 1];
	t1 = mono_s();
	__asm__ volatile("" : : "r"(sink), "r"(d->pool) : "memory");
	if (t1 <= t0)
		return (struct mdbl){ 0, false };
	return mdbl_of((double)(n * d->bs) / (t1 - t0) / 1e9);
}


/* The read pass reopens the file through /proc/self/fd once it is unlinked: needs /proc. */
static bool seq_can_reopen(int fd)
{
	char p[64];
	struct stat st;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	return stat(p, &st) == 0;
}

/* A fresh open file description of the test file: by name, or by /proc once unlinked. */
static int seq_reopen(const struct testfile *tf, int flags)
{
	char p[64];

	if (tf->named)
		return open(tf->path, flags | O_NOFOLLOW);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", tf->fd);
	return open(p, flags);
}

/* The write loop and the flush of one run, in the worker; results in w. */
static void seq_write_body(struct seq_work *w)
{
	struct live_slot *ls = live_slot(&w->sw.ctx, 0);
	uint64_t off;
	int rc;

	for (off = 0; off < w->size; off += w->d.bs) {
		live_publish(ls, 1, off / w->d.bs, off); /* one relaxed store pair per block */
		if (bench_stopped(&w->sw.ctx)) {
			w->rc = RUN_STOPPED;
			return;
		}
		rc = io_write_full(&w->sw.ctx, w->fd, seq_block(&w->d, off, w->tag), w->d.bs);
		if (rc == 0)
			continue;
		if (rc == -EINTR) {
			w->rc = RUN_STOPPED;
			return;
		}
		if (rc == -EINVAL && w->direct && off == 0) {
			msg(w->err, sizeof(w->err), "first write: %s", strerror(EINVAL));
			w->rc = RUN_NODIRECT;
			return;
		}
		msg(w->err, sizeof(w->err), "write to %s at offset %" PRIu64 " failed: %s", w->path,
		    off, strerror(-rc));
		w->rc = is_nospace(-rc) ? RUN_NOSPACE : RUN_FAIL;
		return;
	}
	w->tf0 = mono_s();
	if (fdatasync(w->fd) < 0) {
		int e = errno;

		msg(w->err, sizeof(w->err), "fdatasync of %s (%" PRIu64 " bytes written) failed: %s",
		    w->path, w->size, strerror(e));
		w->rc = is_nospace(e) ? RUN_NOSPACE : RUN_FAIL;
		return;
	}
	w->t1 = mono_s();
	w->rc = RUN_OK;
}

static int read_all(const struct bench_ctx *ctx, int fd, unsigned char *buf, uint32_t bs,
		    uint64_t size, uint64_t *got);

static void seq_work_body(struct stall_worker *sw)
{
	struct seq_work *w = (struct seq_work *)sw;

	if (w->read) {
		w->rc = read_all(&sw->ctx, w->fd, w->buf, w->d.bs, w->size, &w->got);
		w->t1 = mono_s();
	} else {
		seq_write_body(w);
	}
}

static struct seq_work *seq_work_new(const struct bench_ctx *ctx, const struct seq_data *d,
				     char *err, size_t errlen)
{
	struct seq_work *w = calloc(1, sizeof(*w));
	int rc;

	if (!w) {
		msg(err, errlen, "cannot allocate the I/O worker: %s", strerror(ENOMEM));
		return NULL;
	}
	rc = stall_init(&w->sw, ctx, seq_work_body);
	if (rc != 0) {
		msg(err, errlen, "setting up the I/O worker: %s", strerror(rc));
		free(w);
		return NULL;
	}
	w->d = *d;
	return w;
}

static void seq_work_free(struct seq_work *w)
{
	stall_destroy(&w->sw);
	free(w);
}

/*
 * One write run into a fresh file: the clock starts right before open()
 * and stops when fdatasync() returns, so the flush is inside the figure.
 * The writes and the flush run in a worker with a deadline; on a timeout
 * or a stuck signal the descriptor is left to the worker (tf->fd = -1) and
 * *stuck is set: the pool d must not be reused.
 */
static enum run_rc seq_write_run(const struct bench_ctx *ctx, struct seq_data *d, const char *dir,
				 bool direct, uint64_t size, uint64_t tag, struct testfile *tf,
				 struct seq_run *res, double *limit_s, bool *stuck, char *err,
				 size_t errlen)
{
	struct seq_work *w;
	int wr;
	enum run_rc rrc;
	double t0;
	int rc;

	memset(res, 0, sizeof(*res));
	t0 = mono_s();
	rc = testfile_create(dir, "seq", 0, tf, err, errlen);
	if (rc < 0) {
		if (rc == -EROFS || rc == -EACCES || rc == -EPERM)
			return RUN_SKIP;
		if (is_nospace(-rc))
			return RUN_NOSPACE;
		return RUN_FAIL;
	}
	/*
	 * O_DIRECT through F_SETFL, not open(): an open(O_CREAT|O_DIRECT) that
	 * the filesystem refuses has already created the name.
	 */
	if (direct) {
		int fl = fcntl(tf->fd, F_GETFL);

		if (fl < 0 || fcntl(tf->fd, F_SETFL, fl | O_DIRECT) < 0) {
			int e = errno;

			if (e == EINVAL) {
				msg(err, errlen, "open: %s", strerror(e));
				return RUN_NODIRECT;
			}
			msg(err, errlen, "fcntl(O_DIRECT) on %s: %s", tf->path, strerror(e));
			return RUN_FAIL;
		}
	}
	/*
	 * kill -9 must leave nothing: only the descriptor keeps the file. The
	 * writes and fdatasync() work the same on an unlinked inode. If the
	 * unlink fails the name stays registered and is removed at the end.
	 */
	if (seq_can_reopen(tf->fd))
		(void)testfile_unlink_early(tf);
	bench_phase(ctx, "seq-write", (unsigned)(tag & 0xffffffffu) + 1);
	w = seq_work_new(ctx, d, err, errlen);
	if (!w)
		return RUN_FAIL;
	w->fd = tf->fd;
	w->direct = direct;
	w->size = size;
	w->tag = tag;
	msg(w->path, sizeof(w->path), "%s", tf->path);
	*limit_s = stall_deadline_s(size);
	wr = stall_run(ctx, &w->sw, *limit_s);
	if (wr != 0) {
		tf->fd = -1; /* the worker may still write to it: never close or reuse it */
		*stuck = true;
		return wr == -ETIMEDOUT ? RUN_TIMEOUT : RUN_STOPPED;
	}
	rrc = (enum run_rc)w->rc;
	if (rrc != RUN_OK) {
		msg(err, errlen, "%s", w->err);
	} else {
		res->bytes = size;
		res->seconds = w->t1 - t0;
		res->flush_seconds = w->t1 - w->tf0;
		if (res->seconds > 0) {
			res->mbps = (double)size / res->seconds / 1e6;
			res->mibps = (double)size / res->seconds / (double)(1 << 20);
		}
	}
	seq_work_free(w);
	return rrc;
}

/* Share of the file's pages in the page cache (mincore), or unknown. */
static struct mdbl resident_frac(int fd, uint64_t size)
{
	const long pg = sysconf(_SC_PAGESIZE);
	struct mdbl r = { 0, false };
	unsigned char *vec = NULL;
	size_t pages, in = 0;
	void *m;

	if (pg <= 0 || size == 0)
		return r;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return r;
	pages = (size_t)((size + (uint64_t)pg - 1) / (uint64_t)pg);
	vec = malloc(pages);
	if (!vec)
		goto out;
	if (mincore(m, (size_t)size, vec) < 0)
		goto out;
	for (size_t i = 0; i < pages; i++)
		in += vec[i] & 1;
	r = mdbl_of((double)in / (double)pages);
out:
	free(vec);
	if (munmap(m, (size_t)size) < 0)
		r.ok = false;
	return r;
}

/* Reads the whole file in bs blocks; -errno, or 1 when stopped. */
static int read_all(const struct bench_ctx *ctx, int fd, unsigned char *buf, uint32_t bs,
		    uint64_t size, uint64_t *got)
{
	struct live_slot *ls = live_slot(ctx, 0);

	*got = 0;
	while (*got < size) {
		ssize_t n;

		live_publish(ls, 0, *got / bs, *got);
		if (bench_stopped(ctx))
			return 1;
		n = read(fd, buf, bs);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		*got += (uint64_t)n;
	}
	return 0;
}

/*
 * read_all() in a worker with the stall deadline. Returns its result, or
 * 2 on a timeout / 1 when stopped with the worker stuck: then fd and the
 * pool belong to the worker (*stuck) and must not be closed or reused.
 */
static int seq_read_loop(const struct bench_ctx *ctx, struct seq_data *d, int fd, uint64_t size,
			 uint64_t *got, double *t1, double *limit_s, bool *stuck)
{
	struct seq_work *w;
	int wr;
	char err[128];
	int rc;

	w = seq_work_new(ctx, d, err, sizeof(err));
	if (!w) {
		/* cannot get a worker: read here, without the deadline */
		rc = read_all(ctx, fd, d->pool, d->bs, size, got);
		*t1 = mono_s();
		return rc;
	}
	w->read = true;
	w->fd = fd;
	w->buf = d->pool; /* slot 0: page-aligned, >= bs */
	w->size = size;
	*limit_s = stall_deadline_s(size);
	wr = stall_run(ctx, &w->sw, *limit_s);
	if (wr != 0) {
		*stuck = true;
		*got = 0;
		return wr == -ETIMEDOUT ? 2 : 1;
	}
	rc = w->rc;
	*got = w->got;
	*t1 = w->t1;
	seq_work_free(w);
	return rc;
}

/*
 * SEQ_READ_PASSES passes over consecutive parts of fd's file, from where
 * fd stands: the same bytes as one pass over the file, each part timed on
 * its own and checked for disturbance, so the read figure (all bytes over
 * all seconds) has a spread. Returns read_all's result (1 stopped, 2
 * timeout with *stuck); *got = bytes read by all passes.
 */
static int seq_read_passes(const struct bench_ctx *ctx, struct seq_data *d,
			   struct seq_dir_result *r, int fd, uint64_t size, uint64_t *got,
			   double *limit, bool *stuck)
{
	struct seq_read *rd = &r->read;
	uint64_t blocks = size / d->bs, done = 0;
	int rc = 0;

	rd->npasses = 0;
	*got = 0;
	for (unsigned k = 0; k < SEQ_READ_PASSES; k++) {
		uint64_t end = k + 1 == SEQ_READ_PASSES ? size : blocks * (k + 1) / SEQ_READ_PASSES * d->bs;
		uint64_t part = end - done, g = 0;
		struct seq_read_pass *x = &rd->passes[k];
		struct pass_io_snap snap;
		double t0, t1 = 0;

		if (part == 0)
			continue;
		pass_io_begin(ctx->root, &r->iodev, &snap);
		t0 = mono_s();
		rc = seq_read_loop(ctx, d, fd, part, &g, &t1, limit, stuck);
		*got += g;
		if (rc != 0 || *stuck || g != part) {
			pass_io_drop(&snap);
			return rc;
		}
		pass_io_end(ctx->root, &r->iodev, &snap, g, 0, 0, 0, &x->dist);
		x->bytes = g;
		x->seconds = t1 - t0;
		x->mbps = x->seconds > 0 ? (double)g / x->seconds / 1e6 : 0;
		rd->npasses++;
		done = end;
	}
	return rc;
}

/*
 * The read pass over the last written file: O_DIRECT, so it measures the
 * device. Where O_DIRECT is refused: fdatasync, POSIX_FADV_DONTNEED, then
 * a buffered read, labelled as such. Returns a pass status.
 */
static enum seq_pass_status seq_read_pass(const struct bench_ctx *ctx,
					  struct seq_data *d, struct seq_dir_result *r,
					  struct testfile *tf, uint64_t size, bool *stuck)
{
	struct seq_read *rd = &r->read;
	const char *fst = r->fstype[0] ? r->fstype : "this filesystem";
	uint64_t got = 0;
	double secs = 0, limit = 0;
	int fd, rc;

	bench_phase(ctx, "seq-read", 0);
	fd = seq_reopen(tf, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno != EINVAL) {
		msg(r->reason, sizeof(r->reason), "cannot open %s for reading: %s", tf->path,
			 strerror(errno));
		msg(rd->reason, sizeof(rd->reason), "not run: open failed");
		return SEQ_FAILED;
	}
	if (fd < 0) {
		msg(rd->reason, sizeof(rd->reason), "%s refuses O_DIRECT reads (open: %s)", fst,
			 strerror(EINVAL));
	} else {
		rc = seq_read_passes(ctx, d, r, fd, size, &got, &limit, stuck);
		if (*stuck)
			goto stuck;
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		if (rc == 0) {
			rd->direct = MB_TRUE;
			goto done;
		}
		if (rc == 1)
			goto stopped;
		if (rc != -EINVAL || got != 0) {
			msg(r->reason, sizeof(r->reason), "read of %s at offset %" PRIu64 " failed: %s",
				 tf->path, got, strerror(-rc));
			msg(rd->reason, sizeof(rd->reason), "failed: %s", strerror(-rc));
			return SEQ_FAILED;
		}
		msg(rd->reason, sizeof(rd->reason), "%s refuses O_DIRECT reads (read: %s)", fst,
			 strerror(EINVAL));
	}

	/* Buffered fallback: drop the file's pages first, outside the clock. */
	rd->direct = MB_FALSE;
	if (fdatasync(tf->fd) < 0) {
		msg(r->reason, sizeof(r->reason), "fdatasync of %s failed: %s", tf->path,
			 strerror(errno));
		return SEQ_FAILED;
	}
	rc = posix_fadvise(tf->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (rc != 0)
		bench_warn(ctx, "seq: %s: posix_fadvise(DONTNEED) failed: %s; the read may come from cache",
			    r->dir, strerror(rc));
	rd->cached_frac = resident_frac(tf->fd, size);
	if (rd->cached_frac.ok && rd->cached_frac.v > SEQ_CACHED_WARN)
		bench_warn(ctx, "seq: %s: %.0f%% of the test file stayed in the page cache after "
			    "POSIX_FADV_DONTNEED: the buffered read figure is partly a cache figure",
			    r->dir, rd->cached_frac.v * 100);
	bench_warn(ctx, "seq: %s: %s; read measured buffered after dropping the page cache", r->dir,
		    rd->reason);
	fd = seq_reopen(tf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		msg(r->reason, sizeof(r->reason), "cannot open %s for reading: %s", tf->path,
			 strerror(errno));
		return SEQ_FAILED;
	}
	rc = seq_read_passes(ctx, d, r, fd, size, &got, &limit, stuck);
	if (*stuck)
		goto stuck;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 1)
		goto stopped;
	if (rc < 0) {
		msg(r->reason, sizeof(r->reason), "read of %s at offset %" PRIu64 " failed: %s",
			 tf->path, got, strerror(-rc));
		return SEQ_FAILED;
	}
done:
	if (got != size) {
		msg(r->reason, sizeof(r->reason), "short read of %s: %" PRIu64 " of %" PRIu64 " bytes",
			 tf->path, got, size);
		return SEQ_FAILED;
	}
	for (unsigned k = 0; k < rd->npasses; k++)
		secs += rd->passes[k].seconds;
	rd->bytes = mu64_of(got);
	rd->seconds = mdbl_of(secs);
	if (secs > 0) {
		rd->mbps = mdbl_of((double)got / secs / 1e6);
		rd->mibps = mdbl_of((double)got / secs / (double)(1 << 20));
	}
	return SEQ_DONE;
stuck:
	/* fd stays open for the worker; the file was unlinked after the first write */
	if (rc == 2) {
		rd->direct = MB_UNKNOWN;
		msg(rd->reason, sizeof(rd->reason), "timeout");
		msg(r->reason, sizeof(r->reason), "timeout: the read pass did not finish within "
		    "%g s (storage stalled?)", limit);
		return SEQ_FAILED;
	}
stopped:
	rd->direct = MB_UNKNOWN;
	msg(rd->reason, sizeof(rd->reason), "interrupted");
	msg(r->reason, sizeof(r->reason), "interrupted during the read pass");
	return SEQ_INCOMPLETE;
}

static unsigned zfs_inflation(const char *root)
{
	char path[PATH_MAX];
	unsigned v = 0;
	FILE *f;

	msg(path, sizeof(path), "%s/sys/module/zfs/parameters/spa_asize_inflation",
		 root ? root : "");
	f = fopen(path, "r");
	if (!f)
		return SEQ_ZFS_INFLATION_DEFAULT;
	if (fscanf(f, "%u", &v) != 1 || v == 0)
		v = SEQ_ZFS_INFLATION_DEFAULT;
	fclose(f);
	return v;
}

/*
 * Free space for an unprivileged writer. 1 = known, 0 = the filesystem
 * reports no capacity at all (ramfs: f_blocks == 0), -errno on error.
 */
static int seq_avail(const char *dir, uint64_t *avail)
{
	struct statvfs st;

	if (statvfs(dir, &st) < 0)
		return -errno;
	*avail = (uint64_t)st.f_bavail * (st.f_frsize ? st.f_frsize : st.f_bsize);
	return st.f_blocks != 0;
}

static void seq_fs_checks(const struct bench_ctx *ctx,
			  struct seq_dir_result *r, const char *dir)
{
	struct fs_info fi;
	uint64_t avail;
	char h[32];

	memset(&fi, 0, sizeof(fi)); /* realpath failed: storage unknown */

	if (fsinfo_for_path(ctx->root, dir, &fi) == 0 && fi.mount_known) {
		msg(r->fstype, sizeof(r->fstype), "%s", fi.fstype);
		msg(r->mountpoint, sizeof(r->mountpoint), "%s", fi.mountpoint);
		msg(r->device, sizeof(r->device), "%s", fi.device);
	}
	r->storage = fi.storage;
	if (!storage_class_graded(r->storage.cls))
		bench_warn(ctx, "seq: %s is %s (%s): its figures are not graded as a disk's", dir,
			    storage_class_name(r->storage.cls), r->storage.why);
	if (strcmp(r->fstype, "zfs") != 0)
		return;
	if (seq_avail(dir, &avail) > 0) {
		unsigned infl = zfs_inflation(ctx->root);

		if (seq_zfs_space_low(avail, infl))
			bench_warn(ctx, "seq: %s is on ZFS with %s free, below 2 x spa_asize_inflation "
				    "(%u) = %u GiB: write figures may be far too low",
				    dir, human(h, sizeof(h), avail), infl, 2 * infl);
	}
}

static void seq_set_stats(const struct bench_ctx *ctx, struct seq_dir_result *r)
{
	double rates[SEQ_MAX_RUNS];
	bool out[SEQ_MAX_RUNS];
	struct seq_spread sp;
	double sum_mib = 0;

	for (unsigned i = 0; i < r->nruns; i++) {
		rates[i] = r->runs[i].mbps;
		sum_mib += r->runs[i].mibps;
	}
	seq_spread(rates, r->nruns, &sp, out);
	r->avg_mbps = sp.avg;
	r->min_mbps = sp.min;
	r->max_mbps = sp.max;
	r->cov = sp.cov;
	if (r->nruns)
		r->avg_mibps = mdbl_of(sum_mib / r->nruns);
	r->total_mbps = seq_total_mbps(r->runs, r->nruns);
	r->total_mibps = r->total_mbps.ok ? mdbl_of(r->total_mbps.v * 1e6 / 1048576.0)
					  : r->total_mbps;
	for (unsigned i = 0; i < r->nruns; i++) {
		r->runs[i].outlier = out[i];
		if (out[i])
			bench_warn(ctx, "seq: %s: write run %u (%.1f MB/s) differs from the median of the "
				    "runs by more than %.0f%%", r->dir, i + 1, rates[i],
				    SEQ_OUTLIER_FRAC * 100);
	}
}

static void seq_clear_figures(struct seq_dir_result *r)
{
	r->nruns = 0;
	r->avg_mbps = r->avg_mibps = r->min_mbps = r->max_mbps = r->cov = (struct mdbl){ 0, false };
	r->total_mbps = r->total_mibps = (struct mdbl){ 0, false };
}

/*
 * The physical check on the last file: O_DIRECT 4k reads at qd1 faster
 * than any block device mean the figures came from memory.
 */
static void seq_probe(const struct bench_ctx *ctx, struct seq_dir_result *r,
		      const struct testfile *tf, uint64_t size)
{
	bool graded = storage_class_graded(r->storage.cls);
	int fd = seq_reopen(tf, O_RDONLY | O_DIRECT | O_CLOEXEC), rc;

	if (fd < 0)
		return;
	rc = storage_probe_direct(fd, size, SEQ_PROBE_READS, &r->storage);
	close(fd);
	if (rc < 0)
		bench_warn(ctx, "seq: %s: O_DIRECT 4k probe read failed: %s", r->dir, strerror(-rc));
	else if (graded && !storage_class_graded(r->storage.cls))
		bench_warn(ctx, "seq: %s: %s; its figures are not graded as a disk's", r->dir,
			    r->storage.why);
}

/* All runs, then the read, in one directory. Fills r; never prints. */
static void seq_dir_pass(const struct bench_ctx *ctx, struct seq_result *res,
			 struct seq_data *d, unsigned di, const char *dir, bool *stuck)
{
	const struct seq_spec *sp = &ctx->plan->seq;
	struct seq_dir_result *r = &res->dirs[di];
	struct testfile tf = { .fd = -1, .slot = -1 };
	const char *where;
	bool direct = sp->direct, started = false;
	uint64_t size = 0, tag = (uint64_t)di << 32;
	char err[384], h1[32], h2[32], what[PATH_MAX + 64];
	unsigned run = 0, warned_space = 0;
	struct bench_step step;
	double limit = 0;

	msg(r->dir, sizeof(r->dir), "%s", dir);
	r->bs = sp->bs;
	r->direct_requested = sp->direct;
	r->direct = MB_UNKNOWN;
	r->read.direct = MB_UNKNOWN;
	seq_fs_checks(ctx, r, dir);
	pass_io_dev_for(ctx->root, dir, &r->iodev);
	where = r->mountpoint[0] ? r->mountpoint : dir;

	while (run < sp->runs) {
		struct seq_run res;
		struct pass_io_snap snap;
		enum run_rc rc;
		uint64_t avail = 0;
		bool scaled = false;
		int known;

		/* a fresh file per run, as dd re-creates it; freed before the space check */
		testfile_remove(&tf);
		if (bench_stopped(ctx)) {
			r->status = SEQ_INCOMPLETE;
			msg(r->reason, sizeof(r->reason), "interrupted before write run %u", run + 1);
			goto out;
		}
		known = seq_avail(dir, &avail);
		if (known < 0) {
			r->status = SEQ_FAILED;
			msg(r->reason, sizeof(r->reason), "statvfs %s: %s", dir, strerror(-known));
			goto out;
		}
		if (known) {
			size = seq_fit_size(sp->size, avail, sp->bs, &scaled);
		} else {
			size = sp->size - sp->size % sp->bs;
			if (!warned_space++)
				bench_warn(ctx, "seq: %s reports no capacity (%s): free space not checked",
					    dir, r->fstype[0] ? r->fstype : "unknown filesystem");
		}
		if (size == 0) {
			if (run == 0) {
				r->status = SEQ_SKIPPED;
				msg(r->reason, sizeof(r->reason),
					 "only %s free on %s; a run needs at least %s",
					 human(h1, sizeof(h1), avail), where,
					 human(h2, sizeof(h2), seq_space_needed(
						 sp->size < SEQ_MIN_SIZE ? sp->size : SEQ_MIN_SIZE)));
			} else {
				r->status = SEQ_ABORTED;
				msg(r->reason, sizeof(r->reason), "aborted: no space left on %s", where);
				seq_clear_figures(r);
			}
			goto out;
		}
		if (scaled && !r->scaled_down)
			bench_warn(ctx, "seq: %s: only %s free; writing %s per run instead of %s", dir,
				    human(h1, sizeof(h1), avail), human(h2, sizeof(h2), size),
				    human(err, sizeof(err), sp->size));
		r->scaled_down |= scaled;
		if (r->size_bytes == 0 || size < r->size_bytes)
			r->size_bytes = size;

		msg(what, sizeof(what), "write run %u/%u in %s", run + 1, sp->runs, dir);
		step = (struct bench_step){ .module = "seq", .what = what, .bytes = size, .slots = 1 };
		bench_progress_step(ctx, &step, 0);
		pass_io_begin(ctx->root, &r->iodev, &snap);
		rc = seq_write_run(ctx, d, dir, direct, size, tag++, &tf, &res, &limit, stuck, err,
				   sizeof(err));
		if (rc == RUN_OK)
			pass_io_end(ctx->root, &r->iodev, &snap, 0, size, 1, 0, &res.dist);
		else
			pass_io_drop(&snap);
		bench_progress_step(ctx, &step, 1);
		if (rc != RUN_NODIRECT && rc != RUN_SKIP)
			started = true;
		switch (rc) {
		case RUN_OK:
			r->runs[r->nruns++] = res;
			run++;
			if (r->nruns == 1 && tf.nocow < 0)
				bench_warn(ctx, "seq: %s: btrfs NOCOW could not be set on the test file (%s): "
					    "on kernel 6.14+ O_DIRECT writes with data checksums are "
					    "buffered", dir, strerror(-tf.nocow));
			break;
		case RUN_NODIRECT:
			/* never present buffered as direct: label it and go on buffered */
			direct = false;
			msg(r->direct_reason, sizeof(r->direct_reason), "%s refuses O_DIRECT (%s)",
				 r->fstype[0] ? r->fstype : "the filesystem", err);
			bench_warn(ctx, "seq: %s: %s; writes are buffered + fdatasync instead", dir,
				    r->direct_reason);
			break;
		case RUN_NOSPACE:
			r->status = SEQ_ABORTED;
			msg(r->reason, sizeof(r->reason), "aborted: no space left on %s", where);
			seq_clear_figures(r);
			goto out;
		case RUN_SKIP:
			r->status = SEQ_SKIPPED;
			msg(r->reason, sizeof(r->reason), "%s", err);
			goto out;
		case RUN_FAIL:
			r->status = SEQ_FAILED;
			msg(r->reason, sizeof(r->reason), "%s", err);
			goto out;
		case RUN_STOPPED:
			r->status = SEQ_INCOMPLETE;
			msg(r->reason, sizeof(r->reason), "interrupted during write run %u", run + 1);
			goto out;
		case RUN_TIMEOUT:
			/* no figure for this run; the dir's other passes are not tried */
			r->status = SEQ_FAILED;
			msg(r->reason, sizeof(r->reason), "timeout: write run %u did not finish within "
			    "%g s (storage stalled?)", run + 1, limit);
			goto out;
		}
	}
	seq_set_stats(ctx, r);

	msg(what, sizeof(what), "read pass in %s", dir);
	step = (struct bench_step){ .module = "seq", .what = what, .bytes = size, .slots = 1 };
	bench_progress_step(ctx, &step, 0);
	r->status = seq_read_pass(ctx, d, r, &tf, size, stuck);
	bench_progress_step(ctx, &step, 1);
	if (r->status == SEQ_DONE && r->read.direct == MB_TRUE)
		seq_probe(ctx, r, &tf, size);
out:
	testfile_remove(&tf);
	if (started)
		r->direct = mbool_of(direct);
	if (r->status == SEQ_INCOMPLETE || r->status == SEQ_FAILED) {
		if (r->nruns && !r->avg_mbps.ok)
			seq_set_stats(ctx, r);
	}
	if (r->status != SEQ_DONE && !r->read.mbps.ok && !r->read.reason[0])
		snprintf(r->read.reason, sizeof(r->read.reason), "not run: %s",
			 r->status == SEQ_INCOMPLETE ? "interrupted" : "write pass did not finish");
}

static enum bench_status seq_run(const struct bench_ctx *ctx, void *result,
				 struct mod_outcome *out)
{
	const struct seq_spec *sp = &ctx->plan->seq;
	struct seq_result *res = result;
	const struct seq_dir_result *first_bad = NULL;
	unsigned nfail = 0, ninc = 0, nskip = 0;
	double max_mbps = 0;
	struct seq_data d;
	char err[256];

	memset(res, 0, sizeof(*res));
	res->zero = sp->zero;
	if (seq_data_init(&d, sp->bs, sp->zero, err, sizeof(err)) < 0)
		return bench_outcome(out, BENCH_FAIL, "%s", err);
	res->pool_bytes = d.pool_len;
	if (!sp->zero) {
		double g = databuf_measure_gbps(SEQ_PRNG_MEASURE);

		res->prng_gbps = (struct mdbl){ g, g > 0 };
	}
	res->generator_gbps = seq_measure_generator(&d);

	res->ndirs = ctx->opts->ndirs < SEQ_MAX_DIRS ? ctx->opts->ndirs : SEQ_MAX_DIRS;
	for (unsigned i = 0; i < res->ndirs; i++) {
		struct seq_dir_result *r = &res->dirs[i];
		bool stuck = false;

		if (!d.pool) {
			msg(r->dir, sizeof(r->dir), "%s", ctx->opts->dirs[i]);
			r->status = SEQ_FAILED;
			msg(r->reason, sizeof(r->reason), "%s", err);
			continue;
		}
		seq_dir_pass(ctx, res, &d, i, ctx->opts->dirs[i], &stuck);
		/* a stuck worker keeps the old pool (the kernel may still use it): a new one */
		if (stuck) {
			d.pool = NULL;
			if (i + 1 < res->ndirs && seq_data_init(&d, sp->bs, sp->zero, err,
								 sizeof(err)) < 0)
				d.pool = NULL;
		}
	}
	free(d.pool);

	for (unsigned i = 0; i < res->ndirs; i++) {
		const struct seq_dir_result *r = &res->dirs[i];

		if (r->max_mbps.ok && r->max_mbps.v > max_mbps)
			max_mbps = r->max_mbps.v;
		if (r->read.mbps.ok && r->read.mbps.v > max_mbps)
			max_mbps = r->read.mbps.v;
		switch (r->status) {
		case SEQ_FAILED:
		case SEQ_ABORTED:
			if (!nfail++)
				first_bad = r;
			break;
		case SEQ_INCOMPLETE:
			ninc++;
			break;
		case SEQ_SKIPPED:
			nskip++;
			break;
		default:
			break;
		}
	}
	if (res->generator_gbps.ok && res->generator_gbps.v * 1000 < 2 * max_mbps)
		bench_warn(ctx, "seq: the data generator (%.1f GB/s) is less than twice as fast as the "
			    "disk: figures may be CPU-bound", res->generator_gbps.v);

	if (nfail)
		return bench_outcome(out, BENCH_FAIL, "%s%s%s", res->ndirs > 1 ? first_bad->dir : "",
				     res->ndirs > 1 ? ": " : "", first_bad->reason);
	for (unsigned i = 0; i < res->ndirs; i++) {
		const struct seq_dir_result *r = &res->dirs[i];

		if (ninc && r->status == SEQ_INCOMPLETE)
			return bench_outcome(out, BENCH_INCOMPLETE, "%s%s%s",
					     res->ndirs > 1 ? r->dir : "", res->ndirs > 1 ? ": " : "",
					     r->reason);
		if (!ninc && nskip == res->ndirs && r->status == SEQ_SKIPPED)
			return bench_outcome(out, BENCH_SKIP, "%s%s%s", res->ndirs > 1 ? r->dir : "",
					     res->ndirs > 1 ? ": " : "", r->reason);
		if (!ninc && r->status == SEQ_SKIPPED)
			bench_warn(ctx, "seq: skipped %s: %s", r->dir, r->reason);
	}
	return bench_outcome(out, BENCH_OK, NULL);
}

const struct bench_module bench_mod_seq = {
	.name = "seq",
	.desc = "dd-style sequential write (fdatasync or O_DIRECT) and O_DIRECT read",
	.run = seq_run,
};
