/* fuzz_require.c — require_parse on any --require expression. */
#include "fuzz_common.h"
#include "grade/grade.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct requirement reqs[REQUIRE_MAX];
	unsigned n = 0;
	char err[512];
	char *s = fuzz_cstr(data, size);

	if (!s)
		return 0;
	err[0] = '\0';
	if (require_parse(s, reqs, REQUIRE_MAX, &n, err, sizeof(err)) < 0) {
		if (!err[0])
			abort(); /* a refusal must say why */
	} else if (n > REQUIRE_MAX) {
		abort();
	}
	free(s);
	return 0;
}
