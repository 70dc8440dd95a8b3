/*
 * seq_calc.c — the pure arithmetic of the seq module: spread and
 * outliers, sizing against free space, the ZFS rule, block stamping.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

unsigned seq_spread(const double *rate, unsigned n, struct seq_spread *sp, bool *outlier)
{
	double sum = 0, mn = 0, mx = 0, ss = 0, mean, med, sorted[SEQ_MAX_RUNS];
	unsigned nout = 0;

	memset(sp, 0, sizeof(*sp));
	for (unsigned i = 0; i < n; i++)
		if (outlier)
			outlier[i] = false;
	if (n == 0 || n > SEQ_MAX_RUNS)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		sum += rate[i];
		if (i == 0 || rate[i] < mn)
			mn = rate[i];
		if (i == 0 || rate[i] > mx)
			mx = rate[i];
	}
	mean = sum / n;
	sp->avg = mdbl_of(mean);
	sp->min = mdbl_of(mn);
	sp->max = mdbl_of(mx);
	if (n < 2)
		return 0;
	for (unsigned i = 0; i < n; i++)
		ss += (rate[i] - mean) * (rate[i] - mean);
	if (mean > 0)
		sp->cov = mdbl_of(sqrt(ss / (n - 1)) / mean);
	memcpy(sorted, rate, n * sizeof(*rate));
	qsort(sorted, n, sizeof(*sorted), cmp_dbl);
	med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	for (unsigned i = 0; i < n; i++) {
		if (med > 0 && fabs(rate[i] - med) > SEQ_OUTLIER_FRAC * med) {
			if (outlier)
				outlier[i] = true;
			nout++;
		}
	}
	return nout;
}

uint64_t seq_space_needed(uint64_t size)
{
	return size + size / 20 + SEQ_MARGIN_FIXED;
}

uint64_t seq_fit_size(uint64_t want, uint64_t avail, uint32_t bs, bool *scaled)
{
	uint64_t s;

	*scaled = false;
	if (bs == 0)
		return 0;
	want -= want % bs;
	if (want == 0)
		return 0;
	if (seq_space_needed(want) <= avail)
		return want;
	if (avail <= SEQ_MARGIN_FIXED)
		return 0;
	/* s + s/20 + 64M <= avail  <=>  s <= (avail - 64M) * 20 / 21 */
	s = (avail - SEQ_MARGIN_FIXED) / 21 * 20;
	s -= s % bs;
	while (s > 0 && seq_space_needed(s) > avail)
		s -= bs;
	if (s < SEQ_MIN_SIZE || s == 0)
		return 0;
	*scaled = true;
	return s;
}

bool seq_zfs_space_low(uint64_t avail, unsigned inflation)
{
	return avail < 2ULL * inflation * (1ULL << 30);
}

/* splitmix64's finaliser: a bijection, so distinct inputs stay distinct. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void seq_stamp(void *block, uint32_t bs, uint64_t offset, uint64_t tag, uint64_t nonce)
{
	unsigned char *p = block;

	for (uint32_t s = 0; s + SEQ_SECTOR <= bs; s += SEQ_SECTOR) {
		/* hashed, so the stamp itself gives a compressor nothing */
		uint64_t w0 = mix64((offset + s) ^ nonce);
		uint64_t w1 = mix64(w0 ^ tag);

		memcpy(p + s, &w0, 8);
		memcpy(p + s + 8, &w1, 8);
	}
}

const char *seq_ordinal(unsigned n, char *buf, size_t len)
{
	const char *suf = "th";

	if (n % 100 < 11 || n % 100 > 13) {
		if (n % 10 == 1)
			suf = "st";
		else if (n % 10 == 2)
			suf = "nd";
		else if (n % 10 == 3)
			suf = "rd";
	}
	snprintf(buf, len, "%u%s", n, suf);
	return buf;
}

const char *seq_pass_status_name(enum seq_pass_status s)
{
	switch (s) {
	case SEQ_DONE:
		return "ok";
	case SEQ_SKIPPED:
		return "skipped";
	case SEQ_ABORTED:
		return "aborted";
	case SEQ_FAILED:
		return "failed";
	case SEQ_INCOMPLETE:
		return "incomplete";
	default:
		return "not_run";
	}
}

struct mdbl seq_total_mbps(const struct seq_run *runs, unsigned n)
{
	double bytes = 0, secs = 0;

	for (unsigned i = 0; i < n; i++) {
		bytes += (double)runs[i].bytes;
		secs += runs[i].seconds;
	}
	if (n == 0 || !(secs > 0))
		return (struct mdbl){ 0, false };
	return mdbl_of(bytes / secs / 1e6);
}
