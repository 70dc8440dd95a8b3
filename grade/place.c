/*
 * place.c — ranks a run's figures among the published tables
 * (grade/published.h) under a filter: the mid-rank percentile, the type 7
 * ladder, and "not placed: why" where the workload or the rows do not allow
 * it. Pure: the input comes from place_input.c or place_load.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/place.h"

#define YABS_RUNTIME_S  30ll
#define YABS_SIZE_BYTES (2ull << 30)
#define BENCHSH_BS      (512u * 1024u)
#define BENCHSH_SIZE    (1ull << 30)         /* 512K x 2048 */
#define BENCHSH_RUNS    3u                   /* bench.sh averages three dd runs */
#define SYSBENCH_PRIME  10000u
#define YABS_STREAMS    8u

static const double place_probs[PLACE_NQ] = { 0.10, 0.25, 0.50, 0.75, 0.90 };

double place_percentile(const double *sorted, unsigned n, double v, unsigned *below,
			unsigned *equal)
{
	unsigned b = 0, e = 0;

	for (unsigned i = 0; i < n; i++) {
		if (sorted[i] < v)
			b++;
		else if (sorted[i] == v)
			e++;
	}
	if (below)
		*below = b;
	if (equal)
		*equal = e;
	if (n == 0)
		return NAN;
	return 100.0 * ((double)b + (double)e / 2.0) / (double)n;
}

