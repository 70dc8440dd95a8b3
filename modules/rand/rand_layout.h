/*
 * rand_layout.h — the rand test file: created unique in the directory,
 * unlinked at once (only the descriptor keeps it), sized to fit the free
 * space, and written in full with stamped random data before any pass so
 * reads never hit unwritten extents and writes are overwrites.
 */
#ifndef VPSBENCH_RAND_LAYOUT_H
#define VPSBENCH_RAND_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/module.h"
#include "core/testfile.h"

#define RAND_MIN_FILE    (4ULL << 20)  /* below this the dir is skipped */
#define RAND_SPACE_MARGIN (64ULL << 20) /* left free: max(5%, min(64 MiB, 25%)) */

struct rand_file {
	struct testfile tf;
	uint64_t size;
	bool direct;               /* the descriptor has O_DIRECT */
	char direct_reason[160];   /* why not, "" when direct */
	double layout_s;
	/*
	 * Per-run random value (getrandom): seeds the layout's data and the
	 * jobs' write data, so no two runs or machines write the same bytes
	 * (host-side dedupe cannot collapse them). --seed moves offsets only.
	 */
	uint64_t nonce;
};

/*
 * Size for a file of 'want' bytes in a dir with 'avail' free bytes: the
 * smaller of want and avail minus a margin, rounded down to 'align'.
 * avail < 0 means unknown (ramfs has no limit): want. Returns 0 when the
 * result is below RAND_MIN_FILE.
 */
uint64_t rand_file_fit(uint64_t want, int64_t avail, uint32_t align);

/*
 * Creates the file in dir and lays it out (size bytes). Returns 0,
 * -ECANCELED when stopped, -ETIMEDOUT when the writes and fsync() took
 * longer than max(30 s, size at 1 MB/s) (the stuck worker keeps its
 * descriptor and buffer; nothing is left on disk), or -errno with err
 * naming file and operation.
 */
int rand_file_create(const struct bench_ctx *ctx, const char *dir, uint64_t size,
		     struct rand_file *f, char *err, size_t errlen);

/* Switches O_DIRECT on or off on the descriptor; -errno. */
int rand_file_set_direct(struct rand_file *f, bool on);

/* One aligned O_DIRECT read of bs at offset 0: false when the fs refuses (EINVAL). */
bool rand_file_direct_ok(struct rand_file *f, uint32_t bs, char *why, size_t whylen);

/* Buffered passes: write back and drop the file's cached pages first. */
void rand_file_drop_cache(struct rand_file *f);

void rand_file_close(struct rand_file *f);

#endif
