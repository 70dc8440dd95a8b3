/*
 * rand_engine_psync.c — pread/pwrite, the last resort: one I/O at a
 * time, completed inside submit (depth is forced to 1, as fio's sync
 * engines behave).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rand_engine.h"

struct psync_priv {
	struct rand_io *queued;
	bool ready;  /* one completion waiting in done[0] */
};

static int psync_init(struct rand_engine *e)
{
	if (e->depth > 1)
		snprintf(e->note, sizeof(e->note), "psync is synchronous: depth %u ran as 1", e->depth);
	e->depth = 1;
	e->priv = calloc(1, sizeof(struct psync_priv));
	return e->priv ? 0 : -ENOMEM;
}

static void psync_queue(struct rand_engine *e, struct rand_io *io)
{
	((struct psync_priv *)e->priv)->queued = io;
}

static int psync_submit(struct rand_engine *e)
{
	struct psync_priv *p = e->priv;
	struct rand_io *io = p->queued;
	ssize_t r;

	if (!io)
		return 0;
	do {
		r = io->ddir ? pwrite(e->fd, io->buf, io->len, (off_t)io->off) :
			pread(e->fd, io->buf, io->len, (off_t)io->off);
	} while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (int)r;
	e->done[0] = io;
	p->queued = NULL;
	p->ready = true;
	return 1;
}

static int psync_reap(struct rand_engine *e, bool wait, uint64_t timeout_ns)
{
	struct psync_priv *p = e->priv;

	(void)wait;
	(void)timeout_ns;
	if (!p->ready)
		return 0;
	p->ready = false;
	return 1;
}

static void psync_cleanup(struct rand_engine *e)
{
	free(e->priv);
}

const struct rand_engine_ops rand_engine_psync = {
	.name = "psync",
	.sync = true,
	.batch = 1,
	.init = psync_init,
	.queue = psync_queue,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
