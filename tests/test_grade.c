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
	m->uncert = 0; /* exact: graded by its value alone */
}

/* A measured figure with its 95% half-width u. */
static struct metric *add_mu(struct metric_set *ms, const char *name, double v, double u)
{
	struct metric *m = metric_add(ms, name);

	m->value = v;
	m->measured = true;
	m->uncert = u;
	return m;
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
	TH_EQ_INT(g.nweak, 0);
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
	TH_EQ_INT(g.nweak, 0);
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
		"   {\"tier\": \"pass\", \"label\": \"pass\", \"meaning\": \"fleet minimum\", \"min\": 30000}],\n"
		"  \"source\": {\"url\": \"https://wiki.example/slo\", \"says\": \"30k IOPS minimum\"}},\n"
		" {\"metric\": \"lat_p50_ms\", \"unit\": \"ms\", \"direction\": \"lower\", \"tiers\": [\n"
		"   {\"tier\": \"slow\", \"max\": null}, {\"tier\": \"fast\", \"max\": 0.1}],\n"
		"  \"source\": {\"url\": \"README.md#grades\", \"says\": \"our reasoning\"}}\n"
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
	TH_EQ_STR(d->src.url, "https://wiki.example/slo");
	TH_EQ_STR(d->src.says, "30k IOPS minimum");
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

/*
 * The borderline rule at its edge: seq_write_mbps's bound 100 (good) with
 * u = 10. A value exactly u away (90, 110) is clear and takes its own tier;
 * any closer (nextafter toward the bound) is borderline "between acceptable
 * and good", rank of the worse side, rank_hi of the better.
 */
TH_TEST(grade_borderline_edge_exactly_u_away_is_clear)
{
	static const struct { double v; bool border; const char *tier; unsigned rank, hi; } c[] = {
		{ 110, false, "good", 2, 2 },
		{ 90, false, "acceptable", 1, 1 },
		{ 100, true, "borderline", 1, 2 },
		{ 0, true, "borderline", 1, 2 }, /* v = nextafter(110, 0): filled below */
		{ 0, true, "borderline", 1, 2 }, /* v = nextafter(90, 200) */
	};
	double vs[5] = { 110, 90, 100, nextafter(110, 0), nextafter(90, 200) };

	for (int i = 0; i < 5; i++) {
		struct metric_set ms = { 0 };
		static struct grade_result g;

		add_mu(&ms, "seq_write_mbps", vs[i], 10);
		grade_apply(grade_builtin_table(), &ms, &g);
		TH_EQ_INT(g.n, 1);
		if (g.g[0].borderline != c[i].border || strcmp(g.g[0].tier, c[i].tier) ||
		    g.g[0].rank != c[i].rank || g.g[0].rank_hi != c[i].hi)
			th_fail(__FILE__, __LINE__, "%.17g +- 10: borderline %d tier %s rank %u..%u", vs[i],
				g.g[0].borderline, g.g[0].tier, g.g[0].rank, g.g[0].rank_hi);
		if (c[i].border)
			TH_EQ_STR(g.g[0].between, "between acceptable and good");
		else
			TH_EQ_STR(g.g[0].between, "");
		TH_NEAR(g.g[0].uncert, 10, 0);
	}
}

/* Lower-is-better, and an interval wide enough to reach three tiers. */
TH_TEST(grade_borderline_lower_better_and_wide)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;

	/* lat_p99_ms bounds 10, 2, 0.5, 0.2: 1.5 +- 1.2 reaches 0.5 and 2, not 0.2 -> acceptable..ideal */
	add_mu(&ms, "lat_p99_ms", 1.5, 1.2);
	add_mu(&ms, "rand_iops", 1000, 0);   /* u = 0: at the bound, its tier, never borderline */
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.n, 2);
	TH_CHECK(g.g[0].borderline);
	TH_EQ_STR(g.g[0].label, "acceptable");
	TH_EQ_INT(g.g[0].rank, 1);
	TH_EQ_INT(g.g[0].rank_hi, 3);
	TH_EQ_STR(g.g[0].between, "between acceptable and ideal");
	TH_CHECK(!g.g[1].borderline);
	TH_EQ_STR(g.g[1].tier, "acceptable");
}

