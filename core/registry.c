/*
 * registry.c — the table of modules, expanded from BENCH_MODULES(), and the
 * helpers every module calls: outcome, status names, warnings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "module.h"

#define BENCH_MOD_EXTERN(n) extern const struct bench_module bench_mod_##n;
BENCH_MODULES(BENCH_MOD_EXTERN)
#undef BENCH_MOD_EXTERN

const struct bench_module *const bench_modules[MOD_COUNT] = {
#define BENCH_MOD_ENTRY(n) [MOD_##n] = &bench_mod_##n,
	BENCH_MODULES(BENCH_MOD_ENTRY)
#undef BENCH_MOD_ENTRY
};

int bench_module_find(const char *name)
{
	for (int i = 0; i < MOD_COUNT; i++)
		if (strcmp(bench_modules[i]->name, name) == 0)
			return i;
	return -1;
}

enum bench_status bench_outcome(struct mod_outcome *out, enum bench_status st,
				const char *fmt, ...)
{
	va_list ap;

	out->status = st;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
		va_end(ap);
	} else {
		out->reason[0] = '\0';
	}
	return st;
}

const char *bench_status_name(enum bench_status st)
{
	switch (st) {
	case BENCH_NOT_RUN:    return "not_run";
	case BENCH_OK:         return "ok";
	case BENCH_SKIP:       return "skipped";
	case BENCH_FAIL:       return "failed";
	case BENCH_UNAVAIL:    return "unavailable";
	case BENCH_INCOMPLETE: return "incomplete";
	}
	return "unknown";
}

void bench_warnings_add(struct bench_warnings *w, const char *fmt, va_list ap)
{
	if (!w || w->n >= BENCH_MAX_WARN)
		return;
	vsnprintf(w->msg[w->n], sizeof(w->msg[0]), fmt, ap);
	w->n++;
}

void bench_notice(const struct bench_ctx *ctx, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!ctx->notice)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ctx->notice(ctx, line);
}

void bench_warn(const struct bench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bench_warnings_add(ctx->warn, fmt, ap);
	va_end(ap);
}
