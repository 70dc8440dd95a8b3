/*
 * test_place.c — the placement engine (grade/place*.c): the mid-rank
 * percentile and the type 7 ladder at their boundaries, the filter options,
 * the filters' counts on the compiled-in tables against counts made here
 * from pub_table_decode and pub_runs (not through place.c), the "not
 * placed: why" rules, and a run and its own JSON report placing alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/plan.h"
#include "grade/place.h"
#include "render/render.h"
#include "report/report.h"
#include "th.h"

/* ---- the rank and the ladder ---- */

TH_TEST(place_percentile_bounds)
{
	const double s[] = { 10, 20, 20, 30 };
	unsigned b, e;

	TH_NEAR(place_percentile(s, 4, 5, &b, &e), 0, 0);        /* below the minimum */
	TH_EQ_INT(b, 0);
	TH_EQ_INT(e, 0);
	TH_NEAR(place_percentile(s, 4, 35, &b, &e), 100, 0);     /* above the maximum */
	TH_EQ_INT(b, 4);
	TH_EQ_INT(e, 0);
	TH_NEAR(place_percentile(s, 4, 10, &b, &e), 12.5, 1e-12); /* the unique minimum */
	TH_EQ_INT(b, 0);
	TH_EQ_INT(e, 1);
	TH_NEAR(place_percentile(s, 4, 30, &b, &e), 87.5, 1e-12); /* the unique maximum */
	TH_NEAR(place_percentile(s, 4, 20, &b, &e), 50, 1e-12);   /* a tie shares its middle */
	TH_EQ_INT(b, 1);
	TH_EQ_INT(e, 2);
	TH_NEAR(place_percentile(s, 4, 25, &b, &e), 75, 1e-12);   /* between values */
	TH_EQ_INT(b, 3);
	TH_EQ_INT(e, 0);
}

TH_TEST(place_percentile_one_row)
{
	const double s[] = { 7 };
	unsigned b = 9, e = 9;

	TH_NEAR(place_percentile(s, 1, 7, &b, &e), 50, 0);
	TH_EQ_INT(b, 0);
	TH_EQ_INT(e, 1);
	TH_NEAR(place_percentile(s, 1, 6.99, NULL, NULL), 0, 0);
	TH_NEAR(place_percentile(s, 1, 7.01, NULL, NULL), 100, 0);
	TH_CHECK(isnan(place_percentile(s, 0, 7, &b, &e)));
	TH_EQ_INT(b, 0);
	TH_EQ_INT(e, 0);
}

TH_TEST(place_quantile_type7)
{
	const double one[] = { 7 }, five[] = { 1, 2, 3, 4, 5 }, four[] = { 10, 20, 30, 40 };

	TH_NEAR(place_quantile(one, 1, 0.1), 7, 0);
	TH_NEAR(place_quantile(one, 1, 0.9), 7, 0);
	TH_CHECK(isnan(place_quantile(one, 0, 0.5)));
	/* h = (n - 1) p on an order statistic: exact */
	TH_NEAR(place_quantile(five, 5, 0.25), 2, 0);
	TH_NEAR(place_quantile(five, 5, 0.50), 3, 0);
	TH_NEAR(place_quantile(five, 5, 0.75), 4, 0);
	TH_NEAR(place_quantile(five, 5, 0.0), 1, 0);
	TH_NEAR(place_quantile(five, 5, 1.0), 5, 0);
	/* between: linear, h = 0.3 -> 13, h = 1.5 -> 25, h = 2.7 -> 37 */
	TH_NEAR(place_quantile(four, 4, 0.10), 13, 1e-9);
	TH_NEAR(place_quantile(four, 4, 0.50), 25, 1e-9);
	TH_NEAR(place_quantile(four, 4, 0.90), 37, 1e-9);
	TH_NEAR(place_quantile(five, 5, 0.10), 1.4, 1e-12);
}

/* ---- the filter options ---- */

