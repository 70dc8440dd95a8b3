/*
 * test_render_marks.c — every format carries the same marks (issue #39):
 * a graded figure's value ± its uncertainty and where it came from, its
 * tier as "tier N of M"; a borderline figure as "between good and ideal"
 * and never a single tier word; a disturbed figure with its value and
 * "disturbed: why", never a tier; both weak figures. The grade result is
 * filled by hand (one clear grade, one borderline, two weak, one
 * disturbed metric) and rendered as text, JSON, HTML and prom into memory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/grade.h"
#include "render/render.h"
#include "render/text/text_put.h"
#include "report/report.h"
#include "th.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#define DISTURBED_WHY "the 1-thread prime pass got 52% of its CPU"

static void add_metric(struct grade_result *g, const char *name, double v, double u,
		       const char *from)
{
	struct metric *m = metric_add(&g->metrics, name);

	if (!m)
		return;
	m->value = v;
	m->measured = true;
	m->selected = true;
	m->uncert = u;
	snprintf(m->uncert_from, sizeof(m->uncert_from), "%s", from);
}

static void add_grade(struct grade_result *g, const char *name, double v, double u,
		      const char *unit, unsigned rank, const char *tier, const char *label)
{
	struct grade *x = &g->g[g->n++];

	snprintf(x->metric, sizeof(x->metric), "%s", name);
	snprintf(x->unit, sizeof(x->unit), "%s", unit);
	snprintf(x->tier, sizeof(x->tier), "%s", tier);
	snprintf(x->label, sizeof(x->label), "%s", label);
	snprintf(x->meaning, sizeof(x->meaning), "meaning of %s", label);
	x->value = v;
	x->uncert = u;
	x->rank = rank;
	x->ntiers = 5;
	x->spread_pct = -1;
	x->bound_next = NAN;
}

static struct bench_report *marked_report(void)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct grade_result *g;

	if (!rep)
		return NULL;
	rep->start_real.tv_sec = 1796169600;
	rep->elapsed_s = 30;
	g = &rep->grade;
	g->graded = true;
	snprintf(g->verdict, sizeof(g->verdict), "hand-made");
	/* clear */
	add_metric(g, "seq_write_mbps", 480, 12, "12 per-second samples");
	add_grade(g, "seq_write_mbps", 480, 12, "MB/s", 3, "ideal", "ideal");
	/* borderline: 19800 ± 1500 straddles the 20000 bound */
	add_metric(g, "rand_iops", 19800, 1500, "8 per-second samples");
	add_grade(g, "rand_iops", 19800, 1500, "IOPS", 2, "good", "good");
	g->g[1].borderline = true;
	g->g[1].rank_hi = 3;
	snprintf(g->g[1].between, sizeof(g->g[1].between), "between good and ideal");
	/* two weak figures */
	add_metric(g, "lat_p99_ms", 12.5, 0.4, "order statistics of 2400 reads");
	add_grade(g, "lat_p99_ms", 12.5, 0.4, "ms", 0, "very_slow", "very slow");
	add_metric(g, "seq_read_mbps", 31, 2, "3 passes");
	add_grade(g, "seq_read_mbps", 31, 2, "MB/s", 0, "very_slow", "very slow");
	g->nweak = 2;
	g->weak[0] = 3;
	g->weak_ln[0] = log(50.0 / 31);
	g->weak[1] = 2;
	g->weak_ln[1] = log(12.5 / 10);
	/* graded with no uncertainty measured (the grade's copy left 0): "± unknown", never "± 0" */
	add_metric(g, "cpu_steal_pct", 0.3, NAN, "");
	add_grade(g, "cpu_steal_pct", 0.3, 0, "%", 2, "low", "low");
	/* disturbed: measured, shown, no grade */
	add_metric(g, "cpu_single_eps", 620, NAN, "");
	g->metrics.m[g->metrics.n - 1].disturbed = true;
	snprintf(g->metrics.m[g->metrics.n - 1].why_not, sizeof(g->metrics.m[0].why_not), "%s",
		 DISTURBED_WHY);
	return rep;
}

static struct bench_plan plan = { .profile = "default" };

static char *render_to_mem(int (*fn)(FILE *, const struct bench_report *), const struct bench_report *rep)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	fn(f, rep);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int do_text(FILE *f, const struct bench_report *rep)
{
	struct render_style st = { false };

	render_text(f, rep, &plan, &st);
	return 0;
}