/* NAN or infinite uncertainty, or a disturbed figure: shown, not graded, why kept and appended. */
TH_TEST(grade_no_grade_without_uncertainty_or_disturbed)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;
	struct metric *m;
	const struct metric *got;

	m = metric_add(&ms, "seq_write_mbps"); /* metric_add: uncert NAN */
	m->value = 20;
	m->measured = true;
	m = metric_add(&ms, "rand_iops");
	m->value = 10;
	m->measured = true;
	snprintf(m->why_not, sizeof(m->why_not), "3 passes");
	add_mu(&ms, "lat_p99_ms", 50, INFINITY);
	m = add_mu(&ms, "seq_read_mbps", 5, 0.1);
	m->disturbed = true;
	snprintf(m->why_not, sizeof(m->why_not), "foreign I/O on vda");
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.n, 0);
	TH_EQ_INT(g.nweak, 0);
	got = metric_get(&g.metrics, "seq_write_mbps");
	TH_CHECK(got && got->measured);
	TH_EQ_STR(got->why_not, "its uncertainty was not measured");
	got = metric_get(&g.metrics, "rand_iops");
	TH_EQ_STR(got->why_not, "3 passes; its uncertainty was not measured");
	TH_CHECK(strstr(metric_get(&g.metrics, "lat_p99_ms")->why_not, "unbounded") != NULL);
	TH_EQ_STR(metric_get(&g.metrics, "seq_read_mbps")->why_not, "foreign I/O on vda");
}

/*
 * The symmetric pick: |ln(value / next bound)|. seq_write 25 vs 50 is ln 2
 * below; lat_p99 20 vs 10 is ln 2 above: a tie, kept in table order
 * (seq_write_mbps before lat_p99_ms) whatever the order measured. rand_iops
 * 100 vs 1000 is ln 10: first. A borderline worst-tier figure is never weak.
 */
TH_TEST(grade_weak_symmetric_all_listed)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;
	static struct health_result h;

	add_mu(&ms, "lat_p99_ms", 20, 0);
	add_mu(&ms, "seq_write_mbps", 25, 0);
	add_mu(&ms, "rand_iops", 100, 0);
	add_mu(&ms, "mem_triad_1t_mbps", 9500, 600); /* worst tier, but within u of 10000 */
	add_mu(&ms, "rand_cov_pct", 40, 0);         /* a health figure: never weak */
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.nweak, 3);
	TH_EQ_STR(g.g[g.weak[0]].metric, "rand_iops");
	TH_NEAR(g.weak_ln[0], log(10), 1e-12);
	TH_EQ_STR(g.g[g.weak[1]].metric, "seq_write_mbps");
	TH_EQ_STR(g.g[g.weak[2]].metric, "lat_p99_ms");
	TH_NEAR(g.weak_ln[1], log(2), 1e-12);
	TH_NEAR(g.weak_ln[2], log(2), 1e-12);
	verdict_build(&g, &h);
	TH_CHECK(strstr(g.verdict, "weak for its size: rand_iops = 100 IOPS (very slow: ") != NULL);
	TH_CHECK(strstr(g.verdict, "; seq_write_mbps = 25 MB/s (very slow: ") != NULL);
	TH_CHECK(strstr(g.verdict, "; lat_p99_ms = 20 ms (very slow: ") != NULL);
	TH_CHECK(strstr(g.verdict, "mem_triad_1t_mbps") == NULL);
	TH_CHECK(strstr(g.verdict, "rand_cov_pct") == NULL);
}

/* One bound: a figure exactly at it is not in the worst tier; just under it is, by |ln|. */
TH_TEST(grade_weak_at_the_bound)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;

	add_mu(&ms, "seq_write_mbps", 50, 0);
	add_mu(&ms, "rand_iops", nextafter(1000, 0), 0);
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.nweak, 1);
	TH_EQ_STR(g.g[g.weak[0]].metric, "rand_iops");
	TH_CHECK(g.weak_ln[0] > 0 && g.weak_ln[0] < 1e-12);
}

