/*
 * clock.h — CLOCK_MONOTONIC readings, inline because the I/O loops take
 * one per batch. Linux's monotonic clock cannot fail; 0 would show up as
 * an obviously wrong figure rather than a crash.
 */
#ifndef VPSBENCH_CLOCK_H
#define VPSBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline double mono_s(void)
{
	return (double)mono_ns() / 1e9;
}

#endif