static int do_html(FILE *f, const struct bench_report *rep)
{
	return render_html(f, rep, &plan);
}

static int do_prom(FILE *f, const struct bench_report *rep)
{
	return render_prom(f, rep, &plan);
}

/* The line of s that starts with prefix (whole line, without the newline), or "" */
static const char *line_of(const char *s, const char *prefix, char *out, size_t n)
{
	const char *p = s;

	out[0] = '\0';
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len >= strlen(prefix) && !strncmp(p, prefix, strlen(prefix))) {
			snprintf(out, n, "%.*s", (int)len, p);
			return out;
		}
		p = e ? e + 1 : NULL;
	}
	return out;
}

/* The line after the one that starts with prefix, or "" */
static const char *line_after(const char *s, const char *prefix, char *out, size_t n)
{
	const char *p = strstr(s, prefix), *e;

	out[0] = '\0';
	if (!p || !(e = strchr(p, '\n')))
		return out;
	p = e + 1;
	e = strchr(p, '\n');
	snprintf(out, n, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
	return out;
}

TH_TEST(render_marks_text)
{
	struct bench_report *rep = marked_report();
	char *t = rep ? render_to_mem(do_text, rep) : NULL;
	const char *gr;
	char l[512];

	TH_CHECK(t != NULL);
	if (!t) {
		free(rep);
		return;
	}
	gr = strstr(t, "Grades");
	TH_CHECK(gr != NULL);
	if (!gr)
		gr = t;
	/* clear: value ± uncertainty, its source, tier with the count */
	TH_CHECK(strstr(line_of(gr, " seq_write_mbps", l, sizeof(l)), "480 ± 12 MB/s, from 12 per-second samples"));
	TH_CHECK(strstr(line_after(gr, " seq_write_mbps", l, sizeof(l)), "ideal, tier 4 of 5 (5 = best)"));
	/* borderline: the between text, no tier word alone */
	TH_CHECK(strstr(line_of(gr, " rand_iops", l, sizeof(l)), "19800 ± 1500 IOPS"));
	line_after(gr, " rand_iops", l, sizeof(l));
	TH_CHECK(strstr(l, "between good and ideal"));
	TH_CHECK(!strstr(l, "meaning of good"));
	TH_CHECK(!strstr(l, "[weak]"));
	/* disturbed: value shown, marked, no tier */
	TH_CHECK(strstr(line_of(gr, " cpu_single_eps", l, sizeof(l)), "620 events/s"));
	line_after(gr, " cpu_single_eps", l, sizeof(l));
	TH_CHECK(strstr(l, "disturbed: " DISTURBED_WHY));
	TH_CHECK(!strstr(l, "tier"));
	TH_CHECK(strstr(line_of(gr, " cpu_steal_pct", l, sizeof(l)), "% ± unknown"));
	TH_CHECK(!strstr(l, "± 0"));
	/* both weak figures marked */
	TH_CHECK(strstr(line_after(gr, " lat_p99_ms", l, sizeof(l)), "very slow, tier 1 of 5"));
	TH_CHECK(strstr(l, "[weak]"));
	TH_CHECK(strstr(line_after(gr, " seq_read_mbps", l, sizeof(l)), "[weak]"));
	TH_CHECK(!strstr(line_after(gr, " seq_write_mbps", l, sizeof(l)), "[weak]"));
	TH_CHECK(strstr(gr, "weak for its size: seq_read_mbps (ln distance 0.48), lat_p99_ms (ln distance 0.22)"));
	free(t);
	free(rep);
}

TH_TEST(render_marks_html)
{
	struct bench_report *rep = marked_report();
	char *h = rep ? render_to_mem(do_html, rep) : NULL;
	char *a, *b;

	TH_CHECK(h != NULL);
	a = h ? strstr(h, "<section id=\"grades\">") : NULL;
	b = a ? strstr(a, "</section>") : NULL;
	TH_CHECK(a && b);
	if (!a || !b) {
		free(h);
		free(rep);
		return;
	}
	*b = '\0';
	TH_CHECK(strstr(a, "<tr class=\"graded\" data-metric=\"seq_write_mbps\"><td>seq_write_mbps</td>"
			"<td class=\"n\">480 ± 12 MB/s<br><small>from 12 per-second samples</small></td>"
			"<td class=\"t1\">ideal, tier 4 of 5 (5 = best)</td>"));
	TH_CHECK(strstr(a, "<tr class=\"borderline\" data-metric=\"rand_iops\">"));
	TH_CHECK(strstr(a, "<td class=\"t1\">between good and ideal, tiers 3-4 of 5 (5 = best)</td>"));
	TH_CHECK(strstr(a, "<tr class=\"disturbed\" data-metric=\"cpu_single_eps\"><td>cpu_single_eps</td>"
			"<td class=\"n\">620 events/s ± unknown</td><td class=\"t1\">disturbed, not graded</td>"
			"<td>disturbed: " DISTURBED_WHY "</td>"));
	TH_CHECK(strstr(a, "<td class=\"n\">0.3 % ± unknown</td>"));
	TH_CHECK(strstr(a, "<tr class=\"weak\" data-metric=\"lat_p99_ms\">"));
	TH_CHECK(strstr(a, "<tr class=\"weak\" data-metric=\"seq_read_mbps\">"));
	TH_CHECK(strstr(a, "very slow, tier 1 of 5 (5 = best) <b>weak</b>"));
	TH_CHECK(strstr(a, "<p id=\"weak\"><b>Weak for its size:</b> seq_read_mbps (ln distance 0.48), "
			"lat_p99_ms (ln distance 0.22)</p>"));
	free(h);
	free(rep);
}

TH_TEST(render_marks_prom)
{
	struct bench_report *rep = marked_report();
	char *p = rep ? render_to_mem(do_prom, rep) : NULL;
	static const char *const want[] = {
		"vpsbench_grade_rank{metric=\"seq_write_mbps\",tier=\"ideal\"} 3\n",
		"vpsbench_grade_rank{metric=\"rand_iops\",tier=\"between good and ideal\"} 2\n",
		"vpsbench_grade_tiers{metric=\"rand_iops\"} 5\n",
		"vpsbench_grade_borderline{metric=\"rand_iops\"} 1\n",
		"vpsbench_grade_borderline{metric=\"seq_write_mbps\"} 0\n",
		"vpsbench_grade_rank_high{metric=\"rand_iops\"} 3\n",
		"vpsbench_grade_rank_high{metric=\"seq_write_mbps\"} 3\n",
		"vpsbench_metric_uncertainty{metric=\"seq_write_mbps\"} 12\n",
		"vpsbench_metric_uncertainty{metric=\"lat_p99_ms\"} 0.4\n",
		"vpsbench_metric_disturbed{metric=\"cpu_single_eps\"} 1\n",
		"vpsbench_metric_disturbed{metric=\"seq_write_mbps\"} 0\n",
		"vpsbench_weak{metric=\"seq_read_mbps\"} 1\n",
		"vpsbench_weak{metric=\"lat_p99_ms\"} 1\n",
		"vpsbench_weak_ln_distance{metric=\"lat_p99_ms\"} 0.223143551314",
		"# TYPE vpsbench_weak gauge\n",
	};

	TH_CHECK(p != NULL);
	for (size_t i = 0; p && i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(p, want[i]))
			th_fail(__FILE__, __LINE__, "prom lacks %s", want[i]);
	/* a disturbed figure has no tier; a borderline one no single tier word; no weak without a mark */
	TH_CHECK(p && !strstr(p, "vpsbench_grade_rank{metric=\"cpu_single_eps\""));
	TH_CHECK(p && !strstr(p, "tier=\"good\""));
	TH_CHECK(p && !strstr(p, "vpsbench_weak{metric=\"seq_write_mbps\""));
	TH_CHECK(p && !strstr(p, "vpsbench_metric_uncertainty{metric=\"cpu_single_eps\""));
	free(p);
	free(rep);
}

#ifdef HAVE_CJSON
static cJSON *grade_obj(cJSON *root, const char *metric)
{
	cJSON *x;

	cJSON_ArrayForEach(x, cJSON_GetObjectItem(root, "grades")) {
		cJSON *m = cJSON_GetObjectItem(x, "metric");

		if (cJSON_IsString(m) && !strcmp(m->valuestring, metric))
			return x;
	}
	return NULL;
}

static double num(cJSON *o, const char *key)
{
	cJSON *x = cJSON_GetObjectItem(o, key);

	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static const char *str(cJSON *o, const char *key)
{
	cJSON *x = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(x) ? x->valuestring : "(not a string)";
}

TH_TEST(render_marks_json)
{
	struct bench_report *rep = marked_report();
	char *s = rep ? render_json(rep, &plan) : NULL;
	cJSON *root = s ? cJSON_Parse(s) : NULL, *x, *det;

	TH_CHECK(root != NULL);
	if (!root) {
		free(s);
		free(rep);
		return;
	}
	x = grade_obj(root, "seq_write_mbps");
	TH_CHECK(x != NULL);
	TH_NEAR(num(x, "uncertainty"), 12, 1e-9);
	TH_EQ_STR(str(x, "uncertainty_from"), "12 per-second samples");
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(x, "borderline")));
	TH_CHECK(cJSON_IsNull(cJSON_GetObjectItem(x, "between")));
	TH_CHECK(!cJSON_GetObjectItem(x, "rank_hi"));
	TH_NEAR(num(x, "rank"), 3, 0);
	TH_NEAR(num(x, "tiers"), 5, 0);
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(x, "weak")));
	x = grade_obj(root, "rand_iops");
	TH_CHECK(x && cJSON_IsTrue(cJSON_GetObjectItem(x, "borderline")));
	TH_EQ_STR(str(x, "between"), "between good and ideal");
	TH_NEAR(num(x, "rank_hi"), 3, 0);
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(x, "weak")));
	x = grade_obj(root, "lat_p99_ms");
	TH_CHECK(x && cJSON_IsTrue(cJSON_GetObjectItem(x, "weak")));
	TH_NEAR(num(x, "weak_ln"), log(12.5 / 10), 1e-12);
	x = grade_obj(root, "seq_read_mbps");
	TH_CHECK(x && cJSON_IsTrue(cJSON_GetObjectItem(x, "weak")));
	TH_CHECK(grade_obj(root, "cpu_single_eps") == NULL);
	x = grade_obj(root, "cpu_steal_pct");
	TH_CHECK(x && cJSON_IsNull(cJSON_GetObjectItem(x, "uncertainty")));
	/* metrics: as before, the disturbed figure is null; metrics_detail has it */
	TH_CHECK(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "metrics"), "cpu_single_eps")));
	TH_NEAR(num(cJSON_GetObjectItem(root, "metrics"), "seq_write_mbps"), 480, 0);
	det = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "metrics_detail"), "cpu_single_eps");
	TH_CHECK(det != NULL);
	TH_NEAR(num(det, "value"), 620, 0);
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(det, "measured")));
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(det, "disturbed")));
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(det, "graded")));
	TH_EQ_STR(str(det, "why"), DISTURBED_WHY);
	TH_CHECK(cJSON_IsNull(cJSON_GetObjectItem(det, "uncertainty")));
	det = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "metrics_detail"), "lat_p99_ms");
	TH_NEAR(num(det, "uncertainty"), 0.4, 1e-12);
	TH_EQ_STR(str(det, "uncertainty_from"), "order statistics of 2400 reads");
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(det, "graded")));
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItem(det, "disturbed")));
	cJSON_Delete(root);
	free(s);
	free(rep);
}
#endif

