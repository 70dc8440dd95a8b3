/*
 * oversell_words.c — what sysinfo's text and HTML say when no oversell
 * sign was seen: "unknown" when none could be read, else "none seen" and
 * the signs that could not be read.
 */
#include <string.h>

#include "render.h"

void oversell_none_words(char *buf, size_t n, const struct sys_mem *m)
{
	/* sysinfo lists all three when none of their files could be read */
	if (strcmp(m->signs_unknown, "KSM, swap, pressure") == 0)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "none seen%s%s", m->signs_unknown[0] ? "; unknown: " : "",
			 m->signs_unknown);
}
