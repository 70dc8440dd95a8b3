/*
 * cache_write.c — burst then sustained writes: 4k random at qd32 over a
 * region past the cliff's knee, sequential 1 MiB O_DIRECT into a fresh
 * file, each with 1 s and 100 ms samples, its levels (cache_change.c),
 * the idle-then-rewrite recovery probe and the write time a cloud credit
 * bucket would need when no drop was seen.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "cache_change.h"
#include "cache_run.h"

#define SEC_NS 1000000000ULL
/* sub-second samples of the start: a burst under 2 s is sized from them */
#define SUB_NS (SEC_NS / 10)
/* cloud volume credit buckets last ~30 min at full burst (AWS gp2, Azure credit bursting) */
#define CREDIT_NS (30ULL * 60 * SEC_NS)
#define CREDIT_ADVICE "40m"
/* laying out more of the cliff's file for the region, a step at a time */
#define EXTEND_STEP (64 * CACHE_MiB)
/* closing an unlinked file frees its extents: ~0.5 s per GiB on ext4 over virtio here */
#define REMOVE_NS_PER_BYTE (0.5e9 / (double)(1ULL << 30))

static void size_str(char *s, size_t len, uint64_t b)
{
	if (b >= (1ULL << 30))
		snprintf(s, len, "%.3g GiB", (double)b / (double)(1ULL << 30));
	else
		snprintf(s, len, "%.0f MiB", (double)b / (double)CACHE_MiB);
}

static void dur_str(char *s, size_t len, double secs)
{
	if (secs < 10)
		snprintf(s, len, "%.*f s", secs < 1 ? 2 : 1, secs);
	else if (secs < 120)
		snprintf(s, len, "%.0f s", secs);
	else
		snprintf(s, len, "%.0f min", secs / 60);
}

/* Each write test's time: --storage-write-time (it extends the cap), else its share of the cap. */
static uint64_t test_ns(const struct cache_run *cr)
{
	return cr->sp->write_ns ? cr->sp->write_ns : cr->write_ns;
}

/* The levels of the timeline; the figures of a test shorter than 3 s from its real time. */
static void finish_burst(struct cache_burst *b, uint64_t bytes, double secs)
{
	struct cache_change c;
	double rate[CACHE_SUB_MAX];

	b->bytes = bytes;
	b->secs = secs;
	b->burst_bps = b->sustained_bps = secs > 0 ? (double)bytes / secs : NAN;
	b->burst_bytes = (double)bytes;
	if (b->n < 3)
		return;
	cache_change_point(b->tl, b->n, 1.0, &c);
	for (unsigned i = 0; i < b->nsub; i++)
		rate[i] = b->sub[i] / b->sub_dt;
	cache_change_sub(rate, b->nsub, b->sub_dt, 1.0, &c);
	b->found = c.found;
	if (!c.found)
		return;
	b->change_s = c.index;
	b->change_bytes = (uint64_t)c.change_amount;
	b->burst_bps = c.burst_rate;
	b->sustained_bps = c.sustained_rate;
	b->burst_bytes = c.burst_amount;
	b->recovered = c.recovered;
}

/* No drop seen: the write time that would drain a cloud volume's credit bucket. */
static void suggest(struct cache_burst *b, uint64_t ran_ns)
{
	char t[24], g[32];

	if (b->status != BENCH_OK || b->found || ran_ns >= CREDIT_NS || !b->bytes)
		return;
	dur_str(t, sizeof(t), b->secs);
	size_str(g, sizeof(g), b->bytes);
	snprintf(b->suggestion, sizeof(b->suggestion),
		 "no drop in %s / %s; credit buckets of cloud volumes last ~30 min (AWS gp2, Azure "
		 "credit bursting): --storage-write-time " CREDIT_ADVICE "%s", t, g,
		 b->size_capped ? ", and a larger --storage-write-size" : "");
}

/* Idle for ns in short naps; false when the run was stopped. */
static bool idle(const struct bench_ctx *ctx, uint64_t ns)
{
	uint64_t end = mono_ns() + ns;

	while (mono_ns() < end) {
		struct timespec nap = { 0, 100000000L };

		if (bench_stopped(ctx))
			return false;
		nanosleep(&nap, NULL);
	}
	return !bench_stopped(ctx);
}