/* A borderline across all five tiers is too long for 80 columns even on a line of its own:
 * it breaks after its first comma, and no line passes 80 (seen in smoke_seq under load). */
TH_TEST(text_grade_tag_wide_tier_wraps)
{
	struct grade_result *g = calloc(1, sizeof(*g));
	struct render_style st = { false };
	char *buf = NULL, *line;
	size_t n = 0;
	FILE *f;

	if (!g)
		return;
	add_metric(g, "seq_write_mbps", 480, 400, "2 runs");
	add_grade(g, "seq_write_mbps", 480, 400, "MB/s", 0, "very_slow", "very slow");
	g->g[0].borderline = true;
	g->g[0].rank_hi = 4;
	snprintf(g->g[0].between, sizeof(g->g[0].between), "between very slow and excellent");
	f = open_memstream(&buf, &n);
	if (!f) {
		free(g);
		return;
	}
	/* the indent of a seq run's line (25), where it was seen */
	fputs(" Write (1st run)         : 480 ± 400 MB/s (2 runs, 64 MiB)", f);
	text_grade_tag(f, &st, g, "seq_write_mbps", 58, 25);
	fclose(f);
	TH_CHECK(buf && strstr(buf, "between very slow and excellent,\n") != NULL);
	TH_CHECK(buf && strstr(buf, "tiers 1-5 of 5 (5 = best):") != NULL);
	for (line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		TH_CHECK(len <= 80);
		line = nl ? nl + 1 : NULL;
	}
	free(buf);
	free(g);
}
