/*
 * rand.h — results of the rand module: one entry per (directory, pass),
 * per direction the fio figures (IOPS, bandwidth, clat/slat, percentiles,
 * per-second timeline). Filled by rand.c, read by the renderers only.
 */
#ifndef VPSBENCH_RAND_H
#define VPSBENCH_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/fsinfo.h"
#include "core/lat_hist.h"
#include "core/module.h"
#include "core/pass_io.h"
#include "core/plan.h"
#include "core/value.h"

#define RAND_MAX_RESULTS 32  /* passes x dirs kept in the report */
#define RAND_TL_MAX      600 /* seconds of per-second IOPS kept per direction */
#define RAND_QD_LEVELS   7   /* fio's iodepth_level: 1, 2, 4, 8, 16, 32, >=64 */
#define RAND_VERIFY_KEEP 8   /* first bad offsets kept */

enum rand_ddir { RD = 0, WR = 1 };

/* Welford sums as measured, plus what the renderers need. */
struct rand_lat {
	uint64_t n;
	uint64_t min, max; /* ns; meaningless when n == 0 */
	double mean, stddev;
};

struct rand_dir_result {
	bool present;          /* the workload has this direction */
	uint64_t io_bytes;     /* completed bytes */
	uint64_t total_ios;    /* completed I/Os */
	uint64_t short_ios;
	double iops;           /* 1000 * total_ios / runtime_ms */
	double bw_bytes;       /* 1000 * io_bytes / runtime_ms, B/s */
	struct rand_lat clat, slat;
	uint64_t clat_pct[LAT_NPCT]; /* ns, at lat_default_percentiles */
	uint64_t clat_bins[LAT_PLAT_NR]; /* fio's plat histogram (json+ "bins") */
	uint64_t clat_range[LAT_RANGE_NR]; /* fio's latency_ns/us/ms counts */
	uint32_t timeline[RAND_TL_MAX]; /* I/Os completed in each whole second */
	unsigned ntimeline;
};

struct rand_verify_result {
	bool ran;
	uint64_t blocks;       /* blocks read back */
	uint64_t bad;          /* blocks failing any check */
	uint64_t corrupt, misplaced, lost;
	uint64_t bad_off[RAND_VERIFY_KEEP];
	char bad_kind[RAND_VERIFY_KEEP]; /* 'c', 'm', 'l' */
	unsigned nkept;
};

struct rand_pass_result {
	char name[32];
	const char *dir;       /* points into the options (lives for the run) */
	enum rand_rw rw;
	unsigned rwmixread;
	uint32_t bs;
	unsigned iodepth;      /* requested per job */
	unsigned iodepth_used; /* after any engine reduction (libaio EAGAIN, psync) */
	unsigned jobs;
	uint64_t rate_iops, rate_iops_write;
	char engine[16];       /* engine actually used */
	char engine_fallback[192]; /* why not the requested/preferred one; "" = none */
	char engine_note[128]; /* e.g. fixed buffers refused */
	bool direct;
	char direct_reason[160]; /* why not O_DIRECT; "" when direct */
	uint64_t runtime_ms, ramp_ms, size_bytes;
	bool zero_data;
	double layout_seconds; /* layout of the file this pass used (shared per dir) */
	enum bench_status status;
	char reason[256];
	struct storage_verdict storage; /* of the dir; not device/unknown: not graded */
	struct mdbl usr_pct, sys_pct; /* per job thread, as fio */
	struct mdbl iodepth_avg;
	uint64_t qd_level[RAND_QD_LEVELS]; /* I/Os submitted at each in-flight level */
	struct rand_dir_result dir_res[2];
	struct rand_verify_result verify;
	struct pass_io dist;   /* disturbance over ramp + runtime (not checked: !dist.checked) */
};

struct rand_result {
	struct rand_pass_result pass[RAND_MAX_RESULTS];
	unsigned npass;
};

#endif
