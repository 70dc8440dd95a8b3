/*
 * text_cache.c — the storage profile's section: the cliff table, its
 * knee in words, and each write test's burst and sustained rates.
 */
#include <stdio.h>

#include "render/render.h"

static double mib(uint64_t b) { return (double)b / (double)(1ULL << 20); }
static double gib(uint64_t b) { return (double)b / (double)(1ULL << 30); }

static void burst(FILE *f, const char *label, const struct cache_burst *b)
{
	if (b->status == BENCH_NOT_RUN)
		return;
	if (b->status != BENCH_OK || !b->n) {
		fprintf(f, "  %-20s %s%s%s\n", label, bench_status_name(b->status),
			b->reason[0] ? ": " : "", b->reason);
		return;
	}
	if (!b->found) {
		fprintf(f, "  %-20s %.1f MB/s, sustained for %u s / %.2f GiB%s\n", label,
			b->burst_bps / 1e6, b->n, gib(b->bytes), b->size_capped ? " (size cap)" : "");
		return;
	}
	fprintf(f, "  %-20s burst %.1f MB/s for %.2f GiB, then %.1f MB/s from second %u%s\n", label,
		b->burst_bps / 1e6, b->burst_bytes / (double)(1ULL << 30), b->sustained_bps / 1e6,
		b->change_s, b->recovered ? " (recovered at the end)" : ", did not recover");
}

void text_cache(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct cache_result *r = &rep->cache;

	(void)st;
	fprintf(f, "\nStorage profile (%s, used %.1f s of the %.0f s cap)%s\n", r->dir, r->elapsed_s,
		(double)r->planned_ns / 1e9, r->time_capped ? " [incomplete: --storage-max-time reached]" : "");
	/* the engine and the depth qd32 really ran at: psync is depth 1, never qd32 */
	if (!r->engine[0])
		fprintf(f, "  engine unknown: no cliff size measured\n");
	else if (r->depth >= 32)
		fprintf(f, "  engine %s, qd%u\n", r->engine, r->depth);
	else
		fprintf(f, "  engine %s: depth %u, not qd32%s%s%s\n", r->engine, r->depth,
			r->engine_why[0] ? " (" : "", r->engine_why, r->engine_why[0] ? ")" : "");
	fprintf(f, "  %-10s %12s %12s %12s\n", "size", "qd32 IOPS", "qd1 p50 us", "qd1 p99 us");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *p = &r->points[i];

		if (p->status != BENCH_OK) {
			fprintf(f, "  %8.0fM  %s: %s\n", mib(p->size), bench_status_name(p->status), p->reason);
			continue;
		}
		fprintf(f, "  %8.0fM  %12.0f %12.1f %12.1f%s\n", mib(p->size), p->iops32,
			p->p50_1_ns / 1e3, p->p99_1_ns / 1e3,
			r->knee >= 0 && (int)i > r->knee ? "  device" : r->knee >= 0 ? "  cache" : "");
	}
	if (r->knee >= 0 && r->knee + 1 < (int)r->npoints) {
		const struct cache_point *k = &r->points[r->knee], *d = &r->points[r->knee + 1];

		fprintf(f, "  served from a cache up to ~%.2f GiB; beyond it: %.0f IOPS, p99 %.2f ms\n",
			gib(k->size), d->iops32, d->p99_1_ns / 1e6);
	} else if (r->measured_up_to) {
		fprintf(f, "  no cache effect up to %.2f GiB\n", gib(r->measured_up_to));
	}
	burst(f, "sequential write 1M", &r->seq);
	burst(f, "random write 4k", &r->rnd);
	if (r->fio_equivalent[0])
		fprintf(f, "  qd32 figure = %s\n", r->fio_equivalent);
}
