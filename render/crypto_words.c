/*
 * crypto_words.c — what the text and HTML reports say for one CPU crypto
 * pass: "812 MB/s", "[disturbed]" when its threads did not get their CPU,
 * or "not measured: <why>" (the pass's null_reason) when its figure is null.
 */
#include <stdio.h>

#include "render.h"

void render_crypto_mbps(char *buf, size_t n, const struct cpu_crypto_pass *p)
{
	if (p->mbps.ok)
		snprintf(buf, n, "%.0f MB/s%s", p->mbps.v, p->cpu.disturbed ? " [disturbed]" : "");
	else
		snprintf(buf, n, "not measured: %s", p->null_reason[0] ? p->null_reason : "unknown");
}