/* database: both conditions; low confidence from either; disturbed leaves it unanswered. */
TH_TEST(rules_database_two_conditions)
{
	const struct grade_table *t = grade_builtin_table();
	const struct fit_result *f = NULL;
	static struct grade_result g;
	static struct health_result h;
	struct metric_set ms;
	struct metric *m;

	memset(&ms, 0, sizeof(ms));
	add_mu(&ms, "lat_p99_ms", 0.4, 0.1)->selected = true;
	add_mu(&ms, "fsync_p99_ms", 12, 1)->selected = true;
	grade_apply(t, &ms, &g);
	for (unsigned i = 0; i < g.nfit; i++)
		if (!strcmp(g.fit[i].rule.rule, "database"))
			f = &g.fit[i];
	TH_CHECK(f != NULL);
	if (!f)
		return;
	TH_EQ_INT(f->rule.ncond, 2);
	TH_EQ_INT(f->answer, FIT_NO); /* fsync p99 12 is not < 10 */
	TH_CHECK(strstr(f->why, "lat_p99_ms 0.4, needs < 10; fsync_p99_ms 12, needs < 10") != NULL);
	TH_CHECK(strstr(f->rule.src.url, "3214.sql-server-monitoring-disk-usage") != NULL);
	TH_CHECK(strstr(f->rule.src.says, "does not bound a mean") != NULL);

	memset(&ms, 0, sizeof(ms));
	add_mu(&ms, "lat_p99_ms", 0.4, 0.1)->selected = true;
	m = add_mu(&ms, "fsync_p99_ms", 3, 1);
	m->selected = true;
	grade_apply(t, &ms, &g);
	f = &g.fit[1];
	TH_EQ_INT(f->answer, FIT_YES);
	TH_CHECK(!f->low_confidence);
	ms.m[0].low_confidence = true; /* g-disk: too few qd1 samples for a p99 */
	grade_apply(t, &ms, &g);
	TH_EQ_INT(g.fit[1].answer, FIT_YES);
	TH_CHECK(g.fit[1].low_confidence);

	ms.m[0].low_confidence = false;
	ms.m[0].disturbed = true;
	snprintf(ms.m[0].why_not, sizeof(ms.m[0].why_not), "foreign I/O on vda: 412 MB");
	grade_apply(t, &ms, &g);
	TH_EQ_INT(g.fit[1].answer, FIT_UNKNOWN);
	TH_CHECK(g.fit[1].disturbed);
	TH_EQ_STR(g.fit[1].why, "not answered: disturbed (lat_p99_ms: foreign I/O on vda: 412 MB)");
	TH_EQ_INT(g.fit[0].answer, FIT_YES); /* etcd: fsync only, not disturbed */
	verdict_build(&g, &h);
	TH_CHECK(strstr(g.verdict, "— database: not answered: disturbed (lat_p99_ms: foreign I/O") != NULL);
}

/* Health bounds: in the table with a source each, looked up by name, moved by a file. */
TH_TEST(health_bounds_table_and_file)
{
	static struct grade_table t;
	const struct grade_table *b = grade_builtin_table();

	TH_EQ_INT(b->nhealth, 6);
	for (unsigned i = 0; i < b->nhealth; i++) {
		const struct health_bound *h = &b->health[i];

		if (!h->src.url[0] || !h->src.says[0] || !h->desc[0] || !h->unit[0] ||
		    !(h->value >= h->min && h->value <= h->max))
			th_fail(__FILE__, __LINE__, "health bound %s: no source, text or range", h->name);
	}
	for (unsigned i = 0; i < b->nrules; i++)
		if (!b->rule[i].src.url[0] || !b->rule[i].src.says[0] || !b->rule[i].ncond)
			th_fail(__FILE__, __LINE__, "rule %s: no source or condition", b->rule[i].rule);
	TH_NEAR(grade_health_bound(b, "steal_pct"), 10, 0);
	TH_NEAR(grade_health_bound(b, "iops_cov_pct"), 15, 0);
	TH_NEAR(grade_health_bound(b, "iops_tail_ratio"), 0.7, 0);
	TH_NEAR(grade_health_bound(b, "scaling_slack"), 1.05, 0);
	TH_NEAR(grade_health_bound(b, "mem_eff_min"), 0.25, 0);
	TH_NEAR(grade_health_bound(b, "mem_psi_avg10"), 1.0, 0);
	TH_CHECK(isnan(grade_health_bound(b, "nosuch")));
#ifdef HAVE_CJSON
	{
		const char *text = "{\"health\": [\n {\"name\": \"steal_pct\", \"value\": 20,\n"
				   "  \"source\": {\"url\": \"https://wiki.example/steal\", \"says\": \"20%\"}}]}\n";
		char *path = write_tmp(text), err[256] = "";

		t = *b;
		TH_CHECK(path != NULL);
		TH_EQ_INT(grade_load_file(path, &t, err, sizeof(err)), 0);
		unlink(path);
		TH_NEAR(grade_health_bound(&t, "steal_pct"), 20, 0);
		TH_EQ_STR(t.health[0].src.url, "https://wiki.example/steal");
	}
#endif
}

