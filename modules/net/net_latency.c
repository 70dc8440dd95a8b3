/*
 * net_latency.c — latency without root: the time a TCP connect() takes
 * (SYN to SYN-ACK, one round trip), NET_LAT_SAMPLES times, median
 * reported. ICMP would need a raw socket.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "net_priv.h"

/* One connect: seconds, or -errno. */
static double connect_once(const struct sockaddr *sa, socklen_t salen, int timeout_ms)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	double t0, r;
	int err = 0;
	socklen_t el = sizeof(err);

	if (fd < 0)
		return -errno;
	t0 = mono_s();
	if (connect(fd, sa, salen) < 0) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int pr;

		if (errno != EINPROGRESS) {
			r = -errno;
			goto out;
		}
		pr = poll(&p, 1, timeout_ms);
		if (pr == 0) {
			r = -ETIMEDOUT;
			goto out;
		}
		if (pr < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0) {
			r = -errno;
			goto out;
		}
		if (err) {
			r = -err;
			goto out;
		}
	}
	r = mono_s() - t0;
out:
	close(fd);
	return r;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void net_latency(const char *addr, int family, uint16_t port, int timeout_ms,
		 struct net_row *row)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	double s[NET_LAT_SAMPLES];
	int last_err = 0;

	memset(&ss, 0, sizeof(ss));
	if (family == 6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		sl = sizeof(*a);
		if (inet_pton(AF_INET6, addr, &a->sin6_addr) != 1)
			goto bad;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		sl = sizeof(*a);
		if (inet_pton(AF_INET, addr, &a->sin_addr) != 1)
			goto bad;
	}
	row->lat_ok = 0;
	/*
	 * iperf3 -s drops each probe and reopens its listener: a connect in
	 * that window is refused. Up to twice the samples are tried, 100 ms
	 * apart after a failure; a closed port fails every one.
	 */
	for (int i = 0; i < 2 * NET_LAT_SAMPLES && row->lat_ok < NET_LAT_SAMPLES; i++) {
		double r = connect_once((struct sockaddr *)&ss, sl, timeout_ms);

		if (r < 0) {
			last_err = (int)-r;
			if (last_err != ETIMEDOUT)
				usleep(100000);
		} else {
			s[row->lat_ok++] = r;
		}
	}
	if (!row->lat_ok) {
		snprintf(row->lat_reason, sizeof(row->lat_reason), "TCP connect to port %u: %s",
			 port, strerror(last_err));
		return;
	}
	qsort(s, row->lat_ok, sizeof(s[0]), cmp_dbl);
	row->latency_ms = mdbl_of((row->lat_ok % 2 ? s[row->lat_ok / 2] :
				   (s[row->lat_ok / 2 - 1] + s[row->lat_ok / 2]) / 2) * 1e3);
	return;
bad:
	snprintf(row->lat_reason, sizeof(row->lat_reason), "not a numeric address: %s", addr);
}
