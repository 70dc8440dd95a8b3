/*
 * seq.h — the dd-style sequential module: `runs` fresh-file writes of
 * `size` bytes timed from open() to the return of fdatasync()
 * (conv=fdatasync), or O_DIRECT writes (oflag=direct), then one uncached
 * sequential read of the last file. One pass per --dir.
 */
#ifndef VPSBENCH_SEQ_H
#define VPSBENCH_SEQ_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/fsinfo.h"
#include "core/options.h"
#include "core/pass_io.h"
#include "core/value.h"

#define SEQ_MAX_RUNS 100            /* plan.c caps --seq-runs at 100 */
#define SEQ_MAX_DIRS BENCH_MAX_DIRS
#define SEQ_MIN_SIZE (64ULL << 20)  /* below this after shrinking: skip */
#define SEQ_MARGIN_FIXED (64ULL << 20)
#define SEQ_OUTLIER_FRAC 0.25       /* run vs the median of the runs */
#define SEQ_SECTOR 512
#define SEQ_CACHED_WARN 0.10       /* buffered read: warn above this share still cached */

enum seq_pass_status {
	SEQ_NOT_RUN = 0,
	SEQ_DONE,        /* every write run and the read finished */
	SEQ_SKIPPED,     /* could not run here: reason */
	SEQ_ABORTED,     /* no space: no figures at all */
	SEQ_FAILED,      /* I/O error: reason names errno text and offset */
	SEQ_INCOMPLETE,  /* interrupted: only finished runs have figures */
};

struct seq_run {
	uint64_t bytes;
	double seconds;        /* open() .. fdatasync() returned */
	double flush_seconds;  /* the final fdatasync() alone */
	double mbps;           /* decimal MB/s, as dd prints */
	double mibps;
	bool outlier;          /* > 25% off the median of the runs */
	struct pass_io dist;   /* the run's disturbance (foreign I/O, io pressure, steal) */
};

/*
 * The read is SEQ_READ_PASSES passes over consecutive thirds of the file
 * (the bytes and time of one whole-file pass), each timed and checked for
 * disturbance on its own: the figure is all bytes over all seconds, its
 * uncertainty the spread of the passes' rates.
 */
#define SEQ_READ_PASSES 3
struct seq_read_pass {
	uint64_t bytes;
	double seconds, mbps;
	struct pass_io dist;
};

struct seq_read {
	enum mbool direct;     /* MB_FALSE: buffered after POSIX_FADV_DONTNEED */
	struct mu64 bytes;
	struct mdbl seconds, mbps, mibps;
	struct mdbl cached_frac; /* buffered read only: share still resident before reading */
	char reason[192];        /* why not direct / why not run */
	unsigned npasses;        /* passes with figures */
	struct seq_read_pass passes[SEQ_READ_PASSES];
};

struct seq_dir_result {
	char dir[PATH_MAX];        /* as given to --dir */
	char fstype[64];           /* "" = unknown */
	char mountpoint[PATH_MAX];
	char device[256];
	struct storage_verdict storage; /* what the figures measure; not device/unknown: not graded */
	enum seq_pass_status status;
	char reason[256];
	bool direct_requested;
	enum mbool direct;         /* the writes were really O_DIRECT */
	char direct_reason[192];   /* why direct was refused */
	uint32_t bs;
	uint64_t size_bytes;       /* per run, after fitting to free space */
	bool scaled_down;
	unsigned nruns;            /* runs with figures */
	struct seq_run runs[SEQ_MAX_RUNS];
	struct mdbl avg_mbps, avg_mibps, min_mbps, max_mbps, cov; /* over the runs' rates */
	/*
	 * All runs' bytes over all their seconds: what is graded. bench.sh's
	 * mean of the rates (avg_mbps) weighs a 2 s run like a 20 s one; this
	 * is the rate the disk actually sustained when runs differ.
	 */
	struct mdbl total_mbps, total_mibps;
	struct seq_read read;
	struct pass_io_dev iodev;  /* the device the passes' disturbance is read on */
};

struct seq_result {
	bool zero;                 /* dd's /dev/zero data instead of random */
	/*
	 * Decimal GB/s: generator = what the timed loop pays per block (a slot
	 * of the random pool, every 512-byte sector stamped); prng = making
	 * random bytes (the pool's fill), for comparison. null for zero data.
	 */
	struct mdbl generator_gbps, prng_gbps;
	uint64_t pool_bytes;       /* random pool the blocks are cut from */
	unsigned ndirs;
	struct seq_dir_result dirs[SEQ_MAX_DIRS];
};

/* --- pure helpers (seq_calc.c), unit-tested in tests/test_seq.c --- */

struct seq_spread {
	struct mdbl avg, min, max, cov; /* cov = sample stddev / mean; needs 2 runs */
};

/*
 * Spread of n rates (n <= SEQ_MAX_RUNS); outlier[i] (may be NULL) is set
 * when rate i differs from the median of the n rates by more than
 * SEQ_OUTLIER_FRAC of it. The median, not the mean of the others, so one
 * slow run does not get its good neighbours flagged too.
 * Returns the number of outliers.
 */
unsigned seq_spread(const double *rate, unsigned n, struct seq_spread *sp, bool *outlier);

/* Sum of bytes over sum of seconds of n runs, decimal MB/s (unknown without time). */
struct mdbl seq_total_mbps(const struct seq_run *runs, unsigned n);

/* Free space a run of size bytes needs: size + 5% + 64 MiB. */
uint64_t seq_space_needed(uint64_t size);

/*
 * Bytes to write given the wanted size and the free space: want rounded
 * down to bs if it fits, else the largest multiple of bs that fits with
 * the margin (*scaled = true), or 0 (skip) when that is below
 * SEQ_MIN_SIZE and below want.
 */
uint64_t seq_fit_size(uint64_t want, uint64_t avail, uint32_t bs, bool *scaled);

/* yabs's ZFS rule: free space below 2 x spa_asize_inflation GiB. */
bool seq_zfs_space_low(uint64_t avail, unsigned inflation);

/*
 * Makes a block unique: writes 16 hashed bytes derived from (nonce, file
 * offset of the sector, tag) at the start of every 512-byte sector.
 */
void seq_stamp(void *block, uint32_t bs, uint64_t offset, uint64_t tag, uint64_t nonce);

/* "ok", "skipped", "aborted", "failed", "incomplete", "not_run" (JSON and text). */
const char *seq_pass_status_name(enum seq_pass_status s);

/* "1st", "2nd", "3rd", "4th", ..., "11th", "12th", "21st". */
const char *seq_ordinal(unsigned n, char *buf, size_t len);

#endif
