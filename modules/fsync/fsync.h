/*
 * fsync.h — results of the fsync module: etcd's write-ahead-log recipe
 * (fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300):
 * sequential buffered writes into a fresh file, each followed by
 * fdatasync(), the latency of every fdatasync() in fio's histogram. One
 * entry per --dir. Filled by fsync.c, read by grade/ and the renderers.
 */
#ifndef VPSBENCH_FSYNC_H
#define VPSBENCH_FSYNC_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/lat_hist.h"
#include "core/module.h"
#include "core/options.h"
#include "core/pass_io.h"
#include "core/storage.h"

#define FSYNC_MAX_DIRS BENCH_MAX_DIRS
/* Below this many fdatasync() calls the p99 rests on fewer than 10 samples above it. */
#define FSYNC_MIN_SYNCS_P99 1000u
/* Less free space than this (after the file is fitted to it): skipped. */
#define FSYNC_MIN_FILE (1ULL << 20)

/* Latency of one kind of call, ns: fio's min/max/mean/stddev/N. */
struct fsync_lat {
	uint64_t n;
	uint64_t min, max;             /* meaningless when n == 0 */
	double mean, stddev;           /* sample stddev (n-1), as fio */
	uint64_t pct[LAT_NPCT];        /* at lat_default_percentiles, fio's rule */
	uint64_t bins[LAT_PLAT_NR];    /* fio's plat histogram (json+ "bins") */
	uint64_t range[LAT_RANGE_NR];  /* fio's latency_ns/us/ms counts */
};

struct fsync_dir_result {
	char dir[PATH_MAX];            /* as given to --dir */
	char fstype[64];               /* "" = unknown */
	char mountpoint[PATH_MAX];     /* "" = unknown */
	struct storage_verdict storage; /* not device/unknown: shown, not graded */
	enum bench_status status;      /* OK, SKIP, FAIL, INCOMPLETE */
	char reason[256];
	bool full;                     /* --profile etcd: the whole recipe, else a sample */
	uint32_t bs;                   /* bytes per write (2300) */
	uint64_t size_bytes;           /* planned bytes: the run stops there (22 MiB) */
	uint64_t time_cap_ns;          /* ... or at this time, whichever first */
	bool scaled_down;              /* size_bytes fitted to the free space */
	bool time_capped;              /* the time cap ended it before size_bytes */
	bool preallocated;             /* fallocate(0, size) worked, as fio lays out */
	uint64_t writes;               /* write() calls completed (bs each) */
	uint64_t syncs;                /* fdatasync() calls completed */
	uint64_t bytes;                /* bytes written = writes * bs */
	uint64_t runtime_ns;           /* first write .. last fdatasync() returned */
	double syncs_per_s;            /* syncs / runtime; 0 when runtime is 0 */
	bool p99_low_confidence;       /* syncs < FSYNC_MIN_SYNCS_P99 */
	struct fsync_lat sync;         /* fdatasync() latency: the figure */
	struct fsync_lat write;        /* write() latency (the page cache) */
	struct pass_io dist;           /* the pass's disturbance (!dist.checked: not checked) */
};

struct fsync_result {
	unsigned ndirs;
	struct fsync_dir_result dirs[FSYNC_MAX_DIRS];
};

/* --- pure helpers (fsync_calc.c), unit-tested in tests/test_fsync.c --- */

/* Fills l (n, min, max, mean, stddev, percentiles, bins, ranges) from h. */
void fsync_lat_from_hist(struct fsync_lat *l, const struct lat_hist *h);

/* Whether a p99 over n syncs is marked low-confidence (n < FSYNC_MIN_SYNCS_P99). */
bool fsync_p99_low_confidence(uint64_t n);

/*
 * Bytes to write: want rounded down to whole bs blocks (fio drops the
 * partial last block: 22m / 2300 = 10029 writes), fitted to avail free
 * bytes (-1 = unknown: want) less a margin of 1 MiB; *scaled set when
 * fitting cut it. 0 = less than FSYNC_MIN_FILE fits (skip).
 */
uint64_t fsync_fit_size(uint64_t want, int64_t avail, uint32_t bs, bool *scaled);

/* The index of percentile p in lat_default_percentiles, or -1. */
int fsync_pct_index(double p);

/* --- a short sample (fsync_sample.c), for `vpsbench watch` --- */

/*
 * write(bs bytes of data) + fdatasync() in turn on fd at off, off + bs, ...
 * wrapping within [off, off + span) (a preallocated region, as fio's laid
 * out file), for ns or until *stop; each fdatasync()'s latency in h.
 * 0, or -errno with err naming the call.
 */
int fsync_sample(int fd, uint64_t off, uint64_t span, uint32_t bs, const unsigned char *data,
		 uint64_t ns, const volatile int *stop, struct lat_hist *h, char *err,
		 size_t errlen);

#endif
