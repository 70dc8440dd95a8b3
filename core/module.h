/*
 * module.h — the uniform interface every benchmark module implements.
 *
 * A module measures and fills its own result struct (the section of the
 * report bench.c hands it as `result`); it never prints and never includes
 * another module. Warnings go through bench_warn(). bench.c runs the
 * modules of the registry in order; the renderers read the report after.
 */
#ifndef VPSBENCH_MODULE_H
#define VPSBENCH_MODULE_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase.h"
#include "value.h"

/* The one registry list: order is run order (the disk modules first, so a
 * signal early in a run still lands in the disk passes). */
#define BENCH_MODULES(X) \
	X(sysinfo)       \
	X(seq)           \
	X(rand)          \
	X(fsync)         \
	X(cache)         \
	X(cpu)           \
	X(mem)           \
	X(net)

enum bench_mod_id {
#define BENCH_MOD_ENUM(n) MOD_##n,
	BENCH_MODULES(BENCH_MOD_ENUM)
#undef BENCH_MOD_ENUM
	MOD_COUNT
};

enum bench_status {
	BENCH_NOT_RUN = 0, /* not selected */
	BENCH_OK,          /* ran to completion */
	BENCH_SKIP,        /* could not run here (reason says why), e.g. read-only dir */
	BENCH_FAIL,        /* started and failed, or could not start: exit 2 */
	BENCH_UNAVAIL,     /* built without a library it needs */
	BENCH_INCOMPLETE,  /* interrupted: partial figures, marked as such */
};

struct mod_outcome {
	enum bench_status status;
	char reason[256];
	double seconds; /* wall time the module took */
};

/* Warnings a run collects: shown once at the end of the text report and in JSON. */
#define BENCH_MAX_WARN 32
struct bench_warnings {
	/* room for two long paths: at 256 bytes a warning naming a report and a dir
	 * below a deep TMPDIR lost its conclusion ("...: its figures are cache-served") */
	char msg[BENCH_MAX_WARN][1024];
	unsigned n;
};

struct bench_opts;
struct bench_plan;
struct bench_report;
struct bench_live;

/* One step for the progress line: what runs, and its work for percent and ETA. */
struct bench_step {
	const char *module;
	const char *what;
	uint64_t bytes;    /* work in bytes (seq runs, layout); 0 = not counted in bytes */
	uint64_t ns;       /* planned duration (rand: ramp + runtime); 0 = not timed */
	uint64_t ramp_ns;  /* the warm-up at the start of ns */
	unsigned slots;    /* counter slots (jobs) the step publishes into */
};

struct bench_ctx {
	const struct bench_opts *opts;
	const struct bench_plan *plan;
	const char *root;              /* prefix for /proc, /sys, /etc: "" on a real system */
	unsigned cpus_usable;          /* from the affinity mask, >= 1 */
	volatile sig_atomic_t *stop;   /* set by the signal handler: stop promptly */
	/* Optional progress hook (stderr only); phase 0 = start, 1 = end. */
	void (*progress)(const struct bench_ctx *ctx, const struct bench_step *step, int phase);
	/* Counters the measuring threads publish (progress.h); NULL = nobody watches. */
	struct bench_live *live;
	/* Where bench_warn() writes; NULL = warnings are dropped. */
	struct bench_warnings *warn;
	/* One line for the user before a module sends data (stderr); NULL = not shown. */
	void (*notice)(const struct bench_ctx *ctx, const char *line);
	/* sysinfo's usable address + default route per family, for net's plan */
	enum mbool host_ipv4, host_ipv6;
};

struct bench_module {
	const char *name;
	const char *desc;
	const char *unavailable; /* non-NULL: "built without X", run is not called */
	/* result: this module's own result struct (struct seq_result for seq...) */
	enum bench_status (*run)(const struct bench_ctx *ctx, void *result,
				 struct mod_outcome *out);
};

extern const struct bench_module *const bench_modules[MOD_COUNT];

/* Index of a module by name, or -1. */
int bench_module_find(const char *name);

/* Outcome helper: sets status and a formatted reason, returns status. */
enum bench_status bench_outcome(struct mod_outcome *out, enum bench_status st,
				const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *bench_status_name(enum bench_status st);

/* Shows one line through ctx->notice (nothing without one). */
void bench_notice(const struct bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Adds a warning to ctx->warn (dropped past BENCH_MAX_WARN or without a sink). */
void bench_warn(const struct bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bench_warnings_add(struct bench_warnings *w, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static inline void bench_progress_step(const struct bench_ctx *ctx, const struct bench_step *st,
				       int phase)
{
	if (ctx->progress)
		ctx->progress(ctx, st, phase);
}

/* A step without counted work (shown with its elapsed time only). */
static inline void bench_progress(const struct bench_ctx *ctx, const char *module,
				  const char *what, int phase)
{
	struct bench_step st = { .module = module, .what = what };

	bench_progress_step(ctx, &st, phase);
}

static inline bool bench_stopped(const struct bench_ctx *ctx)
{
	return ctx->stop && *ctx->stop;
}

/* The VPSBENCH_WAIT_PHASE test seam (core/phase.h) at a named phase. */
static inline void bench_phase(const struct bench_ctx *ctx, const char *name, unsigned n)
{
	bench_phase_wait(name, n, ctx->stop);
}

#endif
