/*
 * watch_http.h — /metrics of `vpsbench watch` over HTTP, served by
 * libmicrohttpd's own thread: GET and HEAD of /metrics only (404 for other
 * paths, 405 for other methods), the latest body published by the round
 * loop. Built without libmicrohttpd, only --listen none works.
 */
#ifndef VPSBENCH_WATCH_HTTP_H
#define VPSBENCH_WATCH_HTTP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "cmd/watch/watch_opts.h"

struct watch_http {
	int fd;                 /* the bound, listening socket; -1 = none */
	void *daemon;           /* struct MHD_Daemon */
	pthread_mutex_t mu;
	char *body;             /* owned; NULL = nothing published yet */
	size_t len;
};

/*
 * Binds and listens on --listen before anything starts (a busy port is
 * bad input). 0 (nothing done for --listen none), or -1 with err.
 */
int watch_http_bind(struct watch_http *h, const struct watch_opts *o, char *err, size_t errlen);
/* Starts serving on the bound socket. 0, or -1 with err. */
int watch_http_start(struct watch_http *h, char *err, size_t errlen);
/* Replaces the served body by body (taken over; freed later). */
void watch_http_publish(struct watch_http *h, char *body, size_t len);
void watch_http_stop(struct watch_http *h);

#endif
