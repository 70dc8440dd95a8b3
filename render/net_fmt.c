/*
 * net_fmt.c — bits per second the way iperf3 prints them and yabs copies
 * them ("938 Mbits/sec", "1.61 Gbits/sec": decimal units, three digits),
 * round trips in plain decimals, data moved in decimal bytes.
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

void net_fmt_ms(char *buf, size_t n, double ms)
{
	snprintf(buf, n, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
}

void net_fmt_bytes(char *buf, size_t n, double b)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	unsigned u = 0;

	while (b >= 1000.0 && u < 4) {
		b /= 1000.0;
		u++;
	}
	snprintf(buf, n, u == 0 ? "%.0f %s" : b < 9.995 ? "%.2f %s" : b < 99.95 ? "%.1f %s" : "%.0f %s",
		 b, unit[u]);
}