/* The thresholds file's rules (both forms) and the bad input of issue #39. */
TH_TEST(thresholds_file_conditions_and_bad_input)
{
#ifdef HAVE_CJSON
	static const struct { const char *text; const char *want; } bad[] = {
		{ "{\"metrics\": [\n {\"metric\": \"rand_iops\", \"direction\": \"higher\", \"tiers\": [\n"
		  "  {\"tier\": \"a\", \"min\": null}, {\"tier\": \"b\", \"min\": 5}]}]}",
		  ":2: rand_iops: key \"source\": tiers need the source" },
		{ "{\"metrics\": [\n {\"metric\": \"rand_iops\", \"direction\": \"lower\", \"tiers\": [\n"
		  "  {\"tier\": \"a\", \"max\": null},\n  {\"tier\": \"b\", \"max\": 5},\n  {\"tier\": \"c\", \"max\": 5}]}]}",
		  ":5: rand_iops: tiers[2]: key \"max\" must be lower" },
		{ "{\"health\": [\n {\"name\": \"steal_pct\",\n  \"value\": 101, \"source\": {\"url\": \"u\", \"says\": \"s\"}}]}",
		  ":3: health[0] steal_pct: key \"value\": 101 is outside its range [0, 100]" },
		{ "{\"health\": [\n {\"name\": \"stael_pct\", \"value\": 1}]}",
		  ":2: health[0] stael_pct: key \"name\": unknown health bound" },
		{ "{\"health\": [\n {\"name\": \"steal_pct\", \"value\": 8}]}",
		  ":2: health[0] steal_pct: key \"source\"" },
		{ "{\"rules\": [\n {\"rule\": \"db\", \"conditions\": [\n  {\"metric\": \"lat_p99_ms\", \"op\": \"=<\", \"value\": 1}],\n"
		  "  \"source\": {\"url\": \"u\", \"says\": \"s\"}}]}",
		  ":3: rules[0] db: key \"op\": unknown operator" },
	};
	static struct grade_table t;
	const char *good = "{\"rules\": [\n"
		" {\"rule\": \"db\", \"for\": \"ours\", \"conditions\": [\n"
		"   {\"metric\": \"lat_p99_ms\", \"op\": \"<=\", \"value\": 2},\n"
		"   {\"metric\": \"fsync_p99_ms\", \"op\": \"<\", \"value\": 5}],\n"
		"  \"source\": {\"url\": \"https://wiki.example/db\", \"says\": \"our SLO\"}},\n"
		" {\"rule\": \"old\", \"metric\": \"rand_iops\", \"op\": \">=\", \"value\": 100,\n"
		"  \"source\": {\"url\": \"https://wiki.example/old\", \"says\": \"old form\"}}]}\n";
	char *path = write_tmp(good), err[256] = "";

	t = *grade_builtin_table();
	TH_EQ_INT(grade_load_file(path, &t, err, sizeof(err)), 0);
	unlink(path);
	TH_EQ_INT(t.nrules, grade_builtin_table()->nrules + 2);
	TH_EQ_INT(t.rule[t.nrules - 2].ncond, 2);
	TH_EQ_STR(t.rule[t.nrules - 2].cond[1].metric, "fsync_p99_ms");
	TH_EQ_INT(t.rule[t.nrules - 2].cond[1].op, REQ_LT);
	TH_NEAR(t.rule[t.nrules - 2].cond[0].bound, 2, 0);
	TH_EQ_INT(t.rule[t.nrules - 1].ncond, 1);
	TH_EQ_STR(t.rule[t.nrules - 1].cond[0].metric, "rand_iops");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = write_tmp(bad[i].text);
		t = *grade_builtin_table();
		err[0] = '\0';
		TH_EQ_INT(grade_load_file(path, &t, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].want) || strchr(err, '\n'))
			th_fail(__FILE__, __LINE__, "case %zu: '%s' lacks '%s'", i, err, bad[i].want);
		unlink(path);
	}
