/*
 * test_grade_table.c — the built-in tier table as data: every definition
 * with tiers has a source (url and what it says), bounds strictly ordered
 * for the metric's direction (worst tier open, then each bound better than
 * the last), no tier name twice in one definition, every text field ends
 * inside its array, and a definition with no tiers still says why.
 * Each failure names the metric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade/grade.h"
#include "th.h"

/* One definition's problems, each a line naming the metric; the count. */
static int def_problems(const struct grade_def *d, FILE *out)
{
	int bad = 0;

#define BAD(...) do { fprintf(out, "%s: ", d->metric); fprintf(out, __VA_ARGS__); \
		      fputc('\n', out); bad++; } while (0)
	if (strnlen(d->src.url, sizeof(d->src.url)) == sizeof(d->src.url) ||
	    strnlen(d->src.says, sizeof(d->src.says)) == sizeof(d->src.says))
		BAD("src not terminated inside its array");
	else if (!d->src.url[0] || !d->src.says[0])
		BAD("no source (src.url \"%s\", src.says %s)", d->src.url,
		    d->src.says[0] ? "given" : "empty");
	else if (strncmp(d->src.url, "https://", 8) && strcmp(d->src.url, "README.md#grades"))
		BAD("src.url \"%s\" is neither https:// nor README.md#grades", d->src.url);
	if (d->ntiers > GRADE_MAX_TIERS) {
		BAD("%u tiers, at most %d", d->ntiers, GRADE_MAX_TIERS);
		return bad;
	}
	if (d->ntiers == 1)
		BAD("one tier: nothing to grade against");
	for (unsigned i = 0; i < d->ntiers; i++) {
		const struct grade_tier *t = &d->tiers[i];

		if (strnlen(t->tier, sizeof(t->tier)) == sizeof(t->tier) ||
		    strnlen(t->label, sizeof(t->label)) == sizeof(t->label) ||
		    strnlen(t->meaning, sizeof(t->meaning)) == sizeof(t->meaning)) {
			BAD("tiers[%u]: a name, label or meaning fills its array", i);
			continue;
		}
		if (!t->tier[0] || !t->label[0] || !t->meaning[0])
			BAD("tiers[%u]: empty name, label or meaning", i);
		if ((i == 0) != t->open)
			BAD("tiers[%u] (%s): %s", i, t->tier,
			    i == 0 ? "the worst tier must be open" : "only the worst tier may be open");
		if (i > 0 && !t->open && !isfinite(t->bound))
			BAD("tiers[%u] (%s): bound not finite", i, t->tier);
		if (i > 1 && (d->higher_better ? !(t->bound > d->tiers[i - 1].bound)
					       : !(t->bound < d->tiers[i - 1].bound)))
			BAD("tiers[%u] (%s): bound %g not %s than tiers[%u]'s %g", i, t->tier, t->bound,
			    d->higher_better ? "higher" : "lower", i - 1, d->tiers[i - 1].bound);
		for (unsigned j = 0; j < i; j++)
			if (strcmp(t->tier, d->tiers[j].tier) == 0)
				BAD("tier name \"%s\" twice (tiers[%u] and tiers[%u])", t->tier, j, i);
	}
#undef BAD
	return bad;
}

TH_TEST(grade_table_every_def_sourced_ordered_unique)
{
	const struct grade_table *t = grade_builtin_table();
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int bad = 0;

	TH_CHECK(out != NULL);
	if (!out)
		return;
	TH_CHECK(t->n > 0);
	for (unsigned i = 0; i < t->n; i++) {
		bad += def_problems(&t->def[i], out);
		for (unsigned j = 0; j < i; j++)
			if (strcmp(t->def[i].metric, t->def[j].metric) == 0) {
				fprintf(out, "%s: defined twice\n", t->def[i].metric);
				bad++;
			}
		if (!grade_known_metric(t->def[i].metric)) {
			fprintf(out, "%s: not a known metric name\n", t->def[i].metric);
			bad++;
		}
	}
	fclose(out);
	if (bad)
		th_fail(__FILE__, __LINE__, "%d problem(s) in the built-in table:\n%s", bad, buf);
	free(buf);
}

/* The checker itself: a broken copy of a definition is caught, each way, naming the metric. */
TH_TEST(grade_table_checker_catches_each_break)
{
	const struct grade_def *orig = grade_find(grade_builtin_table(), "rand_iops");
	static const char *const want[] = { "no source", "no source", "not higher", "twice",
					    "must be open" };
	struct grade_def d;

	TH_CHECK(orig && orig->ntiers >= 3);
	if (!orig || orig->ntiers < 3)
		return;
	for (int k = 0; k < 5; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		int n;

		if (!out) {
			th_fail(__FILE__, __LINE__, "open_memstream failed");
			return;
		}
		d = *orig;
		if (k == 0)
			d.src.url[0] = '\0';
		else if (k == 1)
			d.src.says[0] = '\0';
		else if (k == 2)
			d.tiers[2].bound = d.tiers[1].bound;
		else if (k == 3)
			memcpy(d.tiers[2].tier, d.tiers[1].tier, sizeof(d.tiers[2].tier));
		else
			d.tiers[0].open = false;
		n = def_problems(&d, out);
		fclose(out);
		if (n < 1 || !strstr(buf, "rand_iops: ") || !strstr(buf, want[k]))
			th_fail(__FILE__, __LINE__, "break %d: %d problem(s), \"%s\"", k, n, buf);
		free(buf);
	}
	TH_EQ_INT(def_problems(orig, stderr), 0);
}

/* cpu_single_eps: ecs's tier 1 is the fastest, so the best tier is ecs_t1 and the worst ecs_t8. */
TH_TEST(grade_table_cpu_names_run_with_rank)
{
	const struct grade_def *d = grade_find(grade_builtin_table(), "cpu_single_eps");
	char want[16];

	TH_CHECK(d && d->ntiers == 8);
	if (!d || d->ntiers != 8)
		return;
	for (unsigned r = 0; r < d->ntiers; r++) {
		snprintf(want, sizeof(want), "ecs_t%u", d->ntiers - r);
		TH_EQ_STR(d->tiers[r].tier, want);
	}
	TH_EQ_STR(d->tiers[grade_tier_of(d, 2387)].tier, "ecs_t4");
	TH_EQ_STR(d->tiers[grade_tier_of(d, 900)].tier, "ecs_t6");
	TH_CHECK(strstr(d->src.url, "github.com/oneclickvirt/ecs") != NULL);
}
