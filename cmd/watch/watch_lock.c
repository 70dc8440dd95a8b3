/*
 * watch_lock.c — the state directory's lock (watch_lock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/watch/watch_lock.h"

/* The holder's pid from the file, or 0: it writes it just after taking the lock, so a few tries. */
static long holder_pid(const char *path)
{
	for (int i = 0; i < 20; i++) {
		struct timespec ts = { 0, 10 * 1000000L };
		char buf[32];
		ssize_t n;
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n > 0) {
				char *end;
				long pid;

				buf[n] = '\0';
				pid = strtol(buf, &end, 10);
				if (pid > 0 && end != buf && (*end == '\n' || !*end))
					return pid;
			}
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

int watch_lock_take(struct watch_lock *l, const char *dir, char *err, size_t errlen)
{
	struct stat a, b;
	char pid[32];
	int n;

	l->fd = -1;
	l->created = false;
	snprintf(l->path, sizeof(l->path), "%s/lock", dir);
	/* a loop: a lock file removed between our open and flock is locked by nobody else */
	for (int tries = 0; tries < 10; tries++) {
		l->fd = open(l->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		l->created = l->fd >= 0;
		if (l->fd < 0 && errno == EEXIST)
			l->fd = open(l->path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (l->fd < 0) {
			if (errno == ENOENT)
				continue;
			snprintf(err, errlen, "--state-dir %s: opening %s: %s", dir, l->path,
				 strerror(errno));
			return -1;
		}
		if (flock(l->fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;
			long holder;

			close(l->fd);
			l->fd = -1;
			if (e != EWOULDBLOCK) {
				snprintf(err, errlen, "--state-dir %s: flock %s: %s", dir, l->path,
					 strerror(e));
				return -1;
			}
			holder = holder_pid(l->path);
			if (holder)
				snprintf(err, errlen, "--state-dir %s is in use by pid %ld", dir, holder);
			else
				snprintf(err, errlen, "--state-dir %s is in use by another watcher "
					 "(%s is locked)", dir, l->path);
			return 1;
		}
		if (fstat(l->fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			break;
		close(l->fd); /* unlinked or replaced meanwhile: try the one there now */
		l->fd = -1;
	}
	if (l->fd < 0) {
		snprintf(err, errlen, "--state-dir %s: %s keeps changing under the lock", dir, l->path);
		return -1;
	}
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(l->fd, 0) < 0 || pwrite(l->fd, pid, (size_t)n, 0) != n) {
		snprintf(err, errlen, "--state-dir %s: writing %s: %s", dir, l->path, strerror(errno));
		watch_lock_release(l, l->created);
		return -1;
	}
	return 0;
}

void watch_lock_release(struct watch_lock *l, bool remove)
{
	if (l->fd < 0)
		return;
	/* unlinked while still held: a watcher starting meanwhile finds it gone and retries */
	if (remove && l->created)
		unlink(l->path);
	close(l->fd);
	l->fd = -1;
}
