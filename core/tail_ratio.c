/*
 * tail_ratio.c — last third over first third of a per-second timeline.
 */
#include <math.h>

#include "tail_ratio.h"

double tail_ratio(const double *v, unsigned n)
{
	double first = 0, last = 0;

	if (n < 3)
		return NAN;
	for (unsigned i = 0; i < n / 3; i++) {
		first += v[i];
		last += v[n - n / 3 + i];
	}
	return first > 0 ? last / first : NAN;
}
