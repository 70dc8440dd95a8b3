/*
 * rand_job.c — the per-thread I/O loop. Everything is allocated before
 * the start gate; the loop itself only calls the engine and reads the
 * clock once per submitted batch (its issue time, and the start of the
 * next batch's slat) and once per reaped batch (completion time).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "core/live.h"
#include "core/stall.h"
#include "core/rand_engine.h"
#include "rand_job.h"
#include "rand_offset.h"
#include "rand_verify.h"

#define NSEC 1000000000ULL
#define WAIT_SLICE_NS (500ULL * 1000000ULL) /* bounds every wait: stop checks */
#define STOP_DRAIN_NS (1500ULL * 1000000ULL)

/* n samples of the same value v, merged into s (Chan et al.): one update per batch. */
static inline void stat_add_n(struct lat_stat *s, uint64_t v, uint64_t n)
{
	double nt, d;

	if (!n)
		return;
	if (s->n == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	nt = (double)(s->n + n);
	d = (double)v - s->mean;
	s->m2 += d * d * (double)s->n * (double)n / nt;
	s->mean += d * (double)n / nt;
	s->n += n;
}

static inline unsigned qd_level(unsigned inflight)
{
	unsigned l = 0;

	while (l < RAND_QD_LEVELS - 1 && (1u << (l + 1)) <= inflight)
		l++;
	return l;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void reset_stats(struct rand_job *j)
{
	for (int d = 0; d < 2; d++) {
		j->ramp_bytes[d] += j->bytes[d]; /* still the device's work: pass_io counts it */
		j->ramp_ios[d] += j->ios[d];
		lat_hist_reset(&j->clat[d]);
		memset(&j->slat[d], 0, sizeof(j->slat[d]));
		j->ios[d] = j->bytes[d] = j->short_ios[d] = 0;
	}
	memset(j->tl, 0, sizeof(j->tl));
	memset(j->qd_level, 0, sizeof(j->qd_level));
	j->qd_sum = 0;
	j->qd_n = 0;
}

struct loop_state {
	struct rand_job *j;
	struct rand_engine *e;
	struct rand_offgen og;
	struct rand_io **freel;
	unsigned nfree;
	/* queued, not yet sent (a partial submit holds them back): engines send in this order */
	struct rand_io **pq;
	unsigned pq_head, pq_n;
	uint32_t seq;
	unsigned left;  /* I/Os still out when the loop ended */
};

static inline void pq_push(struct loop_state *s, struct rand_io *io)
{
	s->pq[(s->pq_head + s->pq_n++) % s->e->depth] = io;
}

static inline struct rand_io *pq_pop(struct loop_state *s)
{
	struct rand_io *io = s->pq[s->pq_head];

	s->pq_head = (s->pq_head + 1) % s->e->depth;
	s->pq_n--;
	return io;
}

/*
 * The engine sent the oldest r queued I/Os at t_sub: that is their issue
 * time (fio's too), and their slat runs from when each was prepared.
 * A remainder queued again after a short transfer keeps its first issue
 * time and has no slat of its own. Slat samples go in runs of I/Os
 * prepared together (one update per run, not per I/O).
 */
static void mark_sent(struct loop_state *s, unsigned r, uint64_t t_sub, bool sync)
{
	struct rand_job *j = s->j;
	uint64_t t_prep = 0;
	uint64_t nd[2] = { 0, 0 };

	while (r--) {
		struct rand_io *io = pq_pop(s);

		if (io->reissue) {
			io->reissue = false;
			continue;
		}
		if (!sync && io->t_issue != t_prep) {
			stat_add_n(&j->slat[0], t_sub - t_prep, nd[0]);
			stat_add_n(&j->slat[1], t_sub - t_prep, nd[1]);
			nd[0] = nd[1] = 0;
			t_prep = io->t_issue;
		}
		nd[io->ddir]++;
		if (!sync)
			io->t_issue = t_sub;
	}
	if (!sync) {
		stat_add_n(&j->slat[0], t_sub - t_prep, nd[0]);
		stat_add_n(&j->slat[1], t_sub - t_prep, nd[1]);
	}
}

/* Picks block and direction for io; false when verify finds no free block. */
static inline bool prep_io(struct loop_state *s, struct rand_io *io, bool read)
{
	const struct rand_job_cfg *c = s->j->cfg;
	uint64_t b = rand_next_block(&s->og);

	io->ddir = read ? 0 : 1;
	if (read) {
		io->read_data = true;
	} else {
		if (c->verify) {
			/* one write per block in flight, so the last writer is known */
			for (unsigned t = 0; c->vbusy[b]; t++) {
				if (t >= s->og.nblocks)
					return false;
				b = b + 1 < s->og.base_block + s->og.nblocks ? b + 1 : s->og.base_block;
			}
			c->vbusy[b] = 1;
			rand_stamp_verify(io->buf, io->len, b * io->len, ++c->vgen[b]);
		} else if (!c->zero_buffers) {
			rand_stamp_fast(io->buf, io->len, b * io->len, ++s->seq);
		} else if (io->read_data) {
			memset(io->buf, 0, io->len); /* zeros, not what a read left */
		}
		io->read_data = false;
	}
	io->block = b;
	io->off = b * io->len;
	return true;
}

/*
 * The longest a drain may take once issuing has ended: the grace, plus
 * what is still out at twice the time it takes at the rate this job has
 * completed so far, and at least at 1 MB/s (seq's stall floor). A slow
 * disk drains slowly, but it drains (fio just waits); what ends a drain
 * early is no completion at all for the grace (the storage stalled).
 */
static uint64_t drain_cap_ns(uint64_t grace, uint64_t out_bytes, uint64_t done_bytes,
			     uint64_t elapsed_ns)
{
	double t = (double)out_bytes / STALL_MIN_BPS * 1e9;

	if (done_bytes && elapsed_ns) {
		double seen = 2.0 * (double)out_bytes * (double)elapsed_ns / (double)done_bytes;

		if (seen > t)
			t = seen;
	}
	return t > 1e15 ? grace + (uint64_t)1e15 : grace + (uint64_t)t;
}

static bool cpu_now(struct rusage *ru)
{
	/* the whole process: io_uring's io-wq workers are threads of it (5.12+) */
	return getrusage(RUSAGE_SELF, ru) == 0;
}

static void run_loop(struct loop_state *s)
{
	struct rand_job *j = s->j;
	const struct rand_job_cfg *c = j->cfg;
	const struct rand_pass_spec *sp = c->spec;
	struct rand_engine *e = s->e;
	struct live_slot *ls = live_slot(c->ctx, j->idx);
	const bool sync = e->ops->sync;
	const bool is_rw = sp->rw == RW_RANDRW, all_read = sp->rw == RW_RANDREAD;
	const double ival_all = sp->rate_iops ? (double)NSEC * c->jobs / (double)sp->rate_iops : 0;
	const double ival_w = sp->rate_iops_write && !all_read ?
		(double)NSEC * c->jobs / (double)sp->rate_iops_write : 0;
	double next_all = 0, next_w = 0;
	struct rusage ru0, ru1;
	uint64_t now = mono_ns(), t_start = now, t_meas = now, t_end, t_hard, t_stop_drain = UINT64_MAX;
	uint64_t done_bytes = 0; /* every byte completed, warm-up too: the drain's rate */
	uint64_t t_last_done = now, t_drain = 0, t_drain_cap = UINT64_MAX;
	bool ramping = sp->ramp_ns > 0, issuing = true, ru_ok;
	unsigned inflight = 0, pending = 0;
	uint64_t t_ramp_end = now + sp->ramp_ns;

	t_end = ramping ? UINT64_MAX : now + sp->runtime_ns;
	t_hard = now + sp->ramp_ns + sp->runtime_ns + c->grace_ns;
	next_all = next_w = (double)now;
	ru_ok = cpu_now(&ru0);
	j->cpu_t0 = now;

	for (;;) {
		unsigned n = 0, nd[2] = { 0, 0 };
		uint64_t wake = 0;
		bool was_issuing = issuing;
		int got;

		if (issuing && bench_stopped(c->ctx)) {
			j->stopped = true;
			issuing = false;
			t_stop_drain = now + STOP_DRAIN_NS;
		}
		/* fill the free slots, submitting them in the engine's batches */
		do {
			n = 0;
			nd[0] = nd[1] = 0;
			while (issuing && s->nfree && n < e->batch) {
				bool rd = all_read || (is_rw && rand_next_is_read(&s->og));
				struct rand_io *io;

				if (ival_all) {
					if ((double)now < next_all) {
						wake = (uint64_t)next_all;
						break;
					}
				}
				if (!rd && ival_w && (double)now < next_w) {
					/* fio's rate_ddir(): a direction ahead of its rate yields to the other */
					if (sp->rwmixread > 0) {
						rd = true;
					} else {
						wake = (uint64_t)next_w;
						break;
					}
				}
				io = s->freel[s->nfree - 1];
				if (!prep_io(s, io, rd))
					break;
				s->nfree--;
				io->t_issue = now; /* prepared: slat starts */
				e->ops->queue(e, io);
				pq_push(s, io);
				if (ival_all)
					next_all += ival_all;
				if (!rd && ival_w)
					next_w += ival_w;
				nd[io->ddir]++;
				n++;
			}
			if (n || pending) {
				unsigned before = inflight;
				int r = e->ops->submit(e);
				uint64_t t_sub = sync ? now : mono_ns();

				if (r < 0) {
					j->err = r;
					snprintf(j->errmsg, sizeof(j->errmsg), "%s submit: %s", e->ops->name,
						 strerror(-r));
					/* what was queued never went out: drain the rest and stop */
					pending = 0;
					s->pq_n = 0;
					issuing = false;
					n = 0;
				} else {
					if ((unsigned)r > pending + n)
						r = (int)(pending + n); /* never more than was queued */
					inflight += (unsigned)r;
					pending = pending + n - (unsigned)r;
					/* only these went out now; held-back ones get their time when sent */
					mark_sent(s, (unsigned)r, t_sub, sync);
				}
				if (n) {
					j->qd_level[qd_level(before + n)] += n;
					j->qd_sum += (double)(before + n) * n;
					j->qd_n += n;
				}
				/* fio's slat: the next batch starts being prepared now */
				now = t_sub;
			}
		} while (n == e->batch && issuing && s->nfree && !wake);
		if (!inflight && !pending) {
			if (!issuing)
				break;
			if (wake) {
				/* rate cap: nothing out, sleep until the next I/O is due */
				uint64_t dt = wake > now ? wake - now : 0;
				struct timespec ts;

				if (dt > WAIT_SLICE_NS)
					dt = WAIT_SLICE_NS;
				ts.tv_sec = (time_t)(dt / NSEC);
				ts.tv_nsec = (long)(dt % NSEC);
				nanosleep(&ts, NULL);
				now = mono_ns();
				goto clock_checks;
			}
			if (!s->nfree)
				break; /* cannot happen: nothing out and nothing free */
			continue;
		}
		got = e->ops->reap(e, false, 0);
		if (got == 0) {
			uint64_t tmo = WAIT_SLICE_NS;

			if (wake && wake > now && wake - now < tmo)
				tmo = wake - now;
			got = e->ops->reap(e, !(wake && wake <= now), tmo);
		}
		now = mono_ns();
		if (got < 0) {
			j->err = got;
			snprintf(j->errmsg, sizeof(j->errmsg), "%s reap: %s", e->ops->name,
				 strerror(-got));
			j->timed_out = false;
			break;
		}
		if (got > 0) {
			uint64_t sec = (now - t_meas) / NSEC;
			unsigned cnt[2] = { 0, 0 };

			for (int i = 0; i < got; i++) {
				struct rand_io *io = e->done[i];
				unsigned d = io->ddir;
				int res = io->res;

				if (res == 0) /* fio: "full resid"; a read past the end, a device gone */
					res = -EIO;
				if (res < 0) {
					if (!j->err) {
						j->err = res;
						snprintf(j->errmsg, sizeof(j->errmsg),
							 "%s at offset %llu: %s%s", d ? "write" : "read",
							 (unsigned long long)io->off, strerror(-res),
							 io->res == 0 ? " (0 bytes transferred)" : "");
					}
					issuing = false;
				} else if ((uint32_t)res < io->len) {
					/* short: the rest goes out again, as fio does; one I/O when done */
					if (!io->xfer)
						j->short_ios[d]++;
					io->xfer += (uint32_t)res;
					io->buf = (unsigned char *)io->buf + res;
					io->off += (uint64_t)res;
					io->len -= (uint32_t)res;
					io->reissue = true;
					done_bytes += (uint64_t)res;
					e->ops->queue(e, io);
					pq_push(s, io);
					pending++;
					continue;
				} else {
					uint32_t full = io->len + io->xfer;

					if (io->xfer) {
						io->buf = (unsigned char *)io->buf - io->xfer;
						io->off -= io->xfer;
						io->len = full;
						io->xfer = 0;
					}
					lat_hist_add(&j->clat[d], now - io->t_issue);
					j->ios[d]++;
					j->bytes[d] += full;
					done_bytes += (uint64_t)res;
					cnt[d]++;
				}
				if (d && c->verify)
					c->vbusy[io->block] = 0;
				s->freel[s->nfree++] = io;
			}
			inflight -= (unsigned)got;
			t_last_done = now;
			if (sec < RAND_TL_MAX) {
				j->tl[0][sec] += cnt[0];
				j->tl[1][sec] += cnt[1];
			}
			/* once per reap batch, for the progress line: relaxed stores only */
			live_publish(ls, 0, j->ios[0], j->bytes[0]);
			live_publish(ls, 1, j->ios[1], j->bytes[1]);
		}
clock_checks:
		if (ramping && now >= t_ramp_end) {
			/* fio's ramp_period_over: forget the warm-up */
			reset_stats(j);
			ramping = false;
			t_meas = now;
			t_end = now + sp->runtime_ns;
			next_all = next_w = (double)now;
			ru_ok = cpu_now(&ru0);
			j->cpu_t0 = now;
		}
		if (issuing && now >= t_end)
			issuing = false; /* deadline: stop issuing, drain and count what is out */
		if (was_issuing && !issuing && !j->stopped) {
			/* the drain: its cap scales with what is out and the rate seen */
			t_drain = now;
			j->drain_cap_ns = drain_cap_ns(c->grace_ns, (uint64_t)(inflight + pending) * sp->bs,
						       done_bytes, now - t_start);
			t_drain_cap = now + j->drain_cap_ns;
		}
		if (t_drain) {
			/* draining: fails after the grace without a completion, or at the cap */
			uint64_t since = t_last_done > t_drain ? t_last_done : t_drain;

			t_hard = since + c->grace_ns < t_drain_cap ? since + c->grace_ns : t_drain_cap;
		}
		if (!issuing && (now >= t_hard || now >= t_stop_drain) && (inflight || pending)) {
			if (now >= t_hard) {
				j->timed_out = true;
				if (now >= t_drain_cap)
					snprintf(j->errmsg, sizeof(j->errmsg), "timeout: I/O still outstanding "
						 "%.0f s after the runtime ended", (double)j->drain_cap_ns / 1e9);
				else
					snprintf(j->errmsg, sizeof(j->errmsg), "timeout: no I/O completed for "
						 "%.0f s (storage stalled?)", (double)c->grace_ns / 1e9);
			}
			break;
		}
	}
	j->runtime_ns = now - t_meas;
	if (ramping) {
		/* stopped during the warm-up: nothing was measured */
		reset_stats(j);
		j->runtime_ns = 0;
	}
	j->cpu_ok = false;
	if (ru_ok && cpu_now(&ru1)) {
		j->cpu_t1 = mono_ns();
		j->usr0_s = tv_s(&ru0.ru_utime);
		j->sys0_s = tv_s(&ru0.ru_stime);
		j->usr1_s = tv_s(&ru1.ru_utime);
		j->sys1_s = tv_s(&ru1.ru_stime);
		j->cpu_ok = true;
	}
	s->left = inflight + pending;
}

void *rand_job_main(void *arg)
{
	struct rand_job *j = arg;
	const struct rand_job_cfg *c = j->cfg;
	const struct rand_pass_spec *sp = c->spec;
	struct loop_state s;
	struct rand_engine e;
	struct rand_io *ios = NULL;
	struct rand_io **done = NULL;
	unsigned char *bufs = NULL;
	unsigned depth = sp->iodepth;
	struct databuf_rng drng;
	bool leak = false;
	int r;

	memset(&s, 0, sizeof(s));
	memset(&e, 0, sizeof(e));
	reset_stats(j);
	ios = calloc(depth, sizeof(*ios));
	done = calloc(depth, sizeof(*done));
	s.freel = calloc(depth, sizeof(*s.freel));
	s.pq = calloc(depth, sizeof(*s.pq));
	r = posix_memalign((void **)&bufs, 4096, (size_t)depth * sp->bs);
	if (r || !ios || !done || !s.freel || !s.pq) {
		bufs = r ? NULL : bufs;
		j->err = -ENOMEM;
		snprintf(j->errmsg, sizeof(j->errmsg), "job %u: cannot allocate %u buffers of %u bytes",
			 j->idx, depth, sp->bs);
		goto gate;
	}
	/* random data once (fio's default), stamped per write in the loop; per run, not per --seed */
	databuf_seed(&drng, rand_stream_seed(c->nonce, j->idx, RAND_STREAM_DATA));
	if (c->zero_buffers)
		memset(bufs, 0, (size_t)depth * sp->bs);
	else
		databuf_fill(&drng, bufs, (size_t)depth * sp->bs);
	for (unsigned i = 0; i < depth; i++) {
		ios[i].buf = bufs + (size_t)i * sp->bs;
		ios[i].len = sp->bs;
		ios[i].idx = (uint16_t)i;
	}
	e.fd = c->fd;
	e.depth = depth;
	e.bs = sp->bs;
	e.ios = ios;
	e.done = done;
	r = rand_engine_open(c->engine, c->ctx->root, &e, j->fallback, sizeof(j->fallback));
	if (r < 0) {
		j->err = r;
		snprintf(j->errmsg, sizeof(j->errmsg), "%s", j->fallback[0] ? j->fallback :
			 "no I/O engine could be opened");
		goto gate;
	}
	snprintf(j->engine, sizeof(j->engine), "%s", e.ops->name);
	snprintf(j->note, sizeof(j->note), "%s", e.note);
	j->depth_used = e.depth;
	for (unsigned i = 0; i < e.depth; i++)
		s.freel[i] = &ios[e.depth - 1 - i];
	s.nfree = e.depth;
	s.j = j;
	s.e = &e;
	{
		/* verify: job i owns blocks [i*n/jobs, (i+1)*n/jobs) */
		uint64_t base = 0, nb = c->nblocks;

		if (c->verify) {
			base = c->nblocks * j->idx / c->jobs;
			nb = c->nblocks * (j->idx + 1) / c->jobs - base;
		}
		rand_offgen_init(&s.og, sp->seed, j->idx, base, nb, sp->bs, sp->rwmixread);
	}
gate:
	{
		struct rand_gate *g = c->gate;
		bool abort;

		pthread_mutex_lock(&g->mu);
		g->ready++;
		pthread_cond_broadcast(&g->cv);
		while (!g->go)
			pthread_cond_wait(&g->cv, &g->mu);
		abort = g->abort;
		pthread_mutex_unlock(&g->mu);
		if (!j->err && e.ops && !abort)
			run_loop(&s);
	}
	/* I/O still in the kernel (timeout): leave ring, context and buffers alone */
	leak = s.left > 0;
	j->left = s.left;
	if (!leak) {
		rand_engine_close(&e);
		free(bufs);
	} else {
		j->stuck_bufs = bufs;
	}
	free(ios);
	free(done);
	free(s.freel);
	free(s.pq);
	return NULL;
}
