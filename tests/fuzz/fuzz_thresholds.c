/* fuzz_thresholds.c — grade_load_file on the input as a --thresholds file. */
#include "fuzz_common.h"
#include "grade/grade.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct grade_table t;
	char path[64], err[512];
	int fd = fuzz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	t = *grade_builtin_table();
	err[0] = '\0';
	if (grade_load_file(path, &t, err, sizeof(err)) < 0 && !err[0])
		abort(); /* a refusal must say why */
	close(fd);
	return 0;
}
