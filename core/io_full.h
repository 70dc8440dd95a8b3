/*
 * io_full.h — a whole-buffer write that a signal does not cut short: the
 * loop the seq and fsync modules' write paths share.
 */
#ifndef VPSBENCH_IO_FULL_H
#define VPSBENCH_IO_FULL_H

#include <stddef.h>

#include "core/module.h"

/*
 * Write all len bytes of buf to fd, retrying partial writes and EINTR while
 * the run is not stopped. 0, or -errno (-EINTR only once stopped; -EIO for a
 * write that returned 0).
 */
int io_write_full(const struct bench_ctx *ctx, int fd, const void *buf, size_t len);

#endif
