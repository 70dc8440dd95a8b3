/*
 * test_html_cache.c — the storage section of the HTML page
 * (render/html/html_cache.c) drawn from a known result: the knee marker
 * stands on the curve's point at the knee size (not a neighbour), on the
 * IOPS and the p99 chart, the medians with their range and repeats, the
 * figure that showed the knee, and the change-point marker and the burst and
 * sustained level lines stand at the result's second and rates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/html/html_chart.h"
#include "render/render.h"
#include "th.h"

/* the value of attribute name="..." in the first tag after s containing cls */
static double attr_after(const char *page, const char *cls, const char *name)
{
	const char *t = strstr(page, cls), *a, *end;
	char key[32];

	if (!t)
		return NAN;
	end = strchr(t, '>');
	snprintf(key, sizeof(key), " %s=\"", name);
	a = strstr(t, key);
	if (!a || (end && a > end))
		return NAN;
	return strtod(a + strlen(key), NULL);
}

/* x of point i of the polyline whose class contains cls */
static double poly_x(const char *page, const char *cls, unsigned i)
{
	const char *t = strstr(page, cls), *p;

	if (!t || !(p = strstr(t, "points=\"")))
		return NAN;
	p += strlen("points=\"");
	for (unsigned k = 0; k < i; k++) {
		p = strchr(p, ' ');
		if (!p)
			return NAN;
		p++;
	}
	return strtod(p, NULL);
}

static char *draw(const struct bench_report *rep)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	html_cache(f, rep);
	fclose(f);
	return buf;
}

static struct bench_report *cliff_report(void)
{
	static const double iops[] = { 200000, 196000, 190000, 9000, 8600, 8200 };
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct cache_result *r;

	if (!rep)
		return NULL;
	r = &rep->cache;
	snprintf(r->dir, sizeof(r->dir), "/srv");
	r->npoints = 6;
	for (unsigned i = 0; i < 6; i++) {
		struct cache_point *p = &r->points[i];

		p->size = (256ULL << 20) << i; /* 256M .. 8G */
		p->status = BENCH_OK;
		p->nrep = 3;
		for (unsigned j = 0; j < 3; j++) {
			p->rep[j].iops32 = iops[i] * (0.95 + 0.05 * j);
			p->rep[j].q32.ios = (uint64_t)(p->rep[j].iops32 * 2);
			p->rep[j].q32.secs = 2;
			p->rep[j].p50_1_ns = (i < 3 ? 60000 : 400000) + 1000 * j;
		}
		p->iops32 = iops[i];
		p->iops32_lo = iops[i] * 0.95;
		p->iops32_hi = iops[i] * 1.05;
		p->p50_1_ns = (i < 3 ? 60000 : 400000) + 1000;
		p->p50_1_lo_ns = p->p50_1_ns - 1000;
		p->p50_1_hi_ns = p->p50_1_ns + 1000;
		p->p99_1_ns = i < 3 ? 90000 : 2000000 + 10000 * i;
		p->cpu_share = i < 3 ? 0.95 : 0.2;
		p->cpu_bound = i < 3;
	}
	r->repeats = 3;
	snprintf(r->warm, sizeof(r->warm), "both");
	r->knee = 2; /* the last cache-served size: 1 GiB */
	r->knee_by = CACHE_KNEE_LAT;
	r->measured_up_to = r->points[5].size;
	return rep;
}

TH_TEST(cache_html_knee_marker_at_knee)
{
	struct bench_report *rep = cliff_report();
	char *page = rep ? draw(rep) : NULL;

	TH_CHECK(page != NULL);
	if (!page) {
		free(rep);
		return;
	}
	TH_CHECK(strstr(page, "<section id=\"storage\">") != NULL);
	for (int c = 0; c < 2; c++) {
		const char *chart = c ? "class=\"cliff cliff-p99\"" : "class=\"cliff cliff-iops\"";
		const char *poly = c ? "rd cl-p99" : "rd cl-iops";
		const char *sec = strstr(page, chart);
		double x, want, next;

		TH_CHECK(sec != NULL);
		if (!sec)
			continue;
		x = attr_after(sec, "class=\"avg knee\"", "x1");
		want = poly_x(sec, poly, (unsigned)rep->cache.knee);
		next = poly_x(sec, poly, (unsigned)rep->cache.knee + 1);
		/* on the knee's point, and not half-way to the next size */
		TH_NEAR(x, want, 0.05);
		TH_CHECK(fabs(x - next) > 10);
		TH_NEAR(attr_after(sec, "class=\"avg knee\"", "data-size"), (double)(1ULL << 30), 0.5);
	}
	/* which figure showed the knee, the medians with their range, the repeats, the CPU mark */
	TH_CHECK(strstr(page, "served from a cache up to ~1.00 GiB (seen in qd1 latency; qd32 IOPS showed none)") != NULL);
	TH_CHECK(strstr(page, "<td class=\"n\">190000 (180500&ndash;199500)</td>") != NULL);
	TH_CHECK(strstr(page, "<td class=\"n\">3</td><td>cache cpu-bound</td>") != NULL);
	TH_CHECK(strstr(page, "<td class=\"n\">3</td><td>device</td>") != NULL);
	TH_CHECK(strstr(page, "each size measured 3 times in interleaved rounds, warm pass both") != NULL);
	/* the IOPS whisker at the knee size: from its lowest to its highest repeat, on its point's x */
	{
		const char *sec = strstr(page, "class=\"cliff cliff-iops\"");
		const char *w = sec ? strstr(sec, "data-lo=\"180500\"") : NULL;

		TH_CHECK(w != NULL);
		while (w && w > sec && *w != '<')
			w--; /* the whisker's tag */
		if (w) {
			TH_NEAR(attr_after(w, "class=\"rd rng\"", "x1"), poly_x(sec, "rd cl-iops", 2), 0.05);
			TH_NEAR(attr_after(w, "class=\"rd rng\"", "data-hi"), 199500, 0.5);
		}
	}
	free(page);
	/* no knee: no marker, and the words say how far the curve went */
	rep->cache.knee = -1;
	page = draw(rep);
	TH_CHECK(page && !strstr(page, "avg knee"));
	TH_CHECK(page && strstr(page, "no cache effect up to 8.00 GiB"));
	free(page);
	free(rep);
}

