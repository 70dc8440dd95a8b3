/*
 * test_watch_lock.c — the state directory's lock (cmd/watch/watch_lock.c):
 * a second taker is refused naming the holder's pid (flock locks belong to
 * an open file description, so a second open in this process conflicts as
 * another process would), released it can be taken again, and a lock file
 * this run created goes with remove.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/watch/watch_lock.h"
#include "th.h"

TH_TEST(watch_lock_second_refused_names_pid)
{
	const char *tmp = getenv("TMPDIR");
	char dir[400], err[512], want[64], path[600];
	struct watch_lock a, b;

	snprintf(dir, sizeof(dir), "%s/vpsbench-lock-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		th_skip("mkdtemp failed");
		return;
	}
	snprintf(path, sizeof(path), "%s/lock", dir);
	TH_CHECK(watch_lock_take(&a, dir, err, sizeof(err)) == 0);
	TH_CHECK(a.created);
	TH_CHECK(watch_lock_take(&b, dir, err, sizeof(err)) == 1);
	snprintf(want, sizeof(want), "is in use by pid %ld", (long)getpid());
	TH_CHECK(strstr(err, want) != NULL);
	TH_CHECK(strstr(err, dir) != NULL);
	TH_CHECK(b.fd < 0);
	watch_lock_release(&a, false);
	TH_CHECK(access(path, F_OK) == 0); /* kept at a normal exit */
	TH_CHECK(watch_lock_take(&b, dir, err, sizeof(err)) == 0);
	TH_CHECK(!b.created);
	watch_lock_release(&b, true);      /* not this run's file: stays */
	TH_CHECK(access(path, F_OK) == 0);
	unlink(path);
	TH_CHECK(watch_lock_take(&a, dir, err, sizeof(err)) == 0 && a.created);
	watch_lock_release(&a, true);      /* this run's: removed */
	TH_CHECK(access(path, F_OK) != 0);
	rmdir(dir);
}
