/*
 * rand_engine.c — engine choice and fallback: io_uring, libaio, psync.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rand_engine.h"

int (*rand_engine_init_hook)(const char *engine, unsigned depth);
const struct rand_engine_ops *rand_engine_test_ops;

static int try_init(const struct rand_engine_ops *ops, struct rand_engine *e)
{
	int r;

	e->ops = ops;
	e->priv = NULL;
	e->note[0] = '\0';
	if (rand_engine_init_hook && (r = rand_engine_init_hook(ops->name, e->depth)) != 0)
		return r;
	r = ops->init(e);
	e->batch = ops->batch && ops->batch < e->depth ? ops->batch : e->depth;
	if (!e->batch)
		e->batch = 1;
	return r;
}

static void add_why(char *why, size_t whylen, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(why);

	if (n >= whylen - 1)
		return;
	snprintf(why + n, whylen - n, fmt, n ? "; " : "", a, b);
}

#ifdef HAVE_LIBURING
/* kernel.io_uring_disabled: 0 on, 1 only for io_uring_group, 2 off. -1 unknown. */
static int uring_disabled(const char *root)
{
	char path[512];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/io_uring_disabled", root ? root : "");
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int open_uring(const char *root, struct rand_engine *e, char *why, size_t whylen)
{
	int dis = uring_disabled(root), r;
	char buf[96];

	if (dis == 2) {
		add_why(why, whylen, "%sio_uring: %s%s", "disabled by kernel.io_uring_disabled=2", "");
		return -EPERM;
	}
	r = try_init(&rand_engine_uring, e);
	if (r < 0) {
		snprintf(buf, sizeof(buf), "io_uring_queue_init: %s", strerror(-r));
		add_why(why, whylen, "%sio_uring: %s%s", buf,
			dis == 1 && (r == -EPERM || r == -EACCES) ?
			" (kernel.io_uring_disabled=1, not in io_uring_group)" :
			r == -EPERM || r == -EACCES ? " (refused, e.g. seccomp)" : "");
	}
	return r;
}

#endif

#ifdef HAVE_LIBAIO
static int open_libaio(struct rand_engine *e, char *why, size_t whylen)
{
	unsigned want = e->depth;
	char buf[128];
	int r;

	for (;;) {
		r = try_init(&rand_engine_libaio, e);
		if (r != -EAGAIN || e->depth <= 1)
			break;
		e->depth /= 2; /* aio-max-nr exhausted: ask for less */
	}
	if (r < 0) {
		snprintf(buf, sizeof(buf), "io_setup(%u): %s%s", e->depth, strerror(-r),
			 r == -EAGAIN ? " (fs.aio-max-nr exhausted)" : "");
		add_why(why, whylen, "%slibaio: %s%s", buf, "");
		e->depth = want;
	} else if (e->depth != want) {
		snprintf(buf, sizeof(buf), "io_setup(%u): EAGAIN (fs.aio-max-nr), depth reduced to %u",
			 want, e->depth);
		add_why(why, whylen, "%slibaio: %s%s", buf, "");
	}
	return r;
}

#endif

int rand_engine_open(enum rand_engine_kind want, const char *root, struct rand_engine *e,
		     char *why, size_t whylen)
{
	int r;

	why[0] = '\0';
	(void)root; /* only io_uring's check reads it */
	if (rand_engine_test_ops)
		return try_init(rand_engine_test_ops, e);
	switch (want) {
	case ENGINE_URING:
#ifndef HAVE_LIBURING
		snprintf(why, whylen, "io_uring unavailable: built without liburing");
		return -ENOSYS;
#else
		return open_uring(root, e, why, whylen);
#endif
	case ENGINE_LIBAIO:
#ifndef HAVE_LIBAIO
		snprintf(why, whylen, "libaio unavailable: built without libaio");
		return -ENOSYS;
#else
		return open_libaio(e, why, whylen);
#endif
	case ENGINE_PSYNC:
		return try_init(&rand_engine_psync, e);
	case ENGINE_AUTO:
		break;
	}
#ifdef HAVE_LIBURING
	if (open_uring(root, e, why, whylen) == 0)
		return 0;
#else
	add_why(why, whylen, "%sio_uring: %s%s", "built without liburing", "");
#endif
#ifdef HAVE_LIBAIO
	if (open_libaio(e, why, whylen) == 0)
		return 0;
#else
	add_why(why, whylen, "%slibaio: %s%s", "built without libaio", "");
#endif
	r = try_init(&rand_engine_psync, e);
	if (r < 0)
		add_why(why, whylen, "%spsync: %s%s", strerror(-r), "");
	return r;
}

void rand_engine_close(struct rand_engine *e)
{
	if (e->ops && e->ops->cleanup)
		e->ops->cleanup(e);
	e->ops = NULL;
	e->priv = NULL;
}
