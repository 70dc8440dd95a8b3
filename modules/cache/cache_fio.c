/*
 * cache_fio.c — the fio command the cliff's qd32 figure equals. It says
 * what cache_io.c really does through core's engines: 4k reads at
 * uniform offsets drawn with replacement from a fresh seed (fio:
 * --norandommap --randrepeat=0), one job, submitting what was reaped and
 * reaping 1..batch per wait (--iodepth_batch_submit/_complete_max), and
 * for io_uring READ_FIXED on registered buffers and a registered file
 * (--fixedbufs --registerfiles; fio 3.33 sets the ring up with the same
 * COOP/DEFER_TASKRUN and SINGLE_ISSUER flags). psync is synchronous: one
 * I/O at a time whatever the depth asked, so its line says --iodepth=1.
 */
#include <stdio.h>
#include <string.h>

#include "cache_fio.h"

/*
 * The batches of core/rand_engine_uring.c, _libaio.c and _psync.c (their
 * ops' .batch; tests/test_cache_fio.c checks they agree).
 */
static const struct {
	const char *name;
	unsigned batch;
} engines[] = {
	{ "io_uring", 4 },
	{ "libaio", 4 },
	{ "psync", 1 },
};

unsigned cache_fio_batch(const char *engine, unsigned depth)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		if (!strcmp(engine, engines[i].name))
			return engines[i].batch < depth ? engines[i].batch : (depth ? depth : 1);
	}
	return 0;
}

/* A size as fio reads it (its kb_base is 1024): 1G, 256M or bytes. */
static void fio_size(char *out, size_t len, uint64_t b)
{
	if (b && b % (1ULL << 30) == 0)
		snprintf(out, len, "%lluG", (unsigned long long)(b >> 30));
	else if (b && b % (1ULL << 20) == 0)
		snprintf(out, len, "%lluM", (unsigned long long)(b >> 20));
	else
		snprintf(out, len, "%llu", (unsigned long long)b);
}

/* Appends to out (NUL-terminated, len bytes) unless it does not fit whole: 0, or -1. */
static int add(char *out, size_t len, const char *s)
{
	size_t n = strlen(out), m = strlen(s);

	if (n + m >= len)
		return -1;
	memcpy(out + n, s, m + 1);
	return 0;
}

void cache_fio_cmd(char *out, size_t len, const char *engine, unsigned depth, uint64_t point_ns,
		   const uint64_t *sizes, unsigned n, const char *warm)
{
	unsigned batch = cache_fio_batch(engine, depth);
	bool sync = !strcmp(engine, "psync");
	char part[160], sz[24];

	if (!len)
		return;
	out[0] = '\0';
	if (!batch || !depth)
		return; /* no engine ran: no figure to equal */
	if (sync)
		depth = batch = 1;
	snprintf(part, sizeof(part), "fio --name=qd32 --filename=FILE --ioengine=%s --direct=1 "
		 "--rw=randread --bs=4k --iodepth=%u", engine, depth);
	add(out, len, part);
	if (batch > 1) {
		snprintf(part, sizeof(part), " --iodepth_batch_submit=%u --iodepth_batch_complete_max=%u",
			 batch, batch);
		add(out, len, part);
	}
	if (!strcmp(engine, "io_uring"))
		add(out, len, " --fixedbufs --registerfiles");
	/* fio's runtime takes ms; whole seconds read plainer */
	if (point_ns % 1000000000ULL == 0)
		snprintf(part, sizeof(part), " --norandommap --randrepeat=0 --numjobs=1 --time_based "
			 "--runtime=%llu", (unsigned long long)(point_ns / 1000000000ULL));
	else
		snprintf(part, sizeof(part), " --norandommap --randrepeat=0 --numjobs=1 --time_based "
			 "--runtime=%llums", (unsigned long long)(point_ns / 1000000ULL));
	add(out, len, part);
	fio_size(sz, sizeof(sz), n ? sizes[0] : 0);
	snprintf(part, sizeof(part), " --size=%s", n == 1 ? sz : "SIZE");
	add(out, len, part);
	if (n > 1) {
		char list[CACHE_MAX_SIZES * 12 + 24] = " (SIZE: each of";

		for (unsigned i = 0; i < n; i++) {
			fio_size(sz + 1, sizeof(sz) - 1, sizes[i]);
			sz[0] = ' ';
			add(list, sizeof(list), sz);
		}
		add(list, sizeof(list), ")");
		add(out, len, list);
	}
	/* fio has no warm pass: the cliff's runs before each size's qd32 run */
	if (warm && warm[0]) {
		snprintf(part, sizeof(part), "; FILE warmed first (--storage-warm %s)", warm);
		add(out, len, part);
	}
}

void cache_fio_equivalent(struct cache_result *r, uint64_t point_ns)
{
	uint64_t sizes[CACHE_MAX_SIZES];
	unsigned n = 0;

	for (unsigned i = 0; i < r->npoints && i < CACHE_MAX_SIZES; i++) {
		if (r->points[i].status == BENCH_OK)
			sizes[n++] = r->points[i].size;
	}
	cache_fio_cmd(r->fio_equivalent, sizeof(r->fio_equivalent), r->engine, r->depth, point_ns,
		      sizes, n, r->warm);
}
