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

#include "modules/rand/rand_engine.h"
#include "modules/rand/rand_job.h"
#include "th.h"

#define MS 1000000ULL

static struct rand_io *fk_q[64], *fk_done[64];
static unsigned fk_nq, fk_ready, fk_max_submit, fk_max_reap;
static bool fk_stuck;

static int fk_init(struct rand_engine *e)
{
	fk_nq = fk_ready = fk_max_submit = fk_max_reap = 0;
	e->priv = NULL;
	return 0;
}

static void fk_queue(struct rand_engine *e, struct rand_io *io)
{
	(void)e;
	fk_q[fk_nq++] = io;
}

static int fk_submit(struct rand_engine *e)
{
	int n = (int)fk_nq;

	(void)e;
	if (fk_nq > fk_max_submit)
		fk_max_submit = fk_nq;
	if (!fk_stuck) {
		for (unsigned i = 0; i < fk_nq; i++) {
			fk_q[i]->res = (int)fk_q[i]->len;
			fk_done[fk_ready++] = fk_q[i];
		}
	}
	fk_nq = 0;
	return n;
}

static int fk_reap(struct rand_engine *e, bool wait, uint64_t timeout_ns)
{
	unsigned n = fk_ready < e->batch ? fk_ready : e->batch;

	if (!n && wait) {
		/* a device that never answers: the wait times out */
		struct timespec ts = { 0, (long)(timeout_ns < 20 * MS ? timeout_ns : 20 * MS) };

		nanosleep(&ts, NULL);
	}
	/* at most a batch, oldest first; the rest waits for the next reap */
	memcpy(e->done, fk_done, n * sizeof(*fk_done));
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
