/*
 * net_iperf_proto.c — the iperf3 wire protocol's framing: non-blocking
 * connects, whole writes and reads, state bytes and length-prefixed JSON,
 * each bounded by an absolute deadline and the run's stop flag (poll in
 * slices of at most 200 ms), so a stalled or lying server ends one wait,
 * never the process.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/clock.h"
#include "net_priv.h"

#define SLICE_MS 200

/* Waits for events on fd; IO_OK when ready. */
static enum io_rc wait_fd(int fd, short events, struct io *io)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		double left = io->deadline - mono_s();
		int ms, pr;

		if (io->stop && *io->stop)
			return IO_STOP;
		if (left <= 0)
			return IO_TIMEOUT;
		ms = left * 1000 > SLICE_MS ? SLICE_MS : (int)(left * 1000) + 1;
		pr = poll(&p, 1, ms);
		if (pr < 0 && errno != EINTR) {
			io->err = errno;
			return IO_ERR;
		}
		if (pr > 0)
			return IO_OK;
	}
}

int iperf_connect(const struct sockaddr *sa, socklen_t salen, struct io *io, enum io_rc *rc)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int err = 0;
	socklen_t el = sizeof(err);

	if (fd < 0) {
		io->err = errno;
		*rc = IO_ERR;
		return -1;
	}
	if (connect(fd, sa, salen) == 0) {
		*rc = IO_OK;
		return fd;
	}
	if (errno != EINPROGRESS) {
		io->err = errno;
		*rc = IO_ERR;
		goto fail;
	}
	*rc = wait_fd(fd, POLLOUT, io);
	if (*rc != IO_OK)
		goto fail;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0) {
		io->err = errno;
		*rc = IO_ERR;
		goto fail;
	}
	if (err) {
		io->err = err;
		*rc = IO_ERR;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

enum io_rc iperf_write_all(int fd, const void *buf, size_t n, struct io *io)
{
	const char *p = buf;

	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		enum io_rc rc;

		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			io->err = errno;
			return IO_ERR;
		}
		if ((rc = wait_fd(fd, POLLOUT, io)) != IO_OK)
			return rc;
	}
	return IO_OK;
}

enum io_rc iperf_read_full(int fd, void *buf, size_t n, struct io *io)
{
	char *p = buf;

	while (n) {
		ssize_t r = recv(fd, p, n, 0);
		enum io_rc rc;

		if (r > 0) {
			p += r;
			n -= (size_t)r;
			continue;
		}
		if (r == 0)
			return IO_EOF;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			io->err = errno;
			return IO_ERR;
		}
		if ((rc = wait_fd(fd, POLLIN, io)) != IO_OK)
			return rc;
	}
	return IO_OK;
}

enum io_rc iperf_read_state(int fd, signed char *state, struct io *io)
{
	return iperf_read_full(fd, state, 1, io);
}

enum io_rc iperf_send_json(int fd, const char *text, struct io *io)
{
	size_t n = strlen(text);
	uint32_t len = htonl((uint32_t)n);
	enum io_rc rc = iperf_write_all(fd, &len, sizeof(len), io);

	return rc != IO_OK ? rc : iperf_write_all(fd, text, n, io);
}

enum io_rc iperf_recv_json(int fd, char **out, uint32_t max, struct io *io)
{
	uint32_t len;
	enum io_rc rc = iperf_read_full(fd, &len, sizeof(len), io);
	char *buf;

	*out = NULL;
	if (rc != IO_OK)
		return rc;
	len = ntohl(len);
	if (len == 0 || len > max) {
		io->len = len;
		return IO_TOO_BIG;
	}
	if (!(buf = malloc((size_t)len + 1))) {
		io->err = ENOMEM;
		return IO_ERR;
	}
	rc = iperf_read_full(fd, buf, len, io);
	if (rc != IO_OK) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*out = buf;
	return IO_OK;
}

int iperf_make_cookie(char cookie[IPERF_COOKIE_LEN])
{
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char r[IPERF_COOKIE_LEN - 1];
	size_t got = 0;

	while (got < sizeof(r)) {
		ssize_t n = getrandom(r + got, sizeof(r) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		cookie[i] = alpha[r[i] % 32];
	cookie[IPERF_COOKIE_LEN - 1] = '\0';
	return 0;
}

const char *iperf_error_text(int32_t code)
{
	switch (code) {
	case 5:   return "test duration too long";
	case 6:   return "too many parallel streams";
	case 7:   return "block size too large";
	case 12:  return "bogus value for omit";
	case 27:  return "total required bandwidth is larger than server limit";
	case 37:  return "requested duration exceeds the server's maximum";
	case 106: return "unable to receive cookie at server";
	case 109: return "control socket has closed unexpectedly";
	case 110: return "received an unknown control message";
	case 114: return "unable to receive parameters from client";
	case 117: return "unable to receive results";
	case 119: return "the client has terminated";
	case 120: return "the server has terminated";
	case 121: return "the server is busy running a test";
	case 142: return "test authorization failed";
	case 144: return "idle timeout for receiving data";
	case 160: return "server test duration expired";
	case 203: return "unable to connect stream";
	case 208: return "stream has an invalid id";
	}
	return NULL;
}