TH_TEST(place_filter_args_good)
{
	struct place_filter f;
	char err[256] = "";
	char txt[160];

	place_filter_default(&f);
	TH_EQ_INT(f.kind, PUB_KIND_VPS);
	TH_EQ_INT(f.min_n, 20);
	TH_CHECK(!f.per_machine && !f.include_cached);
	place_filter_text(&f, txt, sizeof(txt));
	TH_EQ_STR(txt, "kind vps, any vCPUs, all years, every run, cache-inflated runs left out");
	TH_EQ_INT(place_filter_arg(&f, "place-kind", "dedicated", err, sizeof(err)), 0);
	TH_EQ_INT(f.kind, PUB_KIND_DEDICATED);
	TH_EQ_INT(place_filter_arg(&f, "place-kind", "any", err, sizeof(err)), 0);
	TH_EQ_INT(f.kind, PUB_KIND_UNKNOWN);
	TH_EQ_INT(place_filter_arg(&f, "place-vcpus", "2-4", err, sizeof(err)), 0);
	TH_EQ_INT(f.vcpus_lo, 2);
	TH_EQ_INT(f.vcpus_hi, 4);
	TH_EQ_INT(place_filter_arg(&f, "place-years", "2023", err, sizeof(err)), 0);
	TH_EQ_INT(f.year_lo, 2023);
	TH_EQ_INT(f.year_hi, 2023);
	TH_EQ_INT(place_filter_arg(&f, "place-min-n", "5", err, sizeof(err)), 0);
	TH_EQ_INT(f.min_n, 5);
	TH_EQ_INT(place_filter_arg(&f, "place-per-machine", NULL, err, sizeof(err)), 0);
	TH_EQ_INT(place_filter_arg(&f, "place-include-cached", NULL, err, sizeof(err)), 0);
	TH_CHECK(f.per_machine && f.include_cached);
	place_filter_text(&f, txt, sizeof(txt));
	TH_EQ_STR(txt, "kind any, 2-4 vCPUs, year 2023, one run per machine, "
		  "cache-inflated runs kept");
	TH_EQ_INT(place_filter_arg(&f, "place-vcpus", "8", err, sizeof(err)), 0);
	TH_EQ_INT(f.vcpus_lo, 8);
	TH_EQ_INT(f.vcpus_hi, 8);
	TH_EQ_INT(place_filter_arg(&f, "place-years", "2021-2024", err, sizeof(err)), 0);
	TH_EQ_INT(f.year_lo, 2021);
	TH_EQ_INT(f.year_hi, 2024);
	TH_EQ_INT(place_filter_arg(&f, "place-vcpus", "any", err, sizeof(err)), 0);
	TH_EQ_INT(place_filter_arg(&f, "place-years", "any", err, sizeof(err)), 0);
	TH_EQ_INT(f.vcpus_lo + f.vcpus_hi + f.year_lo + f.year_hi, 0);
	TH_EQ_INT(place_filter_arg(&f, "place-min-n", "1000", err, sizeof(err)), 0);
	TH_EQ_INT(f.min_n, 1000);
	TH_EQ_STR(err, "");
}

/* The value is refused with one line naming the option, and f is unchanged. */
static void bad_arg(const char *name, const char *val, const char *line)
{
	struct place_filter f, before;
	char err[256] = "";

	place_filter_default(&f);
	before = f;
	if (place_filter_arg(&f, name, val, err, sizeof(err)) != -1)
		th_fail(__FILE__, __LINE__, "--%s %s accepted", name, val);
	TH_EQ_STR(err, line);
	TH_CHECK(!strchr(err, '\n'));
	TH_CHECK(memcmp(&f, &before, sizeof(f)) == 0);
}

TH_TEST(place_filter_args_bad)
{
	bad_arg("place-kind", "cloud", "--place-kind takes vps, dedicated or any, not 'cloud'");
	bad_arg("place-kind", "", "--place-kind takes vps, dedicated or any, not ''");
	bad_arg("place-vcpus", "4-2", "--place-vcpus takes N, N-M (1-255, N <= M) or any, not '4-2'");
	bad_arg("place-vcpus", "0", "--place-vcpus takes N, N-M (1-255, N <= M) or any, not '0'");
	bad_arg("place-vcpus", "2-", "--place-vcpus takes N, N-M (1-255, N <= M) or any, not '2-'");
	bad_arg("place-vcpus", "-2", "--place-vcpus takes N, N-M (1-255, N <= M) or any, not '-2'");
	bad_arg("place-vcpus", "4x", "--place-vcpus takes N, N-M (1-255, N <= M) or any, not '4x'");
	bad_arg("place-years", "1999", "--place-years takes Y, Y-Y (2000-2099, first <= last) "
		"or any, not '1999'");
	bad_arg("place-years", "2100", "--place-years takes Y, Y-Y (2000-2099, first <= last) "
		"or any, not '2100'");
	bad_arg("place-years", "2025-2024", "--place-years takes Y, Y-Y (2000-2099, first <= "
		"last) or any, not '2025-2024'");
	bad_arg("place-min-n", "0", "--place-min-n takes a whole number from 1 to 1000, not '0'");
	bad_arg("place-min-n", "1001", "--place-min-n takes a whole number from 1 to 1000, "
		"not '1001'");
	bad_arg("place-min-n", "ten", "--place-min-n takes a whole number from 1 to 1000, "
		"not 'ten'");
	bad_arg("place-min-n", "+5", "--place-min-n takes a whole number from 1 to 1000, not '+5'");
}

TH_TEST(place_filter_from_opts_strings)
{
	static struct bench_opts o;
	struct place_filter f;
	char err[256] = "";

	memset(&o, 0, sizeof(o));
	TH_EQ_INT(place_filter_from_opts(&o, &f, err, sizeof(err)), 0);
	TH_EQ_INT(f.kind, PUB_KIND_VPS);
	TH_EQ_INT(f.min_n, PLACE_MIN_N_DEFAULT);
	o.place_kind = "any";
	o.place_vcpus = "1-2";
	o.place_years = "2022-2026";
	o.place_min_n = "7";
	o.place_per_machine = true;
	TH_EQ_INT(place_filter_from_opts(&o, &f, err, sizeof(err)), 0);
	TH_EQ_INT(f.kind, PUB_KIND_UNKNOWN);
	TH_EQ_INT(f.vcpus_hi, 2);
	TH_EQ_INT(f.year_lo, 2022);
	TH_EQ_INT(f.min_n, 7);
	TH_CHECK(f.per_machine && !f.include_cached);
	o.place_years = "2026-2022";
	TH_EQ_INT(place_filter_from_opts(&o, &f, err, sizeof(err)), -1);
	TH_EQ_STR(err, "--place-years takes Y, Y-Y (2000-2099, first <= last) or any, "
		  "not '2026-2022'");
}

/* ---- the filters on the real tables, counted here ---- */

