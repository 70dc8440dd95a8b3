/*
 * test_rand_job.c — the job loop against fake engines (through the
 * rand_engine_test_ops seam): accounting of an engine that completes
 * everything, the hard deadline of one that never completes, a stop.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rand_engine.h"
#include "modules/rand/rand_job.h"
#include "th.h"

#define MS 1000000ULL

static struct rand_io *fk_q[64], *fk_done[64];
static unsigned fk_nq, fk_ready, fk_max_submit, fk_max_reap;
static bool fk_stuck;

/*
 * What the fake device does besides completing everything in full:
 * FK_SHORT moves the first quarter of each 4k block only (the rest when
 * asked again), FK_ZERO_READ answers reads with 0 bytes, FK_FILL puts
 * 0xab in every read buffer and checks what writes carry, FK_HOLD takes
 * one I/O per submit call (after 5 ms) and leaves the rest queued,
 * FK_SLOW hands back one completion per 30 ms (a slow disk).
 */
enum fk_mode { FK_OK, FK_SHORT, FK_ZERO_READ, FK_FILL, FK_HOLD, FK_SLOW };
static enum fk_mode fk_mode;
static uint64_t fk_pieces_bad, fk_remainders, fk_nonzero_writes, fk_writes;
static uint64_t fk_accept_ns[64], fk_true_sum, fk_true_n; /* FK_HOLD: by buffer index */
static void *fk_buf0[64]; /* each I/O's own buffer, as set up */
/* the first writes: offsets and a hash of the data */
#define FK_REC 256
static uint64_t fk_rec_off[FK_REC], fk_rec_hash[FK_REC];
static unsigned fk_nrec;

static int fk_init(struct rand_engine *e)
{
	fk_nq = fk_ready = fk_max_submit = fk_max_reap = 0;
	fk_pieces_bad = fk_remainders = fk_nonzero_writes = fk_writes = 0;
	fk_true_sum = fk_true_n = 0;
	fk_nrec = 0;
	for (unsigned i = 0; i < e->depth && i < 64; i++)
		fk_buf0[i] = e->ios[i].buf;
	e->priv = NULL;
	return 0;
}

static void fk_queue(struct rand_engine *e, struct rand_io *io)
{
	(void)e;
	fk_q[fk_nq++] = io;
}

