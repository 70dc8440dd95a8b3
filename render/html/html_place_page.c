/*
 * html_place_page.c — `vpsbench place --html FILE`: a whole self-contained
 * page (the report page's style) holding only "Among published results"
 * (html_place.c). Apart from html_place.c so the report page (html.c) and
 * this one both call into it, never back.
 */
#include <stdio.h>

#include "html_chart.h"
#include "render/render.h"

int render_place_html(FILE *f, const struct place_result *p, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body><main>\n<h1>", html_css());
	html_esc(f, title);
	fputs("</h1>\n", f);
	if (p->ran && (p->nitems || p->rand_note[0]))
		html_place(f, p);
	else
		fputs("<p>Nothing to place among published results.</p>\n", f);
	fputs("</main></body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
