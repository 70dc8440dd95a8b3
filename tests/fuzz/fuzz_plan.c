/* fuzz_plan.c — plan_build with --profile FILE: the input is the INI file. */
#include "fuzz_common.h"
#include "core/options.h"
#include "core/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bench_opts opts;
	static struct bench_plan plan;
	char path[64], err[512];
	char *argv[] = { "vpsbench", "--profile", path, NULL };
	int fd = fuzz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	memset(&opts, 0, sizeof(opts));
	if (options_parse(3, argv, &opts) == 0) {
		err[0] = '\0';
		if (plan_build(&opts, &plan, err, sizeof(err)) < 0 && !err[0])
			abort(); /* a refusal must say why */
	}
	close(fd);
	return 0;
}
