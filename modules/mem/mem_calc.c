/*
 * mem_calc.c — the arithmetic of the mem module, kept pure so tests can
 * check each figure against its raw parts: STREAM's MB/s, best-of-reps,
 * array sizing and its caps, the latency sizes and the plateau names.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/uncert.h"
#include "mem.h"

const char *const mem_kernel_names[MEM_NKERNELS] = { "copy", "scale", "add", "triad" };
/* STREAM counts the words each kernel moves per element: c=a 2, b=s*c 2, c=a+b 3, a=b+s*c 3 */
const unsigned mem_kernel_words[MEM_NKERNELS] = { 2, 2, 3, 3 };
const char *const mem_level_names[MEM_NLEVELS] = { "L1", "L2", "LLC", "DRAM" };

double mem_mbps(unsigned words, uint64_t n, double seconds)
{
	if (seconds <= 0)
		return NAN;
	return (double)words * (double)sizeof(double) * (double)n / seconds / 1e6;
}

bool mem_best_of(const double *t, unsigned nreps, double *min, double *avg, double *max)
{
	double sum = 0;

	if (nreps < 2)
		return false;
	*min = *max = t[1];
	for (unsigned i = 1; i < nreps; i++) {
		sum += t[i];
		if (t[i] < *min)
			*min = t[i];
		if (t[i] > *max)
			*max = t[i];
	}
	*avg = sum / (nreps - 1);
	return true;
}

uint64_t mem_budget(uint64_t avail, uint64_t cg_limit, uint64_t cg_used)
{
	uint64_t b = avail ? avail / 4 : UINT64_MAX;

	if (cg_limit) {
		uint64_t room = cg_limit > cg_used ? (cg_limit - cg_used) / 2 : 0;

		if (room < b)
			b = room;
	}
	return b;
}

uint64_t mem_array_bytes(uint64_t want, uint64_t budget, bool *capped)
{
	*capped = false;
	want &= ~4095ULL;
	if (budget == UINT64_MAX || want <= budget / 3)
		return want;
	*capped = true;
	return (budget / 3) & ~4095ULL;
}

bool mem_parse_cache_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	v = strtoull(s, &end, 10);
	while (*end == ' ')
		end++;
	switch (toupper((unsigned char)*end)) {
	case 'K': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	case '\0': break;
	default: return false;
	}
	if (toupper((unsigned char)*end) == 'B')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || v == 0)
		return false;
	*bytes = v;
	return true;
}

unsigned mem_lat_sizes(uint64_t max, uint64_t *size, unsigned cap)
{
	unsigned n = 0;

	/* 16K, 24K, 32K, 48K, ...: two points per doubling */
	for (uint64_t p = MEM_LAT_MIN; p <= max && n < cap; p *= 2) {
		size[n++] = p;
		if (p + p / 2 <= max && n < cap)
			size[n++] = p + p / 2;
	}
	/* the top is max itself: a DRAM point at 4x LLC however the grid falls */
	if (n && size[n - 1] < (max & ~4095ULL)) {
		if (n < cap && (max & ~4095ULL) - size[n - 1] >= size[n - 1] / 4)
			n++;
		size[n - 1] = max & ~4095ULL;
	}
	return n;
}

uint64_t mem_knee(const uint64_t *size, const double *ns, unsigned n)
{
	double half;

	if (n < 3 || !(ns[n - 1] >= 2 * ns[0]))
		return 0;
	half = ns[n - 1] / 2;
	for (unsigned i = n - 1; i-- > 0;)
		if (ns[i] < half)
			return size[i];
	return 0;
}

uint64_t mem_fast_size(uint64_t knee)
{
	uint64_t s = MEM_LLC_FACTOR * knee;

	s = (s + (1ULL << 20) - 1) & ~((1ULL << 20) - 1);
	return s < MEM_FAST_MIN ? MEM_FAST_MIN : s > MEM_FAST_MAX ? MEM_FAST_MAX : s;
}

