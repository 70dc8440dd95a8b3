/*
 * rand_engine_uring.c — io_uring through liburing: registered buffers
 * (READ_FIXED/WRITE_FIXED) and file, SINGLE_ISSUER with DEFER_TASKRUN or
 * COOP_TASKRUN when the kernel takes them, completions reaped from the CQ
 * ring in user space.
 */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <liburing.h>

#include "rand_engine.h"

struct uring_priv {
	struct io_uring ring;
	bool fixed_bufs, fixed_file;
	unsigned queued;
};

static unsigned roundup_pow2(unsigned v)
{
	unsigned p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static int uring_setup(struct uring_priv *p, unsigned entries)
{
	/*
	 * Newest first; the kernel answers EINVAL to flags it does not know.
	 * DEFER_TASKRUN: completions are posted only when we wait, in one go.
	 */
	static const unsigned flagsets[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params par;
	int r = -EINVAL;

	for (size_t i = 0; i < sizeof(flagsets) / sizeof(flagsets[0]); i++) {
		memset(&par, 0, sizeof(par));
		par.flags = flagsets[i] | IORING_SETUP_CQSIZE;
		par.cq_entries = entries * 2;
		r = io_uring_queue_init_params(entries, &p->ring, &par);
		if (r != -EINVAL)
			break;
	}
	return r;
}

static int uring_init(struct rand_engine *e)
{
	struct uring_priv *p = calloc(1, sizeof(*p));
	struct iovec *iov = NULL;
	int r;

	if (!p)
		return -ENOMEM;
	r = uring_setup(p, roundup_pow2(e->depth));
	if (r < 0) {
		free(p);
		return r;
	}
	iov = calloc(e->depth, sizeof(*iov));
	if (iov) {
		for (unsigned i = 0; i < e->depth; i++) {
			iov[i].iov_base = e->ios[i].buf;
			iov[i].iov_len = e->bs;
		}
		r = io_uring_register_buffers(&p->ring, iov, e->depth);
		p->fixed_bufs = r == 0;
		if (r < 0)
			snprintf(e->note, sizeof(e->note), "registered buffers refused: %s", strerror(-r));
		free(iov);
	}
	r = io_uring_register_files(&p->ring, &e->fd, 1);
	p->fixed_file = r == 0;
	if (r < 0 && !e->note[0])
		snprintf(e->note, sizeof(e->note), "registered file refused: %s", strerror(-r));
	/* saves the ring fd lookup on every enter; fine to lack */
	(void)io_uring_register_ring_fd(&p->ring);
	e->priv = p;
	return 0;
}

static void uring_queue(struct rand_engine *e, struct rand_io *io)
{
	struct uring_priv *p = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
	int fd = p->fixed_file ? 0 : e->fd;

	/* the ring has at least depth entries and at most depth I/Os are out */
	if (p->fixed_bufs) {
		if (io->ddir)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->off, io->idx);
		else
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->off, io->idx);
	} else {
		if (io->ddir)
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->off);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->off);
	}
	if (p->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	p->queued++;
}

static int uring_submit(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;
	int r;

	if (!p->queued)
		return 0;
	r = io_uring_submit(&p->ring);
	if (r == -EAGAIN || r == -EBUSY || r == -EINTR)
		return 0; /* reap, then the SQ ring is submitted again */
	if (r < 0)
		return r;
	p->queued -= (unsigned)r > p->queued ? p->queued : (unsigned)r;
	return r;
}

static int uring_harvest(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;

	io_uring_for_each_cqe(&p->ring, head, cqe) {
		struct rand_io *io = io_uring_cqe_get_data(cqe);

		io->res = cqe->res;
		e->done[n++] = io;
		if (n == e->batch)
			break;
	}
	io_uring_cq_advance(&p->ring, n);
	return (int)n;
}

static int uring_reap(struct rand_engine *e, bool wait, uint64_t timeout_ns)
{
	struct uring_priv *p = e->priv;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int n = uring_harvest(e), r;

	if (n || !wait)
		return n;
	ts.tv_sec = (long long)(timeout_ns / 1000000000ULL);
	ts.tv_nsec = (long long)(timeout_ns % 1000000000ULL);
	r = io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
	if (r == -ETIME || r == -EINTR || r == -EAGAIN)
		return 0;
	if (r < 0)
		return r;
	return uring_harvest(e);
}

static void uring_cleanup(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;

	if (!p)
		return;
	io_uring_queue_exit(&p->ring);
	free(p);
}

const struct rand_engine_ops rand_engine_uring = {
	.name = "io_uring",
	/* 4: disk IOPS 0.98x fio's one-in, one-out (8: 0.96x); tmpfs 1.3x */
	.batch = 4,
	.init = uring_init,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
#else
/* Built without liburing: rand_engine_open() reports it. */
typedef int rand_engine_uring_unused;
#endif
