/*
 * health_bounds.c — the built-in health bounds: the figure past which a
 * Health check (health.c) calls a problem, each with the range --thresholds
 * may move it within and its source. A bound that no public source states
 * carries the project's reasoning, with url "README.md#grades" (the README
 * section says the same). grade_builtin_table copies them into the table,
 * so --thresholds moves them and --dump-thresholds prints them.
 */
#include <math.h>
#include <string.h>

#include "grade.h"
#include "core/host_mem.h"
#include "core/tail_ratio.h"

#define README "README.md#grades"

const struct health_bound grade_builtin_health[] = {
	{ "steal_pct", "%", "a problem when CPU steal over the cpu module is above this", 10, 0, 100,
	  { "https://scoutapm.com/blog/understanding-cpu-steal-time-when-should-you-be-worried",
	    "Scout APM: \"if steal time is greater than 10% for 20 minutes, the VM is likely in a "
	    "state that it is running slower than it should\"; vpsbench applies the 10% to the mean "
	    "steal over its cpu module (tens of seconds, not 20 minutes): a problem seen now, not a "
	    "sustained one" } },
	{ "iops_cov_pct", "%", "a problem when the per-second IOPS of the main random pass vary "
	  "(CoV) by more than this", 15, 0, 1000,
	  { README, "project reasoning: a healthy volume at a fixed queue depth holds its rate within "
	    "a few per cent second to second; over 15% one second in six is off by a sixth or more, "
	    "more than a pass's own start-up explains: neighbours or a throttle are at work" } },
	{ "iops_tail_ratio", "x", "a problem when the last third of the main random pass's "
	  "per-second IOPS is below this share of the first third", TAIL_DROP_RATIO, 0, 1,
	  { README, "project reasoning: burst credits and policers cut a volume to a fraction of its "
	    "burst rate (often a half or less); a fall to under 70% within one pass is that step, "
	    "not second-to-second noise, which the CoV bound covers" } },
	{ "scaling_slack", "x", "a problem when N-thread / 1-thread events/s is above the thread "
	  "count times this", 1.05, 1, 2,
	  { README, "project reasoning: N threads cannot do more than N times the work of one; 5% "
	    "allows timer granularity and turbo steps; above it a pass (usually the 1-thread one) "
	    "was disturbed: the measurement, not the machine" } },
	{ "mem_eff_min", "x", "a problem when, with all threads streaming, each gets under this "
	  "share of what one thread streams alone", 0.25, 0, 1,
	  { README, "project reasoning: cores of one host share its memory channels, so a share "
	    "well below 1 is normal; under a quarter, with the CPU ruled out (no steal, the passes "
	    "got their CPU), no VM size explains it: bandwidth capped or oversold" } },
	{ "mem_psi_avg10", "%", "memory pressure (PSI some avg10) at or above this is shown as "
	  "this guest's memory pressure", HOST_MEM_PSI_FLAG_AVG10, 0, 100,
	  { README, "project reasoning: an idle guest with free memory reads 0.00 here; tasks "
	    "stalled on memory for 1% of the last 10 s means reclaim or swap is already in "
	    "the way of this guest's work" } },
};
const unsigned grade_builtin_nhealth = sizeof(grade_builtin_health) / sizeof(grade_builtin_health[0]);

double grade_health_bound(const struct grade_table *t, const char *name)
{
	for (unsigned i = 0; t && i < t->nhealth; i++)
		if (strcmp(t->health[i].name, name) == 0)
			return t->health[i].value;
	for (unsigned i = 0; i < grade_builtin_nhealth; i++)
		if (strcmp(grade_builtin_health[i].name, name) == 0)
			return grade_builtin_health[i].value;
	return NAN;
}
