/*
 * place_filter.c — the filters of the placement (--place-* options and
 * `vpsbench place`'s): parsing each value, the defaults, the words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "grade/place.h"

#define PLACE_YEAR_MIN 2000u
#define PLACE_YEAR_MAX 2099u
#define PLACE_VCPUS_MAX 255u     /* pub_run.vcpus is a byte */
#define PLACE_MIN_N_MAX 1000u

void place_filter_default(struct place_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->kind = PUB_KIND_VPS;
	f->min_n = PLACE_MIN_N_DEFAULT;
}

/* A whole unsigned decimal number in lo..hi: 0, or -1. */
static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "N" or "N-M" (N <= M), each in lo..hi; "any" gives 0, 0. 0, or -1. */
static int parse_range(const char *s, unsigned lo, unsigned hi, unsigned *a, unsigned *b)
{
	char buf[32];
	const char *dash;

	if (!s)
		return -1;
	if (!strcmp(s, "any")) {
		*a = *b = 0;
		return 0;
	}
	dash = strchr(s, '-');
	if (!dash) {
		if (parse_uint(s, lo, hi, a) < 0)
			return -1;
		*b = *a;
		return 0;
	}
	if ((size_t)(dash - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(dash - s));
	buf[dash - s] = '\0';
	if (parse_uint(buf, lo, hi, a) < 0 || parse_uint(dash + 1, lo, hi, b) < 0 || *a > *b)
		return -1;
	return 0;
}

int place_filter_arg(struct place_filter *f, const char *name, const char *val,
		     char *err, size_t errlen)
{
	unsigned a, b;

	if (!strcmp(name, "place-kind")) {
		if (val && !strcmp(val, "vps"))
			f->kind = PUB_KIND_VPS;
		else if (val && !strcmp(val, "dedicated"))
			f->kind = PUB_KIND_DEDICATED;
		else if (val && !strcmp(val, "any"))
			f->kind = PUB_KIND_UNKNOWN;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(name, "place-vcpus")) {
		if (parse_range(val, 1, PLACE_VCPUS_MAX, &a, &b) < 0)
			goto bad;
		f->vcpus_lo = a;
		f->vcpus_hi = b;
		return 0;
	}
	if (!strcmp(name, "place-years")) {
		if (parse_range(val, PLACE_YEAR_MIN, PLACE_YEAR_MAX, &a, &b) < 0)
			goto bad;
		f->year_lo = a;
		f->year_hi = b;
		return 0;
	}
	if (!strcmp(name, "place-min-n")) {
		if (parse_uint(val, 1, PLACE_MIN_N_MAX, &a) < 0)
			goto bad;
		f->min_n = a;
		return 0;
	}
	if (!strcmp(name, "place-per-machine")) {
		f->per_machine = true;
		return 0;
	}
	if (!strcmp(name, "place-include-cached")) {
		f->include_cached = true;
		return 0;
	}
	snprintf(err, errlen, "--%s: not a placement filter (--place-kind, --place-vcpus, "
		 "--place-years, --place-min-n, --place-per-machine, --place-include-cached)", name);
	return -1;
bad:
	if (!strcmp(name, "place-kind"))
		snprintf(err, errlen, "--place-kind takes vps, dedicated or any, not '%s'",
			 val ? val : "");
	else if (!strcmp(name, "place-vcpus"))
		snprintf(err, errlen, "--place-vcpus takes N, N-M (1-%u, N <= M) or any, not '%s'",
			 PLACE_VCPUS_MAX, val ? val : "");
	else if (!strcmp(name, "place-years"))
		snprintf(err, errlen, "--place-years takes Y, Y-Y (%u-%u, first <= last) or any, "
			 "not '%s'", PLACE_YEAR_MIN, PLACE_YEAR_MAX, val ? val : "");
	else
		snprintf(err, errlen, "--place-min-n takes a whole number from 1 to %u, not '%s'",
			 PLACE_MIN_N_MAX, val ? val : "");
	return -1;
}

int place_filter_from_opts(const struct bench_opts *o, struct place_filter *f, char *err,
			   size_t errlen)
{
	place_filter_default(f);
	if (o->place_kind && place_filter_arg(f, "place-kind", o->place_kind, err, errlen) < 0)
		return -1;
	if (o->place_vcpus && place_filter_arg(f, "place-vcpus", o->place_vcpus, err, errlen) < 0)
		return -1;
	if (o->place_years && place_filter_arg(f, "place-years", o->place_years, err, errlen) < 0)
		return -1;
	if (o->place_min_n && place_filter_arg(f, "place-min-n", o->place_min_n, err, errlen) < 0)
		return -1;
	f->per_machine = o->place_per_machine;
	f->include_cached = o->place_include_cached;
	return 0;
}

void place_filter_text(const struct place_filter *f, char *buf, size_t n)
{
	const char *kind = f->kind == PUB_KIND_VPS ? "vps" :
			   f->kind == PUB_KIND_DEDICATED ? "dedicated" : "any";
	char vc[32], yr[32];

	if (!f->vcpus_lo && !f->vcpus_hi)
		snprintf(vc, sizeof(vc), "any vCPUs");
	else if (f->vcpus_lo == f->vcpus_hi)
		snprintf(vc, sizeof(vc), "%u vCPUs", f->vcpus_lo);
	else
		snprintf(vc, sizeof(vc), "%u-%u vCPUs", f->vcpus_lo, f->vcpus_hi);
	if (!f->year_lo && !f->year_hi)
		snprintf(yr, sizeof(yr), "all years");
	else if (f->year_lo == f->year_hi)
		snprintf(yr, sizeof(yr), "year %u", f->year_lo);
	else
		snprintf(yr, sizeof(yr), "years %u-%u", f->year_lo, f->year_hi);
	snprintf(buf, n, "kind %s, %s, %s, %s, %s", kind, vc, yr,
		 f->per_machine ? "one run per machine" : "every run",
		 f->include_cached ? "cache-inflated runs kept" : "cache-inflated runs left out");
}

/* See place.h: the commands' --place-* options, with their names in one place. */
int place_filter_argv(struct place_filter *f, int argc, char **argv, int *i, char *err,
		      size_t errlen)
{
	static const char *const valued[] = { "place-kind", "place-vcpus", "place-years",
					      "place-min-n", NULL };
	static const char *const flags[] = { "place-per-machine", "place-include-cached", NULL };
	const char *a = argv[*i];

	if (strncmp(a, "--place-", 8) != 0)
		return 1;
	a += 2;
	for (int k = 0; flags[k]; k++)
		if (!strcmp(a, flags[k]))
			return place_filter_arg(f, a, NULL, err, errlen);
	for (int k = 0; valued[k]; k++) {
		size_t l = strlen(valued[k]);

		if (strncmp(a, valued[k], l) != 0)
			continue;
		if (a[l] == '=')
			return place_filter_arg(f, valued[k], a + l + 1, err, errlen);
		if (a[l] != '\0')
			continue;
		if (*i + 1 >= argc) {
			snprintf(err, errlen, "--%s needs a value", valued[k]);
			return -1;
		}
		(*i)++;
		return place_filter_arg(f, valued[k], argv[*i], err, errlen);
	}
	snprintf(err, errlen, "unknown option '%s'", argv[*i]);
	return -1;
}