/* Rows of t under f, counted without place.c; v (may be NULL) gets them ascending. */
static unsigned count_rows(const struct pub_table *t, const struct place_filter *f,
			   double *v, unsigned *cached_out, unsigned *undated)
{
	struct pub_entry *e = calloc((size_t)t->n + 1, sizeof(*e));
	unsigned n = 0, co = 0, ud = 0;
	int got = e ? pub_table_decode(t, e, t->n) : -1;

	TH_EQ_INT(got, t->n);
	for (int i = 0; i < got; i++) {
		const struct pub_run *r = &pub_runs[e[i].run];
		unsigned year = r->year ? 2000u + r->year : 0;

		if (f->kind != PUB_KIND_UNKNOWN && r->kind != (unsigned)f->kind)
			continue;
		if (f->vcpus_hi && !(r->vcpus >= f->vcpus_lo && r->vcpus <= f->vcpus_hi))
			continue;
		if (f->year_hi && !(year >= f->year_lo && year <= f->year_hi))
			continue;
		if (f->per_machine && !e[i].first_of_machine)
			continue;
		if (t->set == PUB_SET_YABS_DISK && r->cached && !f->include_cached) {
			co++;
			continue;
		}
		if (!year)
			ud++;
		if (v)
			v[n] = e[i].value;
		n++;
	}
	free(e);
	if (cached_out)
		*cached_out = co;
	if (undated)
		*undated = ud;
	return n;
}

static void filters_under_test(struct place_filter fs[6])
{
	char err[256];

	for (int i = 0; i < 6; i++)
		place_filter_default(&fs[i]);
	place_filter_arg(&fs[1], "place-kind", "any", err, sizeof(err));
	place_filter_arg(&fs[2], "place-kind", "dedicated", err, sizeof(err));
	place_filter_arg(&fs[3], "place-vcpus", "2-4", err, sizeof(err));
	/* from 2000: an undated run (year 0) must still be left out */
	place_filter_arg(&fs[4], "place-years", "2000-2023", err, sizeof(err));
	place_filter_arg(&fs[5], "place-per-machine", NULL, err, sizeof(err));
	place_filter_arg(&fs[5], "place-include-cached", NULL, err, sizeof(err));
	place_filter_arg(&fs[5], "place-kind", "any", err, sizeof(err));
}

TH_TEST(place_population_counts)
{
	static struct place_pop pop;
	struct place_filter fs[6];
	unsigned checked = 0, some_cached = 0, diff_kind = 0;

	TH_CHECK(pub_ntables > 0);
	filters_under_test(fs);
	for (int k = 0; k < 6; k++) {
		place_population(&fs[k], &pop);
		TH_EQ_INT(pop.ntables, pub_ntables < PLACE_MAX_POP ? pub_ntables : PLACE_MAX_POP);
		for (unsigned i = 0; i < pop.ntables; i++) {
			const struct pub_table *t = &pub_tables[i];
			unsigned co, ud, n = count_rows(t, &fs[k], NULL, &co, &ud);

			TH_CHECK(pop.table[i].t == t);
			if (pop.table[i].d.n != n || pop.table[i].d.cached_out != co ||
			    pop.table[i].d.undated != ud)
				th_fail(__FILE__, __LINE__, "filter %d, table %s bs %u %s: n %u/%u, "
					"cached out %u/%u, undated %u/%u", k, t->metric, t->bs,
					t->server ? t->server : "", pop.table[i].d.n, n,
					pop.table[i].d.cached_out, co, pop.table[i].d.undated, ud);
			some_cached += co;
			checked++;
		}
	}
	/* the default leaves the cache-inflated fio runs out: some exist */
	TH_CHECK(some_cached > 0);
	/* kind any keeps more than kind vps in some table */
	place_population(&fs[0], &pop);
	for (unsigned i = 0; i < pop.ntables; i++)
		if (count_rows(&pub_tables[i], &fs[1], NULL, NULL, NULL) > pop.table[i].d.n)
			diff_kind++;
	TH_CHECK(diff_kind > 0);
	TH_CHECK(checked > 0);
}

/* The ladder of a population table equals type 7 on rows counted here. */
TH_TEST(place_population_ladder)
{
	static struct place_pop pop;
	struct place_filter f;
	const struct pub_table *t = pub_table_find(PLACE_M_FIO_IOPS, 4096, NULL, NULL, NULL);
	double *v;
	unsigned n;

	TH_CHECK(t != NULL);
	if (!t)
		return;
	place_filter_default(&f);
	v = calloc((size_t)t->n + 1, sizeof(*v));
	n = count_rows(t, &f, v, NULL, NULL);
	place_population(&f, &pop);
	for (unsigned i = 0; i < pop.ntables; i++) {
		double h, want;
		unsigned lo;

		if (pop.table[i].t != t)
			continue;
		TH_EQ_INT(pop.table[i].d.n, n);
		TH_CHECK(n > 20);
		/* p25 by hand: h = (n - 1) / 4 */
		h = (n - 1) * 0.25;
		lo = (unsigned)h;
		want = v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
		TH_NEAR(pop.table[i].d.q[1], want, 1e-9);
		TH_NEAR(pop.table[i].d.min, v[0], 0);
		TH_NEAR(pop.table[i].d.max, v[n - 1], 0);
	}
	free(v);
}

/* ---- compute: placed, and not placed with why ---- */

