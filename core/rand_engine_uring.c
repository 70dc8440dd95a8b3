/*
 * rand_engine_uring.c — io_uring through liburing: registered buffers
 * (READ_FIXED/WRITE_FIXED) and file, SINGLE_ISSUER with DEFER_TASKRUN or
 * COOP_TASKRUN when the kernel takes them, completions reaped from the CQ
 * ring in user space.
 */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <liburing.h>

#include "rand_engine.h"

/*
 * SQEs in the SQ ring not yet taken by the kernel, in ring order: 'ahead'
 * of ours, then our timeout SQE when tmo_queued, then the rest of ours
 * ('queued' counts all of ours). The kernel takes SQEs in order, so an
 * enter that took r of them tells exactly which of ours went out.
 */
struct uring_priv {
	struct io_uring ring;
	bool fixed_bufs, fixed_file;
	bool ext_arg;             /* the kernel waits with a timeout itself */
	bool tmo_queued;
	unsigned queued, ahead;
	unsigned sent;            /* ours taken by a wait's enter, reported by the next submit */
	struct __kernel_timespec ts; /* our timeout SQE points here until it is taken */
};

/*
 * Test seam: VPSBENCH_URING_MASK_FEATURES=ext_arg,... clears those
 * IORING_FEAT_* bits of the ring after set-up, so liburing and this engine
 * behave as on an older kernel (ext_arg: 5.5-5.10); "setup_flags" also
 * sets the ring up without COOP/DEFER_TASKRUN and SINGLE_ISSUER (< 5.19).
 * Read here only, once per engine set-up.
 */
static const struct {
	const char *name;
	unsigned bit;
} mask_names[] = {
	{ "nodrop", IORING_FEAT_NODROP },
	{ "submit_stable", IORING_FEAT_SUBMIT_STABLE },
	{ "rw_cur_pos", IORING_FEAT_RW_CUR_POS },
	{ "cur_personality", IORING_FEAT_CUR_PERSONALITY },
	{ "fast_poll", IORING_FEAT_FAST_POLL },
	{ "poll_32bits", IORING_FEAT_POLL_32BITS },
	{ "sqpoll_nonfixed", IORING_FEAT_SQPOLL_NONFIXED },
	{ "ext_arg", IORING_FEAT_EXT_ARG },
	{ "native_workers", IORING_FEAT_NATIVE_WORKERS },
	{ "rsrc_tags", IORING_FEAT_RSRC_TAGS },
	{ "cqe_skip", IORING_FEAT_CQE_SKIP },
	{ "linked_file", IORING_FEAT_LINKED_FILE },
};

/* Parses the seam: feature bits to clear, *plain for "setup_flags"; unknown names in bad. */
static unsigned mask_from_env(bool *plain, char *bad, size_t badlen)
{
	const char *env = getenv("VPSBENCH_URING_MASK_FEATURES");
	char tok[32];
	unsigned mask = 0;

	*plain = false;
	bad[0] = '\0';
	while (env && *env) {
		size_t n = strcspn(env, ",");
		bool known = false;

		snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) ? n : sizeof(tok) - 1), env);
		env += n + (env[n] == ',');
		if (!tok[0])
			continue;
		if (!strcmp(tok, "setup_flags")) {
			*plain = known = true;
		}
		for (size_t i = 0; i < sizeof(mask_names) / sizeof(mask_names[0]); i++) {
			if (!strcmp(tok, mask_names[i].name)) {
				mask |= mask_names[i].bit;
				known = true;
			}
		}
		if (!known)
			snprintf(bad, badlen, "%s", tok);
	}
	return mask;
}

