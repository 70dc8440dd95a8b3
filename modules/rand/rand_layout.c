/*
 * rand_layout.c — creation, layout and O_DIRECT handling of the rand
 * test file. The layout's writes and fsync() run in a worker thread with a
 * deadline, so stalled storage ends it as "timeout" instead of hanging.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/live.h"
#include "rand_layout.h"
#include "rand_verify.h"
#include "core/stall.h"

#define LAYOUT_CHUNK (1u << 20)
/*
 * Writers in flight: one 1 MiB O_DIRECT write at a time left the device
 * idle while the next chunk was generated and submitted (540 MB/s on a disk
 * that takes 1.1 GB/s at queue depth 16); eight keep it busy.
 */
#define LAYOUT_WRITERS 8

/*
 * The layout's writes and fsync(), done by a worker so that storage that
 * stalls cannot hang the run. Everything the worker touches lives here
 * (heap): when the waiter gives up, the struct, its buffer and the
 * descriptor are leaked on purpose and stay valid for the stuck syscall.
 */
struct layout_work {
	struct stall_worker sw;     /* first: the body casts back; sw.ctx is the worker's */
	int fd;
	bool direct;
	uint64_t size;
	uint64_t nonce;
	unsigned char *buf[LAYOUT_WRITERS]; /* LAYOUT_CHUNK each, page-aligned */
	uint64_t next_chunk;        /* atomic: the next chunk a writer takes */
	uint64_t bytes_done;        /* atomic: for the progress line */
	int first_err;              /* atomic: the first writer error, 0 while none */
	uint64_t err_off;
	int rc;
	char direct_reason[160];
	char path[PATH_MAX];
	char err[384];
};

uint64_t rand_file_fit(uint64_t want, int64_t avail, uint32_t align)
{
	uint64_t margin, room, size;

	if (avail < 0)
		return want; /* unknown: try, the writes will tell */
	/* 5% of the free space, at least 64 MiB, but at most a quarter on small filesystems */
	margin = (uint64_t)avail / 20;
	if (margin < RAND_SPACE_MARGIN)
		margin = RAND_SPACE_MARGIN < (uint64_t)avail / 4 ? RAND_SPACE_MARGIN : (uint64_t)avail / 4;
	room = (uint64_t)avail > margin ? (uint64_t)avail - margin : 0;
	size = want < room ? want : room;
	if (align)
		size -= size % align;
	return size < RAND_MIN_FILE ? 0 : size;
}


