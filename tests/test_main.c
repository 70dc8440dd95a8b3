/*
 * test_main.c — runs every registered test (optionally those whose name
 * contains argv[1]) and prints "N passed, N failed, N skipped".
 */
#include <stdarg.h>
#include <stdlib.h>

#include "th.h"

static struct th_test *th_head, **th_tail = &th_head;
static int th_cur_failed, th_cur_skipped;

void th_register(struct th_test *t)
{
	*th_tail = t;
	th_tail = &t->next;
}

void th_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	th_cur_failed++;
}

void th_skip(const char *why)
{
	fprintf(stdout, "    skipped: %s\n", why);
	th_cur_skipped = 1;
}

const char *th_srcdir(void)
{
	const char *d = getenv("VPSBENCH_SRCDIR");

	return d && *d ? d : ".";
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;

	for (struct th_test *t = th_head; t; t = t->next) {
		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		th_cur_failed = 0;
		th_cur_skipped = 0;
		t->fn();
		fflush(stdout);
		if (th_cur_failed) {
			printf("FAIL %s (%s)\n", t->name, t->file);
			failed++;
		} else if (th_cur_skipped) {
			printf("SKIP %s\n", t->name);
			skipped++;
		} else {
			printf("ok   %s\n", t->name);
			passed++;
		}
	}
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
