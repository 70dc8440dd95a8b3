/*
 * fsync_calc.c — the pure arithmetic of the fsync module: figures from the
 * latency histograms, the low-confidence rule, sizing against free space.
 */
#include <math.h>
#include <string.h>

#include "fsync.h"

#define FSYNC_SPACE_MARGIN (1ULL << 20) /* the filesystem's own metadata */

void fsync_lat_from_hist(struct fsync_lat *l, const struct lat_hist *h)
{
	memset(l, 0, sizeof(*l));
	l->n = h->st.n;
	if (l->n == 0)
		return;
	l->min = h->st.min;
	l->max = h->st.max;
	l->mean = h->st.mean;
	l->stddev = lat_stat_stddev(&h->st);
	for (int i = 0; i < LAT_NPCT; i++)
		l->pct[i] = lat_hist_percentile(h, lat_default_percentiles[i]);
	memcpy(l->bins, h->bucket, sizeof(l->bins));
	memcpy(l->range, h->range, sizeof(l->range));
}

bool fsync_p99_low_confidence(uint64_t n)
{
	return n < FSYNC_MIN_SYNCS_P99;
}

uint64_t fsync_fit_size(uint64_t want, int64_t avail, uint32_t bs, bool *scaled)
{
	uint64_t fit;

	*scaled = false;
	if (bs == 0)
		return 0;
	fit = want - want % bs;
	if (avail >= 0) {
		uint64_t room = (uint64_t)avail > FSYNC_SPACE_MARGIN ?
			(uint64_t)avail - FSYNC_SPACE_MARGIN : 0;

		if (room < fit) {
			fit = room - room % bs;
			*scaled = true;
			if (fit < FSYNC_MIN_FILE)
				return 0;
		}
	}
	return fit;
}

int fsync_pct_index(double p)
{
	for (int i = 0; i < LAT_NPCT; i++)
		if (fabs(lat_default_percentiles[i] - p) < 1e-9)
			return i;
	return -1;
}
