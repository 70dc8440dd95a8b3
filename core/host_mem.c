/*
 * host_mem.c — the oversell signs of the host's memory, read from /proc and
 * /sys below a root prefix. Each file read alone: one that is absent (no
 * PSI before 4.20, no KSM built in, /sys not mounted) leaves its sign
 * unknown and the others still count.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_mem.h"

static FILE *open_at(const char *root, const char *rel)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof(path), "%s%s", root ? root : "", rel);

	if (len < 0 || (size_t)len >= sizeof(path))
		return NULL;
	return fopen(path, "re");
}

static bool exists_at(const char *root, const char *rel)
{
	char path[PATH_MAX];
	int len = snprintf(path, sizeof(path), "%s%s", root ? root : "", rel);

	return len >= 0 && (size_t)len < sizeof(path) && access(path, F_OK) == 0;
}

/* First line of a small file, trailing space cut; false when absent or empty. */
static bool read_line(const char *root, const char *rel, char *buf, size_t n)
{
	FILE *f = open_at(root, rel);
	size_t len;

	if (!f)
		return false;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return len > 0;
}

static bool read_u64(const char *root, const char *rel, uint64_t *v)
{
	char buf[64], *end;

	if (!read_line(root, rel, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, &end, 10);
	return end != buf && *end == '\0';
}

/* "key value" or "key: value" lines (/proc/meminfo, /proc/vmstat). */
static bool read_key(const char *root, const char *rel, const char *key, uint64_t *v)
{
	FILE *f = open_at(root, rel);
	char line[256];
	size_t kl = strlen(key);
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) == 0 && (line[kl] == ' ' || line[kl] == ':' ||
						     line[kl] == '\t')) {
			char *p = line + kl + (line[kl] == ':'), *end;

			*v = strtoull(p, &end, 10);
			ok = end != p;
			break;
		}
	}
	fclose(f);
	return ok;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=9209" */
static bool psi_line(const char *root, const char *kind, double *avg10, double *total_us)
{
	FILE *f = open_at(root, "/proc/pressure/memory");
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
	if (exists_at(root, "/sys/module/virtio_balloon") ||
	    exists_at(root, "/sys/bus/virtio/drivers/virtio_balloon"))
		s->balloon = MB_TRUE;
	else if (exists_at(root, "/sys/module") || exists_at(root, "/sys/bus/virtio"))
		s->balloon = MB_FALSE; /* where it would show, it does not */
	if (read_line(root, "/sys/kernel/mm/ksm/run", buf, sizeof(buf)))
		s->ksm_run = mbool_of(strcmp(buf, "1") == 0);
	if (read_u64(root, "/sys/kernel/mm/ksm/pages_sharing", &v))
		s->ksm_pages_sharing = mu64_of(v);
	if (read_key(root, "/proc/meminfo", "SwapTotal", &v) &&
	    read_key(root, "/proc/meminfo", "SwapFree", &free_kb)) {
		s->swap_total = mu64_of(v * 1024);
		s->swap_used = mu64_of(v > free_kb ? (v - free_kb) * 1024 : 0);
	}
	if (read_key(root, "/proc/vmstat", "pswpin", &v))
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

	if (s->balloon == MB_TRUE && n < max)
		snprintf(flags[n++], HOST_MEM_FLAG_LEN,
			 "virtio_balloon loaded: the host can take memory back");
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
