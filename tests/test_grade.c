/* test_grade.c — tier boundaries, verdict, --require parsing and evaluation, thresholds files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade/grade.h"
#include "grade/health.h"
#include "th.h"

static const char *tier_name(const char *metric, double v)
{
	const struct grade_def *d = grade_find(grade_builtin_table(), metric);

	return d ? d->tiers[grade_tier_of(d, v)].tier : "(no def)";
}

TH_TEST(grade_every_tier_boundary)
{
	static const struct { const char *metric; double v; const char *tier; } cases[] = {
		{ "seq_write_mbps", 0, "very_slow" }, { "seq_write_mbps", 49.99, "very_slow" },
		{ "seq_write_mbps", 50, "acceptable" }, { "seq_write_mbps", 99.9, "acceptable" },
		{ "seq_write_mbps", 100, "good" }, { "seq_write_mbps", 199.9, "good" },
		{ "seq_write_mbps", 200, "ideal" }, { "seq_write_mbps", 481, "ideal" },
		{ "seq_write_mbps", 999.9, "ideal" }, { "seq_write_mbps", 1000, "excellent" },
		{ "rand_iops", 999, "very_slow" }, { "rand_iops", 1000, "acceptable" },
		{ "rand_iops", 3052, "acceptable" }, { "rand_iops", 4999, "acceptable" },
		{ "rand_iops", 5000, "good" }, { "rand_iops", 19999, "good" },
		{ "rand_iops", 20000, "ideal" }, { "rand_iops", 77000, "ideal" },
		{ "rand_iops", 99999, "ideal" }, { "rand_iops", 100000, "excellent" },
		{ "lat_p99_ms", 0.1, "excellent" }, { "lat_p99_ms", 0.2, "excellent" },
		{ "lat_p99_ms", 0.21, "ideal" }, { "lat_p99_ms", 0.5, "ideal" },
		{ "lat_p99_ms", 0.51, "good" }, { "lat_p99_ms", 2, "good" },
		{ "lat_p99_ms", 2.01, "acceptable" }, { "lat_p99_ms", 10, "acceptable" },
		{ "lat_p99_ms", 10.01, "very_slow" }, { "lat_p99_ms", 500, "very_slow" },
		{ "rand_cov_pct", 0, "stable" }, { "rand_cov_pct", 5, "stable" },
		{ "rand_cov_pct", 5.01, "variable" }, { "rand_cov_pct", 15, "variable" },
		{ "rand_cov_pct", 15.01, "unstable" },
		{ "rand_tail_ratio", 0.69, "drop" }, { "rand_tail_ratio", 0.7, "steady" },
		{ "rand_tail_ratio", 1.3, "steady" },
		/* memory per vCPU (decimal MB/s), and per-thread Triad over one thread's */
		{ "mem_triad_per_vcpu_mbps", 999, "low" }, { "mem_triad_per_vcpu_mbps", 1000, "fair" },
		{ "mem_triad_per_vcpu_mbps", 4999, "fair" }, { "mem_triad_per_vcpu_mbps", 5000, "good" },
		{ "mem_scaling_eff", 0.249, "starved" }, { "mem_scaling_eff", 0.25, "shared" },
		{ "mem_scaling_eff", 0.599, "shared" }, { "mem_scaling_eff", 0.6, "scales" },
		{ "cpu_scaling_per_core", 0.74, "capped" }, { "cpu_scaling_per_core", 0.75, "scales" },
		{ "cpu_single_eps", 499, "ecs_t8" }, { "cpu_single_eps", 799, "ecs_t7" },
		{ "cpu_single_eps", 800, "ecs_t6" }, { "cpu_single_eps", 5000, "ecs_t1" },
		{ "mem_latency_huge_ns", 99, "excellent" }, { "mem_latency_huge_ns", 100, "excellent" },
		{ "mem_latency_huge_ns", 101, "good" }, { "mem_latency_huge_ns", 135, "good" },
		{ "mem_latency_huge_ns", 150, "good" }, { "mem_latency_huge_ns", 161, "acceptable" },
		{ "mem_latency_huge_ns", 200, "acceptable" }, { "mem_latency_huge_ns", 201, "slow" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = tier_name(cases[i].metric, cases[i].v);

		if (strcmp(got, cases[i].tier))
			th_fail(__FILE__, __LINE__, "%s=%g graded %s, expected %s", cases[i].metric,
				cases[i].v, got, cases[i].tier);
	}
}

