/*
 * labels.h — the node identity a user gives with --label: one NAME and
 * key=value pairs, nothing taken from the machine (no hostname, no IP).
 */
#ifndef VPSBENCH_LABELS_H
#define VPSBENCH_LABELS_H

#include <stdbool.h>
#include <stddef.h>

#define LABEL_MAX_LEN   64 /* bytes of one --label argument */
#define LABEL_MAX_PAIRS 16

struct bench_labels {
	char name[LABEL_MAX_LEN + 1];              /* "" = no name given */
	unsigned n;                                /* key=value pairs */
	char key[LABEL_MAX_PAIRS][LABEL_MAX_LEN + 1];
	char val[LABEL_MAX_PAIRS][LABEL_MAX_LEN + 1];
};

/* True when s is 1..64 bytes of [A-Za-z0-9_.:=-]. */
bool label_valid(const char *s);

/*
 * Adds one --label argument: NAME, or key=value. Returns 0, or -1 with one
 * line in err (bad characters, too long, a second NAME, a repeated key).
 */
int labels_add(struct bench_labels *l, const char *arg, char *err, size_t errlen);

/* True when any label was given. */
bool labels_any(const struct bench_labels *l);

#endif