static const struct place_item *item_of(const struct place_result *r, const char *metric,
					uint32_t bs)
{
	for (unsigned i = 0; i < r->nitems; i++)
		if (!strcmp(r->item[i].metric, metric) && r->item[i].bs == bs)
			return &r->item[i];
	return NULL;
}

/* The largest iperf3 table: a server, location and family with rows. */
static const struct pub_table *big_net_table(void)
{
	const struct pub_table *best = NULL;

	for (unsigned i = 0; i < pub_ntables; i++)
		if (!strcmp(pub_tables[i].metric, PLACE_M_NET_SEND) &&
		    (!best || pub_tables[i].n > best->n))
			best = &pub_tables[i];
	return best;
}

static void yabs_input(struct place_input *in)
{
	static const uint32_t bs[4] = { 1u << 20, 4096, 512u << 10, 64u << 10 };
	const struct pub_table *nt = big_net_table();

	memset(in, 0, sizeof(*in));
	snprintf(in->profile, sizeof(in->profile), "yabs");
	in->rand_ran = true;
	in->nfio = 4;
	for (int i = 0; i < 4; i++) {
		in->fio[i].bs = bs[i];
		in->fio[i].iops = mdbl_of(50000.0 / (i + 1));
		in->fio[i].mbps = mdbl_of(400.0 + i);
		in->fio[i].runtime_ms = 30000 + 150 * (unsigned)i;  /* measured: 30.45 s is 30 s */
		in->fio[i].size_bytes = 2ull << 30;
	}
	in->cpu_ran = true;
	in->max_prime = 10000;
	in->cpu_1t = mdbl_of(1100);
	in->cpu_all = mdbl_of(2150);
	in->cpu_threads = 2;
	in->seq_ran = true;
	in->dd_mbps = mdbl_of(850);
	in->seq_bs = 512u << 10;
	in->seq_size = 1ull << 30;
	in->seq_runs = 3;
	in->seq_zero = true;
	in->net_ran = true;
	in->net_streams = 8;
	if (nt) {
		in->nnet = 1;
		snprintf(in->net[0].server, sizeof(in->net[0].server), "%s", nt->server);
		snprintf(in->net[0].location, sizeof(in->net[0].location), "%s", nt->location);
		in->net[0].family = !strcmp(nt->family, "IPv6") ? 6 : 4;
		in->net[0].send_mbits = mdbl_of(900);
		snprintf(in->net[0].why_recv, sizeof(in->net[0].why_recv), "busy on 3 tries");
	}
}

/* it is placed as counted here under f: n, below, equal, percentile. */
static void check_placed_as_counted(const struct place_item *it, const struct place_filter *f,
				    const struct pub_table *t)
{
	double *v;
	unsigned n, below = 0, equal = 0;

	TH_CHECK(it && t);
	if (!it || !t)
		return;
	v = calloc((size_t)t->n + 1, sizeof(*v));
	n = count_rows(t, f, v, NULL, NULL);
	for (unsigned i = 0; i < n; i++) {
		below += v[i] < it->value.v;
		equal += v[i] == it->value.v;
	}
	if (n >= f->min_n) {
		TH_CHECK(it->placed);
		TH_EQ_INT(it->d.n, n);
		TH_EQ_INT(it->below, below);
		TH_EQ_INT(it->equal, equal);
		TH_NEAR(it->pct, 100.0 * (below + equal / 2.0) / n, 1e-9);
		TH_NEAR(it->d.min, v[0], 0);
		TH_NEAR(it->d.max, v[n - 1], 0);
		TH_EQ_STR(it->unit, t->unit);
	} else {
		char why[192];

		snprintf(why, sizeof(why), "%u published rows match the filter (minimum %u)", n,
			 f->min_n);
		TH_CHECK(!it->placed);
		TH_EQ_STR(it->why, why);
	}
	free(v);
}

TH_TEST(place_compute_yabs)
{
	static struct place_input in;
	static struct place_result r;
	struct place_filter f;
	const struct pub_table *nt = big_net_table();
	static const char *const want[] = {
		"4k total IOPS", "4k total MB/s", "64k total IOPS", "64k total MB/s",
		"512k total IOPS", "512k total MB/s", "1m total IOPS", "1m total MB/s",
		"1 thread", "all threads (2)", "dd write 1 GiB" };

	yabs_input(&in);
	place_filter_default(&f);
	place_compute(&in, &f, &r);
	TH_CHECK(r.ran);
	TH_EQ_STR(r.rand_note, "");
	TH_EQ_STR(r.filter_text, "kind vps, any vCPUs, all years, every run, "
		  "cache-inflated runs left out");
	TH_CHECK(r.source == pub_source);
	TH_EQ_INT(r.nitems, 11 + (nt ? 2 : 0));
	for (unsigned i = 0; i < 11 && i < r.nitems; i++)
		TH_EQ_STR(r.item[i].label, want[i]);
	TH_EQ_INT(r.item[0].bs, 4096);
	TH_EQ_STR(r.item[0].metric, PLACE_M_FIO_IOPS);
	TH_EQ_STR(r.item[1].metric, PLACE_M_FIO_MBPS);
	TH_NEAR(r.item[0].value.v, 50000.0 / 2, 0);      /* the 4k pass was second in */
	for (unsigned i = 0; i < 8; i++) {
		const struct place_item *it = &r.item[i];

		check_placed_as_counted(it, &f, pub_table_find(it->metric, it->bs, NULL, NULL,
							       NULL));
		TH_EQ_STR(it->note, "");   /* 30 s on 2 GiB: yabs's own */
	}
	check_placed_as_counted(&r.item[8], &f, pub_table_find(PLACE_M_CPU_1T, 0, 0, 0, 0));
	check_placed_as_counted(&r.item[9], &f, pub_table_find(PLACE_M_CPU_ALL, 0, 0, 0, 0));
	check_placed_as_counted(&r.item[10], &f, pub_table_find(PLACE_M_DD, 0, 0, 0, 0));
	TH_EQ_STR(r.item[10].note, "");            /* zeros in 512K blocks: bench.sh's shape */
	if (nt) {
		char label[256];

		snprintf(label, sizeof(label), "%s %s %s send", nt->server, nt->location,
			 nt->family);
		TH_EQ_STR(r.item[11].label, label);
		TH_EQ_STR(r.item[11].family, nt->family);
		check_placed_as_counted(&r.item[11], &f, nt);
		TH_EQ_STR(r.item[12].metric, PLACE_M_NET_RECV);
		TH_CHECK(!r.item[12].placed);
		TH_EQ_STR(r.item[12].why, "busy on 3 tries");
		TH_CHECK(!r.item[12].value.ok);
	}
	/* ladder order */
	for (unsigned i = 0; i < r.nitems; i++)
		if (r.item[i].placed)
			for (int k = 1; k < PLACE_NQ; k++)
				TH_CHECK(r.item[i].d.q[k - 1] <= r.item[i].d.q[k]);
}