static int fk_result(struct rand_io *io)
{
	const unsigned char *buf = io->buf;
	/* where the piece starts inside its block, and the block's buffer */
	uint64_t in_blk = io->off % 4096;
	const unsigned char *blk_buf = buf - in_blk;

	if (blk_buf != fk_buf0[io->idx] || in_blk + io->len != 4096)
		fk_pieces_bad++; /* a remainder must be the rest of its block, in its buffer */
	if (fk_mode == FK_SHORT) {
		if (in_blk)
			fk_remainders++;
		return in_blk ? (int)io->len : 1024;
	}
	if (fk_mode == FK_ZERO_READ && !io->ddir)
		return 0;
	if (io->ddir && fk_nrec < FK_REC) {
		uint64_t h = 0xcbf29ce484222325ULL;

		for (uint32_t i = 0; i < io->len; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
		fk_rec_off[fk_nrec] = io->off;
		fk_rec_hash[fk_nrec++] = h;
	}
	if (fk_mode == FK_FILL) {
		if (io->ddir) {
			fk_writes++;
			for (uint32_t i = 0; i < io->len; i++) {
				if (buf[i]) {
					fk_nonzero_writes++;
					break;
				}
			}
		} else {
			memset(io->buf, 0xab, io->len);
		}
	}
	return (int)io->len;
}

static int fk_submit(struct rand_engine *e)
{
	unsigned n = fk_nq;

	(void)e;
	if (fk_nq > fk_max_submit)
		fk_max_submit = fk_nq;
	if (fk_mode == FK_HOLD && fk_nq) {
		struct timespec ts = { 0, 5 * (long)MS };

		nanosleep(&ts, NULL);
		n = 1;
	}
	if (!fk_stuck) {
		for (unsigned i = 0; i < n; i++) {
			fk_q[i]->res = fk_result(fk_q[i]);
			fk_done[fk_ready++] = fk_q[i];
			fk_accept_ns[fk_q[i]->idx] = mono_ns();
		}
	}
	memmove(fk_q, fk_q + n, (fk_nq - n) * sizeof(*fk_q));
	fk_nq -= n;
	return (int)n;
}

static int fk_reap(struct rand_engine *e, bool wait, uint64_t timeout_ns)
{
	unsigned n = fk_ready < e->batch ? fk_ready : e->batch;
	uint64_t now;

	if (fk_mode == FK_SLOW && n && wait) {
		struct timespec ts = { 0, 30 * (long)MS };

		nanosleep(&ts, NULL);
		n = 1;
	} else if (fk_mode == FK_SLOW) {
		n = 0;
	}
	now = mono_ns();

	if (!n && wait) {
		/* a device that never answers: the wait times out */
		struct timespec ts = { 0, (long)(timeout_ns < 20 * MS ? timeout_ns : 20 * MS) };

		nanosleep(&ts, NULL);
	}
	/* at most a batch, oldest first; the rest waits for the next reap */
	memcpy(e->done, fk_done, n * sizeof(*fk_done));
	for (unsigned i = 0; i < n; i++) {
		fk_true_sum += now - fk_accept_ns[fk_done[i]->idx];
		fk_true_n++;
	}
	memmove(fk_done, fk_done + n, (fk_ready - n) * sizeof(*fk_done));
	fk_ready -= n;
	if (n > fk_max_reap)
		fk_max_reap = n;
	return (int)n;
}

static void fk_cleanup(struct rand_engine *e)
{
	(void)e;
}

static const struct rand_engine_ops fake_ops = {
	.name = "fake", .init = fk_init, .queue = fk_queue, .submit = fk_submit,
	.reap = fk_reap, .cleanup = fk_cleanup,
};
static const struct rand_engine_ops fake_ops_b4 = {
	.name = "fake", .batch = 4, .init = fk_init, .queue = fk_queue, .submit = fk_submit,
	.reap = fk_reap, .cleanup = fk_cleanup,
};
static const struct rand_engine_ops *fk_ops = &fake_ops;

static bool fk_zero_buffers;
static uint64_t fk_nonce;

static void run_job(struct rand_job *j, struct rand_pass_spec *sp, volatile sig_atomic_t *stop,
		    uint64_t grace)
{
	static struct bench_ctx ctx;
	static struct rand_job_cfg cfg;
	static struct rand_gate gate;

	memset(&ctx, 0, sizeof(ctx));
	ctx.root = "";
	ctx.stop = stop;
	memset(&cfg, 0, sizeof(cfg));
	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.mu, NULL);
	pthread_cond_init(&gate.cv, NULL);
	gate.go = true;
	cfg.ctx = &ctx;
	cfg.spec = sp;
	cfg.fd = -1;
	cfg.jobs = 1;
	cfg.nblocks = 1024;
	cfg.grace_ns = grace;
	cfg.gate = &gate;
	cfg.zero_buffers = fk_zero_buffers;
	cfg.nonce = fk_nonce;
	memset(j, 0, sizeof(*j));
	j->cfg = &cfg;
	rand_engine_test_ops = fk_ops;
	rand_job_main(j);
	rand_engine_test_ops = NULL;
	pthread_cond_destroy(&gate.cv);
	pthread_mutex_destroy(&gate.mu);
}

static struct rand_pass_spec spec(enum rand_rw rw, unsigned mix, uint64_t runtime)
{
	struct rand_pass_spec sp;

	memset(&sp, 0, sizeof(sp));
	snprintf(sp.name, sizeof(sp.name), "t");
	sp.rw = rw;
	sp.rwmixread = mix;
	sp.bs = 4096;
	sp.iodepth = 16;
	sp.jobs = 1;
	sp.size = 1024 * 4096;
	sp.runtime_ns = runtime;
	sp.seed = 0x89;
	return sp;
}

TH_TEST(rand_job_accounts_every_completion)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDRW, 75, 50 * MS);
	volatile sig_atomic_t stop = 0;
	uint64_t n;

	fk_stuck = false;
	run_job(&j, &sp, &stop, 1000 * MS);
	n = j.ios[0] + j.ios[1];
	TH_EQ_INT(j.err, 0);
	TH_CHECK(!j.timed_out && !j.stopped);
	TH_EQ_STR(j.engine, "fake");
	TH_CHECK(n > 100);
	TH_EQ_INT(j.bytes[0], j.ios[0] * 4096);
	TH_EQ_INT(j.clat[0].st.n, j.ios[0]);
	TH_EQ_INT(j.clat[1].st.n, j.ios[1]);
	TH_EQ_INT(j.slat[0].n + j.slat[1].n, n); /* one slat sample per I/O */
	TH_NEAR((double)j.ios[0] / (double)n, 0.75, 0.05);
	TH_CHECK(j.runtime_ns >= 50 * MS);
	TH_EQ_INT(j.qd_n, n);
	TH_EQ_INT(j.left, 0);
	TH_CHECK(j.stuck_bufs == NULL);
	/* all completions land in second 0 of the timeline */
	TH_EQ_INT(j.tl[0][0] + j.tl[1][0], n);
}

