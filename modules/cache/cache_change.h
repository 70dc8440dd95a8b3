/*
 * cache_change.h — the change points of a write timeline (cache_write.c):
 * where a burst rate drops, in one or more steps, to a floor. Pure, no
 * I/O; unit-tested in tests/test_cache_change.c on recorded and seeded
 * timelines (iid and AR(1) noise, steps, dips, short bursts).
 */
#ifndef VPSBENCH_CACHE_CHANGE_H
#define VPSBENCH_CACHE_CHANGE_H

#include <stdbool.h>

/* A drop: the floor is at most this share of the burst rate. */
#define CACHE_DROP_RATIO 0.7
/* A split of a segment: the lower level at most this share of the higher ... */
#define CACHE_STEP_RATIO 0.85
/* ... by this many standard errors, the error inflated for autocorrelation */
#define CACHE_DROP_T 5.5
/* A lower level must last max(CACHE_DROP_MIN_S, CACHE_DROP_MIN_SHARE of the run), at most CACHE_DROP_MAX_S. */
#define CACHE_DROP_MIN_S 5.0
#define CACHE_DROP_MIN_SHARE 0.1
#define CACHE_DROP_MAX_S 60.0
/* At most this many levels (binary segmentation stops there). */
#define CACHE_SEG_MAX 16
/* Recovered: the last CACHE_RECOVER_N samples, or a later level, at this share of the burst. */
#define CACHE_RECOVER_SHARE 0.8
#define CACHE_RECOVER_N 3u

struct cache_change {
	bool found;            /* a drop to a floor that lasts */
	unsigned first;        /* first sample after the burst level (the first change) */
	unsigned index;        /* first sample of the floor (the last change into it) */
	unsigned nseg;         /* levels found */
	double burst_rate;     /* the highest level before the floor (unit of v); all: the mean */
	double sustained_rate; /* the floor: the lowest level after the burst; all: the mean */
	double burst_amount;   /* v x dt written until the burst level ended (a slower start too), mixed samples split */
	double change_amount;  /* v x dt written before the floor began, its mixed first sample split */
	double phi;            /* lag-1 autocorrelation of the residuals (bias-corrected), NAN none */
	bool recovered;        /* the tail climbed back to the burst level */
};

/*
 * The levels of a timeline v[0..n-1] of rates, one sample per dt seconds,
 * by binary segmentation: each segment's least-squares split is kept when
 * the lower level is at most CACHE_STEP_RATIO of the higher by at least
 * CACHE_DROP_T standard errors, the error inflated by sqrt((1+phi)/(1-phi))
 * for the residuals' lag-1 autocorrelation phi (AR(1) noise); a level
 * lower than the one before it must last the minimum drop duration (no
 * end-of-run dips; a rise back at the end needs 2 samples, the burst 1).
 * found: the floor (lowest level after the highest) is at most
 * CACHE_DROP_RATIO of the burst (highest level before it).
 */
void cache_change_point(const double *v, unsigned n, double dt, struct cache_change *c);

/* Samples of the minimum drop duration for n samples of dt seconds. */
unsigned cache_change_min_drop(unsigned n, double dt);

/*
 * Size the burst from sub-second samples sub[0..nsub-1] (subdt seconds
 * each, the start of the same run) when c's first change (c->first
 * samples of dt) falls inside them and they show it there too: burst_rate
 * and burst_amount from them. A burst under 2 s is then not averaged
 * with the slower rest of its second.
 */
void cache_change_sub(const double *sub, unsigned nsub, double subdt, double dt, struct cache_change *c);

#endif
