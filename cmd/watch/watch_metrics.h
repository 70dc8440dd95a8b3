/*
 * watch_metrics.h — the Prometheus text (format 0.0.4) of `vpsbench
 * watch`: the same body on /metrics and in --prom-file. A metric with no
 * value yet is left out, never shown as 0.
 */
#ifndef VPSBENCH_WATCH_METRICS_H
#define VPSBENCH_WATCH_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/watch/watch_drift.h"
#include "cmd/watch/watch_round.h"

struct watch_state {
	const char *state_dir;
	uint64_t rounds;
	uint64_t runs[WP_COUNT][WS_COUNT];
	bool have_round;
	struct watch_round last;                   /* the latest round */
	bool have_ok[WP_COUNT];
	struct watch_probe_result last_ok[WP_COUNT]; /* each probe's latest ok figures */
	const struct watch_drift *drift;
	uint64_t write_errors;
};

/* Adds round r to s (counts, latest figures). */
void watch_state_add(struct watch_state *s, const struct watch_round *r);

/* The body into a malloc'd string; NULL on no memory. */
char *watch_metrics_render(const struct watch_state *s, size_t *len);

#endif