static void add_m(struct metric_set *ms, const char *name, double v)
{
	struct metric *m = metric_add(ms, name);

	m->value = v;
	m->measured = true;
}

/* Nothing in a worst tier: no weak resource, whatever the other tiers' positions. */
TH_TEST(grade_weak_none_outside_worst_tier)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;
	struct metric *m;

	add_m(&ms, "seq_write_mbps", 481);
	add_m(&ms, "rand_iops", 3052);      /* 2nd of 5 tiers: not weak */
	add_m(&ms, "cpu_single_eps", 1100); /* 4th of 8 tiers */
	m = metric_add(&ms, "lat_p99_ms");
	snprintf(m->why_not, sizeof(m->why_not), "not run");
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.n, 3);
	TH_EQ_INT(g.weakest, -1);
	TH_EQ_STR(g.g[0].meaning, "ideal for a web VPS");
}

TH_TEST(grade_nothing_measured)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;
	static struct health_result h;

	metric_add(&ms, "rand_iops");
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.n, 0);
	TH_EQ_INT(g.weakest, -1);
	verdict_build(&g, &h);
	TH_CHECK(strstr(g.verdict, "weak for its size: nothing graded") != NULL);
}

TH_TEST(require_parse_good)
{
	struct requirement r[REQUIRE_MAX];
	unsigned n = 0;
	char err[256];

	TH_EQ_INT(require_parse("seq_write_mbps>=200,rand_iops>=20000,lat_p99_ms<=2", r,
				REQUIRE_MAX, &n, err, sizeof(err)), 0);
	TH_EQ_INT(n, 3);
	TH_EQ_STR(r[0].metric, "seq_write_mbps");
	TH_EQ_INT(r[0].op, REQ_GE);
	TH_NEAR(r[0].bound, 200, 0);
	TH_EQ_INT(r[2].op, REQ_LE);
	TH_NEAR(r[2].bound, 2, 0);
	TH_EQ_INT(require_parse(" rand_iops > 1e3 ,lat_p50_ms<0.5", r, REQUIRE_MAX, &n, err,
				sizeof(err)), 0);
	TH_EQ_INT(n, 2);
	TH_EQ_INT(r[0].op, REQ_GT);
	TH_NEAR(r[0].bound, 1000, 0);
	TH_EQ_INT(r[1].op, REQ_LT);
}

TH_TEST(require_parse_bad)
{
	static const char *const bad[] = {
		"", "rand_iops", "rand_iops>=", "rand_iops=>5", "rand_iops==5", "nosuch>=1",
		">=5", "rand_iops>=5x", "rand_iops>=5,,lat_p99_ms<1", "rand_iops>=nan",
		"rand_iops>=5,", NULL,
	};
	struct requirement r[REQUIRE_MAX];
	unsigned n;
	char err[256];

	for (int i = 0; bad[i]; i++) {
		err[0] = '\0';
		if (require_parse(bad[i], r, REQUIRE_MAX, &n, err, sizeof(err)) != -1)
			th_fail(__FILE__, __LINE__, "'%s' was accepted", bad[i]);
		else if (strncmp(err, "--require", 9))
			th_fail(__FILE__, __LINE__, "'%s': message does not name --require: %s", bad[i], err);
	}
}