TH_TEST(place_compute_filters_placed_as_counted)
{
	static struct place_input in;
	static struct place_result r;
	struct place_filter fs[6];

	yabs_input(&in);
	filters_under_test(fs);
	for (int k = 0; k < 6; k++) {
		fs[k].min_n = 1;
		place_compute(&in, &fs[k], &r);
		for (unsigned i = 0; i < r.nitems; i++) {
			const struct place_item *it = &r.item[i];

			if (!it->value.ok)
				continue;
			check_placed_as_counted(it, &fs[k], pub_table_find(it->metric, it->bs,
				it->server[0] ? it->server : NULL, it->server[0] ? it->location : NULL,
				it->server[0] ? it->family : NULL));
		}
	}
}

TH_TEST(place_compute_min_n)
{
	static struct place_input in;
	static struct place_result r;
	struct place_filter f;
	const struct pub_table *t = pub_table_find(PLACE_M_FIO_IOPS, 4096, NULL, NULL, NULL);
	char why[192];
	const struct place_item *it;

	yabs_input(&in);
	place_filter_default(&f);
	f.min_n = 1000;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_FIO_IOPS, 4096);
	TH_CHECK(it && t);
	if (!it || !t)
		return;
	snprintf(why, sizeof(why), "%u published rows match the filter (minimum 1000)",
		 count_rows(t, &f, NULL, NULL, NULL));
	TH_CHECK(!it->placed);
	TH_EQ_STR(it->why, why);
	TH_EQ_INT(it->d.n, 0);
	TH_CHECK(isnan(it->pct));
	TH_CHECK(it->value.ok);     /* the figure is still shown */
	/* the boundary: n rows place with minimum n, not with n + 1 */
	place_filter_default(&f);
	f.min_n = count_rows(t, &f, NULL, NULL, NULL);
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_FIO_IOPS, 4096);
	TH_CHECK(it && it->placed && it->d.n == f.min_n);
	f.min_n++;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_FIO_IOPS, 4096);
	TH_CHECK(it && !it->placed);
	snprintf(why, sizeof(why), "%u published rows match the filter (minimum %u)",
		 f.min_n - 1, f.min_n);
	if (it)
		TH_EQ_STR(it->why, why);
	/* a filter no row passes */
	place_filter_default(&f);
	f.year_lo = f.year_hi = 2099;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_CPU_1T, 0);
	TH_CHECK(it && !it->placed);
	if (it)
		TH_EQ_STR(it->why, "0 published rows match the filter (minimum 20)");
}

