/*
 * rand_engine.h — fio-style I/O engines for the rand module: queue
 * I/Os (no syscall), submit them in batches, reap completions in batches
 * of the same size. One engine instance per job thread.
 */
#ifndef VPSBENCH_RAND_ENGINE_H
#define VPSBENCH_RAND_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/*
 * One I/O. buf, off and len are what the engine issues: after a short
 * transfer the job moves them past the 'xfer' bytes already done and
 * queues the rest again (the engines need not know).
 */
struct rand_io {
	void *buf;
	uint64_t off;
	uint64_t t_issue;  /* ns, CLOCK_MONOTONIC: prepared, then after the submit that sent it */
	uint64_t block;
	int res;           /* bytes or -errno, set by reap */
	uint32_t len;
	uint32_t xfer;     /* bytes of the block done by earlier, short transfers */
	uint16_t idx;      /* buffer index (registered buffers) */
	uint8_t ddir;      /* 0 read, 1 write */
	bool reissue;      /* queued again after a short transfer: keeps its issue time */
	bool read_data;    /* the buffer holds what a read left (not the write data) */
};

struct rand_engine;

struct rand_engine_ops {
	const char *name;
	bool sync;  /* I/O completes inside submit: no slat, clat spans the call */
	/*
	 * Most I/Os per submit call and per reap (0: the depth). Reaping all
	 * that is done and resubmitting it at once makes a virtio disk
	 * complete I/Os in convoys of the whole depth; small batches keep
	 * its queue as steady as fio's one-in, one-out default.
	 */
	unsigned batch;
	/* Sets up for e->depth I/Os on e->fd with buffers e->ios[].buf; -errno. */
	int (*init)(struct rand_engine *e);
	void (*queue)(struct rand_engine *e, struct rand_io *io);
	/* Submits what is queued: count submitted (rest stays queued) or -errno. */
	int (*submit)(struct rand_engine *e);
	/*
	 * Puts up to e->batch completed I/Os in e->done[] with res set and
	 * returns how many.
	 * wait: block up to timeout_ns for at least one (0 on timeout).
	 */
	int (*reap)(struct rand_engine *e, bool wait, uint64_t timeout_ns);
	void (*cleanup)(struct rand_engine *e);
};

struct rand_engine {
	const struct rand_engine_ops *ops;
	int fd;
	unsigned depth;          /* in: wanted; out: what the engine allows */
	unsigned batch;          /* out: ops->batch capped at depth, >= 1 */
	uint32_t bs;
	struct rand_io *ios;     /* depth entries, buffers attached (caller owns) */
	struct rand_io **done;   /* depth entries (caller owns) */
	void *priv;
	char note[128];          /* non-fatal: registered buffers refused, ... */
};

extern const struct rand_engine_ops rand_engine_uring, rand_engine_libaio, rand_engine_psync;

/*
 * Test seam: when set, called before an engine's init with its name and
 * depth; a non-zero return (-errno) is taken as that init's result.
 */
extern int (*rand_engine_init_hook)(const char *engine, unsigned depth);

/* Test seam: when set, rand_engine_open() uses these ops whatever is asked for. */
extern const struct rand_engine_ops *rand_engine_test_ops;

/*
 * Opens an engine: the one asked for, or for ENGINE_AUTO io_uring, then
 * libaio, then psync. libaio EAGAIN (aio-max-nr) halves the depth before
 * giving up. e->fd, depth, bs, ios, done must be set. Returns 0, or
 * -errno with why filled (explicit engine refused or built without it).
 * On success why holds the fallback reason ("" when none).
 */
int rand_engine_open(enum rand_engine_kind want, const char *root, struct rand_engine *e,
		     char *why, size_t whylen);

void rand_engine_close(struct rand_engine *e);

#endif
