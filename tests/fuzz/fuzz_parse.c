/* fuzz_parse.c — parse_size, parse_duration and parse_uint on any string. */
#include "fuzz_common.h"
#include "core/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v, lo, hi;
	char *s;

	if (size < 1)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	if (!s)
		return 0;
	switch (data[0] % 3) {
	case 0:
		/* a plain byte count of up to 15 digits is exact (no rounding through double) */
		if (parse_size(s, &v) == 0 && *s && strlen(s) <= 15 &&
		    strspn(s, "0123456789") == strlen(s) && v != strtoull(s, NULL, 10))
			abort();
		break;
	case 1:
		(void)parse_duration(s, &v);
		break;
	default:
		lo = data[0] / 3;
		hi = lo + 4096;
		if (parse_uint(s, lo, hi, &v) == 0 && (v < lo || v > hi))
			abort(); /* out of the range it was asked to enforce */
		break;
	}
	free(s);
	return 0;
}
