/*
 * host_mem.h — a snapshot of the signs that the host's memory is oversold
 * or tight: the balloon driver (virtio_balloon) loaded, KSM merging pages,
 * swap in use, memory pressure (PSI), and the counters a caller can take
 * deltas of (pswpin, PSI stall time). Read below a root prefix so fixture
 * trees stand in; a sign whose file is absent stays unknown, never "no".
 * Used by sysinfo (what the machine is) and mem (the same, over its run).
 */
#ifndef VPSBENCH_HOST_MEM_H
#define VPSBENCH_HOST_MEM_H

#include "value.h"

#define HOST_MEM_FLAG_LEN 96
#define HOST_MEM_PSI_FLAG_AVG10 1.0  /* % of the last 10 s some task stalled on memory */

struct host_mem_signs {
	enum mbool balloon;                /* virtio_balloon loaded (module or driver dir) */
	enum mbool ksm_run;                /* /sys/kernel/mm/ksm/run = 1 */
	struct mu64 ksm_pages_sharing;
	struct mu64 swap_total, swap_used; /* bytes, /proc/meminfo */
	struct mdbl psi_some_avg10, psi_full_avg10;  /* %, /proc/pressure/memory */
	struct mdbl psi_some_total_us;     /* cumulative stall, for deltas */
	struct mu64 pswpin;                /* /proc/vmstat, cumulative pages swapped in */
};

void host_mem_read(const char *root, struct host_mem_signs *s);

/*
 * The snapshot's signs in words, in this order: KSM, swap in use, and
 * (with_psi) memory pressure at or above HOST_MEM_PSI_FLAG_AVG10. The
 * balloon driver is a figure (s->balloon), not a sign: most KVM images load it.
 * Writes at most max lines; returns how many.
 */
unsigned host_mem_flags(const struct host_mem_signs *s, bool with_psi,
			char (*flags)[HOST_MEM_FLAG_LEN], unsigned max);

#endif