#else
	th_skip("built without cJSON");
#endif
}

/*
 * Every built-in metric's tiers carry a source (a URL and what it says, or
 * README.md#grades and the reasoning). Skipped only while no metric has one
 * yet (the sources are grade_table.c's data, landing beside this change).
 */
TH_TEST(grade_builtin_every_bound_has_a_source)
{
	const struct grade_table *t = grade_builtin_table();
	unsigned with = 0;

	for (unsigned i = 0; i < t->n; i++)
		with += t->def[i].src.url[0] && t->def[i].src.says[0];
	if (!with) {
		th_skip("no built-in metric carries a source yet");
		return;
	}
	for (unsigned i = 0; i < t->n; i++)
		if (!t->def[i].src.url[0] || !t->def[i].src.says[0])
			th_fail(__FILE__, __LINE__, "%s: tiers without a source", t->def[i].metric);
}

/*
 * The pair: one healthy VM's DRAM latency 148.1 ns in one run and
 * 161.0 ns in the next, a bound at 150 inside its own spread. With each
 * run's uncertainty both are borderline, neither is named weak, and the
 * two verdicts are the same line. (A table of its own: the test is the
 * rule's, whatever the built-in bound.)
 */
TH_TEST(grade_same_vps_same_verdict_across_a_bound)
{
	static struct grade_table t;
	static struct grade_result g1, g2;
	static struct health_result h;
	struct metric_set ms;
	struct grade_def *d;

	memset(&t, 0, sizeof(t));
	t.n = 1;
	d = &t.def[0];
	snprintf(d->metric, sizeof(d->metric), "mem_latency_huge_ns");
	snprintf(d->unit, sizeof(d->unit), "ns");
	d->higher_better = false;
	d->ntiers = 2;
	d->tiers[0] = (struct grade_tier){ .open = true, .tier = "slow", .label = "slow", .meaning = "m" };
	d->tiers[1] = (struct grade_tier){ .bound = 150, .tier = "ok", .label = "acceptable", .meaning = "m" };
	memset(&ms, 0, sizeof(ms));
	add_mu(&ms, "mem_latency_huge_ns", 148.1, 9.5);
	grade_apply(&t, &ms, &g1);
	verdict_build(&g1, &h);
	memset(&ms, 0, sizeof(ms));
	add_mu(&ms, "mem_latency_huge_ns", 161.0, 12.0);
	grade_apply(&t, &ms, &g2);
	verdict_build(&g2, &h);
	TH_CHECK(g1.g[0].borderline && g2.g[0].borderline);
	TH_EQ_STR(g1.g[0].between, "between slow and acceptable");
	TH_EQ_STR(g2.g[0].between, g1.g[0].between);
	TH_EQ_INT(g1.nweak, 0);
	TH_EQ_INT(g2.nweak, 0);
	TH_EQ_STR(g1.verdict, g2.verdict);
	TH_CHECK(strstr(g1.verdict, "weak for its size: nothing") != NULL);
	/* the same figure measured tighter (u 5) is clear of 150: slow, and named */
	memset(&ms, 0, sizeof(ms));
	add_mu(&ms, "mem_latency_huge_ns", 161.0, 5.0);
	grade_apply(&t, &ms, &g2);
	TH_EQ_INT(g2.nweak, 1);
}
