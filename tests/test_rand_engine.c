/*
 * test_rand_engine.c — engine fallback through the init seam (simulated
 * refusals), and a real round trip through every engine built in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rand_engine.h"
#include "th.h"

static int uring_rc, aio_rc;
static unsigned aio_max_depth; /* libaio: EAGAIN above this depth; 0 = never */

static int hook(const char *engine, unsigned depth)
{
	if (!strcmp(engine, "io_uring"))
		return uring_rc;
	if (!strcmp(engine, "libaio")) {
		if (aio_max_depth && depth > aio_max_depth)
			return -EAGAIN;
		return aio_rc;
	}
	return 0;
}

struct fixture {
	char path[64];
	int fd;
	struct rand_io ios[16];
	struct rand_io *done[16];
	unsigned char *bufs;
};

static int fx_open(struct fixture *fx, struct rand_engine *e, unsigned depth)
{
	memset(fx, 0, sizeof(*fx));
	memset(e, 0, sizeof(*e));
	snprintf(fx->path, sizeof(fx->path), "/tmp/vpsbench-test-eng.XXXXXX");
	fx->fd = mkstemp(fx->path);
	if (fx->fd < 0)
		return -1;
	unlink(fx->path);
	if (posix_memalign((void **)&fx->bufs, 4096, 16 * 4096))
		return -1;
	for (unsigned i = 0; i < 16; i++) {
		fx->ios[i].buf = fx->bufs + i * 4096;
		fx->ios[i].len = 4096;
		fx->ios[i].idx = (uint16_t)i;
	}
	e->fd = fx->fd;
	e->depth = depth;
	e->bs = 4096;
	e->ios = fx->ios;
	e->done = fx->done;
	return 0;
}

static void fx_close(struct fixture *fx)
{
	if (fx->fd >= 0)
		close(fx->fd);
	free(fx->bufs);
}

TH_TEST(rand_engine_uring_eperm_falls_back_to_libaio)
{
#if defined(HAVE_LIBURING) && defined(HAVE_LIBAIO)
	struct fixture fx;
	struct rand_engine e;
	char why[256];

	TH_EQ_INT(fx_open(&fx, &e, 8), 0);
	rand_engine_init_hook = hook;
	uring_rc = -EPERM;
	aio_rc = 0;
	aio_max_depth = 0;
	TH_EQ_INT(rand_engine_open(ENGINE_AUTO, "", &e, why, sizeof(why)), 0);
	TH_EQ_STR(e.ops->name, "libaio");
	TH_EQ_INT(e.depth, 8);
	TH_CHECK(strstr(why, "io_uring") && strstr(why, strerror(EPERM)));
	rand_engine_close(&e);
	/* an explicit engine does not fall back: it fails, saying why */
	e.depth = 8;
	TH_EQ_INT(rand_engine_open(ENGINE_URING, "", &e, why, sizeof(why)), -EPERM);
	TH_CHECK(strstr(why, "io_uring") != NULL);
	rand_engine_init_hook = NULL;
	fx_close(&fx);
#else
	th_skip("built without liburing or libaio");
#endif
}

TH_TEST(rand_engine_libaio_eagain_halves_then_psync)
{
#ifdef HAVE_LIBAIO
	struct fixture fx;
	struct rand_engine e;
	char why[256];

	TH_EQ_INT(fx_open(&fx, &e, 16), 0);
	rand_engine_init_hook = hook;
	uring_rc = -ENOSYS;
	aio_rc = 0;
	aio_max_depth = 4; /* aio-max-nr nearly exhausted: 16 -> 8 -> 4 */
	TH_EQ_INT(rand_engine_open(ENGINE_AUTO, "", &e, why, sizeof(why)), 0);
	TH_EQ_STR(e.ops->name, "libaio");
	TH_EQ_INT(e.depth, 4);
	TH_CHECK(strstr(why, "depth reduced to 4") != NULL);
	rand_engine_close(&e);

	/* exhausted completely: EAGAIN down to depth 1, then psync at depth 1 */
	aio_rc = -EAGAIN;
	e.depth = 16;
	TH_EQ_INT(rand_engine_open(ENGINE_AUTO, "", &e, why, sizeof(why)), 0);
	TH_EQ_STR(e.ops->name, "psync");
	TH_EQ_INT(e.depth, 1);
	TH_CHECK(strstr(why, "libaio") && strstr(why, "aio-max-nr"));
	rand_engine_close(&e);
	rand_engine_init_hook = NULL;
	fx_close(&fx);
#else
	th_skip("built without libaio");
#endif
}

TH_TEST(rand_engine_uring_disabled_sysctl)
{
#if defined(HAVE_LIBURING)
	/* a fixture root with kernel.io_uring_disabled = 2: io_uring is not even tried */
	struct fixture fx;
	struct rand_engine e;
	char root[] = "/tmp/vpsbench-test-root.XXXXXX", path[128], why[256];
	FILE *f;

	TH_CHECK(mkdtemp(root) != NULL);
	snprintf(path, sizeof(path), "%s/proc", root);
	TH_CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	TH_CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	TH_CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/io_uring_disabled", root);
	f = fopen(path, "w");
	TH_CHECK(f != NULL);
	if (!f)
		return;
	fputs("2\n", f);
	fclose(f);
	TH_EQ_INT(fx_open(&fx, &e, 4), 0);
	TH_EQ_INT(rand_engine_open(ENGINE_AUTO, root, &e, why, sizeof(why)), 0);
	TH_CHECK(strcmp(e.ops->name, "io_uring") != 0);
	TH_CHECK(strstr(why, "io_uring_disabled=2") != NULL);
	rand_engine_close(&e);
	fx_close(&fx);
	unlink(path);
	for (int i = 0; i < 3; i++) {
		char *s = strrchr(path, '/');

		*s = '\0';
		rmdir(path);
	}
	rmdir(root);
#else
	th_skip("built without liburing");
#endif
}

