/*
 * rand_job.h — one job thread of a rand pass: its own engine, buffers,
 * PRNG streams and statistics; merged by rand.c after the pass.
 */
#ifndef VPSBENCH_RAND_JOB_H
#define VPSBENCH_RAND_JOB_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/lat_hist.h"
#include "core/module.h"
#include "core/plan.h"
#include "rand.h"

/* Start gate: every job sets up, then all start together (or abort). */
struct rand_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ready;
	bool go, abort;
};

/* Shared by every job of a pass; read-only while they run. */
struct rand_job_cfg {
	const struct bench_ctx *ctx;
	const struct rand_pass_spec *spec;
	int fd;
	unsigned jobs;
	uint64_t nblocks;        /* blocks of spec->bs in the pass's part of the file */
	enum rand_engine_kind engine;
	bool zero_buffers;
	uint64_t nonce;          /* per-run random value: the write data, never the offsets */
	bool verify;             /* disjoint regions, checksummed stamps */
	uint32_t *vgen;          /* verify: generation per block (jobs own disjoint ranges) */
	uint8_t *vbusy;          /* verify: a write to the block is in flight */
	uint64_t grace_ns;       /* hard deadline = ramp + runtime + grace */
	struct rand_gate *gate;
};

struct rand_job {
	unsigned idx;
	const struct rand_job_cfg *cfg;
	pthread_t tid;

	/* results */
	int err;                 /* -errno of a failed setup or I/O, 0 */
	char errmsg[200];        /* also why it timed out */
	bool timed_out, stopped;
	char engine[16];
	char fallback[192];
	char note[128];
	unsigned depth_used;
	uint64_t runtime_ns;     /* measured window: ramp end to drain end */
	uint64_t ios[2], bytes[2], short_ios[2];
	uint64_t ramp_bytes[2], ramp_ios[2]; /* done during the ramp (forgotten by the figures) */
	struct lat_hist clat[2];
	struct lat_stat slat[2];
	uint32_t tl[2][RAND_TL_MAX];
	uint64_t qd_level[RAND_QD_LEVELS];
	double qd_sum;           /* sum over submitted I/Os of the in-flight count */
	uint64_t qd_n;
	/*
	 * CPU: getrusage(RUSAGE_SELF) (the whole process, io_uring's io-wq
	 * workers included) at the start and end of the job's window; rand.c
	 * takes the process's CPU over the union of the jobs' windows.
	 */
	uint64_t cpu_t0, cpu_t1;
	double usr0_s, sys0_s, usr1_s, sys1_s;
	bool cpu_ok;
	uint64_t drain_cap_ns;   /* the longest the drain could take (0: not reached) */
	unsigned left;           /* I/Os still in the kernel when the loop gave up */
	void *stuck_bufs;        /* then their buffers, never freed (the kernel may write them) */
};

/* Thread body: arg is a struct rand_job *. Always passes cfg->gate once. */
void *rand_job_main(void *arg);

#endif
