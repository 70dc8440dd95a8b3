/*
 * section_ran.c — which module sections belong in a report, for every format.
 */
#include "render.h"

bool render_section_ran(const struct bench_report *rep, int id)
{
	enum bench_status s = rep->outcome[id].status;

	return s == BENCH_OK || s == BENCH_INCOMPLETE || s == BENCH_FAIL;
}