bool mem_knee_names_levels(uint64_t knee, uint64_t curve_max, uint64_t llc, bool strict)
{
	return knee && !strict && MEM_LLC_FACTOR * knee <= curve_max &&
	       (!llc || knee * MEM_KNEE_AGREE < llc);
}

uint64_t mem_lat_max(uint64_t llc, uint64_t budget, bool strict)
{
	uint64_t m = MEM_LLC_FACTOR * llc;

	if (!strict) {
		if (m < MEM_FAST_MIN)
			m = MEM_FAST_MIN;
		if (m > MEM_LAT_MAX)
			m = MEM_LAT_MAX;
	}
	/* the buffer and its index (4 bytes a 64-byte line) within the budget */
	if (budget != UINT64_MAX && m + m / 16 > budget)
		m = budget / 17 * 16;
	return m & ~4095ULL;
}

bool mem_grow_agrees(double mbps_s, double mbps_2s)
{
	return mbps_2s > 0 && fabs(mbps_2s - mbps_s) <= MEM_GROW_TOL * mbps_2s;
}

bool mem_grow_step(struct mem_grow *g, double share, uint64_t *s)
{
	if (g->n >= 2 && mem_grow_agrees(g->mbps[g->n - 2], g->mbps[g->n - 1])) {
		g->settled = true;
		*s = g->bytes[g->n - 2];
		return false;
	}
	/* a starved check's disagreement is the neighbours', not cache: keep S */
	if (share >= 0 && share < PASS_CPU_SHARE_MIN) {
		g->disturbed = true;
		*s = g->bytes[0];
		return false;
	}
	*s = g->bytes[g->n - 1];
	return true;
}

