/*
 * cpu_prime.c — sysbench cpu 1.0.20's event, written from its description:
 * count the primes among 3 .. max_prime-1 by trial division with
 * l = 2 .. sqrt(c), 64-bit integers, the bound in double. One call = one
 * event. The Makefile compiles this file with -O2 -funroll-loops, the
 * flags sysbench's configure gives its own sources (OPTIMIZE_CFLAGS), so
 * the loop is in the same compiler class as Debian's sysbench binary.
 */
#include <math.h>

#include "cpu.h"

unsigned long cpu_prime_event(unsigned long long max_prime)
{
	unsigned long long c, l, n = 0;
	double t;

	for (c = 3; c < max_prime; c++) {
		t = sqrt((double)c);
		for (l = 2; l <= t; l++)
			if (c % l == 0)
				break;
		if (l > t)
			n++;
	}
	return (unsigned long)n;
}
