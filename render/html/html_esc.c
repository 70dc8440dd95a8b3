/*
 * html_esc.c — HTML-escaping for every page and section (html.c,
 * html_oversell.c, fleet_html.c): a file of its own that calls nothing
 * back, so sections that escape text do not call their dispatcher.
 */
#include "html_chart.h"

/* Also quotes: the same helper serves attributes; control characters become '?'. */
void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* control characters have no business in a page */
			fputc(c < 0x20 && c != '\t' ? '?' : (int)c, f);
		}
	}
}
