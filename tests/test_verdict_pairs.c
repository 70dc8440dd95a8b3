/*
 * test_verdict_pairs.c — "same VPS, same answer" (issue #39) on recorded
 * reports: each pair in tests/fixtures/verdict_pairs/ is two default runs
 * of one machine (its README says which are as recorded and which carry
 * one figure replaced). Each report's metrics_detail (value, uncertainty,
 * disturbed) is graded again with today's built-in table; the two must
 * give the same verdict: the same weak figures, the same fit-for answers,
 * the same health status. Tiers may move between runs (the closing note
 * of issue #39 gives the table); the verdict may not.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"
#include "grade/grade.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static cJSON *load(const char *pair, const char *which)
{
	char path[512], *buf;
	FILE *f;
	long n;
	cJSON *j;

	snprintf(path, sizeof(path), "%s/tests/fixtures/verdict_pairs/%s/%s.json", th_srcdir(), pair,
		 which);
	f = fopen(path, "r");
	if (!f) {
		th_fail(__FILE__, __LINE__, "%s: cannot open", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		th_fail(__FILE__, __LINE__, "%s: read failed", path);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	j = cJSON_Parse(buf);
	free(buf);
	if (!j)
		th_fail(__FILE__, __LINE__, "%s: not JSON", path);
	return j;
}

/* The report's metrics_detail as a metric set, as grade_collect left it. */
static void metrics_of(const cJSON *rep, struct metric_set *ms)
{
	const cJSON *det = cJSON_GetObjectItemCaseSensitive(rep, "metrics_detail"), *d;

	memset(ms, 0, sizeof(*ms));
	TH_CHECK(cJSON_IsObject(det));
	cJSON_ArrayForEach(d, det) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, "value"),
			    *u = cJSON_GetObjectItemCaseSensitive(d, "uncertainty"),
			    *why = cJSON_GetObjectItemCaseSensitive(d, "why");
		struct metric *m = metric_add(ms, d->string);

		if (!m)
			break;
		m->selected = true;
		m->measured = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "measured")) &&
			      cJSON_IsNumber(v);
		m->disturbed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "disturbed"));
		m->low_confidence = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "low_confidence"));
		if (cJSON_IsNumber(v))
			m->value = v->valuedouble;
		if (cJSON_IsNumber(u))
			m->uncert = u->valuedouble;
		if (cJSON_IsString(why))
			snprintf(m->why_not, sizeof(m->why_not), "%s", why->valuestring);
	}
}

static void same_answer(const char *pair)
{
	cJSON *a = load(pair, "a"), *b = load(pair, "b");
	static struct metric_set ms[2];
	static struct grade_result g[2];
	const struct grade_table *t = grade_builtin_table();

	if (!a || !b)
		goto out;
	metrics_of(a, &ms[0]);
	metrics_of(b, &ms[1]);
	for (int k = 0; k < 2; k++) {
		memset(&g[k], 0, sizeof(g[k]));
		grade_apply(t, &ms[k], &g[k]);
	}
	/* something was graded: a pair of empty reports would agree on nothing */
	TH_CHECK(g[0].n >= 5 && g[1].n >= 5);
	TH_EQ_INT(g[0].nweak, g[1].nweak);
	for (unsigned i = 0; i < g[0].nweak && i < g[1].nweak; i++)
		TH_EQ_STR(g[0].g[g[0].weak[i]].metric, g[1].g[g[1].weak[i]].metric);
	TH_EQ_INT(g[0].nfit, g[1].nfit);
	for (unsigned i = 0; i < g[0].nfit && i < g[1].nfit; i++)
		if (g[0].fit[i].answer != g[1].fit[i].answer)
			th_fail(__FILE__, __LINE__, "%s: rule %s answers %d and %d", pair,
				g[0].fit[i].rule.rule, g[0].fit[i].answer, g[1].fit[i].answer);
	{
		const cJSON *v[2] = { cJSON_GetObjectItemCaseSensitive(a, "verdict"),
				      cJSON_GetObjectItemCaseSensitive(b, "verdict") };
		const cJSON *h0 = cJSON_GetObjectItemCaseSensitive(v[0], "health"),
			    *h1 = cJSON_GetObjectItemCaseSensitive(v[1], "health");

		TH_CHECK(cJSON_IsString(h0) && cJSON_IsString(h1));
		if (cJSON_IsString(h0) && cJSON_IsString(h1))
			TH_EQ_STR(h0->valuestring, h1->valuestring);
	}
out:
	cJSON_Delete(a);
	cJSON_Delete(b);
}

TH_TEST(verdict_pair_recorded_1_2)
{
	same_answer("recorded_1_2");
}

TH_TEST(verdict_pair_recorded_2_4)
{
	same_answer("recorded_2_4");
}

TH_TEST(verdict_pair_mem_latency_148_161)
{
	same_answer("mem_latency_148_161");
}

TH_TEST(verdict_pair_seq_read_48_411)
{
	same_answer("seq_read_48_411");
}

#endif
