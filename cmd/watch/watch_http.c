/*
 * watch_http.c — the /metrics server (watch_http.h) on libmicrohttpd.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/watch/watch_http.h"

#ifdef HAVE_LIBMICROHTTPD
#include <microhttpd.h>

int watch_http_bind(struct watch_http *h, const struct watch_opts *o, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int one = 1, fd, v6 = strchr(o->listen_host, ':') != NULL;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	pthread_mutex_init(&h->mu, NULL);
	if (o->listen_none)
		return 0;
	memset(&ss, 0, sizeof(ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)o->listen_port);
		if (inet_pton(AF_INET6, o->listen_host, &a->sin6_addr) != 1)
			goto bad;
		sl = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)o->listen_port);
		if (inet_pton(AF_INET, o->listen_host, &a->sin_addr) != 1)
			goto bad;
		sl = sizeof(*a);
	}
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "--listen %s%s%s:%u: socket: %s", v6 ? "[" : "", o->listen_host,
			 v6 ? "]" : "", o->listen_port, strerror(errno));
		return -1;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    (v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) < 0) ||
	    bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 64) < 0) {
		snprintf(err, errlen, "--listen %s%s%s:%u: bind: %s", v6 ? "[" : "", o->listen_host,
			 v6 ? "]" : "", o->listen_port, strerror(errno));
		close(fd);
		return -1;
	}
	h->fd = fd;
	return 0;
bad:
	snprintf(err, errlen, "--listen %s: not an address", o->listen_host);
	return -1;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_len, void **con_cls)
{
	static const char not_found[] = "not found: vpsbench watch serves /metrics\n";
	static const char not_allowed[] = "method not allowed: GET or HEAD\n";
	struct watch_http *h = cls;
	struct MHD_Response *resp;
	enum MHD_Result r;
	unsigned status = MHD_HTTP_OK;
	char *copy = NULL;
	size_t len = 0;

	(void)version;
	(void)upload;
	(void)con_cls;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		/* a body sent with it is not read: the connection is closed after the answer */
		*upload_len = 0;
		status = MHD_HTTP_METHOD_NOT_ALLOWED;
		resp = MHD_create_response_from_buffer(sizeof(not_allowed) - 1, (void *)not_allowed,
						       MHD_RESPMEM_PERSISTENT);
		if (resp)
			MHD_add_response_header(resp, "Allow", "GET, HEAD");
	} else if (strcmp(url, "/metrics") != 0) {
		status = MHD_HTTP_NOT_FOUND;
		resp = MHD_create_response_from_buffer(sizeof(not_found) - 1, (void *)not_found,
						       MHD_RESPMEM_PERSISTENT);
	} else {
		pthread_mutex_lock(&h->mu);
		if (h->body && (copy = malloc(h->len + 1))) {
			memcpy(copy, h->body, h->len);
			len = h->len;
		}
		pthread_mutex_unlock(&h->mu);
		if (!copy && !(copy = strdup("vpsbench_watch_up 1\n")))
			return MHD_NO;
		if (!len)
			len = strlen(copy);
		resp = MHD_create_response_from_buffer(len, copy, MHD_RESPMEM_MUST_FREE);
		if (!resp)
			free(copy);
		else
			MHD_add_response_header(resp, "Content-Type",
						"text/plain; version=0.0.4; charset=utf-8");
	}
	if (!resp)
		return MHD_NO;
	r = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return r;
}

int watch_http_start(struct watch_http *h, char *err, size_t errlen)
{
	if (h->fd < 0)
		return 0;
	h->daemon = MHD_start_daemon(MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
				     answer, h, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned)128,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
				     MHD_OPTION_END);
	if (!h->daemon) {
		snprintf(err, errlen, "starting the /metrics server (libmicrohttpd): failed");
		return -1;
	}
	return 0;
}

void watch_http_stop(struct watch_http *h)
{
	if (h->daemon)
		MHD_stop_daemon(h->daemon);
	h->daemon = NULL;
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	pthread_mutex_lock(&h->mu);
	free(h->body);
	h->body = NULL;
	pthread_mutex_unlock(&h->mu);
	pthread_mutex_destroy(&h->mu);
}
#else
int watch_http_bind(struct watch_http *h, const struct watch_opts *o, char *err, size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->fd = -1;
	pthread_mutex_init(&h->mu, NULL);
	if (o->listen_none)
		return 0;
	snprintf(err, errlen, "--listen: /metrics over HTTP is unavailable: built without "
		 "libmicrohttpd (use --listen none and --prom-file)");
	return -1;
}

int watch_http_start(struct watch_http *h, char *err, size_t errlen)
{
	(void)h;
	(void)err;
	(void)errlen;
	return 0;
}

void watch_http_stop(struct watch_http *h)
{
	free(h->body);
	h->body = NULL;
	pthread_mutex_destroy(&h->mu);
}
#endif

void watch_http_publish(struct watch_http *h, char *body, size_t len)
{
	char *old;

	pthread_mutex_lock(&h->mu);
	old = h->body;
	h->body = body;
	h->len = len;
	pthread_mutex_unlock(&h->mu);
	free(old);
}
