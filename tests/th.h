/*
 * th.h — a small in-house test harness (redis testhelp.h idea). Tests
 * register themselves; the runner prints "N passed, N failed".
 */
#ifndef VPSBENCH_TH_H
#define VPSBENCH_TH_H

#include <math.h>
#include <stdio.h>
#include <string.h>

struct th_test {
	const char *name;
	const char *file;
	void (*fn)(void);
	struct th_test *next;
};

void th_register(struct th_test *t);
void th_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void th_skip(const char *why);

/* Directory holding tests/ (the runner's working directory by default). */
const char *th_srcdir(void);

#define TH_TEST(fn_)                                                        \
	static void fn_(void);                                              \
	static struct th_test th_t_##fn_ = { #fn_, __FILE__, fn_, NULL };    \
	__attribute__((constructor)) static void th_r_##fn_(void)           \
	{                                                                   \
		th_register(&th_t_##fn_);                                   \
	}                                                                   \
	static void fn_(void)

#define TH_CHECK(c)                                                         \
	do {                                                                \
		if (!(c))                                                   \
			th_fail(__FILE__, __LINE__, "check failed: %s", #c); \
	} while (0)

#define TH_EQ_INT(a, b)                                                     \
	do {                                                                \
		long long th_a = (long long)(a), th_b = (long long)(b);     \
		if (th_a != th_b)                                           \
			th_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
				#a, th_a, #b, th_b);                        \
	} while (0)

#define TH_EQ_STR(a, b)                                                     \
	do {                                                                \
		const char *th_a = (a), *th_b = (b);                        \
		if (!th_a || !th_b || strcmp(th_a, th_b) != 0)              \
			th_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
				#a, th_a ? th_a : "(null)", th_b ? th_b : "(null)"); \
	} while (0)

#define TH_NEAR(a, b, eps)                                                  \
	do {                                                                \
		double th_a = (double)(a), th_b = (double)(b);              \
		if (!(fabs(th_a - th_b) <= (eps)))                          \
			th_fail(__FILE__, __LINE__, "%s == %g, expected %g ± %g", \
				#a, th_a, th_b, (double)(eps));             \
	} while (0)

#endif