TH_TEST(require_eval_unmeasured_fails)
{
	struct requirement r[REQUIRE_MAX];
	struct metric_set ms = { 0 };
	static struct grade_result g;
	struct metric *m;
	unsigned n;
	char err[256];

	m = metric_add(&ms, "seq_write_mbps");
	m->value = 150;
	m->measured = true;
	m = metric_add(&ms, "rand_iops");
	snprintf(m->why_not, sizeof(m->why_not), "buffered I/O: O_DIRECT refused");
	TH_EQ_INT(require_parse("seq_write_mbps>=100", r, REQUIRE_MAX, &n, err, sizeof(err)), 0);
	require_eval(r, n, &ms, &g);
	TH_CHECK(!g.requirements_failed);
	TH_CHECK(g.req[0].passed);

	TH_EQ_INT(require_parse("seq_write_mbps>=200,rand_iops>=1,lat_p99_ms<=5", r, REQUIRE_MAX,
				&n, err, sizeof(err)), 0);
	require_eval(r, n, &ms, &g);
	TH_CHECK(g.requirements_failed);
	TH_EQ_INT(g.nreq, 3);
	TH_CHECK(!g.req[0].passed && g.req[0].measured);
	TH_NEAR(g.req[0].value, 150, 0);
	TH_CHECK(!g.req[1].passed && !g.req[1].measured);
	TH_CHECK(strstr(g.req[1].reason, "O_DIRECT refused") != NULL);
	TH_CHECK(!g.req[2].passed && strstr(g.req[2].reason, "not measured") != NULL);
}

/*
 * Every bound of the built-in table hit exactly, by one unit either side
 * and by the nearest double either side: at the bound the value gets that
 * tier, just on the worse side the tier below. The expected tier comes from
 * the table's order (worst ... best), not from grade_tier_of().
 */
TH_TEST(grade_builtin_bounds_exact_and_either_side)
{
	const struct grade_table *t = grade_builtin_table();
	unsigned checked = 0;

	for (unsigned m = 0; m < t->n; m++) {
		const struct grade_def *d = &t->def[m];

		for (unsigned i = 0; i < d->ntiers; i++) {
			double b = d->tiers[i].bound, worse_dir = d->higher_better ? -INFINITY : INFINITY;
			double unit = b >= 10 ? 1 : b >= 1 ? 0.01 : 0.001; /* one unit of the shown figure */
			struct { double v; unsigned want; const char *what; } c[4];

			if (d->tiers[i].open)
				continue;
			c[0].v = b; c[0].want = i; c[0].what = "at";
			c[1].v = nextafter(b, worse_dir); c[1].want = i - 1; c[1].what = "just worse than";
			c[2].v = d->higher_better ? b - unit : b + unit; c[2].want = i - 1; c[2].what = "one unit worse than";
			c[3].v = d->higher_better ? b + unit : b - unit; c[3].want = i; c[3].what = "one unit better than";
			/* one unit better may reach the next tier: then that one is right */
			if (i + 1 < d->ntiers && !d->tiers[i + 1].open &&
			    (d->higher_better ? c[3].v >= d->tiers[i + 1].bound : c[3].v <= d->tiers[i + 1].bound))
				c[3].want = i + 1;
			for (int k = 0; k < 4; k++) {
				unsigned got = grade_tier_of(d, c[k].v);

				checked++;
				if (got != c[k].want)
					th_fail(__FILE__, __LINE__, "%s = %.17g (%s the %s bound %g): tier %s, expected %s",
						d->metric, c[k].v, c[k].what, d->tiers[i].tier, b,
						d->tiers[got].tier, d->tiers[c[k].want].tier);
			}
		}
	}
	TH_CHECK(checked >= 4 * 17); /* 17 bounds in the built-in table */
}

/* --require on the bound itself, and the nearest double either side, for every operator. */
TH_TEST(require_every_operator_at_equality)
{
	static const struct { const char *op; bool at, below, above; } ops[] = {
		{ ">=", true, false, true }, { ">", false, false, true },
		{ "<=", true, true, false }, { "<", false, true, false },
	};
	static const double bounds[] = { 200, 0.5, 3052, 1e-3 };
	struct requirement r[REQUIRE_MAX];
	static struct grade_result g;
	char expr[96], err[256];
	unsigned n;

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
			const double vs[3] = { bounds[b], nextafter(bounds[b], -INFINITY),
					       nextafter(bounds[b], INFINITY) };
			const bool want[3] = { ops[o].at, ops[o].below, ops[o].above };

			snprintf(expr, sizeof(expr), "lat_p99_ms%s%.17g", ops[o].op, bounds[b]);
			TH_EQ_INT(require_parse(expr, r, REQUIRE_MAX, &n, err, sizeof(err)), 0);
			TH_NEAR(r[0].bound, bounds[b], 0);
			for (int k = 0; k < 3; k++) {
				struct metric_set ms = { 0 };
				struct metric *m = metric_add(&ms, "lat_p99_ms");

				m->value = vs[k];
				m->measured = true;
				require_eval(r, n, &ms, &g);
				if (g.req[0].passed != want[k] || g.requirements_failed == want[k])
					th_fail(__FILE__, __LINE__, "%s with value %.17g: passed=%d, expected %d",
						expr, vs[k], g.req[0].passed, want[k]);
			}
		}
	}
}