TH_TEST(place_compute_workload_differs)
{
	static struct place_input in;
	static struct place_result r;
	struct place_filter f;
	const struct place_item *it;

	place_filter_default(&f);
	f.min_n = 1;
	/* max_prime 10000 places, 20000 does not */
	yabs_input(&in);
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_CPU_1T, 0);
	TH_CHECK(it && it->placed);
	in.max_prime = 20000;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_CPU_1T, 0);
	TH_CHECK(it && !it->placed);
	if (it)
		TH_EQ_STR(it->why, "max_prime 20000: the published sysbench lines count primes "
			  "below 10000 (sysbench's default)");
	it = item_of(&r, PLACE_M_CPU_ALL, 0);
	TH_CHECK(it && !it->placed && strstr(it->why, "max_prime 20000"));
	/* 8 streams place, 4 do not */
	yabs_input(&in);
	if (in.nnet) {
		place_compute(&in, &f, &r);
		TH_CHECK(r.item[11].placed);
		in.net_streams = 4;
		place_compute(&in, &f, &r);
		TH_CHECK(!r.item[11].placed);
		TH_EQ_STR(r.item[11].why, "4 streams; yabs's iperf3 runs -P 8 (--net-streams 8)");
	}
	/* O_DIRECT seq: not bench.sh's dd */
	yabs_input(&in);
	in.seq_direct = true;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	TH_CHECK(it && !it->placed);
	if (it)
		TH_EQ_STR(it->why, "written with O_DIRECT (--seq-direct); bench.sh's dd writes "
			  "through the page cache and ends with fdatasync");
	/* 512 MiB a run: not bench.sh's 1 GiB */
	yabs_input(&in);
	in.seq_size = 512ull << 20;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	TH_CHECK(it && !it->placed);
	if (it)
		TH_EQ_STR(it->why, "512 MiB a run; bench.sh's dd writes 1 GiB a run (512K x 2048): "
			  "--seq-size 1G runs its size");
	/* vpsbench's default seq shape: placed, with the note */
	yabs_input(&in);
	in.seq_zero = false;
	in.seq_bs = 64u << 10;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	TH_CHECK(it && it->placed);
	if (it)
		TH_EQ_STR(it->note, "random data in 64K writes; bench.sh's dd writes zeros in 512K "
			  "blocks (--seq-bs 512K --zero-fill runs its exact shape)");
	in.seq_zero = true;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	if (it)
		TH_EQ_STR(it->note, "64K writes; bench.sh's dd writes 512K blocks (--seq-bs 512K "
			  "runs its exact shape)");
	/* one run, not bench.sh's three: said after the shape */
	in.seq_runs = 1;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	TH_CHECK(it && it->placed);
	if (it)
		TH_EQ_STR(it->note, "64K writes; bench.sh's dd writes 512K blocks (--seq-bs 512K "
			  "runs its exact shape); 1 run; bench.sh averages 3 (--seq-runs 3)");
	in.seq_bs = 512u << 10;
	in.seq_runs = 5;
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_DD, 0);
	if (it)
		TH_EQ_STR(it->note, "5 runs; bench.sh averages 3 (--seq-runs 3)");
	/* a short yabs pass: placed, with the note */
	yabs_input(&in);
	for (int i = 0; i < 4; i++) {
		in.fio[i].runtime_ms = i == 1 ? 5049 : 5000;   /* measured: 5.049 s is 5 s */
		in.fio[i].size_bytes = 512ull << 20;
	}
	snprintf(in.fio[0].why, sizeof(in.fio[0].why), "buffered: O_DIRECT refused");
	place_compute(&in, &f, &r);
	it = item_of(&r, PLACE_M_FIO_MBPS, 4096);
	TH_CHECK(it && it->placed);
	if (it)
		TH_EQ_STR(it->note, "this run: 5 s on 512 MiB; yabs: 30 s on 2 GiB");
	it = item_of(&r, PLACE_M_FIO_IOPS, 1u << 20);
	TH_CHECK(it && !it->placed);
	if (it)
		TH_EQ_STR(it->why, "buffered: O_DIRECT refused");
	/* the all-threads note */
	it = item_of(&r, PLACE_M_CPU_ALL, 0);
	if (it)
		TH_EQ_STR(it->note, "2 threads (sysbench's all-threads line: its vCPU count)");
	/* a server with no published rows */
	yabs_input(&in);
	in.nnet = 1;
	snprintf(in.net[0].server, sizeof(in.net[0].server), "Nowhere");
	in.net[0].location[0] = '\0';
	place_compute(&in, &f, &r);
	TH_CHECK(!r.item[11].placed);
	TH_EQ_STR(r.item[11].why, "no published rows for this server and family");
	TH_EQ_STR(r.item[11].label, "Nowhere IPv4 send");
}

TH_TEST(place_compute_default_profile)
{
	static struct place_input in;
	static struct place_result r;
	struct place_filter f;

	memset(&in, 0, sizeof(in));
	in.rand_ran = true;
	snprintf(in.rand_other, sizeof(in.rand_other), "randrw 75/25, 4k, qd64");
	place_filter_default(&f);
	place_compute(&in, &f, &r);
	TH_EQ_INT(r.nitems, 0);
	TH_EQ_STR(r.rand_note, "the rand passes (randrw 75/25, 4k, qd64) are not yabs's workload "
		  "(randrw 50/50, qd64, 2 jobs at 4k-1m): run --profile yabs to place them");
	in.rand_ran = false;
	place_compute(&in, &f, &r);
	TH_EQ_STR(r.rand_note, "");
}

/* ---- the input: from a run, and from its own JSON report ---- */

