/*
 * host_mem.c — the oversell signs of the host's memory, read from /proc and
 * /sys below a root prefix. Each file read alone: one that is absent (no
 * PSI before 4.20, no KSM built in, /sys not mounted) leaves its sign
 * unknown and the others still count.
 */
#include <stdio.h>
#include <string.h>

#include "host_mem.h"
#include "root_read.h"

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=9209" */
static bool psi_line(const char *root, const char *kind, double *avg10, double *total_us)
{
	FILE *f = root_fopen(root, "/proc/pressure/memory");
	char line[256];
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char k[8];
		unsigned long long tot;

		if (sscanf(line, "%7s avg10=%lf avg60=%*f avg300=%*f total=%llu", k, avg10, &tot) == 3 &&
		    strcmp(k, kind) == 0) {
			*total_us = (double)tot;
			ok = true;
			break;
		}
	}
	fclose(f);
	return ok;
}

void host_mem_read(const char *root, struct host_mem_signs *s)
{
	uint64_t v, free_kb;
	double a, t;
	char buf[32];

	memset(s, 0, sizeof(*s));
	if (root_exists(root, "/sys/module/virtio_balloon") ||
	    root_exists(root, "/sys/bus/virtio/drivers/virtio_balloon"))
		s->balloon = MB_TRUE;
	else if (root_exists(root, "/sys/module") || root_exists(root, "/sys/bus/virtio"))
		s->balloon = MB_FALSE; /* where it would show, it does not */
	if (root_read_line(root, "/sys/kernel/mm/ksm/run", buf, sizeof(buf)))
		s->ksm_run = mbool_of(strcmp(buf, "1") == 0);
	if (root_read_u64(root, "/sys/kernel/mm/ksm/pages_sharing", &v))
		s->ksm_pages_sharing = mu64_of(v);
	if (root_read_key(root, "/proc/meminfo", "SwapTotal", &v) &&
	    root_read_key(root, "/proc/meminfo", "SwapFree", &free_kb)) {
		s->swap_total = mu64_of(v * 1024);
		s->swap_used = mu64_of(v > free_kb ? (v - free_kb) * 1024 : 0);
	}
	if (root_read_key(root, "/proc/vmstat", "pswpin", &v))
		s->pswpin = mu64_of(v);
	if (psi_line(root, "some", &a, &t)) {
		s->psi_some_avg10 = mdbl_of(a);
		s->psi_some_total_us = mdbl_of(t);
	}
	if (psi_line(root, "full", &a, &t))
		s->psi_full_avg10 = mdbl_of(a);
}

unsigned host_mem_flags(const struct host_mem_signs *s, bool with_psi,
			char (*flags)[HOST_MEM_FLAG_LEN], unsigned max)
{
	unsigned n = 0;

	/* a loaded balloon driver is a figure (most KVM images load it), never a sign: not here */
	if (s->ksm_run == MB_TRUE && n < max && s->ksm_pages_sharing.ok)
		snprintf(flags[n++], HOST_MEM_FLAG_LEN,
			 "KSM active: %llu pages shared (memory deduplicated)",
			 (unsigned long long)s->ksm_pages_sharing.v);
	else if (s->ksm_run == MB_TRUE && n < max)
		snprintf(flags[n++], HOST_MEM_FLAG_LEN, "KSM active: memory deduplicated");
	if (s->swap_used.ok && s->swap_used.v > 0 && n < max)
		snprintf(flags[n++], HOST_MEM_FLAG_LEN, "swap in use: %llu MiB",
			 (unsigned long long)(s->swap_used.v >> 20));
	if (with_psi && s->psi_some_avg10.ok && s->psi_some_avg10.v >= HOST_MEM_PSI_FLAG_AVG10 &&
	    n < max)
		snprintf(flags[n++], HOST_MEM_FLAG_LEN, "memory pressure: some avg10 %.2f%%",
			 s->psi_some_avg10.v);
	return n;
}
