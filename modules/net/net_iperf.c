/*
 * net_iperf.c — one iperf3 client test through libiperf, in a forked
 * child. libiperf is not thread-safe (global i_errno, static timers), may
 * call exit(), and writes its JSON to stdout unless told otherwise: the
 * child has /dev/null on 0/1/2, a log file of /dev/null, SIGPIPE ignored,
 * and sends the JSON back over a pipe. The parent reads with a hard
 * deadline and kills the child with SIGKILL when it is missed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "net_priv.h"

#ifdef HAVE_LIBIPERF
#include <stdint.h> /* iperf_api.h needs it first */
#include <iperf_api.h>

#define NET_JSON_MAX (4u << 20) /* a result with 128 streams and 10 s stays far below */

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void child(const struct net_test *t, int wfd)
{
	struct iperf_test *it;
	int null = open("/dev/null", O_RDWR);
	char *json;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	it = iperf_new_test();
	if (!it || iperf_defaults(it) < 0)
		_exit(3);
	iperf_set_test_role(it, 'c');
	iperf_set_test_server_hostname(it, (char *)t->addr);
	iperf_set_test_server_port(it, t->port);
	iperf_set_test_num_streams(it, (int)t->streams);
	iperf_set_test_reverse(it, t->reverse);
	iperf_set_test_duration(it, (int)t->duration_s);
	iperf_set_test_json_output(it, 1);
	iperf_set_test_logfile(it, "/dev/null");
	iperf_set_test_connect_timeout(it, 5000); /* ms; unset by default */
	iperf_run_client(it); /* JSON mode: 0 even on failure, the reason is in "error" */
	json = iperf_get_test_json_output_string(it);
	if (json)
		write_all(wfd, json, strlen(json));
	_exit(json ? 0 : 4);
}

int net_iperf_run(const struct net_test *t, struct net_dir *d)
{
	int p[2], status;
	pid_t pid;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	double end = mono_s() + t->deadline_s;
	bool timed_out = false, stopped = false;
	int busy = 0;

	memset(d->reason, 0, sizeof(d->reason));
	d->port = t->port;
	if (pipe2(p, O_CLOEXEC) < 0) {
		d->status = NET_FAILED;
		snprintf(d->reason, sizeof(d->reason), "pipe: %s", strerror(errno));
		return 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		d->status = NET_FAILED;
		snprintf(d->reason, sizeof(d->reason), "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		close(p[0]);
		child(t, p[1]);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		double left = end - mono_s();
		ssize_t r;
		int pr;

		if (t->stop && *t->stop) {
			stopped = true;
			break;
		}
		if (left <= 0) {
			timed_out = true;
			break;
		}
		pr = poll(&pfd, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0)
			continue;
		if (len + 65536 > cap) {
			char *nb;

			if (cap >= NET_JSON_MAX)
				break;
			nb = realloc(buf, cap ? cap * 2 : 131072);
			if (!nb)
				break;
			buf = nb;
			cap = cap ? cap * 2 : 131072;
		}
		r = read(p[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(p[0]);
	if (timed_out || stopped)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (stopped) {
		d->status = NET_SKIPPED;
		snprintf(d->reason, sizeof(d->reason), "interrupted");
	} else if (timed_out) {
		d->status = NET_TIMEOUT;
		snprintf(d->reason, sizeof(d->reason),
			 "no result within %.0f s (server stalled?): test killed", t->deadline_s);
	} else if (!len) {
		d->status = NET_FAILED;
		if (WIFSIGNALED(status))
			snprintf(d->reason, sizeof(d->reason), "iperf3 test died (signal %d)",
				 WTERMSIG(status));
		else
			snprintf(d->reason, sizeof(d->reason), "iperf3 test gave no result (exit %d)",
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		buf[len] = '\0';
		busy = net_iperf_parse(buf, d);
	}
	free(buf);
	return busy;
}
#else
int net_iperf_run(const struct net_test *t, struct net_dir *d)
{
	(void)t;
	d->status = NET_FAILED;
	snprintf(d->reason, sizeof(d->reason), "built without libiperf");
	return 0;
}
#endif