/* Writes 4 blocks, reads them back through the engine, compares. */
static void round_trip(enum rand_engine_kind kind, const char *name)
{
	struct fixture fx;
	struct rand_engine e;
	char why[256];
	unsigned char expect[4096];
	int got = 0;

	TH_EQ_INT(fx_open(&fx, &e, 4), 0);
	for (int b = 0; b < 4; b++) {
		memset(expect, 'a' + b, sizeof(expect));
		TH_EQ_INT(pwrite(fx.fd, expect, sizeof(expect), b * 4096), 4096);
	}
	TH_EQ_INT(rand_engine_open(kind, "", &e, why, sizeof(why)), 0);
	if (!e.ops) {
		fx_close(&fx);
		return;
	}
	TH_EQ_STR(e.ops->name, name);
	for (unsigned q = 0; q < 4; q += e.depth) {
		unsigned n = e.depth < 4 - q ? e.depth : 4 - q;

		for (unsigned i = 0; i < n; i++) {
			fx.ios[i].off = (uint64_t)(3 - (q + i)) * 4096; /* backwards */
			fx.ios[i].ddir = 0;
			e.ops->queue(&e, &fx.ios[i]);
		}
		TH_EQ_INT(e.ops->submit(&e), n);
		for (unsigned left = n; left;) {
			int r = e.ops->reap(&e, true, 2000000000ULL);

			TH_CHECK(r > 0);
			if (r <= 0)
				break;
			for (int i = 0; i < r; i++) {
				struct rand_io *io = e.done[i];

				TH_EQ_INT(io->res, 4096);
				memset(expect, 'a' + (int)(io->off / 4096), sizeof(expect));
				TH_CHECK(memcmp(io->buf, expect, 4096) == 0);
				got++;
			}
			left -= (unsigned)r;
		}
	}
	TH_EQ_INT(got, 4);
	rand_engine_close(&e);
	fx_close(&fx);
}

TH_TEST(rand_engine_round_trip)
{
#ifdef HAVE_LIBURING
	round_trip(ENGINE_URING, "io_uring");
#endif
#ifdef HAVE_LIBAIO
	round_trip(ENGINE_LIBAIO, "libaio");
#endif
	round_trip(ENGINE_PSYNC, "psync");
}

/*
 * Kernels without IORING_FEAT_EXT_ARG (5.5-5.10), through the test seam:
 * a wait with a timeout needs a timeout request, whose enter also takes
 * what is queued. Its completion must not be taken for one of ours, and
 * the I/Os that went out in it must be reported by the next submit, so
 * the job's in-flight count never goes wrong.
 */
TH_TEST(rand_engine_uring_without_ext_arg)
{
#ifdef HAVE_LIBURING
	struct fixture fx;
	struct rand_engine e;
	char why[256];
	unsigned char expect[4096];
	int got = 0, sent = 0, r;

	TH_EQ_INT(fx_open(&fx, &e, 4), 0);
	for (int b = 0; b < 4; b++) {
		memset(expect, 'a' + b, sizeof(expect));
		TH_EQ_INT(pwrite(fx.fd, expect, sizeof(expect), b * 4096), 4096);
	}
	setenv("VPSBENCH_URING_MASK_FEATURES", "ext_arg", 1);
	r = rand_engine_open(ENGINE_URING, "", &e, why, sizeof(why));
	unsetenv("VPSBENCH_URING_MASK_FEATURES");
	TH_EQ_INT(r, 0);
	if (r) {
		fx_close(&fx);
		return;
	}
	TH_CHECK(strstr(e.note, "test seam") != NULL);
	/* four queued, none submitted, when the wait comes (a partial submit) */
	for (unsigned i = 0; i < 4; i++) {
		fx.ios[i].off = (uint64_t)i * 4096;
		fx.ios[i].ddir = 0;
		e.ops->queue(&e, &fx.ios[i]);
	}
	for (int tries = 0; got < 4 && tries < 20; tries++) {
		r = e.ops->reap(&e, true, 200000000ULL);
		TH_CHECK(r >= 0);
		for (int i = 0; i < r; i++) {
			struct rand_io *io = e.done[i];

			TH_CHECK(io >= fx.ios && io < fx.ios + 4);
			TH_EQ_INT(io->res, 4096);
			memset(expect, 'a' + (int)(io->off / 4096), sizeof(expect));
			TH_CHECK(memcmp(io->buf, expect, 4096) == 0);
			got++;
		}
		sent += e.ops->submit(&e);
	}
	TH_EQ_INT(got, 4);
	TH_EQ_INT(sent, 4); /* taken by the wait's enter, reported once by the next submit */
	TH_EQ_INT(e.ops->submit(&e), 0);
	/* a wait with nothing out ends in its timeout, with no completion */
	TH_EQ_INT(e.ops->reap(&e, true, 20000000ULL), 0);
	TH_EQ_INT(e.ops->reap(&e, false, 0), 0);
	rand_engine_close(&e);
	fx_close(&fx);
#else
	th_skip("built without liburing");
#endif
}
