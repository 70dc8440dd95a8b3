/*
 * rand_layout.c — creation, layout and O_DIRECT handling of the rand
 * test file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "databuf.h"
#include "progress.h"
#include "rand_layout.h"
#include "rand_verify.h"

#define LAYOUT_CHUNK (1u << 20)

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

int rand_file_set_direct(struct rand_file *f, bool on)
{
	int fl = fcntl(f->tf.fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	if (fcntl(f->tf.fd, F_SETFL, fl) < 0)
		return -errno;
	f->direct = on;
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

int rand_file_create(const struct bench_ctx *ctx, const char *dir, uint64_t size,
		     struct rand_file *f, char *err, size_t errlen)
{
	struct databuf_rng rng;
	unsigned char *buf = NULL;
	double t0 = mono_s();
	int r;

	memset(f, 0, sizeof(*f));
	f->tf.fd = -1;
	f->size = size;
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
	if (posix_memalign((void **)&buf, 4096, LAYOUT_CHUNK)) {
		buf = NULL;
		r = -ENOMEM;
		snprintf(err, errlen, "layout of %s: cannot allocate %u bytes", f->tf.path,
			 LAYOUT_CHUNK);
		goto fail;
	}
	/* reserve the blocks; filesystems without fallocate are fine, a full one is not */
	if (fallocate(f->tf.fd, 0, 0, (off_t)size) < 0 && (errno == ENOSPC || errno == EDQUOT)) {
		r = -errno;
		snprintf(err, errlen, "layout of %s: fallocate: %s", f->tf.path, strerror(errno));
		goto fail;
	}
	databuf_seed(&rng, 0x89ULL ^ size);
	for (uint64_t off = 0; off < size; off += LAYOUT_CHUNK) {
		size_t len = size - off < LAYOUT_CHUNK ? (size_t)(size - off) : LAYOUT_CHUNK;

		live_publish(live_slot(ctx, 0), 1, off / LAYOUT_CHUNK, off); /* progress line */
		if (bench_stopped(ctx)) {
			r = -ECANCELED;
			snprintf(err, errlen, "layout of %s: interrupted", f->tf.path);
			goto fail;
		}
		databuf_fill(&rng, buf, len);
		rand_stamp_verify(buf, (uint32_t)len, off, 0);
		r = write_full(f->tf.fd, buf, len, off);
		if (r == -EINVAL && f->direct && off == 0) {
			/* refused at the first I/O: go buffered and say so */
			snprintf(f->direct_reason, sizeof(f->direct_reason),
				 "filesystem refuses O_DIRECT (first write: %s)", strerror(EINVAL));
			r = rand_file_set_direct(f, false);
			if (r == 0)
				r = write_full(f->tf.fd, buf, len, off);
		}
		if (r < 0) {
			snprintf(err, errlen, "layout write of %s at %llu: %s", f->tf.path,
				 (unsigned long long)off, strerror(-r));
			goto fail;
		}
	}
	if (fsync(f->tf.fd) < 0) {
		r = -errno;
		snprintf(err, errlen, "fsync %s: %s", f->tf.path, strerror(errno));
		goto fail;
	}
	f->layout_s = mono_s() - t0;
	free(buf);
	return 0;
fail:
	free(buf);
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
