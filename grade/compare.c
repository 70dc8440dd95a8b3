/*
 * compare.c — reads two vpsbench JSON reports ("metrics", "grades") and
 * lines their figures up. Foreign or broken JSON is an error.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static cJSON *load_report(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;
	cJSON *root = NULL, *schema;

	if (!f) {
		snprintf(err, errlen, "compare: %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0 ||
	    len > (16L << 20)) {
		snprintf(err, errlen, "compare: %s: cannot read (too large or not a file)", path);
		goto out;
	}
	buf = malloc((size_t)len + 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		snprintf(err, errlen, "compare: %s: read failed: %s", path, strerror(errno));
		goto out;
	}
	buf[len] = '\0';
	root = cJSON_Parse(buf);
	if (!root) {
		snprintf(err, errlen, "compare: %s: not valid JSON", path);
		goto out;
	}
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (!cJSON_IsString(schema) || strcmp(schema->valuestring, "vpsbench.report/1") != 0) {
		snprintf(err, errlen, "compare: %s: not a vpsbench report (no \"schema\": "
			 "\"vpsbench.report/1\")", path);
		cJSON_Delete(root);
		root = NULL;
		goto out;
	}
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "metrics"))) {
		snprintf(err, errlen, "compare: %s: report has no \"metrics\" object", path);
		cJSON_Delete(root);
		root = NULL;
	}
out:
	free(buf);
	fclose(f);
	return root;
}

static const cJSON *find_grade(const cJSON *root, const char *metric)
{
	const cJSON *g, *grades = cJSON_GetObjectItemCaseSensitive(root, "grades");

	cJSON_ArrayForEach(g, grades) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(g, "metric");

		if (cJSON_IsString(m) && strcmp(m->valuestring, metric) == 0)
			return g;
	}
	return NULL;
}

static void side(const cJSON *root, const char *metric, bool *ok, double *v, char *tier,
		 size_t tn, double *spread)
{
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(root, "metrics");
	const cJSON *val = cJSON_GetObjectItemCaseSensitive(metrics, metric);
	const cJSON *g = find_grade(root, metric);

	*ok = cJSON_IsNumber(val) && isfinite(val->valuedouble);
	*v = *ok ? val->valuedouble : 0;
	tier[0] = '\0';
	*spread = -1;
	if (g) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(g, "label");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(g, "spread_pct");

		if (cJSON_IsString(t))
			snprintf(tier, tn, "%s", t->valuestring);
		if (cJSON_IsNumber(s))
			*spread = s->valuedouble;
	}
}

/* health.status and the checks with a problem, as grade/health.c wrote them. */
static void health_of(const cJSON *root, char *status, size_t sn, char *problems, size_t pn)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "health");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(h, "status"), *p;

	snprintf(status, sn, "%s", cJSON_IsString(st) ? st->valuestring : "unknown");
	problems[0] = '\0';
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(h, "problems")) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "check");
		size_t u = strlen(problems);

		if (cJSON_IsString(c) && u < pn)
			snprintf(problems + u, pn - u, "%s%s", u ? ", " : "", c->valuestring);
	}
}

static void run_time(const cJSON *root, char *dst, size_t n)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(root, "run");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "start");

	snprintf(dst, n, "%s", cJSON_IsString(st) ? st->valuestring : "unknown");
}

int compare_reports(const char *old_path, const char *new_path, struct compare_result *out,
		    char *err, size_t errlen)
{
	cJSON *a = NULL, *b = NULL;
	const struct grade_table *t = grade_builtin_table();
	int rc = -1;

	memset(out, 0, sizeof(*out));
	a = load_report(old_path, err, errlen);
	if (!a)
		goto out;
	b = load_report(new_path, err, errlen);
	if (!b)
		goto out;
	snprintf(out->old_path, sizeof(out->old_path), "%s", old_path);
	snprintf(out->new_path, sizeof(out->new_path), "%s", new_path);
	run_time(a, out->old_time, sizeof(out->old_time));
	run_time(b, out->new_time, sizeof(out->new_time));
	health_of(a, out->old_health, sizeof(out->old_health), out->old_problems,
		  sizeof(out->old_problems));
	health_of(b, out->new_health, sizeof(out->new_health), out->new_problems,
		  sizeof(out->new_problems));

	for (int i = 0; grade_metric_names[i] && out->n < GRADE_MAX_METRICS; i++) {
		const char *name = grade_metric_names[i];
		struct compare_row *r = &out->row[out->n];
		const struct grade_def *d = grade_find(t, name);
		double sa, sb;

		memset(r, 0, sizeof(*r));
		snprintf(r->metric, sizeof(r->metric), "%s", name);
		side(a, name, &r->old_ok, &r->old_v, r->old_tier, sizeof(r->old_tier), &sa);
		side(b, name, &r->new_ok, &r->new_v, r->new_tier, sizeof(r->new_tier), &sb);
		if (!r->old_ok && !r->new_ok)
			continue;
		snprintf(r->unit, sizeof(r->unit), "%s", d ? d->unit :
			 strstr(name, "_ms") ? "ms" : strstr(name, "iops") ? "IOPS" : "");
		r->noise_pct = fmax(sa, sb);
		if (r->noise_pct < 0)
			r->noise_pct = COMPARE_DEFAULT_NOISE_PCT;
		if (r->old_ok && r->new_ok && r->old_v != 0) {
			bool higher = d ? d->higher_better : !strstr(name, "_ms");

			r->change_ok = true;
			r->change_pct = (r->new_v - r->old_v) / fabs(r->old_v) * 100.0;
			r->significant = fabs(r->change_pct) > 2.0 * r->noise_pct;
			if (r->new_v != r->old_v)
				r->better = ((r->new_v > r->old_v) == higher) ? 1 : -1;
		}
		r->tier_changed = r->old_tier[0] && r->new_tier[0] && strcmp(r->old_tier, r->new_tier);
		out->n++;
	}
	rc = 0;
out:
	cJSON_Delete(a);
	cJSON_Delete(b);
	return rc;
}

#else

int compare_reports(const char *old_path, const char *new_path, struct compare_result *out,
		    char *err, size_t errlen)
{
	(void)old_path;
	(void)new_path;
	(void)out;
	snprintf(err, errlen, "compare: unavailable: built without cJSON");
	return -1;
}

#endif
