/*
 * cache_cliff.c — the cache cliff: 4k random reads at qd32 and qd1 over
 * growing working sets, each size measured sp->repeats times in
 * interleaved rounds (round r measures every size in turn, so a slow
 * minute of a shared host lands on several sizes' repeats, not on all of
 * one size's), each measurement after its warm pass, then the knee.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/databuf.h"
#include "cache_knee.h"
#include "cache_run.h"

/* A point's qd32 loop busy this share of its window: CPU-bound (README "Cache cliff"). */
#define CACHE_CPU_BOUND 0.9

/* Rates seen so far, for the time a size will take; 0 = not yet seen. */
struct pace {
	double write_bps, warm_bps;
};

/*
 * The random warm pass: the region's 1 MiB blocks read once each in a
 * shuffled order. Caches that leave sequential streams to the disk
 * (bcache's sequential_cutoff, ZFS's prefetch-fed L2ARC, dm-cache
 * policies that skip streams) take these reads, as none continues the one
 * before; 1 MiB keeps the pass as cheap per byte as the sequential one.
 * 0, 1 (cliff's time share or stop), -1 (err).
 */
static int warm_random(struct cache_run *cr, uint64_t size, char *err, size_t errlen)
{
	uint64_t nb = size / CACHE_CHUNK;
	uint32_t *ord = malloc(nb * sizeof(*ord));
	struct databuf_rng rng;
	int rc = 0;

	if (!ord) {
		snprintf(err, errlen, "cache: warm order of %llu blocks: %s", (unsigned long long)nb,
			 strerror(ENOMEM));
		return -1;
	}
	databuf_seed(&rng, mono_ns());
	for (uint64_t i = 0; i < nb; i++)
		ord[i] = (uint32_t)i;
	for (uint64_t i = nb; i > 1; i--) {
		uint64_t j = databuf_next(&rng) % i;
		uint32_t t = ord[i - 1];

		ord[i - 1] = ord[j];
		ord[j] = t;
	}
	for (uint64_t i = 0; i < nb && !rc; i++) {
		off_t off = (off_t)ord[i] * (off_t)CACHE_CHUNK;
		ssize_t n;

		if (mono_ns() > cr->cliff_end || bench_stopped(cr->ctx)) {
			rc = 1;
			break;
		}
		n = pread(cr->tf.fd, cr->buf, CACHE_CHUNK, off);
		if (n != (ssize_t)CACHE_CHUNK) {
			snprintf(err, errlen, "cache: warm read at %llu: %s", (unsigned long long)off,
				 n < 0 ? strerror(errno) : "short transfer");
			rc = -1;
		}
	}
	free(ord);
	return rc;
}

/* The warm pass(es) over [0, size) that --storage-warm asks for. 0, 1 (time/stop), -1 (err). */
static int warm(struct cache_run *cr, uint64_t size, struct pace *pc, char *err, size_t errlen)
{
	enum cache_warm w = cr->sp->warm;
	uint64_t t0 = mono_ns();
	int rc = 0, passes = 0;

	if (w != CACHE_WARM_RANDOM) {
		rc = cache_seq_io(cr, 0, size, false, cr->cliff_end, err, errlen);
		passes++;
	}
	if (!rc && w != CACHE_WARM_SEQ) {
		rc = warm_random(cr, size, err, errlen);
		passes++;
	}
	if (!rc && mono_ns() > t0)
		pc->warm_bps = (double)size * passes / ((double)(mono_ns() - t0) / 1e9);
	return rc;
}

