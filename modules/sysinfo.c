/* sysinfo.c — placeholder: reports "not implemented yet". */
#include "report.h"

static enum bench_status sysinfo_run(const struct bench_ctx *ctx, struct bench_report *rep,
				 struct mod_outcome *out)
{
	(void)ctx;
	(void)rep;
	return bench_outcome(out, BENCH_UNAVAIL, "not implemented yet");
}

const struct bench_module bench_mod_sysinfo = {
	.name = "sysinfo",
	.desc = "sysinfo",
	.run = sysinfo_run,
};