/* Whether the probe runs after this test; why not in rec->why. */
static bool recover_wanted(const struct cache_run *cr, struct cache_burst *b)
{
	struct cache_recovery *rec = &b->rec;

	if (!cr->sp->recover_idle_ns)
		snprintf(rec->why, sizeof(rec->why), "not asked (--storage-recover-idle)");
	else if (b->status != BENCH_OK)
		snprintf(rec->why, sizeof(rec->why), "the write test did not complete");
	else if (!b->found)
		snprintf(rec->why, sizeof(rec->why), "no drop: nothing to recover");
	else if (!idle(cr->ctx, cr->sp->recover_idle_ns))
		snprintf(rec->why, sizeof(rec->why), "interrupted while idle");
	else
		return true;
	return false;
}

static void recover_done(struct cache_burst *b, uint64_t bytes, double secs, double idle_s)
{
	struct cache_recovery *rec = &b->rec;

	rec->run = true;
	rec->idle_s = idle_s;
	rec->bytes = bytes;
	rec->secs = secs;
	rec->bps = secs > 0 ? (double)bytes / secs : NAN;
	rec->share_of_burst = b->burst_bps > 0 ? rec->bps / b->burst_bps : NAN;
}

/*
 * The random writes' region: past the knee (the first size the device
 * served, or twice the knee when that was not measured), or with no knee
 * the largest size the free space allows; the cliff's file extended when it
 * is shorter, within the free space and the time the write tests leave.
 */
static uint64_t pick_region(struct cache_run *cr, const struct cache_result *r, struct cache_burst *b)
{
	uint64_t want = 0, room, ext_end;
	char sz[24], err[200] = "";

	if (r->knee >= 0) {
		const struct cache_point *d = r->knee + 1 < (int)r->npoints ? &r->points[r->knee + 1] : NULL;

		if (d && d->status == BENCH_OK) {
			want = d->size;
			size_str(sz, sizeof(sz), want);
			snprintf(b->region_why, sizeof(b->region_why),
				 "past the knee: %s, the first size served by the device", sz);
		} else {
			want = 2 * r->points[r->knee].size;
			size_str(sz, sizeof(sz), want);
			snprintf(b->region_why, sizeof(b->region_why), "past the knee: %s, twice the knee", sz);
		}
	} else {
		/* no knee up to the largest size measured: a cache may still hold that much, so as
		 * large a region as the free space allows, laid out as far as the time allows */
		uint64_t upto = 0;
		char u[24];

		for (unsigned i = 0; i < r->npoints; i++)
			if (r->points[i].status == BENCH_OK && r->points[i].size > upto)
				upto = r->points[i].size;
		want = cr->have + cache_fit(testfile_avail_bytes(cr->dir));
		size_str(u, sizeof(u), upto ? upto : cr->have);
		size_str(sz, sizeof(sz), want);
		snprintf(b->region_why, sizeof(b->region_why), "no knee up to %s: %s, the largest size the space allows",
			 u, sz);
	}
	room = cr->have + cache_fit(testfile_avail_bytes(cr->dir));
	if (r->knee >= 0 && want > room) {
		want = room;
		size_str(sz, sizeof(sz), want);
		snprintf(b->region_why, sizeof(b->region_why), "past the knee: %s, what the free space allows", sz);
	}
	/* laying out more: until what the two write tests need of the cap is left (their own time when given) */
	{
		/* at most one write test's time, and only out of what the plan leaves beyond both
		 * tests and the recovery probes: the budget shown at the start still holds */
		const struct cache_spec *sp = cr->sp;
		uint64_t keep = 2 * test_ns(cr) +
				(sp->recover_idle_ns ? 2 * (sp->recover_idle_ns + CACHE_RECOVER_REWRITE_NS) : 0);
		uint64_t now = mono_ns();

		ext_end = cr->deadline > keep ? cr->deadline - keep : 0;
		ext_end = now + test_ns(cr) < ext_end ? now + test_ns(cr) : ext_end;
	}
	while (cr->have < want) {
		uint64_t to = cr->have + EXTEND_STEP < want ? cr->have + EXTEND_STEP : want;

		if (cache_seq_io(cr, cr->have, to, true, ext_end, err, sizeof(err)) != 0)
			break;
		cr->have = to;
	}
	if (cr->have < want) {
		char w[24];

		size_str(sz, sizeof(sz), cr->have);
		size_str(w, sizeof(w), want);
		snprintf(b->region_why, sizeof(b->region_why), "%s: %s of %s wanted, %s",
			 r->knee >= 0 ? "past the knee" : "no knee (a cache may hold it)", sz, w,
			 err[0] ? "laying it out failed" : "the time cap allowed no more");
		want = cr->have;
	}
	return want;
}

