/*
 * fsync_sample.c — the fsync module's recipe in small for `vpsbench
 * watch`: buffered writes of bs bytes, each followed by fdatasync(), in a
 * region of a file laid out once, timed into fio's histogram.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "fsync.h"

int fsync_sample(int fd, uint64_t off, uint64_t span, uint32_t bs, const unsigned char *data,
		 uint64_t ns, const volatile int *stop, struct lat_hist *h, char *err,
		 size_t errlen)
{
	uint64_t start = mono_ns(), pos = 0, t0, t1;

	if (!bs || span < bs) {
		snprintf(err, errlen, "fsync sample: region of %llu bytes for %u-byte writes",
			 (unsigned long long)span, bs);
		return -EINVAL;
	}
	do {
		ssize_t w;

		if (pos + bs > span)
			pos = 0;
		do {
			w = pwrite(fd, data, bs, (off_t)(off + pos));
		} while (w < 0 && errno == EINTR && !(stop && *stop));
		if (w < 0 || (size_t)w != bs) {
			int e = w < 0 ? errno : EIO;

			snprintf(err, errlen, "write at %llu: %s", (unsigned long long)(off + pos),
				 w < 0 ? strerror(e) : "short write");
			return -e;
		}
		pos += bs;
		t0 = mono_ns();
		if (fdatasync(fd) < 0) {
			int e = errno;

			snprintf(err, errlen, "fdatasync: %s", strerror(e));
			return -e;
		}
		t1 = mono_ns();
		lat_hist_add(h, t1 - t0);
	} while (t1 - start < ns && !(stop && *stop));
	return 0;
}
