/*
 * value.h — values that may be unknown. Unknown renders as null in JSON
 * and "unknown" in text, never as a 0 that looks real.
 */
#ifndef VPSBENCH_VALUE_H
#define VPSBENCH_VALUE_H

#include <stdbool.h>
#include <stdint.h>

struct mu64 {
	uint64_t v;
	bool ok;
};

struct mi64 {
	int64_t v;
	bool ok;
};

struct mdbl {
	double v;
	bool ok;
};

/* Tri-state boolean: unknown, false, true. */
enum mbool { MB_UNKNOWN = 0, MB_FALSE, MB_TRUE };

static inline struct mu64 mu64_of(uint64_t v) { return (struct mu64){ v, true }; }
static inline struct mi64 mi64_of(int64_t v) { return (struct mi64){ v, true }; }
static inline struct mdbl mdbl_of(double v) { return (struct mdbl){ v, true }; }
static inline enum mbool mbool_of(bool b) { return b ? MB_TRUE : MB_FALSE; }

#endif
