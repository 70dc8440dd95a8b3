/*
 * text_oversell.c — the oversell signs seen, in words, as the sysinfo and
 * mem sections both list them: one per line, the label on the first, or
 * the caller's "none" line when nothing was flagged.
 */
#include "text_put.h"

void text_oversell_flags(FILE *f, const struct render_style *st, const char *label,
			 const char (*flags)[HOST_MEM_FLAG_LEN], unsigned nflags, const char *none)
{
	for (unsigned i = 0; i < nflags; i++)
		text_kv(f, st, i ? "" : label, "%s", flags[i]);
	if (nflags == 0)
		text_kv(f, st, label, "%s", none);
}