void cache_write_rand(struct cache_run *cr, struct cache_result *r)
{
	struct cache_burst *b = &r->rnd;
	uint64_t now = mono_ns(), left, ns;
	struct cache_io_tl tl = { .v = b->tl, .max = CACHE_TL_MAX, .sub = b->sub, .submax = CACHE_SUB_MAX,
				  .sub_ns = SUB_NS };
	char err[200] = "";

	snprintf(b->kind, sizeof(b->kind), "rand-4k");
	b->bs = 4096;
	b->depth = 32;
	b->sub_dt = (double)SUB_NS / 1e9;
	b->region = pick_region(cr, r, b);
	now = mono_ns();
	left = cr->deadline > now ? cr->deadline - now : 0;
	ns = cr->sp->write_ns ? cr->sp->write_ns : left / 2 < cr->write_ns ? left / 2 : cr->write_ns;
	if (ns < 2 * SEC_NS) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "time cap reached");
		snprintf(b->rec.why, sizeof(b->rec.why), "the write test did not run");
		r->time_capped = true;
		return;
	}
	if (b->region < 4096) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "no region to write over");
		snprintf(b->rec.why, sizeof(b->rec.why), "the write test did not run");
		return;
	}
	if (cache_rand_io(cr->ctx, cr->tf.fd, b->region, 32, true, ns, &b->io, NULL, &tl, err, sizeof(err)) < 0) {
		b->status = BENCH_FAIL;
		snprintf(b->reason, sizeof(b->reason), "%.150s", err);
		snprintf(b->rec.why, sizeof(b->rec.why), "the write test failed");
		return;
	}
	b->n = tl.n;
	b->nsub = tl.nsub;
	b->status = bench_stopped(cr->ctx) ? BENCH_INCOMPLETE : BENCH_OK;
	finish_burst(b, b->io.ios * 4096, b->io.secs);
	suggest(b, ns);
	if (recover_wanted(cr, b)) {
		struct cache_io_stat st;

		if (cache_rand_io(cr->ctx, cr->tf.fd, b->region, 32, true, CACHE_RECOVER_REWRITE_NS, &st, NULL, NULL, err,
				  sizeof(err)) < 0)
			snprintf(b->rec.why, sizeof(b->rec.why), "%.90s", err);
		else
			recover_done(b, st.ios * 4096, st.secs, (double)cr->sp->recover_idle_ns / 1e9);
	}
}

/* Sequential 1 MiB writes from 0 for ns or until cap, wrapping: the recovery probe's rewrite. */
static int seq_rewrite(struct cache_run *cr, int fd, uint64_t cap, uint64_t ns, uint64_t *bytes, double *secs,
		       char *err, size_t errlen)
{
	struct databuf_rng rng;
	uint64_t t0 = mono_ns(), off = 0;

	databuf_seed(&rng, t0);
	*bytes = 0;
	while (mono_ns() - t0 < ns && !bench_stopped(cr->ctx)) {
		if (off + CACHE_CHUNK > cap)
			off = 0;
		databuf_fill(&rng, cr->buf, CACHE_CHUNK);
		ssize_t n = pwrite(fd, cr->buf, CACHE_CHUNK, (off_t)off);

		if (n != (ssize_t)CACHE_CHUNK) {
			snprintf(err, errlen, "cache: rewrite at %llu: %s", (unsigned long long)off,
				 n < 0 ? strerror(errno) : "short");
			return -1;
		}
		off += CACHE_CHUNK;
		*bytes += CACHE_CHUNK;
	}
	*secs = (double)(mono_ns() - t0) / 1e9;
	return 0;
}

