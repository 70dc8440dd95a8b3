/*
 * watch_lock.h — the state directory's lock: one watcher per state
 * directory (issue #40 D5: two wrote interleaved seqs into one history).
 * flock(LOCK_EX | LOCK_NB) on <state>/lock, held for the watcher's life
 * (the kernel drops it when the process ends, however it ends); the file
 * holds the holder's pid for the refusal's message. `watch --report` and
 * `--status` only read and do not take it.
 */
#ifndef VPSBENCH_WATCH_LOCK_H
#define VPSBENCH_WATCH_LOCK_H

#include <stdbool.h>
#include <stddef.h>

struct watch_lock {
	int fd;          /* -1: not held */
	bool created;    /* this run created the lock file */
	char path[4200];
};

/*
 * Takes the lock on dir/lock. 0 held; 1 another process holds it (err:
 * "--state-dir DIR is in use by pid N"); -1 another failure (err names the
 * file and the operation).
 */
int watch_lock_take(struct watch_lock *l, const char *dir, char *err, size_t errlen);
/* Drops the lock; with remove, the lock file goes too (only one this run created). */
void watch_lock_release(struct watch_lock *l, bool remove);

#endif
