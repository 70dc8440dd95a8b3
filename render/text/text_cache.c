/*
 * text_cache.c — the storage profile's section: the cliff table, its
 * knee in words, and each write test's burst and sustained rates.
 */
#include <stdbool.h>
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

/* 61200 -> "61k", 5400 -> "5.4k", 950 -> "950": a range short enough for the table */
static void kfmt(char *b, size_t n, double v)
{
	if (v >= 9999.5)
		snprintf(b, n, "%.0fk", v / 1e3);
	else if (v >= 999.5)
		snprintf(b, n, "%.1fk", v / 1e3);
	else
		snprintf(b, n, "%.0f", v);
}

/* Which figure showed the knee, and what the other did. */
static const char *knee_by_words(const struct cache_result *r)
{
	bool cpu = false;

	for (unsigned i = 0; i < r->npoints; i++)
		cpu |= r->points[i].nrep && r->points[i].cpu_bound;
	switch (r->knee_by) {
	case CACHE_KNEE_BOTH:
		return "seen in qd32 IOPS and qd1 latency";
	case CACHE_KNEE_LAT:
		return cpu ? "seen in qd1 latency; qd32 IOPS flat, the loop CPU-bound" :
			     "seen in qd1 latency; qd32 IOPS showed none (a cap on IOPS hides it)";
	case CACHE_KNEE_IOPS:
		return "seen in qd32 IOPS; qd1 latency showed none";
	default:
		return "";
	}
}

/* The cliff table (medians over the repeats, the IOPS range), its marks, the knee in words. */
static void cliff(FILE *f, const struct cache_result *r)
{
	fprintf(f, "  cliff: each size measured %u times in interleaved rounds, warm pass %s; medians\n",
		r->repeats, r->warm[0] ? r->warm : "seq");
	fprintf(f, "  %-10s %-22s %11s %11s %5s\n", "size", "qd32 IOPS (range)", "qd1 p50 us", "qd1 p99 us",
		"runs");
	for (unsigned i = 0; i < r->npoints; i++) {
		const struct cache_point *p = &r->points[i];
		char rng[64], lo[16], hi[16];

		if (!p->nrep) {
			fprintf(f, "  %8.0fM  %s: %s\n", mib(p->size), bench_status_name(p->status), p->reason);
			continue;
		}
		kfmt(lo, sizeof(lo), p->iops32_lo);
		kfmt(hi, sizeof(hi), p->iops32_hi);
		snprintf(rng, sizeof(rng), "%.0f (%s-%s)", p->iops32, lo, hi);
		fprintf(f, "  %8.0fM  %-22s %11.1f %11.1f %5u%s%s%s%s\n", mib(p->size), rng, p->p50_1_ns / 1e3,
			p->p99_1_ns / 1e3, p->nrep,
			r->knee >= 0 && (int)i > r->knee ? "  device" : r->knee >= 0 ? "  cache" : "",
			p->cpu_bound ? "  cpu-bound" : "", p->status != BENCH_OK ? "  " : "",
			p->status != BENCH_OK ? p->reason : "");
	}
	if (r->knee >= 0 && r->knee + 1 < (int)r->npoints && r->points[r->knee + 1].nrep) {
		const struct cache_point *k = &r->points[r->knee], *d = &r->points[r->knee + 1];

		fprintf(f, "  served from a cache up to ~%.2f GiB (%s); beyond it: %.0f IOPS, p50 %.1f us, "
			"p99 %.2f ms\n", gib(k->size), knee_by_words(r), d->iops32, d->p50_1_ns / 1e3,
			d->p99_1_ns / 1e6);
	} else if (r->measured_up_to) {
		fprintf(f, "  no cache effect up to %.2f GiB (no split beyond the repeats' spread in qd32 IOPS "
			"or qd1 latency)\n", gib(r->measured_up_to));
	}
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
	cliff(f, r);
	burst(f, "sequential write 1M", &r->seq);
	burst(f, "random write 4k", &r->rnd);
	if (r->fio_equivalent[0])
		fprintf(f, "  qd32 figure = %s\n", r->fio_equivalent);
}
