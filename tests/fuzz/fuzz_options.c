/*
 * fuzz_options.c — options_parse on an argv cut from the input at NUL
 * and newline bytes. --help and --version print to stdout, errors to
 * stderr: both are sent to /dev/null once, crash reports still show.
 */
#include <fcntl.h>

#include "fuzz_common.h"
#include "core/options.h"

#define FUZZ_MAX_ARGS 64

static void quiet_stdout(void)
{
	static int done;
	int fd;

	if (done++)
		return;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bench_opts opts;
	char *argv[FUZZ_MAX_ARGS + 2], *buf;
	int argc = 0;

	quiet_stdout();
	buf = fuzz_cstr(data, size);
	if (!buf)
		return 0;
	argv[argc++] = "vpsbench";
	for (char *p = buf, *start = buf; argc <= FUZZ_MAX_ARGS; p++) {
		if (p == buf + size || *p == '\n' || *p == '\0') {
			bool end = p == buf + size;

			*p = '\0';
			argv[argc++] = start;
			start = p + 1;
			if (end)
				break;
		}
	}
	argv[argc] = NULL;
	memset(&opts, 0, sizeof(opts));
	(void)options_parse(argc, argv, &opts);
	free(buf);
	return 0;
}
