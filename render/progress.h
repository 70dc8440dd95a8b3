/*
 * progress.h — the live status line on stderr: a thread samples the
 * counters of core/live.h 4 times a second and draws one line per pass
 * when stderr is a terminal, plain lines otherwise.
 */
#ifndef VPSBENCH_PROGRESS_H
#define VPSBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/live.h"

/*
 * Sets up l for a run of ctx's plan: out is stderr, tty whether it is a
 * terminal, color whether colors are allowed there. Starts the drawing
 * thread on a terminal (plain lines when it cannot start). Returns 0, or
 * -errno when the lock cannot be set up: then leave ctx->live NULL.
 */
int progress_start(struct bench_live *l, const struct bench_ctx *ctx, FILE *out, bool tty,
		   bool color, bool quiet);

/* The ctx->progress hook: phase 0 = step starts, 1 = ends. */
void progress_step(const struct bench_ctx *ctx, const struct bench_step *step, int phase);

/* bench.c, after a module returned: its planned work that did not start is dropped. */
void progress_module_done(struct bench_live *l, int mod);
/* One "vpsbench: LINE" on the progress stream, never inside the live status line. */
void progress_notice(struct bench_live *l, const char *line);

/* Stops the thread and clears the status line; before the report prints. */
void progress_stop(struct bench_live *l);

/* --- pure helpers, unit-tested --- */

/* "01m:05s", "1h02m:03s"; "--m:--s" when s is negative or not finite. */
void progress_fmt_eta(char *buf, size_t n, double s);

/*
 * One status line, cut to width columns (no control codes): module,
 * step, percent, rates, ETA of the step and of the whole run; NAN = unknown.
 */
void progress_fmt_line(char *buf, size_t n, unsigned width, const char *module, const char *what,
		       double pct, const double iops[2], const double bps[2], bool ramp,
		       double eta_step, double eta_total);

/* Planned work of a module from the plan: bytes (seq, layout) and ns (rand passes). */
void progress_plan_work(const struct bench_ctx *ctx, int mod, uint64_t *bytes, uint64_t *ns);

/*
 * The run's plan in one line, shown before the first module: each
 * module's planned bytes and time (the storage part's cap included) and
 * the sum, "plan: seq 4.0 GiB, rand 1.0 GiB + 45 s, storage 5 min (at most): ...";
 * "" when nothing is planned. bench.c shows it before a run with the storage part.
 */
void progress_plan_line(const struct bench_ctx *ctx, char *buf, size_t n);

#endif
