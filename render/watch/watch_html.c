/* watch_html.c — placeholder, replaced below */
#include "watch_render.h"

int watch_html(FILE *f, const struct watch_hist *h)
{
	(void)h;
	fputs("<!DOCTYPE html><html><body></body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
