/*
 * html_chart.h — the HTML report's style and SVG chart pieces (html.c),
 * for other pages drawn the same way (fleet_html.c, watch_html.c). Geometry in viewBox
 * units: HTML_CW x HTML_CH, plot area inside the margins.
 */
#ifndef VPSBENCH_HTML_CHART_H
#define VPSBENCH_HTML_CHART_H

#include <stdbool.h>
#include <stdio.h>

#include "render/render.h"

#define HTML_CW 420.0
#define HTML_CH 250.0
#define HTML_ML 62.0
#define HTML_MR 14.0
#define HTML_MT 30.0
#define HTML_MB 42.0

const char *html_css(void);
void html_esc(FILE *f, const char *s);           /* HTML-escapes, quotes too (html_esc.c) */
double html_nice_ceil(double v);                 /* 1, 2, 2.5, 5 x 10^k at or above v */
double html_px(double x, double x0, double x1);  /* data x to viewBox x */
void html_svg_open(FILE *f, const char *cls, const char *label); /* <svg> and both axes */
void html_svg_xtick(FILE *f, double xx, const char *label);
void html_svg_xlabel(FILE *f, const char *text);
/* a tick at xx with its label at tx, anchored "start", "middle" or "end" */
void html_svg_xtick_anchor(FILE *f, double xx, double tx, const char *anchor, const char *label);
double html_py(double y, double y0, double y1);  /* data y to viewBox y (linear) */
void html_svg_ytick(FILE *f, double y, double y0, double y1, const char *label); /* grid line + label */
void html_svg_ylabel(FILE *f, const char *text); /* the y title, above the axis */
/* The oversell signs seen (html_oversell.c): in one row joined by "; " or a row each, else none. */
void html_oversell_flags(FILE *f, const char *label, const char (*flags)[HOST_MEM_FLAG_LEN],
			 unsigned nflags, bool one_row, const char *none);

#endif