double place_quantile(const double *sorted, unsigned n, double p)
{
	double h, lo;
	unsigned i;

	if (n == 0)
		return NAN;
	if (p <= 0)
		return sorted[0];
	if (p >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * p;
	lo = floor(h);
	i = (unsigned)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

/* Does run r (entry e) pass f, cache rule aside? */
static bool run_kept(const struct place_filter *f, const struct pub_run *r,
		     const struct pub_entry *e)
{
	if (f->kind != PUB_KIND_UNKNOWN && r->kind != f->kind)
		return false;
	if ((f->vcpus_lo || f->vcpus_hi) &&
	    (r->vcpus == 0 || r->vcpus < f->vcpus_lo || r->vcpus > f->vcpus_hi))
		return false;
	if ((f->year_lo || f->year_hi) &&
	    (r->year == 0 || 2000u + r->year < f->year_lo || 2000u + r->year > f->year_hi))
		return false;
	if (f->per_machine && !e->first_of_machine)
		return false;
	return true;
}

/*
 * The rows of t left by f: their values ascending in *vp (malloc'd, free
 * it) and their summary in d (q, min and max NAN when none is left).
 * 0, or -1 (broken table, no memory).
 */
static int rows_of(const struct pub_table *t, const struct place_filter *f, double **vp,
		   struct place_dist *d)
{
	struct pub_entry *e;
	double *v;
	int got;

	memset(d, 0, sizeof(*d));
	*vp = NULL;
	e = malloc(((size_t)t->n + 1) * sizeof(*e));
	v = malloc(((size_t)t->n + 1) * sizeof(*v));
	if (!e || !v || (got = pub_table_decode(t, e, t->n)) < 0) {
		free(e);
		free(v);
		return -1;
	}
	for (int i = 0; i < got; i++) {
		const struct pub_run *r;

		if (e[i].run >= pub_nruns)
			continue;
		r = &pub_runs[e[i].run];
		if (!run_kept(f, r, &e[i]))
			continue;
		if (!f->include_cached && t->set == PUB_SET_YABS_DISK && r->cached) {
			d->cached_out++;
			continue;
		}
		v[d->n++] = e[i].value;
		if (r->year == 0) {
			d->undated++;
		} else {
			unsigned y = 2000u + r->year;

			if (!d->year_lo || y < d->year_lo)
				d->year_lo = y;
			if (y > d->year_hi)
				d->year_hi = y;
		}
	}
	free(e);
	for (unsigned k = 0; k < PLACE_NQ; k++)
		d->q[k] = place_quantile(v, d->n, place_probs[k]);
	d->min = d->n ? v[0] : NAN;
	d->max = d->n ? v[d->n - 1] : NAN;
	*vp = v;
	return 0;
}

/* "4k", "64k", "1m": yabs's block size names. */
static void bs_name(uint32_t bs, char *buf, size_t n, bool upper)
{
	if (bs && bs % (1024u * 1024u) == 0)
		snprintf(buf, n, "%u%s", bs / (1024u * 1024u), upper ? "M" : "m");
	else if (bs && bs % 1024u == 0)
		snprintf(buf, n, "%u%s", bs / 1024u, upper ? "K" : "k");
	else
		snprintf(buf, n, "%u B", bs);
}

/* "2 GiB", "512 MiB", "1000 B" */
static void size_name(uint64_t b, char *buf, size_t n)
{
	if (b && b % (1ull << 30) == 0)
		snprintf(buf, n, "%llu GiB", (unsigned long long)(b >> 30));
	else if (b && b % (1ull << 20) == 0)
		snprintf(buf, n, "%llu MiB", (unsigned long long)(b >> 20));
	else
		snprintf(buf, n, "%llu B", (unsigned long long)b);
}

/* No rows: n and the counts 0, the quantiles, min and max NAN. */
static void dist_none(struct place_dist *d)
{
	memset(d, 0, sizeof(*d));
	for (unsigned k = 0; k < PLACE_NQ; k++)
		d->q[k] = NAN;
	d->min = d->max = NAN;
}

static struct place_item *new_item(struct place_result *out, const char *metric,
				   const char *unit)
{
	struct place_item *it;

	if (out->nitems >= PLACE_MAX_ITEMS)
		return NULL;
	it = &out->item[out->nitems++];
	memset(it, 0, sizeof(*it));
	snprintf(it->metric, sizeof(it->metric), "%s", metric);
	snprintf(it->unit, sizeof(it->unit), "%s", unit);
	dist_none(&it->d);
	it->pct = NAN;
	return it;
}

/*
 * Ranks it->value in t under f, unless why is already set. t NULL: no
 * published table (why = none_why).
 */
static void rank_item(struct place_item *it, const struct pub_table *t,
		      const struct place_filter *f, const char *none_why)
{
	double *v;

	if (it->why[0])
		return;
	if (!it->value.ok) {
		snprintf(it->why, sizeof(it->why), "not measured");
		return;
	}
	if (!t) {
		snprintf(it->why, sizeof(it->why), "%s", none_why);
		return;
	}
	snprintf(it->unit, sizeof(it->unit), "%s", t->unit);
	if (rows_of(t, f, &v, &it->d) < 0) {
		dist_none(&it->d);
		snprintf(it->why, sizeof(it->why), "the published table %s could not be read "
			 "(broken encoding or no memory)", t->metric);
		return;
	}
	if (it->d.n == 0 || it->d.n < f->min_n) {
		snprintf(it->why, sizeof(it->why), "%u published rows match the filter (minimum %u)",
			 it->d.n, f->min_n);
		dist_none(&it->d); /* not placed: nothing ranked among */
		free(v);
		return;
	}
	it->placed = true;
	it->pct = place_percentile(v, it->d.n, it->value.v, &it->below, &it->equal);
	free(v);
}

/* The fio items of one yabs-shaped pass: total IOPS, then total MB/s. */
static void fio_items(const struct place_fio *x, const struct place_filter *f,
		      struct place_result *out)
{
	static const char *const metric[2] = { PLACE_M_FIO_IOPS, PLACE_M_FIO_MBPS };
	static const char *const unit[2] = { "IOPS", "MB/s" };
	char bsn[16], note[192] = "";

	bs_name(x->bs, bsn, sizeof(bsn), false);
	/* the measured runtime: yabs's 30 s when it rounds to 30 whole seconds */
	if ((x->runtime_ms && llround((double)x->runtime_ms / 1000.0) != YABS_RUNTIME_S) ||
	    (x->size_bytes && x->size_bytes != YABS_SIZE_BYTES)) {
		char sz[32];

		size_name(x->size_bytes, sz, sizeof(sz));
		snprintf(note, sizeof(note), "this run: %g s on %s; yabs: 30 s on 2 GiB",
			 round((double)x->runtime_ms / 100.0) / 10.0, sz);
	}
	for (int k = 0; k < 2; k++) {
		struct place_item *it = new_item(out, metric[k], unit[k]);

		if (!it)
			return;
		it->bs = x->bs;
		snprintf(it->label, sizeof(it->label), "%s total %s", bsn, unit[k]);
		it->value = k == 0 ? x->iops : x->mbps;
		if (x->why[0])
			snprintf(it->why, sizeof(it->why), "%s", x->why);
		rank_item(it, pub_table_find(metric[k], x->bs, NULL, NULL, NULL), f,
			  "no published rows for this block size");
		if (it->placed)
			snprintf(it->note, sizeof(it->note), "%s", note);
	}
}

static void cpu_items(const struct place_input *in, const struct place_filter *f,
		      struct place_result *out)
{
	for (int k = 0; k < 2; k++) {
		const char *metric = k == 0 ? PLACE_M_CPU_1T : PLACE_M_CPU_ALL;
		struct place_item *it = new_item(out, metric, "events/s");
		const char *why = k == 0 ? in->why_1t : in->why_all;

		if (!it)
			return;
		if (k == 0)
			snprintf(it->label, sizeof(it->label), "1 thread");
		else
			snprintf(it->label, sizeof(it->label), "all threads (%u)", in->cpu_threads);
		it->value = k == 0 ? in->cpu_1t : in->cpu_all;
		if (why[0])
			snprintf(it->why, sizeof(it->why), "%s", why);
		else if (it->value.ok && in->max_prime != SYSBENCH_PRIME)
			snprintf(it->why, sizeof(it->why), "max_prime %u: the published sysbench "
				 "lines count primes below %u (sysbench's default)", in->max_prime,
				 SYSBENCH_PRIME);
		rank_item(it, pub_table_find(metric, 0, NULL, NULL, NULL), f,
			  "no published sysbench rows");
		if (it->placed && k == 1)
			snprintf(it->note, sizeof(it->note), "%u threads (sysbench's all-threads line: "
				 "its vCPU count)", in->cpu_threads);
	}
}

static void dd_item(const struct place_input *in, const struct place_filter *f,
		    struct place_result *out)
{
	struct place_item *it = new_item(out, PLACE_M_DD, "MB/s");
	char bsn[16], sz[32];

	if (!it)
		return;
	snprintf(it->label, sizeof(it->label), "dd write 1 GiB");
	it->value = in->dd_mbps;
	bs_name(in->seq_bs, bsn, sizeof(bsn), true);
	if (in->why_dd[0]) {
		snprintf(it->why, sizeof(it->why), "%s", in->why_dd);
	} else if (it->value.ok && in->seq_direct) {
		snprintf(it->why, sizeof(it->why), "written with O_DIRECT (--seq-direct); bench.sh's "
			 "dd writes through the page cache and ends with fdatasync");
	} else if (it->value.ok && in->seq_size != BENCHSH_SIZE) {
		size_name(in->seq_size, sz, sizeof(sz));
		snprintf(it->why, sizeof(it->why), "%s a run; bench.sh's dd writes 1 GiB a run "
			 "(512K x 2048): --seq-size 1G runs its size", sz);
	}
	rank_item(it, pub_table_find(PLACE_M_DD, 0, NULL, NULL, NULL), f,
		  "no published dd rows");
	if (!it->placed)
		return;
	if (!in->seq_zero && in->seq_bs != BENCHSH_BS)
		snprintf(it->note, sizeof(it->note), "random data in %s writes; bench.sh's dd writes "
			 "zeros in 512K blocks (--seq-bs 512K --zero-fill runs its exact shape)", bsn);
	else if (!in->seq_zero)
		snprintf(it->note, sizeof(it->note), "random data; bench.sh's dd writes zeros "
			 "(--zero-fill runs its exact shape)");
	else if (in->seq_bs != BENCHSH_BS)
		snprintf(it->note, sizeof(it->note), "%s writes; bench.sh's dd writes 512K blocks "
			 "(--seq-bs 512K runs its exact shape)", bsn);
	if (in->seq_runs && in->seq_runs != BENCHSH_RUNS) {
		size_t len = strlen(it->note);

		snprintf(it->note + len, sizeof(it->note) - len, "%s%u run%s; bench.sh averages 3 "
			 "(--seq-runs 3)", len ? "; " : "", in->seq_runs, in->seq_runs == 1 ? "" : "s");
	}
}

static void net_items(const struct place_input *in, const struct place_filter *f,
		      struct place_result *out)
{
	for (unsigned i = 0; i < in->nnet; i++) {
		const struct place_net *r = &in->net[i];
		const char *fam = r->family == 6 ? "IPv6" : "IPv4";

		for (int k = 0; k < 2; k++) {
			const char *metric = k == 0 ? PLACE_M_NET_SEND : PLACE_M_NET_RECV;
			const char *why = k == 0 ? r->why_send : r->why_recv;
			const struct pub_table *t;
			struct place_item *it = new_item(out, metric, "Mbits/sec");

			if (!it)
				return;
			snprintf(it->server, sizeof(it->server), "%s", r->server);
			snprintf(it->location, sizeof(it->location), "%s", r->location);
			snprintf(it->family, sizeof(it->family), "%s", fam);
			snprintf(it->label, sizeof(it->label), "%s%s%s %s %s", r->server,
				 r->location[0] ? " " : "", r->location, fam, k == 0 ? "send" : "recv");
			it->value = k == 0 ? r->send_mbits : r->recv_mbits;
			t = pub_table_find(metric, 0, r->server, r->location, fam);
			if (!t) /* a server nobody published: no failure detail needed */
				snprintf(it->why, sizeof(it->why), "no published rows for this server and family");
			else if (why[0])
				snprintf(it->why, sizeof(it->why), "%s", why);
			else if (it->value.ok && in->net_streams != YABS_STREAMS)
				snprintf(it->why, sizeof(it->why), "%u streams; yabs's iperf3 runs -P 8 "
					 "(--net-streams 8)", in->net_streams);
			rank_item(it, t, f, "no published rows for this server and family");
		}
	}
}

static int fio_by_bs(const void *a, const void *b)
{
	const struct place_fio *x = *(const struct place_fio *const *)a;
	const struct place_fio *y = *(const struct place_fio *const *)b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

void place_compute(const struct place_input *in, const struct place_filter *f,
		   struct place_result *out)
{
	const struct place_fio *fio[PLACE_MAX_FIO];
	unsigned nfio = in->nfio < PLACE_MAX_FIO ? in->nfio : PLACE_MAX_FIO;

	memset(out, 0, sizeof(*out));
	out->ran = true;
	out->filter = *f;
	place_filter_text(f, out->filter_text, sizeof(out->filter_text));
	out->source = pub_source;
	snprintf(out->profile, sizeof(out->profile), "%s", in->profile);
	if (in->rand_ran && nfio == 0)
		snprintf(out->rand_note, sizeof(out->rand_note), "the rand passes (%.96s) are not "
			 "yabs's workload (randrw 50/50, qd64, 2 jobs at 4k-1m): run --profile yabs "
			 "to place them", in->rand_other[0] ? in->rand_other : "another workload");
	for (unsigned i = 0; i < nfio; i++)
		fio[i] = &in->fio[i];
	qsort(fio, nfio, sizeof(fio[0]), fio_by_bs);
	for (unsigned i = 0; i < nfio; i++)
		fio_items(fio[i], f, out);
	if (in->cpu_ran)
		cpu_items(in, f, out);
	if (in->seq_ran)
		dd_item(in, f, out);
	if (in->net_ran)
		net_items(in, f, out);
}

void place_population(const struct place_filter *f, struct place_pop *pop)
{
	memset(pop, 0, sizeof(*pop));
	pop->filter = *f;
	place_filter_text(f, pop->filter_text, sizeof(pop->filter_text));
	for (unsigned i = 0; i < pub_ntables && pop->ntables < PLACE_MAX_POP; i++) {
		struct place_pop_table *pt = &pop->table[pop->ntables++];
		double *v;

		memset(pt, 0, sizeof(*pt));
		pt->t = &pub_tables[i];
		if (rows_of(pt->t, f, &v, &pt->d) < 0) {
			dist_none(&pt->d);
			continue;
		}
		free(v);
	}
}