/* One repeat of one size: its warm pass, qd32 IOPS, then qd1 latency. 0, 1 (time/stop), -1 (err). */
static int measure(struct cache_run *cr, struct cache_point *p, struct pace *pc, char *err, size_t errlen)
{
	struct cache_rep *x = &p->rep[p->nrep];
	const struct cache_spec *sp = cr->sp;
	int rc = warm(cr, p->size, pc, err, errlen);

	if (rc)
		return rc;
	memset(x, 0, sizeof(*x));
	if (cache_rand_io(cr->ctx, cr->tf.fd, p->size, 32, false, sp->point_ns, &x->q32, NULL, NULL,
			  err, errlen) < 0)
		return -1;
	lat_hist_reset(cr->h);
	if (cache_rand_io(cr->ctx, cr->tf.fd, p->size, 1, false, sp->point_ns, &x->q1, cr->h, NULL,
			  err, errlen) < 0)
		return -1;
	if (bench_stopped(cr->ctx))
		return 1; /* a run cut short is not a repeat */
	x->iops32 = x->q32.secs > 0 ? (double)x->q32.ios / x->q32.secs : 0;
	x->p50_1_ns = lat_hist_percentile(cr->h, 50.0);
	x->p99_1_ns = lat_hist_percentile(cr->h, 99.0);
	p->nrep++;
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1] (sorted in place); lo/hi the range. */
static double median(double *v, unsigned n, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	if (lo)
		*lo = v[0];
	if (hi)
		*hi = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The point's figures over its repeats: medians, ranges, the largest qd32 CPU share. */
static void summarise(struct cache_point *p)
{
	double a[CACHE_MAX_REPEATS], b[CACHE_MAX_REPEATS], c[CACHE_MAX_REPEATS];

	p->cpu_share = NAN;
	for (unsigned j = 0; j < p->nrep; j++) {
		const struct cache_rep *x = &p->rep[j];
		double s = x->q32.secs > 0 ? x->q32.cpu_s / x->q32.secs : NAN;

		a[j] = x->iops32;
		b[j] = (double)x->p50_1_ns;
		c[j] = (double)x->p99_1_ns;
		if (isfinite(s) && !(s <= p->cpu_share))
			p->cpu_share = s;
	}
	if (!p->nrep)
		return;
	p->iops32 = median(a, p->nrep, &p->iops32_lo, &p->iops32_hi);
	p->p50_1_ns = median(b, p->nrep, &p->p50_1_lo_ns, &p->p50_1_hi_ns);
	p->p99_1_ns = median(c, p->nrep, NULL, NULL);
	/* the loop's thread busy 90% of the window: it, not the disk, may have set the pace */
	p->cpu_bound = isfinite(p->cpu_share) && p->cpu_share >= CACHE_CPU_BOUND;
}

/* Seconds a size will take from now: its layout, then its warm passes and qd32 + qd1 runs. */
static double cost_s(const struct cache_run *cr, const struct pace *pc, uint64_t size, unsigned reps)
{
	const struct cache_spec *sp = cr->sp;
	double grow = size > cr->have && pc->write_bps > 0 ? (double)(size - cr->have) / pc->write_bps : 0;
	double rd = pc->warm_bps > 0 ? pc->warm_bps : pc->write_bps;
	double passes = sp->warm == CACHE_WARM_BOTH ? 2 : 1;
	double w = rd > 0 ? (double)size * passes / rd : 0;

	return grow + reps * (w + 2.0 * (double)sp->point_ns / 1e9);
}

static void mark_skipped(struct cache_result *r, unsigned from)
{
	for (unsigned i = from; i < r->npoints; i++)
		if (!r->points[i].nrep && r->points[i].status == BENCH_NOT_RUN) {
			r->points[i].status = BENCH_SKIP;
			snprintf(r->points[i].reason, sizeof(r->points[i].reason), "not reached: time cap");
		}
}

/* Round 1: each size grown to and measured once, while the time share holds all its repeats. */
static unsigned first_round(struct cache_run *cr, struct cache_result *r, unsigned reps, struct pace *pc,
			    char *err, size_t errlen)
{
	const struct cache_spec *sp = cr->sp;
	unsigned n = 0; /* sizes taken on */
	double later = 0; /* seconds the later rounds of the sizes taken on will need */

	for (unsigned i = 0; i < sp->nsizes && i < CACHE_MAX_SIZES; i++) {
		struct cache_point *p = &r->points[r->npoints];
		uint64_t size = sp->sizes[i], room = cache_fit(cr->avail) + cr->have, t0;
		double left = ((double)cr->cliff_end - (double)mono_ns()) / 1e9;
		int rc;

		memset(p, 0, sizeof(*p));
		p->size = size;
		r->npoints++;
		if (size > room) {
			p->status = BENCH_SKIP;
			snprintf(p->reason, sizeof(p->reason), "no room: %llu MiB free after the margin, less than %llu MiB",
				 (unsigned long long)(room / CACHE_MiB), (unsigned long long)(size / CACHE_MiB));
			break;
		}
		/* the first size needs its runs; a later one all its repeats and the others' too */
		if (n && later + cost_s(cr, pc, size, reps) > left)
			continue; /* listed, status set to skip below */
		if (!n && 2.0 * (double)sp->point_ns / 1e9 > left)
			continue;
		t0 = mono_ns();
		rc = cache_seq_io(cr, cr->have, size, true, cr->cliff_end, err, errlen);
		if (rc == 0 && size > cr->have && mono_ns() > t0)
			pc->write_bps = (double)(size - cr->have) / ((double)(mono_ns() - t0) / 1e9);
		if (rc == 0) {
			cr->have = size;
			rc = measure(cr, p, pc, err, errlen);
		}
		if (rc != 0) {
			p->status = rc > 0 ? BENCH_INCOMPLETE : BENCH_FAIL;
			snprintf(p->reason, sizeof(p->reason), "%.150s",
				 rc < 0 ? err : bench_stopped(cr->ctx) ? "interrupted" : "time cap during its first repeat");
			if (rc < 0 || bench_stopped(cr->ctx))
				return n;
			/* the time cap: the sizes after it are listed as not reached */
			r->time_capped = true;
			continue;
		}
		p->status = BENCH_OK;
		n++;
		later += cost_s(cr, pc, size, reps - 1);
	}
	return n;
}

void cache_cliff(struct cache_run *cr, struct cache_result *r)
{
	const struct cache_spec *sp = cr->sp;
	unsigned reps = sp->repeats < 1 ? 1 : sp->repeats > CACHE_MAX_REPEATS ? CACHE_MAX_REPEATS : sp->repeats;
	struct pace pc = { 0, 0 };
	char err[200] = "";
	bool stop = false;
	unsigned n;

	r->repeats = reps;
	snprintf(r->warm, sizeof(r->warm), "%s", cache_warm_names[sp->warm]);
	first_round(cr, r, reps, &pc, err, sizeof(err));
	/* rounds 2..: every size measured in round 1, in turn */
	for (unsigned round = 1; round < reps && !stop; round++) {
		for (unsigned i = 0; i < r->npoints && !stop; i++) {
			struct cache_point *p = &r->points[i];
			int rc;

			if (p->status != BENCH_OK || p->nrep != round)
				continue;
			if ((double)mono_ns() + cost_s(cr, &pc, p->size, 1) * 1e9 > (double)cr->cliff_end) {
				r->time_capped = true;
				stop = true;
				break;
			}
			rc = measure(cr, p, &pc, err, sizeof(err));
			if (rc < 0) {
				p->status = BENCH_FAIL;
				snprintf(p->reason, sizeof(p->reason), "%.150s", err);
				stop = true;
			} else if (rc > 0) {
				r->time_capped |= !bench_stopped(cr->ctx);
				stop = true;
			}
		}
	}
	for (unsigned i = 0; i < r->npoints; i++) {
		struct cache_point *p = &r->points[i];

		summarise(p);
		if (p->status == BENCH_OK && p->nrep < reps) {
			p->status = BENCH_INCOMPLETE;
			snprintf(p->reason, sizeof(p->reason), "measured %u of %u times: %s", p->nrep, reps,
				 bench_stopped(cr->ctx) ? "interrupted" : "time cap");
		}
		if (p->nrep && !r->engine[0]) {
			snprintf(r->engine, sizeof(r->engine), "%s", p->rep[0].q32.engine);
			r->depth = p->rep[0].q32.depth;
		}
		if (p->nrep)
			r->measured_up_to = p->size;
	}
	mark_skipped(r, 0);
	if (r->npoints && r->points[r->npoints - 1].status == BENCH_SKIP &&
	    !strcmp(r->points[r->npoints - 1].reason, "not reached: time cap"))
		r->time_capped = true;
	/* the knee over the measured sizes from the first on, each with its repeats */
	for (n = 0; n < r->npoints && r->points[n].nrep &&
		    (r->points[n].status == BENCH_OK || r->points[n].status == BENCH_INCOMPLETE); n++)
		;
	r->knee = cache_knee_points(r->points, n, &r->knee_by);
}
