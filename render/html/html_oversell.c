/*
 * html_oversell.c — the oversell signs seen, in words, as the sysinfo and
 * mem sections of the page both list them: in one row joined by "; " or a
 * row each, or the caller's "none" text when nothing was flagged.
 */
#include <stdbool.h>

#include "html_chart.h"

void html_oversell_flags(FILE *f, const char *label, const char (*flags)[HOST_MEM_FLAG_LEN],
			 unsigned nflags, bool one_row, const char *none)
{
	fputs("<tr><th>", f);
	html_esc(f, label);
	fputs("</th><td>", f);
	if (nflags == 0)
		html_esc(f, none);
	for (unsigned i = 0; i < nflags; i++) {
		if (i && one_row) {
			fputs("; ", f);
		} else if (i) {
			fputs("</td></tr>\n<tr><th></th><td>", f);
		}
		html_esc(f, flags[i]);
	}
	fputs("</td></tr>\n", f);
}
