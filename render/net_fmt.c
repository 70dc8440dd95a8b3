/*
 * net_fmt.c — bits per second the way iperf3 prints them and yabs copies
 * them ("938 Mbits/sec", "1.61 Gbits/sec": decimal units, three digits),
 * round trips in plain decimals, data moved in decimal bytes. Past the
 * largest unit a figure is printed in three digits with an exponent, never
 * in hundreds of digits; a value that is not a number is "unknown".
 */
#include <math.h>
#include <stdio.h>

#include "render.h"

/* v in the first unit of unit[] that keeps it under 1000; three significant digits. */
static void fmt_scaled(char *buf, size_t n, double v, const char *const *unit, unsigned nu,
		       bool int_first)
{
	unsigned u = 0;
	double v0 = v;

	if (!isfinite(v)) {
		snprintf(buf, n, "unknown");
		return;
	}
	while (fabs(v) >= 1000.0 && u + 1 < nu) {
		v /= 1000.0;
		u++;
	}
	if (fabs(v) >= 1000.0) /* past the largest unit: three digits and an exponent */
		snprintf(buf, n, "%.3g %s", v0, unit[0]);
	else if (u == 0 && int_first)
		snprintf(buf, n, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, n, fabs(v) < 9.995 ? "%.2f %s" : fabs(v) < 99.95 ? "%.1f %s" : "%.0f %s",
			 v, unit[u]);
}

void net_fmt_bps(char *buf, size_t n, double bps)
{
	static const char *const unit[] = { "bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec",
					     "Tbits/sec" };

	fmt_scaled(buf, n, bps, unit, 5, false);
}

void net_fmt_ms(char *buf, size_t n, double ms)
{
	if (!isfinite(ms) || ms >= 1e6)
		snprintf(buf, n, isfinite(ms) ? "%.3g ms" : "unknown", ms);
	else
		snprintf(buf, n, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
}

void net_fmt_bytes(char *buf, size_t n, double b)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB", "PB" };

	fmt_scaled(buf, n, b, unit, 6, true);
}