/* Sequential 1 MiB O_DIRECT writes into a fresh file: for the test's time or until the size cap. */
void cache_write_seq(struct cache_run *cr, struct cache_result *r)
{
	struct cache_burst *b = &r->seq;
	const struct cache_spec *sp = cr->sp;
	uint64_t cap = cache_fit(testfile_avail_bytes(cr->dir));
	/* its share of the cap, or what is left of it; --storage-write-time: that long */
	uint64_t start = mono_ns(), ns = test_ns(cr);
	uint64_t deadline = sp->write_ns || start + ns < cr->deadline ? start + ns : cr->deadline;
	struct testfile tf;
	struct databuf_rng rng;
	char err[200];
	uint64_t t0, t1, next, next_sub, bytes = 0, sbytes = 0, off = 0;
	/* as the cliff's file took, and never less than REMOVE_NS_PER_BYTE (seen: 1.4 s for a few GiB) */
	double remove_rate = cr->remove_ns_per_byte > REMOVE_NS_PER_BYTE ? cr->remove_ns_per_byte : REMOVE_NS_PER_BYTE;

	if (sp->write_size && sp->write_size < cap)
		cap = sp->write_size / CACHE_MiB * CACHE_MiB;
	snprintf(b->kind, sizeof(b->kind), "seq-1m");
	b->bs = CACHE_CHUNK;
	b->depth = 1;
	b->region = cap;
	b->sub_dt = (double)SUB_NS / 1e9;
	snprintf(b->region_why, sizeof(b->region_why), "a fresh file, up to the free space or --storage-write-size");
	snprintf(b->io.engine, sizeof(b->io.engine), "psync");
	b->io.depth = 1;
	b->io.cpu_s = NAN;
	snprintf(b->rec.why, sizeof(b->rec.why), "the write test did not run");
	if (cap < CACHE_CHUNK) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "less than 1 MiB of free space after the margin");
		return;
	}
	if (testfile_create(cr->dir, "burst", O_DIRECT, &tf, err, sizeof(err)) < 0) {
		b->status = BENCH_SKIP;
		snprintf(b->reason, sizeof(b->reason), "%.150s", err);
		return;
	}
	testfile_unlink_early(&tf);
	databuf_seed(&rng, mono_ns());
	t0 = t1 = mono_ns();
	next = t0 + SEC_NS;
	next_sub = t0 + SUB_NS;
	b->status = BENCH_OK;
	while (b->n < CACHE_TL_MAX) {
		uint64_t now = mono_ns();

		if (now >= next_sub && b->nsub < CACHE_SUB_MAX) {
			b->sub[b->nsub++] = (double)sbytes;
			sbytes = 0;
			next_sub += SUB_NS;
			continue;
		}
		if (now >= next) {
			b->tl[b->n++] = (double)bytes;
			bytes = 0;
			next += SEC_NS;
			continue;
		}
		if (now > deadline || bench_stopped(cr->ctx))
			break;
		/* leave the part's budget the time closing this file will take (its extents freed) */
		if (now + (uint64_t)((double)off * remove_rate) > cr->deadline)
			break;
		if (off + CACHE_CHUNK > cap) {
			b->size_capped = true;
			break;
		}
		databuf_fill(&rng, cr->buf, CACHE_CHUNK);
		ssize_t n = pwrite(tf.fd, cr->buf, CACHE_CHUNK, (off_t)off);

		if (n != (ssize_t)CACHE_CHUNK) {
			b->status = BENCH_FAIL;
			snprintf(b->reason, sizeof(b->reason), "cache: write at %llu: %s",
				 (unsigned long long)off, n < 0 ? strerror(errno) : "short");
			break;
		}
		t1 = mono_ns();
		off += CACHE_CHUNK;
		bytes += CACHE_CHUNK;
		sbytes += CACHE_CHUNK;
	}
	if (b->status == BENCH_OK && bench_stopped(cr->ctx))
		b->status = BENCH_INCOMPLETE;
	/* all bytes over the real time: a test under 1 s has its figure too */
	finish_burst(b, off, (double)(t1 - t0) / 1e9);
	suggest(b, sp->write_ns);
	if (recover_wanted(cr, b)) {
		uint64_t rb = 0;
		double rs = 0;

		if (seq_rewrite(cr, tf.fd, off, CACHE_RECOVER_REWRITE_NS, &rb, &rs, err, sizeof(err)) < 0)
			snprintf(b->rec.why, sizeof(b->rec.why), "%.90s", err);
		else
			recover_done(b, rb, rs, (double)sp->recover_idle_ns / 1e9);
	}
	testfile_remove(&tf);
}
