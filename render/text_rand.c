/* text_rand.c — placeholder text section for rand. */
#include "render.h"

void text_rand(FILE *f, const struct bench_report *rep, const struct bench_plan *plan, const struct render_style *st)
{
	text_heading(f, st, "rand");
	(void)rep;
	(void)plan;
}
