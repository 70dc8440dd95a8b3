/* text_sysinfo.c — placeholder text section for sysinfo. */
#include "render.h"

void text_sysinfo(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	text_heading(f, st, "sysinfo");
	(void)rep;

}