TH_TEST(cache_html_change_point_marker)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct cache_burst *b;
	char *page;
	const char *sec;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	b = &rep->cache.seq;
	snprintf(b->kind, sizeof(b->kind), "seq-1m");
	b->status = BENCH_OK;
	b->n = 40;
	for (unsigned i = 0; i < 40; i++)
		b->tl[i] = i < 12 ? 800e6 : 150e6;
	b->found = true;
	b->change_s = 12;
	b->burst_bps = 800e6;
	b->sustained_bps = 150e6;
	b->burst_bytes = 12 * 800e6;
	b->change_bytes = 12 * 800000000ULL;
	b->bytes = b->change_bytes + 28 * 150000000ULL;
	b->secs = 40;
	b->region = 4ULL << 30;
	snprintf(b->region_why, sizeof(b->region_why), "past the knee: 4 GiB, the first size served by the device");
	page = draw(rep);
	TH_CHECK(page != NULL);
	sec = page ? strstr(page, "class=\"burst\"") : NULL;
	TH_CHECK(sec != NULL);
	if (sec) {
		/* second 11 is drawn at its end, 12: the drop's x */
		double x = attr_after(sec, "class=\"avg change\"", "x1");

		TH_NEAR(x, poly_x(sec, "wr tl-seq-1m", 11), 0.05);
		TH_NEAR(x, HTML_ML + 12.0 / 40 * (HTML_CW - HTML_ML - HTML_MR), 0.05);
		TH_NEAR(attr_after(sec, "class=\"avg lvl-burst\"", "data-mbps"), 800, 1e-6);
		TH_NEAR(attr_after(sec, "class=\"avg lvl-sustained\"", "data-mbps"), 150, 1e-6);
		TH_NEAR(attr_after(sec, "class=\"avg lvl-burst\"", "x2"), x, 0.05);
		TH_CHECK(strstr(page, "burst 800.0 MB/s for 8.94 GiB; drop after 12 s / 8.94 GiB to a floor of 150.0 MB/s") != NULL);
		/* the region written over, and why it is not the cache */
		TH_CHECK(strstr(page, "4.00 GiB (past the knee: 4 GiB, the first size served by the device)") != NULL);
		/* the floor is drawn from the last change to the end */
		TH_NEAR(attr_after(sec, "class=\"avg lvl-sustained\"", "x1"), x, 0.05);
	}
	free(page);
	free(rep);
}

/* The text section's cliff: medians with their range, repeats, marks, the figure that showed the knee, skipped sizes. */
TH_TEST(cache_text_cliff)
{
	struct bench_report *rep = cliff_report();
	struct cache_point *s;
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	s = &rep->cache.points[rep->cache.npoints++];
	s->size = 16ULL << 30;
	s->status = BENCH_SKIP;
	snprintf(s->reason, sizeof(s->reason), "not reached: time cap");
	f = open_memstream(&buf, &n);
	TH_CHECK(f != NULL);
	if (!f) {
		free(rep);
		return;
	}
	text_cache(f, rep, NULL);
	fclose(f);
	TH_CHECK(strstr(buf, "each size measured 3 times in interleaved rounds, warm pass both") != NULL);
	TH_CHECK(strstr(buf, "190000 (180k-200k)") != NULL);
	TH_CHECK(strstr(buf, "8600 (8.2k-9.0k)") != NULL);
	TH_CHECK(strstr(buf, "3  cache  cpu-bound\n") != NULL);
	TH_CHECK(strstr(buf, "3  device\n") != NULL);
	TH_CHECK(strstr(buf, "served from a cache up to ~1.00 GiB (seen in qd1 latency; qd32 IOPS flat, "
			     "the loop CPU-bound); beyond it: 9000 IOPS") != NULL);
	TH_CHECK(strstr(buf, "16384M  skipped: not reached: time cap\n") != NULL);
	free(buf);
	rep->cache.knee_by = CACHE_KNEE_BOTH;
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (f) {
		text_cache(f, rep, NULL);
		fclose(f);
		TH_CHECK(strstr(buf, "(seen in qd32 IOPS and qd1 latency)") != NULL);
		free(buf);
	}
	free(rep);
}

/* The engine row: the depth qd32 really ran at, and why it was not 32 (psync is depth 1). */
TH_TEST(cache_html_engine_row)
{
	struct bench_report *rep = cliff_report();
	char *page;

	if (!rep)
		return;
	snprintf(rep->cache.engine, sizeof(rep->cache.engine), "io_uring");
	rep->cache.depth = 32;
	page = draw(rep);
	TH_CHECK(page && strstr(page, "<th>Engine</th><td>io_uring, qd32</td>"));
	free(page);
	snprintf(rep->cache.engine, sizeof(rep->cache.engine), "psync");
	rep->cache.depth = 1;
	snprintf(rep->cache.engine_why, sizeof(rep->cache.engine_why), "io_uring: EPERM; libaio: ENOSYS");
	page = draw(rep);
	TH_CHECK(page && strstr(page, "<th>Engine</th><td>psync: depth 1, not qd32 (io_uring: EPERM; libaio: ENOSYS)"));
	free(page);
	free(rep);
}