static void fill_report(struct bench_report *rep, struct bench_plan *plan, const char *server,
			const char *location)
{
	static const uint32_t bs[5] = { 64u << 10, 4096, 512u << 10, 1u << 20, 4096 };

	memset(rep, 0, sizeof(*rep));
	memset(plan, 0, sizeof(*plan));
	snprintf(plan->profile, sizeof(plan->profile), "yabs");
	rep->outcome[MOD_rand].status = BENCH_OK;
	rep->outcome[MOD_cpu].status = BENCH_OK;
	rep->outcome[MOD_seq].status = BENCH_OK;
	rep->outcome[MOD_net].status = BENCH_OK;
	rep->rand.npass = 6;
	for (int i = 0; i < 6; i++) {
		struct rand_pass_result *p = &rep->rand.pass[i];

		snprintf(p->name, sizeof(p->name), "rand_rw_%d", i);
		p->dir = i == 4 ? "/other" : "/data";
		p->rw = RW_RANDRW;
		p->rwmixread = 50;
		p->bs = i < 5 ? bs[i] : 4096;
		p->iodepth = p->iodepth_used = 64;
		p->jobs = 2;
		p->direct = true;
		p->runtime_ms = 5000;
		p->size_bytes = 512ull << 20;
		p->status = BENCH_OK;
		snprintf(p->engine, sizeof(p->engine), "io_uring");
		for (int d = 0; d < 2; d++) {
			p->dir_res[d].present = true;
			p->dir_res[d].iops = 1000.0 / (i + 1) + d * 0.3333333;
			p->dir_res[d].bw_bytes = p->dir_res[d].iops * p->bs;
			p->dir_res[d].total_ios = 1000;
			p->dir_res[d].io_bytes = 1000ull * p->bs;
		}
	}
	/* the sixth: the default profile's 75/25, not yabs's */
	rep->rand.pass[5].rwmixread = 75;
	rep->rand.pass[5].iodepth = 64;
	/* the 512k pass was buffered */
	rep->rand.pass[2].direct = false;
	snprintf(rep->rand.pass[2].direct_reason, sizeof(rep->rand.pass[2].direct_reason),
		 "O_DIRECT refused (EINVAL)");
	/* the 1m pass ran on memory-backed storage: not a disk's figure */
	rep->rand.pass[3].storage.cls = STORAGE_MEMORY;
	snprintf(rep->rand.pass[3].storage.why, sizeof(rep->rand.pass[3].storage.why),
		 "tmpfs: in RAM");
	rep->rand.pass[0].storage.cls = STORAGE_DEVICE;
	rep->cpu.max_prime = 10000;
	rep->cpu.single.threads = 1;
	rep->cpu.single.eps = mdbl_of(1234.567891);
	rep->cpu.single.complete = true;
	rep->cpu.multi.threads = 2;
	rep->cpu.multi.eps = mdbl_of(2401.25);
	rep->cpu.multi.complete = true;
	rep->cpu.multi.cpu.share = mdbl_of(0.8);
	rep->cpu.multi.cpu.disturbed = true;
	rep->seq.ndirs = 1;
	snprintf(rep->seq.dirs[0].dir, sizeof(rep->seq.dirs[0].dir), "/data");
	rep->seq.dirs[0].status = SEQ_DONE;
	rep->seq.dirs[0].bs = 64u << 10;
	rep->seq.dirs[0].size_bytes = 1ull << 30;
	rep->seq.dirs[0].nruns = 1;
	rep->seq.dirs[0].runs[0].bytes = 1ull << 30;
	rep->seq.dirs[0].runs[0].seconds = 1.25;
	rep->seq.dirs[0].runs[0].mbps = 858.993459;
	rep->seq.dirs[0].avg_mbps = mdbl_of(858.993459);
	rep->seq.dirs[0].direct = MB_FALSE;
	rep->net.streams = 8;
	rep->net.nrows = 2;
	for (int i = 0; i < 2; i++) {
		struct net_row *row = &rep->net.rows[i];

		snprintf(row->srv.name, sizeof(row->srv.name), "%s", server);
		snprintf(row->srv.location, sizeof(row->srv.location), "%s", location);
		snprintf(row->srv.host, sizeof(row->srv.host), "iperf.example");
		row->family = i ? 6 : 4;
		row->status = NET_DONE;
		row->send.status = NET_DONE;
		row->send.bps = mdbl_of(912.5e6 + i);
		row->recv.status = NET_BUSY;
		snprintf(row->recv.reason, sizeof(row->recv.reason), "busy on 3 tries");
	}
}

static void same_result(const struct place_result *a, const struct place_result *b)
{
	TH_EQ_INT(a->nitems, b->nitems);
	TH_EQ_STR(a->rand_note, b->rand_note);
	TH_EQ_STR(a->profile, b->profile);
	for (unsigned i = 0; i < a->nitems && i < b->nitems; i++) {
		const struct place_item *x = &a->item[i], *y = &b->item[i];

		TH_EQ_STR(x->label, y->label);
		TH_EQ_STR(x->why, y->why);
		TH_EQ_STR(x->note, y->note);
		TH_EQ_INT(x->placed, y->placed);
		TH_EQ_INT(x->value.ok, y->value.ok);
		if (x->value.ok && y->value.ok && x->value.v != y->value.v)
			th_fail(__FILE__, __LINE__, "%s: %.17g from the run, %.17g from its JSON",
				x->label, x->value.v, y->value.v);
		TH_EQ_INT(x->d.n, y->d.n);
		TH_EQ_INT(x->below, y->below);
		TH_EQ_INT(x->equal, y->equal);
	}
}

