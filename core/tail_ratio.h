/*
 * tail_ratio.h — the drop rule of a per-second timeline, shared by the
 * rand passes (grade's rand_tail_ratio) and the net directions: the mean of
 * the last third over the mean of the first third; below TAIL_DROP_RATIO
 * the rate fell during the run (burst credits spent, a policer after a
 * burst, throttling).
 */
#ifndef VPSBENCH_TAIL_RATIO_H
#define VPSBENCH_TAIL_RATIO_H

#define TAIL_DROP_RATIO 0.7

/* Last third / first third of v[0..n-1]; NAN when n < 3 or the first third is 0. */
double tail_ratio(const double *v, unsigned n);

#endif