static unsigned roundup_pow2(unsigned v)
{
	unsigned p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static int uring_setup(struct uring_priv *p, unsigned entries, bool plain)
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

	for (size_t i = plain ? sizeof(flagsets) / sizeof(flagsets[0]) - 1 : 0;
	     i < sizeof(flagsets) / sizeof(flagsets[0]); i++) {
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
	unsigned mask;
	bool plain;
	char bad[32];
	int r;

	if (!p)
		return -ENOMEM;
	mask = mask_from_env(&plain, bad, sizeof(bad));
	/* room for every I/O plus the timeout request of a wait without EXT_ARG */
	r = uring_setup(p, roundup_pow2(e->depth + 1), plain);
	if (r < 0) {
		free(p);
		return r;
	}
	p->ring.features &= ~mask;
	p->ext_arg = p->ring.features & IORING_FEAT_EXT_ARG;
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
	if (mask || plain || bad[0]) {
		size_t n = strlen(e->note);

		snprintf(e->note + n, sizeof(e->note) - n, "%stest seam: features 0x%x%s masked%s%s",
			 n ? "; " : "", mask, plain ? " and set-up flags" : "",
			 bad[0] ? ", unknown name " : "", bad);
	}
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

/* The kernel took r SQEs from the SQ ring: returns how many were ours. */
static unsigned uring_took(struct uring_priv *p, unsigned r)
{
	unsigned ours = 0, a;

	if (p->tmo_queued) {
		a = r < p->ahead ? r : p->ahead;
		ours += a;
		p->ahead -= a;
		p->queued -= a;
		r -= a;
		if (!r)
			return ours;
		p->tmo_queued = false;
		r--;
	}
	a = r < p->queued ? r : p->queued;
	p->queued -= a;
	return ours + a;
}

/*
 * Returns how many of ours went to the kernel since the last call: by this
 * submit, or by the enter of a wait in between (without EXT_ARG).
 */
static int uring_submit(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;
	unsigned got = p->sent;
	int r;

	p->sent = 0;
	if (!p->queued && !p->tmo_queued)
		return (int)got;
	r = io_uring_submit(&p->ring);
	if (r == -EAGAIN || r == -EBUSY || r == -EINTR)
		return (int)got; /* reap, then the SQ ring is submitted again */
	if (r < 0)
		return got ? (int)got : r;
	return (int)(got + uring_took(p, (unsigned)r));
}

static int uring_harvest(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0, seen = 0;

	io_uring_for_each_cqe(&p->ring, head, cqe) {
		struct rand_io *io = io_uring_cqe_get_data(cqe);

		seen++;
		/*
		 * Only completions of our I/Os: the timeout requests of a wait
		 * without EXT_ARG (LIBURING_UDATA_TIMEOUT) and anything else are
		 * consumed and skipped.
		 */
		if (cqe->user_data == LIBURING_UDATA_TIMEOUT || (uintptr_t)io < (uintptr_t)e->ios ||
		    (uintptr_t)io >= (uintptr_t)(e->ios + e->depth))
			continue;
		io->res = cqe->res;
		e->done[n++] = io;
		if (n == e->batch)
			break;
	}
	io_uring_cq_advance(&p->ring, seen);
	return (int)n;
}

/*
 * A wait with a timeout on kernels without EXT_ARG (before 5.11): a
 * timeout request of our own, taken with what is queued in one enter
 * whose count tells which of ours went out. (liburing's
 * io_uring_wait_cqe_timeout would submit the same but hide the count.)
 */
static int uring_wait_old(struct uring_priv *p, uint64_t timeout_ns)
{
	struct io_uring_sqe *sqe;
	unsigned before = p->queued;
	int r;

	if (!p->tmo_queued) {
		sqe = io_uring_get_sqe(&p->ring);
		if (!sqe)
			return 0; /* cannot happen: the ring has a spare entry */
		p->ts.tv_sec = (long long)(timeout_ns / 1000000000ULL);
		p->ts.tv_nsec = (long long)(timeout_ns % 1000000000ULL);
		io_uring_prep_timeout(sqe, &p->ts, 1, 0);
		io_uring_sqe_set_data64(sqe, LIBURING_UDATA_TIMEOUT);
		p->tmo_queued = true;
		p->ahead = before;
	}
	/* the kernel waits only when it took every SQE, so this cannot hang */
	r = io_uring_submit_and_wait(&p->ring, 1);
	if (r > 0)
		p->sent += uring_took(p, (unsigned)r);
	if (r == -ETIME || r == -EINTR || r == -EAGAIN || r == -EBUSY)
		return 0;
	return r < 0 ? r : 0;
}

static int uring_reap(struct rand_engine *e, bool wait, uint64_t timeout_ns)
{
	struct uring_priv *p = e->priv;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int n = uring_harvest(e), r;

	if (n || !wait)
		return n;
	if (!p->ext_arg) {
		r = uring_wait_old(p, timeout_ns);
	} else {
		ts.tv_sec = (long long)(timeout_ns / 1000000000ULL);
		ts.tv_nsec = (long long)(timeout_ns % 1000000000ULL);
		r = io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
		if (r == -ETIME || r == -EINTR || r == -EAGAIN)
			r = 0;
	}
	if (r < 0)
		return r;
	return uring_harvest(e);
}

/*
 * Called only when nothing is in flight (the job leaves the ring alone
 * otherwise). The ring's registered file holds a reference to the test
 * file, and the kernel drops what a ring holds in a work item after its
 * fd closes, which a busy machine runs late: the file (and so the mount)
 * would stay busy after the process exited. Unregistering is synchronous:
 * it is dropped before this returns. Completions still in the CQ ring are
 * reaped first, so the ring is empty when it closes.
 */
static void uring_cleanup(struct rand_engine *e)
{
	struct uring_priv *p = e->priv;
	unsigned ready;

	if (!p)
		return;
	ready = io_uring_cq_ready(&p->ring);
	if (ready)
		io_uring_cq_advance(&p->ring, ready);
	/* a failure leaves the release to the kernel's work item, as before */
	if (p->fixed_file && io_uring_unregister_files(&p->ring) == 0)
		p->fixed_file = false;
	if (p->fixed_bufs && io_uring_unregister_buffers(&p->ring) == 0)
		p->fixed_bufs = false;
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
