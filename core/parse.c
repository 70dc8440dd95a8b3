/*
 * parse.c — suffix-table parsers for sizes and durations (ioping style).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

struct suffix {
	const char *name;
	uint64_t mult;
};

static const struct suffix size_suffixes[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	{ NULL, 0 },
};

static const struct suffix time_suffixes[] = {
	{ "", 1000000000ULL }, { "s", 1000000000ULL },
	{ "ms", 1000000ULL }, { "us", 1000ULL },
	{ "m", 60ULL * 1000000000ULL }, { "min", 60ULL * 1000000000ULL },
	{ "h", 3600ULL * 1000000000ULL },
	{ NULL, 0 },
};

/* Number (integer or with a fraction) followed by a suffix from the table. */
static int parse_suffixed(const char *s, const struct suffix *tab, uint64_t *out)
{
	char *end;
	double v;
	const struct suffix *sf;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	for (sf = tab; sf->name; sf++) {
		if (strcasecmp(end, sf->name) == 0) {
			double r = v * (double)sf->mult;

			if (r >= 18446744073709551615.0)
				return -1;
			*out = (uint64_t)(r + 0.5);
			return 0;
		}
	}
	return -1;
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_suffixed(s, size_suffixes, out);
}

int parse_duration(const char *s, uint64_t *out_ns)
{
	return parse_suffixed(s, time_suffixes, out_ns);
}

int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_enum(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}
