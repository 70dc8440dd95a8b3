/*
 * cache_cliff.c — the cache cliff: 4k random reads at qd32 and qd1 over
 * growing working sets, each after a warm pass, then the knee.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "cache_knee.h"
#include "cache_run.h"

/* One repeat of one size: qd32 IOPS, then qd1 latency. 0 or -1 (err). */
static int measure(struct cache_run *cr, struct cache_point *p, char *err, size_t errlen)
{
	struct cache_rep *x = &p->rep[p->nrep];
	const struct cache_spec *sp = cr->sp;

	if (cache_rand_io(cr->ctx, cr->tf.fd, p->size, 32, false, sp->point_ns, &x->q32, NULL, NULL,
			  err, errlen) < 0)
		return -1;
	lat_hist_reset(cr->h);
	if (cache_rand_io(cr->ctx, cr->tf.fd, p->size, 1, false, sp->point_ns, &x->q1, cr->h, NULL,
			  err, errlen) < 0)
		return -1;
	x->iops32 = x->q32.secs > 0 ? (double)x->q32.ios / x->q32.secs : 0;
	x->p50_1_ns = lat_hist_percentile(cr->h, 50.0);
	x->p99_1_ns = lat_hist_percentile(cr->h, 99.0);
	p->nrep++;
	return 0;
}

/* The point's figures over its repeats. */
static void summarise(struct cache_point *p)
{
	const struct cache_rep *x = &p->rep[0];

	p->iops32 = p->iops32_lo = p->iops32_hi = x->iops32;
	p->p50_1_ns = p->p50_1_lo_ns = p->p50_1_hi_ns = (double)x->p50_1_ns;
	p->p99_1_ns = (double)x->p99_1_ns;
	p->cpu_share = x->q32.secs > 0 ? x->q32.cpu_s / x->q32.secs : NAN;
}

void cache_cliff(struct cache_run *cr, struct cache_result *r)
{
	const struct cache_spec *sp = cr->sp;
	char err[200] = "";

	for (unsigned i = 0; i < sp->nsizes && r->npoints < CACHE_MAX_SIZES; i++) {
		struct cache_point *p = &r->points[r->npoints];
		uint64_t size = sp->sizes[i], room = cache_fit(cr->avail) + cr->have;
		int rc;

		p->size = size;
		if (size > room) {
			p->status = BENCH_SKIP;
			snprintf(p->reason, sizeof(p->reason), "%llu MiB free after the margin: less than %llu MiB",
				 (unsigned long long)(room / CACHE_MiB), (unsigned long long)(size / CACHE_MiB));
			r->npoints++;
			break;
		}
		if (mono_ns() + 2 * sp->point_ns > cr->cliff_end) {
			/* the cliff's share of the cap ran out before its last size: partial */
			r->time_capped = true;
			break;
		}
		r->npoints++;
		rc = cache_seq_io(cr, cr->have, size, true, cr->cliff_end, err, sizeof(err));
		if (rc == 0)
			rc = cache_seq_io(cr, 0, size, false, cr->cliff_end, err, sizeof(err));
		if (rc != 0) {
			p->status = rc > 0 ? BENCH_INCOMPLETE : BENCH_FAIL;
			snprintf(p->reason, sizeof(p->reason), "%.150s", rc > 0 ? "time cap during layout" : err);
			r->time_capped |= rc > 0;
			break;
		}
		cr->have = size;
		if (measure(cr, p, err, sizeof(err)) < 0) {
			p->status = BENCH_FAIL;
			snprintf(p->reason, sizeof(p->reason), "%.150s", err);
			break;
		}
		summarise(p);
		snprintf(r->engine, sizeof(r->engine), "%s", p->rep[0].q32.engine);
		r->depth = p->rep[0].q32.depth;
		p->status = bench_stopped(cr->ctx) ? BENCH_INCOMPLETE : BENCH_OK;
		r->measured_up_to = size;
		if (bench_stopped(cr->ctx))
			break;
	}
	{
		double v[CACHE_MAX_SIZES];
		unsigned n = 0;

		while (n < r->npoints && r->points[n].status == BENCH_OK) {
			v[n] = r->points[n].iops32;
			n++;
		}
		r->knee = cache_knee(v, n);
		r->knee_by = r->knee >= 0 ? CACHE_KNEE_IOPS : CACHE_KNEE_NONE;
	}
}