static char *write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/vpsbench-th-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	return path;
}

TH_TEST(thresholds_file_replaces_and_extends)
{
#ifdef HAVE_CJSON
	static struct grade_table t;
	const char *text =
		"{\"metrics\": [\n"
		" {\"metric\": \"rand_iops\", \"direction\": \"higher\", \"tiers\": [\n"
		"   {\"tier\": \"fail\", \"min\": null},\n"
		"   {\"tier\": \"pass\", \"label\": \"pass\", \"meaning\": \"fleet minimum\", \"min\": 30000}]},\n"
		" {\"metric\": \"lat_p50_ms\", \"unit\": \"ms\", \"direction\": \"lower\", \"tiers\": [\n"
		"   {\"tier\": \"slow\", \"max\": null}, {\"tier\": \"fast\", \"max\": 0.1}]}\n"
		"]}\n";
	char *path = write_tmp(text), err[256];
	const struct grade_def *d;

	TH_CHECK(path != NULL);
	t = *grade_builtin_table();
	TH_EQ_INT(grade_load_file(path, &t, err, sizeof(err)), 0);
	unlink(path);
	TH_EQ_INT(t.n, grade_builtin_table()->n + 1);
	d = grade_find(&t, "rand_iops");
	TH_CHECK(d && d->ntiers == 2);
	TH_EQ_STR(d->unit, "IOPS"); /* kept from the built-in definition */
	TH_EQ_STR(d->tiers[grade_tier_of(d, 29999)].tier, "fail");
	TH_EQ_STR(d->tiers[grade_tier_of(d, 30000)].tier, "pass");
	d = grade_find(&t, "lat_p50_ms");
	TH_CHECK(d && !d->higher_better);
	TH_EQ_STR(d->tiers[grade_tier_of(d, 0.05)].tier, "fast");
	TH_EQ_STR(d->tiers[grade_tier_of(d, 0.2)].tier, "slow");
#else
	th_skip("built without cJSON");
#endif
}

TH_TEST(thresholds_file_errors_name_key_and_line)
{
#ifdef HAVE_CJSON
	static const struct { const char *text; const char *want; } cases[] = {
		{ "{\"metrics\": [\n {\"metric\": \"rand_iops\",\n  \"direction\": \"up\",\n \"tiers\": []}]}",
		  ":3: rand_iops: key \"direction\"" },
		{ "{\"metrics\": [\n {\"metric\": \"x\", \"direction\": \"higher\", \"tiers\": [\n"
		  "  {\"tier\": \"a\", \"min\": null},\n  {\"tier\": \"b\", \"min\": \"ten\"}]}]}",
		  ":4: x: tiers[1]: key \"min\"" },
		{ "{\"metrics\": [\n {\"metric\": \"x\", \"direction\": \"higher\", \"tiers\": [\n"
		  "  {\"tier\": \"a\", \"min\": 10},\n  {\"tier\": \"b\", \"min\": 5}]}]}",
		  ":4: x: tiers[1]: key \"min\" must be higher" },
		{ "{\"metrics\": [\n {\"direction\": \"higher\"}]}", "metrics[0]: key \"metric\"" },
		{ "{\"tiers\": 1}", ":1: key \"metrics\"" },
		{ "{\"metrics\": [\n\n  {\"metric\": tru}]}", ":3: not valid JSON" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct grade_table t;
		char *path = write_tmp(cases[i].text), err[256] = "";

		t = *grade_builtin_table();
		TH_CHECK(path != NULL);
		if (!path)
			continue;
		TH_EQ_INT(grade_load_file(path, &t, err, sizeof(err)), -1);
		if (!strstr(err, cases[i].want))
			th_fail(__FILE__, __LINE__, "case %zu: '%s' lacks '%s'", i, err, cases[i].want);
		unlink(path);
	}
#else
	th_skip("built without cJSON");
#endif
}
