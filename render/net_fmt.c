/*
 * net_fmt.c — bits per second the way iperf3 prints them and yabs copies
 * them ("938 Mbits/sec", "1.61 Gbits/sec": decimal units, three digits).
 */
#include <stdio.h>

#include "render.h"

void net_fmt_bps(char *buf, size_t n, double bps)
{
	static const char *const unit[] = { "bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec",
					     "Tbits/sec" };
	unsigned u = 0;

	while (bps >= 1000.0 && u < 4) {
		bps /= 1000.0;
		u++;
	}
	snprintf(buf, n, bps < 9.995 ? "%.2f %s" : bps < 99.95 ? "%.1f %s" : "%.0f %s", bps, unit[u]);
}
