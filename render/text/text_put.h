/*
 * text_put.h — helpers the text dispatcher and the text sections share.
 */
#ifndef VPSBENCH_TEXT_PUT_H
#define VPSBENCH_TEXT_PUT_H

#include <stddef.h>
#include <stdio.h>

#include "grade/grade.h"
#include "render/render.h"

void text_heading(FILE *f, const struct render_style *st, const char *title);
void text_kv(FILE *f, const struct render_style *st, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *text_color(const struct render_style *st, const char *code); /* "" without color */
/* Red for the lowest tier, green for the top one, yellow between. */
const char *text_tier_color(const struct render_style *st, unsigned rank, unsigned ntiers);
/*
 * The grade of metric beside a figure: "  ideal, tier 4 of 5 (5 = best):
 * ideal for a web VPS" ("between good and ideal, tiers 3-4 of 5 ...:
 * borderline" when borderline, "disturbed: why" for a disturbed figure)
 * after the text already printed on the line (used columns), wrapped under
 * it (indent columns) when it would pass 80 columns; ends the line. Nothing
 * but the newline when the metric was neither graded nor disturbed.
 */
void text_grade_tag(FILE *f, const struct render_style *st, const struct grade_result *g,
		    const char *metric, size_t used, unsigned indent);
/* head, then text word by word within 80 columns; continuation lines start with hw spaces. */
void text_wrap(FILE *f, const char *head, int hw, const char *text);
/* "CPU 98%, steal 0.1%" of a timed pass, ", disturbed" below the share bound; "unknown" parts as such. */
void text_pass_cpu(char *buf, size_t n, const struct pass_cpu *c);
/* The oversell signs seen (text_oversell.c): one a line under label, else the line none. */
void text_oversell_flags(FILE *f, const struct render_style *st, const char *label,
			 const char (*flags)[HOST_MEM_FLAG_LEN], unsigned nflags, const char *none);

#endif