TH_TEST(rand_job_batches_of_the_engine)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 30 * MS);
	volatile sig_atomic_t stop = 0;

	/* batch 0: the whole depth (16) per submit and per reap */
	fk_stuck = false;
	run_job(&j, &sp, &stop, 1000 * MS);
	TH_EQ_INT(j.err, 0);
	TH_EQ_INT(fk_max_submit, 16);
	TH_EQ_INT(fk_max_reap, 16);
	/* batch 4: no submit or reap above 4, every I/O still accounted */
	fk_ops = &fake_ops_b4;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_ops = &fake_ops;
	TH_EQ_INT(j.err, 0);
	TH_EQ_INT(fk_max_submit, 4);
	TH_EQ_INT(fk_max_reap, 4);
	TH_CHECK(j.ios[0] > 100);
	TH_EQ_INT(j.clat[0].st.n, j.ios[0]);
	TH_EQ_INT(j.slat[0].n, j.ios[0]);
	TH_EQ_INT(j.bytes[0], j.ios[0] * 4096);
	TH_EQ_INT(j.depth_used, 16);
}

TH_TEST(rand_job_rate_cap)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 200 * MS);
	volatile sig_atomic_t stop = 0;

	double expect;

	sp.rate_iops = 1000; /* one I/O per ms of the measured window, whatever it was */
	fk_stuck = false;
	run_job(&j, &sp, &stop, 1000 * MS);
	expect = (double)j.runtime_ns / 1e6;
	TH_EQ_INT(j.err, 0);
	TH_EQ_INT(j.ios[1], 0);
	TH_CHECK((double)j.ios[0] <= expect * 1.05 + 2);
	TH_CHECK((double)j.ios[0] >= expect * 0.5);
	TH_CHECK(j.ios[0] < 16 * 200); /* not the uncapped rate of a fake engine */
}

TH_TEST(rand_job_hard_deadline_on_stuck_io)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 30 * MS);
	volatile sig_atomic_t stop = 0;

	fk_stuck = true;
	run_job(&j, &sp, &stop, 100 * MS);
	TH_CHECK(j.timed_out);
	TH_EQ_INT(j.ios[0], 0);
	TH_EQ_INT(j.left, 16);          /* the whole queue is still out */
	TH_CHECK(j.stuck_bufs != NULL); /* left alone for the kernel */
	free(j.stuck_bufs);
	fk_stuck = false;
}

TH_TEST(rand_job_stop_flag)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDWRITE, 0, 3600 * 1000 * MS);
	volatile sig_atomic_t stop = 1; /* already stopped: returns at once, marked */

	fk_stuck = false;
	run_job(&j, &sp, &stop, 1000 * MS);
	TH_CHECK(j.stopped);
	TH_CHECK(!j.timed_out);
	TH_EQ_INT(j.left, 0);
}

/* Short transfers: the rest of each block is issued again, and the I/O counts once, whole. */
TH_TEST(rand_job_short_io_reissues_the_rest)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDRW, 50, 50 * MS);
	volatile sig_atomic_t stop = 0;

	fk_stuck = false;
	fk_mode = FK_SHORT;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_mode = FK_OK;
	TH_EQ_INT(j.err, 0);
	TH_CHECK(j.ios[0] > 20 && j.ios[1] > 20);
	TH_EQ_INT(j.bytes[0], j.ios[0] * 4096);
	TH_EQ_INT(j.bytes[1], j.ios[1] * 4096);
	TH_EQ_INT(j.short_ios[0], j.ios[0]);
	TH_EQ_INT(j.short_ios[1], j.ios[1]);
	TH_EQ_INT(fk_remainders, j.ios[0] + j.ios[1]); /* every rest went out, once */
	TH_EQ_INT(fk_pieces_bad, 0);
	TH_EQ_INT(j.clat[0].st.n, j.ios[0]);
	TH_EQ_INT(j.slat[0].n + j.slat[1].n, j.ios[0] + j.ios[1]); /* one slat per I/O */
	TH_EQ_INT(j.left, 0);
}

/* A read that transfers nothing is an error (fio: "full resid"), not a completed I/O. */
TH_TEST(rand_job_zero_byte_read_is_an_error)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 50 * MS);
	volatile sig_atomic_t stop = 0;

	fk_stuck = false;
	fk_mode = FK_ZERO_READ;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_mode = FK_OK;
	TH_EQ_INT(j.err, -EIO);
	TH_CHECK(strstr(j.errmsg, "read at offset") && strstr(j.errmsg, "0 bytes"));
	TH_EQ_INT(j.ios[0], 0);
	TH_EQ_INT(j.left, 0);
}