TH_TEST(place_input_run_and_json_agree)
{
	static struct bench_report rep;
	static struct bench_plan plan;
	static struct place_input a, b;
	static struct place_result ra, rb;
	const struct pub_table *nt = big_net_table();
	struct place_filter f;
	char err[256] = "", *json;

	fill_report(&rep, &plan, nt ? nt->server : "Clouvider", nt ? nt->location :
		    "London, UK (10G)");
	place_input_from_report(&rep, &plan, &a);
	/* what the run gives, by hand */
	TH_EQ_STR(a.profile, "yabs");
	TH_EQ_INT(a.nfio, 4);     /* /other's pass and the 75/25 one left out */
	TH_EQ_INT(a.fio[0].bs, 64u << 10);
	TH_NEAR(a.fio[0].iops.v, 1000.0 + 1000.0 + 0.3333333, 1e-9);
	TH_NEAR(a.fio[0].mbps.v, (2000.3333333 * 65536) / 1024 / 1000, 1e-9);
	TH_EQ_STR(a.fio[0].why, "");
	TH_EQ_STR(a.fio[2].why, "buffered: O_DIRECT refused (EINVAL)");
	TH_EQ_STR(a.fio[3].why, "memory-backed storage, not a disk's figure (tmpfs: in RAM)");
	TH_EQ_STR(a.rand_other, "randrw 75/25, 4k, qd64");
	TH_NEAR(a.cpu_1t.v, 1234.567891, 0);
	TH_EQ_STR(a.why_1t, "");
	TH_EQ_STR(a.why_all, "disturbed: the pass got 80% of the CPU it was entitled to");
	TH_EQ_INT(a.cpu_threads, 2);
	TH_NEAR(a.dd_mbps.v, 858.993459, 0);
	TH_EQ_INT(a.seq_size, 1ull << 30);
	TH_CHECK(!a.seq_direct && !a.seq_zero);
	TH_EQ_INT(a.nnet, 2);
	TH_NEAR(a.net[0].send_mbits.v, 912.5, 1e-9);
	TH_EQ_INT(a.net[1].family, 6);
	TH_EQ_STR(a.net[0].why_recv, "not measured (busy)");
	TH_CHECK(!a.net[0].recv_mbits.ok);

	json = render_json(&rep, &plan);
	TH_CHECK(json != NULL);
	if (!json)
		return;
	TH_EQ_INT(place_input_from_json(json, &b, err, sizeof(err)), 0);
	free(json);
	TH_EQ_STR(err, "");
	TH_EQ_STR(b.profile, a.profile);
	TH_EQ_INT(b.nfio, a.nfio);
	for (unsigned i = 0; i < a.nfio && i < b.nfio; i++) {
		TH_EQ_INT(b.fio[i].bs, a.fio[i].bs);
		TH_CHECK(b.fio[i].iops.v == a.fio[i].iops.v);
		TH_CHECK(b.fio[i].mbps.v == a.fio[i].mbps.v);
		TH_EQ_INT(b.fio[i].runtime_ms, a.fio[i].runtime_ms);
		TH_EQ_INT(b.fio[i].size_bytes, a.fio[i].size_bytes);
		TH_EQ_STR(b.fio[i].why, a.fio[i].why);
	}
	TH_EQ_STR(b.rand_other, a.rand_other);
	TH_EQ_INT(b.max_prime, a.max_prime);
	TH_EQ_STR(b.why_all, a.why_all);
	TH_EQ_INT(b.seq_bs, a.seq_bs);
	TH_EQ_INT(b.seq_runs, a.seq_runs);
	TH_EQ_INT(b.nnet, a.nnet);
	TH_EQ_STR(b.net[1].location, a.net[1].location);
	TH_EQ_STR(b.net[0].why_recv, a.net[0].why_recv);
	TH_EQ_INT(b.net_streams, 8);

	place_filter_default(&f);
	f.min_n = 1;
	place_compute(&a, &f, &ra);
	place_compute(&b, &f, &rb);
	TH_CHECK(ra.nitems >= 11);
	same_result(&ra, &rb);
}

TH_TEST(place_input_from_json_bad)
{
	static struct place_input in;
	char err[256];

	err[0] = '\0';
	TH_EQ_INT(place_input_from_json("{\"schema\": \"vpsbench.report/1\", ", &in, err,
					sizeof(err)), -1);
	TH_EQ_STR(err, "not JSON");
	TH_EQ_INT(place_input_from_json("", &in, err, sizeof(err)), -1);
	TH_EQ_STR(err, "not JSON");
	TH_EQ_INT(place_input_from_json("{\"schema\": \"vpsbench.fleet/1\"}", &in, err,
					sizeof(err)), -1);
	TH_EQ_STR(err, "not a vpsbench report (\"schema\" is not \"vpsbench.report/1\")");
	TH_EQ_INT(place_input_from_json("[1, 2]", &in, err, sizeof(err)), -1);
	TH_EQ_STR(err, "not a vpsbench report (\"schema\" is not \"vpsbench.report/1\")");
	TH_EQ_INT(place_input_from_json("{\"fio version\": \"fio-3.33\"}", &in, err, sizeof(err)),
		  -1);
	TH_CHECK(!strchr(err, '\n'));
	/* a report with nothing placeable: read, nothing in it */
	TH_EQ_INT(place_input_from_json("{\"schema\": \"vpsbench.report/1\", \"run\": "
					"{\"profile\": \"default\"}, \"modules\": {}}", &in, err,
					sizeof(err)), 0);
	TH_EQ_STR(in.profile, "default");
	TH_CHECK(!in.rand_ran && !in.cpu_ran && !in.seq_ran && !in.net_ran && in.nfio == 0);
	/* the default profile's pass: rand ran, nothing yabs-shaped */
	TH_EQ_INT(place_input_from_json("{\"schema\": \"vpsbench.report/1\", \"rand\": {\"passes\": "
					"[{\"dir\": \".\", \"rw\": \"randrw\", \"rwmixread\": 75, "
					"\"bs\": 4096, \"iodepth\": 64, \"jobs\": 2, \"status\": "
					"\"ok\"}]}}", &in, err, sizeof(err)), 0);
	TH_CHECK(in.rand_ran);
	TH_EQ_INT(in.nfio, 0);
	TH_EQ_STR(in.rand_other, "randrw 75/25, 4k, qd64");
}