bool mem_rep_more(unsigned done, uint64_t elapsed_ns, bool strict)
{
	if (strict || done < MEM_MIN_REPS)
		return done < MEM_REPS;
	return done < MEM_REPS && elapsed_ns < MEM_RUN_NS;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mem_median(double *v, unsigned n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct mdbl median_of(const double *v, unsigned n)
{
	double t[MEM_MAX_SIZES];

	if (n == 0 || n > MEM_MAX_SIZES)
		return (struct mdbl){ 0, false };
	memcpy(t, v, n * sizeof(*t));
	return mdbl_of(mem_median(t, n));
}

/* Median latency of the points with lo <= size <= hi. */
static struct mdbl range_median(const uint64_t *size, const double *ns, unsigned n, uint64_t lo,
				uint64_t hi)
{
	double v[MEM_MAX_SIZES];
	unsigned k = 0;

	for (unsigned i = 0; i < n && k < MEM_MAX_SIZES; i++)
		if (size[i] >= lo && size[i] <= hi)
			v[k++] = ns[i];
	return median_of(v, k);
}

#define MEM_FLAT 1.20 /* a plateau: every point within 20% of the run's lowest */

void mem_plateaus(const uint64_t *size, const double *ns, unsigned n, uint64_t l1d,
		  uint64_t l2, uint64_t llc, uint64_t llc_hint, struct mdbl out[MEM_NLEVELS])
{
	unsigned start[MEM_MAX_SIZES], end[MEM_MAX_SIZES], nr = 0, i = 0, first_mid, below = 0;

	for (int l = 0; l < MEM_NLEVELS; l++)
		out[l] = (struct mdbl){ 0, false };
	if (n == 0 || n > MEM_MAX_SIZES)
		return;
	if (l1d && l2 && llc && l1d < l2 && l2 < llc) {
		out[MEM_L1] = range_median(size, ns, n, 0, l1d / 2 >= MEM_LAT_MIN ? l1d / 2 : l1d);
		out[MEM_L2] = range_median(size, ns, n, 2 * l1d, l2 / 2);
		out[MEM_LLC] = range_median(size, ns, n, 2 * l2, llc / 2);
		out[MEM_DRAM] = range_median(size, ns, n, MEM_LLC_FACTOR * llc, UINT64_MAX);
		return;
	}
	/* no cache sizes: DRAM past 4x the assumed LLC, the rest from the flat runs */
	out[MEM_DRAM] = range_median(size, ns, n, MEM_LLC_FACTOR * llc_hint, UINT64_MAX);
	while (below < n && size[below] < MEM_LLC_FACTOR * llc_hint)
		below++;
	while (i < below) {
		unsigned j = i;
		double lo = ns[i], hi = ns[i];

		while (j + 1 < below) {
			double nlo = ns[j + 1] < lo ? ns[j + 1] : lo;
			double nhi = ns[j + 1] > hi ? ns[j + 1] : hi;

			if (nlo <= 0 || nhi / nlo > MEM_FLAT)
				break;
			lo = nlo;
			hi = nhi;
			j++;
		}
		if (j > i) {
			start[nr] = i;
			end[nr++] = j;
		}
		i = j + 1;
	}
	/* a run that starts past the LLC is the way up to DRAM, not a cache */
	while (nr > 0 && size[start[nr - 1]] > llc_hint)
		nr--;
	if (nr == 0)
		return;
	first_mid = 0;
	if (start[0] == 0) {
		out[MEM_L1] = median_of(ns, end[0] + 1);
		first_mid = 1;
	}
	if (nr > first_mid)
		out[MEM_L2] = median_of(ns + start[first_mid], end[first_mid] - start[first_mid] + 1);
	if (nr > first_mid + 1)
		out[MEM_LLC] = median_of(ns + start[nr - 1], end[nr - 1] - start[nr - 1] + 1);
}

void mem_flag(struct mem_signs *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nflags >= sizeof(s->flags) / sizeof(s->flags[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(s->flags[s->nflags++], sizeof(s->flags[0]), fmt, ap);
	va_end(ap);
}

uint64_t mem_cache_edge(const uint64_t *size, const double *ns, unsigned i)
{
	uint64_t edge = 0;

	for (unsigned k = 0; k < i; k++)
		if (ns[k] < ns[i] / 2)
			edge = size[k];
	return edge;
}

unsigned mem_plateau_point(const uint64_t *size, const double *ns, unsigned n, uint64_t llc)
{
	if (n < 2 || !(ns[n - 1] > 0))
		return n;
	for (unsigned i = 0; i + 1 < n; i++) {
		uint64_t edge;

		/* past every cache level: at least a third of the top's latency */
		if (!(ns[i] > 0) || ns[i] < ns[n - 1] / MEM_PLATEAU_TOP)
			continue;
		/* at least twice the cache edge: the last size below half this latency */
		edge = mem_cache_edge(size, ns, i);
		if (!edge || size[i] < MEM_PLATEAU_EDGE * edge || size[i] < MEM_PLATEAU_EDGE * llc)
			continue;
		if (ns[i + 1] <= ns[i] * (1 + MEM_PLATEAU_RISE))
			return i;
	}
	return n;
}

void mem_graded_fill(struct mem_curve *c)
{
	unsigned top = c->n;

	c->graded_ns = (struct mdbl){ 0, false };
	c->graded_u = NAN;
	c->xlat_bytes = 0;
	c->xlat_ns = c->xlat_pct = (struct mdbl){ 0, false };
	if (c->graded >= c->n || !c->rounds)
		return;
	{
		double sum = 0;

		for (unsigned i = 0; i < c->rounds; i++)
			sum += c->round_ns[i];
		c->graded_ns = mdbl_of(sum / c->rounds);
		c->graded_u = uncert_mean_ci95(c->round_ns, c->rounds);
	}
	for (unsigned i = c->graded + 1; i < c->n; i++)
		if (c->size[i] <= MEM_XLAT_TOP)
			top = i;
	if (top >= c->n || !(c->graded_ns.v > 0))
		return;
	c->xlat_bytes = c->size[top];
	c->xlat_ns = mdbl_of(c->ns[top] - c->graded_ns.v);
	c->xlat_pct = mdbl_of(100.0 * c->xlat_ns.v / c->graded_ns.v);
}
