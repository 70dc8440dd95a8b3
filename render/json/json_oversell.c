/*
 * json_oversell.c — the "oversell" object that the sysinfo and mem
 * sections both write: the host's signs as a snapshot read them, and for
 * mem the run's own deltas (swap-in, stall time) beside them. One writer,
 * so the two objects name and order the shared keys the same way.
 */
#include "json_put.h"

#ifdef HAVE_CJSON

int json_add_oversell(cJSON *parent, const struct host_mem_signs *s, const struct mem_signs *run,
		      const char (*flags)[HOST_MEM_FLAG_LEN], unsigned nflags)
{
	cJSON *o = cJSON_AddObjectToObject(parent, "oversell"), *fl;

	if (!o)
		return -1;
	json_add_mbool(o, "balloon", s->balloon);
	json_add_mbool(o, "ksm_run", s->ksm_run);
	json_add_mu64(o, "ksm_pages_sharing", s->ksm_pages_sharing);
	if (run) /* sysinfo states swap total in its own "swap_total_bytes" */
		json_add_mu64(o, "swap_total_bytes", s->swap_total);
	json_add_mu64(o, "swap_used_bytes", s->swap_used);
	if (run) {
		json_add_mu64(o, "swapin_pages", run->swapin_pages);
		json_add_mdbl(o, "swapin_per_s", run->swapin_per_s);
	}
	json_add_mdbl(o, "psi_some_avg10", s->psi_some_avg10);
	json_add_mdbl(o, "psi_full_avg10", s->psi_full_avg10);
	if (run)
		json_add_mdbl(o, "psi_some_stall_ms", run->psi_some_ms);
	fl = cJSON_AddArrayToObject(o, "flags");
	if (!fl)
		return -1;
	for (unsigned i = 0; i < nflags; i++) {
		cJSON *str = cJSON_CreateString(flags[i]);

		if (!str)
			return -1;
		cJSON_AddItemToArray(fl, str);
	}
	return 0;
}

#endif