/* --zero-buffers in randrw: a buffer a read filled is zeroed before it is written. */
TH_TEST(rand_job_zero_buffers_after_reads)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDRW, 50, 50 * MS);
	volatile sig_atomic_t stop = 0;

	fk_stuck = false;
	fk_mode = FK_FILL;
	fk_zero_buffers = true;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_zero_buffers = false;
	fk_mode = FK_OK;
	TH_EQ_INT(j.err, 0);
	TH_CHECK(fk_writes > 20);
	TH_EQ_INT(fk_nonzero_writes, 0);
}

/*
 * A partial submit holds I/Os back: their clat starts when the engine took
 * them, not when the batch was first submitted. The fake device measures
 * the truth (taken -> handed back); the job's mean clat must match it.
 */
TH_TEST(rand_job_held_back_io_gets_its_own_issue_time)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 200 * MS);
	volatile sig_atomic_t stop = 0;
	double truth, seen;

	fk_stuck = false;
	fk_mode = FK_HOLD;
	fk_ops = &fake_ops_b4;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_ops = &fake_ops;
	fk_mode = FK_OK;
	TH_EQ_INT(j.err, 0);
	TH_CHECK(j.ios[0] > 10);
	TH_EQ_INT(fk_true_n, j.ios[0]);
	truth = (double)fk_true_sum / (double)fk_true_n;
	seen = j.clat[0].st.mean;
	TH_CHECK(seen >= truth * 0.9);
	TH_CHECK(seen < truth + 3.0 * MS); /* held back for several 5 ms submits before: far more */
	TH_EQ_INT(j.slat[0].n, j.ios[0]);
	TH_CHECK(j.slat[0].mean > 5.0 * MS); /* the wait in the queue is submission latency */
}

/*
 * A slow disk drains slowly but drains: 16 I/Os out at one per 30 ms take
 * about 0.5 s after the runtime, far past a 100 ms grace, and the pass
 * still ends with every I/O counted (a fixed limit failed it "timeout").
 */
TH_TEST(rand_job_slow_drain_is_not_a_timeout)
{
	static struct rand_job j;
	struct rand_pass_spec sp = spec(RW_RANDREAD, 100, 100 * MS);
	volatile sig_atomic_t stop = 0;

	fk_stuck = false;
	fk_mode = FK_SLOW;
	run_job(&j, &sp, &stop, 100 * MS);
	fk_mode = FK_OK;
	TH_EQ_INT(j.err, 0);
	TH_CHECK(!j.timed_out);
	TH_EQ_INT(j.left, 0);
	TH_CHECK(j.stuck_bufs == NULL);
	TH_CHECK(j.ios[0] >= 16);
	TH_CHECK(j.runtime_ns > 100 * MS + 16 * 25 * MS); /* the drain is inside the window */
}

/*
 * The written data changes with the run's nonce (host-side dedupe cannot
 * match two runs); the offsets follow --seed only, the same in both runs.
 */
TH_TEST(rand_job_write_data_per_run_offsets_per_seed)
{
	static struct rand_job j;
	static uint64_t off1[FK_REC], hash1[FK_REC];
	struct rand_pass_spec sp = spec(RW_RANDWRITE, 0, 100 * MS);
	volatile sig_atomic_t stop = 0;
	unsigned n1, n, same_hash = 0;

	fk_stuck = false;
	fk_nonce = 0x1234;
	run_job(&j, &sp, &stop, 1000 * MS);
	n1 = fk_nrec;
	memcpy(off1, fk_rec_off, sizeof(off1));
	memcpy(hash1, fk_rec_hash, sizeof(hash1));
	fk_nonce = 0x5678;
	run_job(&j, &sp, &stop, 1000 * MS);
	fk_nonce = 0;
	TH_EQ_INT(j.err, 0);
	n = n1 < fk_nrec ? n1 : fk_nrec;
	TH_CHECK(n >= 64);
	TH_CHECK(memcmp(off1, fk_rec_off, n * sizeof(*off1)) == 0);
	for (unsigned i = 0; i < n; i++)
		same_hash += hash1[i] == fk_rec_hash[i];
	TH_EQ_INT(same_hash, 0);
	/* another --seed: other offsets */
	sp.seed = 0x90;
	run_job(&j, &sp, &stop, 1000 * MS);
	TH_CHECK(fk_nrec >= 64 && memcmp(off1, fk_rec_off, 64 * sizeof(*off1)) != 0);
}
