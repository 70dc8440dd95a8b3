/*
 * watch_history.h — history.jsonl of `vpsbench watch`: one JSON object a
 * line, each appended with a single write() then fdatasync(), never
 * partial (a short or failed write is truncated back), rotated to
 * history.jsonl.1 when the next line would pass the cap; reopened on
 * SIGHUP (logrotate moved it).
 */
#ifndef VPSBENCH_WATCH_HISTORY_H
#define VPSBENCH_WATCH_HISTORY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/watch/watch_drift.h"
#include "cmd/watch/watch_round.h"

struct watch_history {
	int fd;
	char path[PATH_MAX];
	char rotated[PATH_MAX];
	uint64_t max;
	uint64_t errors;        /* writes that failed (write_errors) */
	char last_err[2 * PATH_MAX + 256]; /* the latest failure, "" once a write worked again */
};

/* Opens (creates) dir/history.jsonl for appending. 0, or -1 with err. */
int watch_history_open(struct watch_history *h, const char *dir, uint64_t max, char *err,
		       size_t errlen);
/* Closes and opens the path again (a new file when it was moved). 0, or -1 with err. */
int watch_history_reopen(struct watch_history *h, char *err, size_t errlen);
void watch_history_close(struct watch_history *h);

/*
 * The seq of the history's last line (0 when none or unreadable): a
 * restarted watcher goes on from there.
 */
uint64_t watch_history_last_seq(const struct watch_history *h);

/* Appends line (ending in '\n'). 0, or -1 with h->errors raised and h->last_err set. */
int watch_history_append(struct watch_history *h, const char *line, size_t len);

/* The round's line (the spec's keys, in order) into a malloc'd string; NULL on no memory. */
char *watch_history_line(const struct watch_round *r, const struct watch_drift *dr, size_t *len);

#endif
