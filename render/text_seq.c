/* text_seq.c — placeholder text section for seq. */
#include "render.h"

void text_seq(FILE *f, const struct bench_report *rep, const struct bench_plan *plan, const struct render_style *st)
{
	text_heading(f, st, "seq");
	(void)rep;
	(void)plan;
}
