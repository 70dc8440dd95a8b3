/*
 * storage_probe.c — the physical check, which needs no filesystem
 * knowledge: O_DIRECT 4 KiB reads one at a time, and their median. No
 * block device completes one below STORAGE_MEMORY_P50_NS; a median below
 * it means the reads were served from memory (tmpfs, the ZFS ARC, a
 * filesystem that ignores O_DIRECT), whatever the filesystem claims. It
 * stops as soon as the answer is known, so a slow disk pays ~n/2 reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "fsinfo.h"

#define PROBE_BS 4096u
#define PROBE_MAX 512u

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int storage_probe_direct(int fd, uint64_t size, unsigned n, struct storage_verdict *sv)
{
	uint64_t lat[PROBE_MAX], nblocks = size / PROBE_BS, x = 0x9e3779b97f4a7c15ULL ^ size;
	unsigned char *buf;
	unsigned done = 0, slow = 0;
	int rc = 0;

	if (n > PROBE_MAX)
		n = PROBE_MAX;
	if (nblocks == 0 || n == 0)
		return -EINVAL;
	if (posix_memalign((void **)&buf, PROBE_BS, PROBE_BS))
		return -ENOMEM;
	while (done < n) {
		uint64_t t0, t1;
		ssize_t r;

		/* xorshift: spread over the file; no cache of ours is in the way */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t0 = mono_ns();
		r = pread(fd, buf, PROBE_BS, (off_t)((x % nblocks) * PROBE_BS));
		t1 = mono_ns();
		if (r < 0 && errno == EINTR)
			continue;
		if (r != (ssize_t)PROBE_BS) {
			rc = r < 0 ? -errno : -EIO;
			goto out;
		}
		lat[done++] = t1 - t0;
		/* more than half at or above the bound: the median of all n would be too */
		if (t1 - t0 >= STORAGE_MEMORY_P50_NS && ++slow > n / 2)
			break;
	}
	qsort(lat, done, sizeof(lat[0]), cmp_u64);
	sv->probe_p50_ns = mu64_of(lat[done / 2]);
	/* a class already not graded keeps its own, more specific, reason */
	if (lat[done / 2] < STORAGE_MEMORY_P50_NS && storage_class_graded(sv->cls)) {
		sv->cls = STORAGE_MEMORY;
		snprintf(sv->why, sizeof(sv->why),
			 "served from memory, not the device: O_DIRECT 4k reads at qd1 took %.1f us "
			 "(p50), below the %.0f us no block device beats", (double)lat[done / 2] / 1e3,
			 (double)STORAGE_MEMORY_P50_NS / 1e3);
	}
out:
	free(buf);
	return rc;
}
