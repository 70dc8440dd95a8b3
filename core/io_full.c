/* io_full.c — see io_full.h. */
#include <errno.h>
#include <unistd.h>

#include "io_full.h"

int io_write_full(const struct bench_ctx *ctx, int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR && !bench_stopped(ctx))
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}