static int write_full(int fd, const unsigned char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t r = pwrite(fd, buf, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		buf += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* Messages name long paths; cutting them short is fine. */
static void werr(struct layout_work *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void werr(struct layout_work *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
}

static int set_direct_fd(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	if (fcntl(fd, F_SETFL, fl) < 0)
		return -errno;
	return 0;
}

int rand_file_set_direct(struct rand_file *f, bool on)
{
	int r = set_direct_fd(f->tf.fd, on);

	if (r == 0)
		f->direct = on;
	return r;
}

struct layout_writer {
	struct layout_work *w;
	struct stall_worker *sw;
	unsigned idx;
};

/* Writes chunk `chunk` from buf; 0 or -errno. */
static int layout_chunk(struct layout_work *w, struct databuf_rng *rng, unsigned char *buf,
			uint64_t chunk)
{
	uint64_t off = chunk * LAYOUT_CHUNK;
	size_t len = w->size - off < LAYOUT_CHUNK ? (size_t)(w->size - off) : LAYOUT_CHUNK;

	databuf_fill(rng, buf, len);
	rand_stamp_verify(buf, (uint32_t)len, off, 0);
	return write_full(w->fd, buf, len, off);
}

/* Takes chunks in order until none is left, the run stops or a writer failed. */
static void *layout_writer_main(void *arg)
{
	struct layout_writer *lw = arg;
	struct layout_work *w = lw->w;
	uint64_t nchunks = (w->size + LAYOUT_CHUNK - 1) / LAYOUT_CHUNK;
	struct databuf_rng rng;

	databuf_seed(&rng, w->nonce ^ w->size ^ ((uint64_t)lw->idx << 56));
	for (;;) {
		uint64_t c = __atomic_fetch_add(&w->next_chunk, 1, __ATOMIC_RELAXED);
		uint64_t done;
		int r;

		if (c >= nchunks || __atomic_load_n(&w->first_err, __ATOMIC_RELAXED))
			break;
		if (bench_stopped(&lw->sw->ctx)) {
			int zero = 0;

			__atomic_compare_exchange_n(&w->first_err, &zero, -ECANCELED, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			break;
		}
		r = layout_chunk(w, &rng, w->buf[lw->idx], c);
		if (r < 0) {
			int zero = 0;

			if (__atomic_compare_exchange_n(&w->first_err, &zero, r, false,
							__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
				w->err_off = c * LAYOUT_CHUNK;
			break;
		}
		done = __atomic_add_fetch(&w->bytes_done, LAYOUT_CHUNK, __ATOMIC_RELAXED);
		if (lw->idx == 0) /* one publisher per live slot */
			live_publish(live_slot(&lw->sw->ctx, 0), 1, done / LAYOUT_CHUNK,
				     done < w->size ? done : w->size);
	}
	return NULL;
}

/* The layout writes and the fsync, in the worker: result in w->rc, message in w->err. */
static void layout_body(struct stall_worker *sw)
{
	struct layout_work *w = (struct layout_work *)sw;
	struct layout_writer lw[LAYOUT_WRITERS];
	pthread_t tid[LAYOUT_WRITERS];
	unsigned started = 0;
	struct databuf_rng rng;
	int r;

	/* the first chunk alone: a filesystem that refuses O_DIRECT says so here */
	databuf_seed(&rng, w->nonce ^ w->size);
	r = layout_chunk(w, &rng, w->buf[0], 0);
	if (r == -EINVAL && w->direct) {
		snprintf(w->direct_reason, sizeof(w->direct_reason),
			 "filesystem refuses O_DIRECT (first write: %s)", strerror(EINVAL));
		r = set_direct_fd(w->fd, false);
		if (r == 0) {
			w->direct = false;
			r = layout_chunk(w, &rng, w->buf[0], 0);
		}
	}
	if (r < 0) {
		w->rc = r;
		werr(w, "layout write of %s at 0: %s", w->path, strerror(-r));
		return;
	}
	w->next_chunk = 1;
	w->bytes_done = LAYOUT_CHUNK;
	for (unsigned i = 0; i < LAYOUT_WRITERS; i++) {
		lw[i] = (struct layout_writer){ .w = w, .sw = sw, .idx = i };
		if (i > 0 && pthread_create(&tid[i], NULL, layout_writer_main, &lw[i]) != 0)
			break; /* fewer writers: slower, the same file */
		started = i + 1;
	}
	layout_writer_main(&lw[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	if (w->first_err == -ECANCELED) {
		w->rc = -ECANCELED;
		werr(w, "layout of %s: interrupted", w->path);
		return;
	}
	if (w->first_err < 0) {
		w->rc = w->first_err;
		werr(w, "layout write of %s at %llu: %s", w->path, (unsigned long long)w->err_off,
		     strerror(-w->rc));
		return;
	}
	if (fsync(w->fd) < 0) {
		w->rc = -errno;
		werr(w, "fsync %s: %s", w->path, strerror(-w->rc));
		return;
	}
	w->rc = 0;
}

static struct layout_work *layout_work_new(const struct bench_ctx *ctx)
{
	struct layout_work *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	for (unsigned i = 0; i < LAYOUT_WRITERS; i++)
		if (posix_memalign((void **)&w->buf[i], 4096, LAYOUT_CHUNK))
			goto fail;
	if (stall_init(&w->sw, ctx, layout_body) != 0)
		goto fail;
	return w;
fail:
	for (unsigned i = 0; i < LAYOUT_WRITERS; i++)
		free(w->buf[i]);
	free(w);
	return NULL;
}

static void layout_work_free(struct layout_work *w)
{
	stall_destroy(&w->sw);
	for (unsigned i = 0; i < LAYOUT_WRITERS; i++)
		free(w->buf[i]);
	free(w);
}

int rand_file_create(const struct bench_ctx *ctx, const char *dir, uint64_t size,
		     struct rand_file *f, char *err, size_t errlen)
{
	struct layout_work *w = NULL;
	double t0 = mono_s(), limit;
	int r;

	memset(f, 0, sizeof(*f));
	f->tf.fd = -1;
	f->size = size;
	if (getrandom(&f->nonce, sizeof(f->nonce), GRND_NONBLOCK) != (ssize_t)sizeof(f->nonce))
		f->nonce = (uint64_t)getpid() << 32 ^ mono_ns(); /* no entropy yet: still per run */
	/*
	 * Open plain, then ask for O_DIRECT with F_SETFL: an O_DIRECT open that
	 * the filesystem refuses would fail only after O_CREAT made the name.
	 */
	r = testfile_create(dir, "rand", 0, &f->tf, err, errlen);
	if (r < 0)
		return r;
	r = rand_file_set_direct(f, true);
	if (r < 0)
		snprintf(f->direct_reason, sizeof(f->direct_reason),
			 "filesystem refuses O_DIRECT (fcntl F_SETFL: %s)", strerror(-r));
	/* kill -9 must not leave the file behind: only the descriptor keeps it */
	r = testfile_unlink_early(&f->tf);
	if (r < 0) {
		snprintf(err, errlen, "unlink %s: %s", f->tf.path, strerror(-r));
		goto fail;
	}
	w = layout_work_new(ctx);
	if (!w) {
		r = -ENOMEM;
		snprintf(err, errlen, "layout of %s: cannot allocate %u x %u bytes and a worker",
			 f->tf.path, LAYOUT_WRITERS, LAYOUT_CHUNK);
		goto fail;
	}
	/* reserve the blocks; filesystems without fallocate are fine, a full one is not */
	if (fallocate(f->tf.fd, 0, 0, (off_t)size) < 0 && (errno == ENOSPC || errno == EDQUOT)) {
		r = -errno;
		snprintf(err, errlen, "layout of %s: fallocate: %s", f->tf.path, strerror(errno));
		goto fail;
	}
	bench_phase(ctx, "rand-layout", 0);
	w->fd = f->tf.fd;
	w->direct = f->direct;
	w->size = size;
	w->nonce = f->nonce;
	snprintf(w->path, sizeof(w->path), "%s", f->tf.path);
	limit = stall_deadline_s(size);
	r = stall_run(ctx, &w->sw, limit);
	if (r < 0) {
		if (r == -ETIMEDOUT)
			snprintf(err, errlen, "timeout: layout in %s did not finish within %g s "
				 "(storage stalled?)", dir, limit);
		else
			snprintf(err, errlen, "layout of %s: interrupted", f->tf.path);
		/* the worker may still write to it: never close or reuse the descriptor */
		f->tf.fd = -1;
		testfile_remove(&f->tf);
		return r;
	}
	if (w->direct_reason[0]) {
		snprintf(f->direct_reason, sizeof(f->direct_reason), "%s", w->direct_reason);
		f->direct = w->direct;
	}
	r = w->rc;
	if (r < 0) {
		snprintf(err, errlen, "%s", w->err);
		goto fail;
	}
	layout_work_free(w);
	f->layout_s = mono_s() - t0;
	return 0;
fail:
	if (w)
		layout_work_free(w);
	testfile_remove(&f->tf);
	return r;
}

bool rand_file_direct_ok(struct rand_file *f, uint32_t bs, char *why, size_t whylen)
{
	void *buf;
	ssize_t r;
	bool ok;

	if (!f->direct)
		return false;
	if (posix_memalign(&buf, 4096, bs))
		return true; /* cannot probe: let the pass tell */
	r = pread(f->tf.fd, buf, bs, 0);
	ok = !(r < 0 && errno == EINVAL);
	if (!ok)
		snprintf(why, whylen, "O_DIRECT refused for %u-byte I/O (read: %s)", bs,
			 strerror(EINVAL));
	free(buf);
	return ok;
}

void rand_file_drop_cache(struct rand_file *f)
{
	/* dirty pages are not dropped: write them back first */
	(void)fdatasync(f->tf.fd);
	(void)posix_fadvise(f->tf.fd, 0, 0, POSIX_FADV_DONTNEED);
}

void rand_file_close(struct rand_file *f)
{
	testfile_remove(&f->tf);
}
