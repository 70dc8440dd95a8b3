/*
 * units.c — number formatting shared by the text renderers.
 */
#include <math.h>
#include <stdio.h>

#include "render.h"

void fmt_num2str(char *buf, size_t n, double v, bool pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	const double base = pow2 ? 1024.0 : 1000.0;
	int i = 0;

	if (!(v >= 0) || isinf(v)) {
		snprintf(buf, n, "unknown");
		return;
	}
	/* like fio: divide until at most 4 digits remain */
	while (v >= 9999.5 && i < 5) {
		v /= base;
		i++;
	}
	if (i == 0 && v == floor(v))
		snprintf(buf, n, "%.0f%s", v, unit ? unit : "");
	else if (v < 9.995)
		snprintf(buf, n, "%.2f%s%s", v, pow2 ? iec[i] : si[i], unit ? unit : "");
	else if (v < 99.95)
		snprintf(buf, n, "%.1f%s%s", v, pow2 ? iec[i] : si[i], unit ? unit : "");
	else
		snprintf(buf, n, "%.0f%s%s", v, pow2 ? iec[i] : si[i], unit ? unit : "");
}

void fmt_bytes(char *buf, size_t n, uint64_t bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024.0 && i < 5) {
		v /= 1024.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, n, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, n, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, u[i]);
}

void fmt_ns(char *buf, size_t n, double ns)
{
	if (!(ns >= 0))
		snprintf(buf, n, "unknown");
	else if (ns < 1000)
		snprintf(buf, n, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, n, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, n, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, n, "%.2f s", ns / 1e9);
}

void fmt_uptime(char *buf, size_t n, struct mdbl up)
{
	unsigned long long s, d, h, m;

	if (!up.ok) {
		snprintf(buf, n, "unknown");
		return;
	}
	s = (unsigned long long)up.v;
	d = s / 86400;
	h = s / 3600 % 24;
	m = s / 60 % 60;
	if (d)
		snprintf(buf, n, "%llu day%s, %llu hour%s %llu min", d, d == 1 ? "" : "s", h,
			 h == 1 ? "" : "s", m);
	else
		snprintf(buf, n, "%llu hour%s %llu min", h, h == 1 ? "" : "s", m);
}
