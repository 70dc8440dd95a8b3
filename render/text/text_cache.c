/*
 * text_cache.c — the storage profile's section: the cliff table, its
 * knee in words, and each write test's burst and sustained rates.
 */
#include <stdio.h>

#include "render/render.h"

static double mib(uint64_t b) { return (double)b / (double)(1ULL << 20); }
static double gib(uint64_t b) { return (double)b / (double)(1ULL << 30); }

/* Seconds as the test ran them: under 10 s with a decimal. */
static void secs_str(char *s, size_t len, double secs)
{
	snprintf(s, len, secs < 1 ? "%.2f s" : secs < 10 ? "%.1f s" : "%.0f s", secs);
}

/* One write test: burst, drop (the last change), floor, region, engine, recovery, advice. */
static void burst(FILE *f, const char *label, const struct cache_burst *b)
{
	char t[24];

	if (b->status == BENCH_NOT_RUN)
		return;
	if ((b->status != BENCH_OK && b->status != BENCH_INCOMPLETE) || !b->bytes) {
		fprintf(f, "  %-20s %s%s%s\n", label, bench_status_name(b->status),
			b->reason[0] ? ": " : "", b->reason);
		return;
	}
	secs_str(t, sizeof(t), b->secs);
	if (!b->found) {
		fprintf(f, "  %-20s %.1f MB/s for %s / %.2f GiB, no drop%s%s\n", label, b->burst_bps / 1e6, t,
			gib(b->bytes), b->size_capped ? " (size cap)" : "",
			b->status == BENCH_INCOMPLETE ? " [incomplete]" : "");
	} else {
		double bs = b->burst_bps > 0 ? b->burst_bytes / b->burst_bps : 0;

		fprintf(f, "  %-20s burst %.1f MB/s for %.2f GiB", label, b->burst_bps / 1e6,
			b->burst_bytes / (double)(1ULL << 30));
		if (bs < 2 && b->nsub)
			fprintf(f, " (%.1f s, from %.0f ms samples)", bs, b->sub_dt * 1e3);
		fprintf(f, "; drop after %u s / %.2f GiB to a floor of %.1f MB/s%s\n", b->change_s,
			gib(b->change_bytes), b->sustained_bps / 1e6,
			b->recovered ? " (recovered at the end)" : ", did not recover");
	}
	fprintf(f, "  %-20s region %.2f GiB (%s); %s, depth %u\n", "", gib(b->region), b->region_why,
		b->io.engine[0] ? b->io.engine : "unknown", b->io.depth);
	if (b->rec.run)
		fprintf(f, "  %-20s recovery after %.0f s idle: %.1f MB/s (%.0f%% of the burst), %.2f GiB in %.0f s\n",
			"", b->rec.idle_s, b->rec.bps / 1e6, b->rec.share_of_burst * 100, gib(b->rec.bytes),
			b->rec.secs);
	if (b->suggestion[0])
		fprintf(f, "  %-20s %s\n", "", b->suggestion);
}

void text_cache(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct cache_result *r = &rep->cache;

	(void)st;
	fprintf(f, "\nStorage profile (%s)%s\n", r->dir,
		r->time_capped ? " [incomplete: --storage-max-time reached]" : "");
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
}
