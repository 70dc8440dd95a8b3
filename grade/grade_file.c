/*
 * grade_file.c — --thresholds FILE: JSON of the same shape as
 * --dump-thresholds prints: "metrics" (tiers) and "rules" (fit-for rules,
 * each with its public source). Errors name the file, line and key.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* 1-based line of the n-th (0-based) occurrence of needle at or after from. */
static unsigned line_of_nth(const char *text, const char *from, const char *needle, unsigned n)
{
	const char *p = from;
	unsigned line = 1;

	for (unsigned i = 0; p && i <= n; i++) {
		p = strstr(p, needle);
		if (p && i < n)
			p++;
	}
	if (!p)
		p = from;
	for (const char *c = text; c < p; c++)
		if (*c == '\n')
			line++;
	return line;
}

static const char *nth_pos(const char *from, const char *needle, unsigned n)
{
	const char *p = from;

	for (unsigned i = 0; p && i <= n; i++) {
		p = strstr(p, needle);
		if (p && i < n)
			p++;
	}
	return p ? p : from;
}

static char *slurp(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, r;

	if (!f) {
		snprintf(err, errlen, "--thresholds %s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb || cap > (4u << 20)) {
				free(nb ? nb : buf);
				fclose(f);
				snprintf(err, errlen, "--thresholds %s: too large or out of memory", path);
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		r = fread(buf + len, 1, cap - len - 1, f);
		len += r;
	} while (r > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "--thresholds %s: read error: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int copy_str(cJSON *o, const char *key, char *dst, size_t n, bool required)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v)
		return required ? -1 : 0;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= n)
		return -1;
	snprintf(dst, n, "%s", v->valuestring);
	return 0;
}

/* One rules[] entry into r; -1 with "FILE:LINE: rules[i] NAME: key ..." in err. */
static int load_rule(const char *path, const char *text, cJSON *o, unsigned ri,
		     struct grade_rule *r, char *err, size_t errlen)
{
	const char *rpos = nth_pos(text, "\"rule\"", ri);
	unsigned rline = line_of_nth(text, text, "\"rule\"", ri);
	cJSON *op, *val, *src;
	const char *bad = NULL, *why = "";

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(o) || copy_str(o, "rule", r->rule, sizeof(r->rule), true) < 0 || !r->rule[0]) {
		snprintf(err, errlen, "%s:%u: rules[%u]: key \"rule\" must be a short name string",
			 path, rline, ri);
		return -1;
	}
	op = cJSON_GetObjectItemCaseSensitive(o, "op");
	val = cJSON_GetObjectItemCaseSensitive(o, "value");
	src = cJSON_GetObjectItemCaseSensitive(o, "source");
	if (copy_str(o, "for", r->for_what, sizeof(r->for_what), false) < 0) {
		bad = "for";
		why = "must be a string of at most 95 characters";
	} else if (copy_str(o, "metric", r->metric, sizeof(r->metric), true) < 0) {
		bad = "metric";
		why = "must be a metric name string";
	} else if (!grade_known_metric(r->metric)) {
		bad = "metric";
		why = "unknown metric (vpsbench --help lists them)";
	} else if (!cJSON_IsString(op) || grade_op_parse(op->valuestring, &r->op) < 0) {
		bad = "op";
		why = "unknown operator: must be \">=\", \">\", \"<=\" or \"<\"";
	} else if (!cJSON_IsNumber(val) || !isfinite(val->valuedouble)) {
		bad = "value";
		why = "must be a number";
	} else if (!cJSON_IsObject(src) ||
		   copy_str(src, "url", r->source_url, sizeof(r->source_url), true) < 0 ||
		   copy_str(src, "says", r->source_says, sizeof(r->source_says), true) < 0 ||
		   !r->source_url[0] || !r->source_says[0]) {
		bad = "source";
		why = "every rule needs its public source: {\"url\": \"...\", \"says\": \"...\"}";
	}
	if (bad) {
		char key[16];
		const char *at, *next = strstr(rpos + 1, "\"rule\"");
		unsigned line = rline;

		/* the key's own line when it is inside this rule, else the rule's */
		snprintf(key, sizeof(key), "\"%s\"", bad);
		at = strstr(rpos, key);
		if (at && (!next || at < next))
			line = line_of_nth(text, rpos, key, 0);
		snprintf(err, errlen, "%s:%u: rules[%u] %s: key \"%s\": %s", path, line, ri, r->rule, bad,
			 why);
		return -1;
	}
	r->bound = val->valuedouble;
	return 0;
}

static int load_rules(const char *path, const char *text, cJSON *root, struct grade_table *t,
		      char *err, size_t errlen)
{
	cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules"), *o;
	unsigned ri = 0;

	if (!rules)
		return 0;
	if (!cJSON_IsArray(rules)) {
		snprintf(err, errlen, "%s:%u: key \"rules\": must be an array of rule objects", path,
			 line_of_nth(text, text, "\"rules\"", 0));
		return -1;
	}
	cJSON_ArrayForEach(o, rules) {
		struct grade_rule r, *slot = NULL;

		if (load_rule(path, text, o, ri, &r, err, errlen) < 0)
			return -1;
		for (unsigned i = 0; i < t->nrules; i++)
			if (strcmp(t->rule[i].rule, r.rule) == 0)
				slot = &t->rule[i];
		if (!slot) {
			if (t->nrules >= GRADE_MAX_RULES) {
				snprintf(err, errlen, "%s:%u: more than %d rules", path,
					 line_of_nth(text, text, "\"rule\"", ri), GRADE_MAX_RULES);
				return -1;
			}
			slot = &t->rule[t->nrules++];
		}
		*slot = r;
		ri++;
	}
	return 0;
}

int grade_load_file(const char *path, struct grade_table *t, char *err, size_t errlen)
{
	char *text = slurp(path, err, errlen);
	cJSON *root = NULL, *metrics, *m;
	unsigned mi = 0;
	int rc = -1;

	if (!text)
		return -1;
	root = cJSON_Parse(text);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		unsigned line = 1;

		for (const char *c = text; at && c < at && *c; c++)
			if (*c == '\n')
				line++;
		snprintf(err, errlen, "%s:%u: not valid JSON", path, line);
		goto out;
	}
	metrics = cJSON_GetObjectItemCaseSensitive(root, "metrics");
	if (!metrics && cJSON_GetObjectItemCaseSensitive(root, "rules")) {
		rc = load_rules(path, text, root, t, err, errlen); /* a rules-only file */
		goto out;
	}
	if (!cJSON_IsArray(metrics)) {
		snprintf(err, errlen, "%s:1: key \"metrics\": must be an array of metric objects", path);
		goto out;
	}
	cJSON_ArrayForEach(m, metrics) {
		struct grade_def d, *slot = NULL;
		const char *mpos = nth_pos(text, "\"metric\"", mi);
		unsigned mline = line_of_nth(text, text, "\"metric\"", mi);
		cJSON *dir, *tiers, *tj;
		unsigned ti = 0;

		memset(&d, 0, sizeof(d));
		if (!cJSON_IsObject(m) || copy_str(m, "metric", d.metric, sizeof(d.metric), true) < 0) {
			snprintf(err, errlen, "%s:%u: metrics[%u]: key \"metric\" must be a name string",
				 path, mline, mi);
			goto out;
		}
		if (copy_str(m, "unit", d.unit, sizeof(d.unit), false) < 0 ||
		    copy_str(m, "description", d.desc, sizeof(d.desc), false) < 0) {
			snprintf(err, errlen, "%s:%u: %s: keys \"unit\"/\"description\" must be short strings",
				 path, mline, d.metric);
			goto out;
		}
		dir = cJSON_GetObjectItemCaseSensitive(m, "direction");
		if (!cJSON_IsString(dir) || (strcmp(dir->valuestring, "higher") &&
					      strcmp(dir->valuestring, "lower"))) {
			snprintf(err, errlen, "%s:%u: %s: key \"direction\" must be \"higher\" or \"lower\"",
				 path, line_of_nth(text, mpos, "\"direction\"", 0), d.metric);
			goto out;
		}
		d.higher_better = strcmp(dir->valuestring, "higher") == 0;
		tiers = cJSON_GetObjectItemCaseSensitive(m, "tiers");
		if (!cJSON_IsArray(tiers) || cJSON_GetArraySize(tiers) == 1 ||
		    cJSON_GetArraySize(tiers) > GRADE_MAX_TIERS) {
			snprintf(err, errlen, "%s:%u: %s: key \"tiers\" must be an array of 0 (not graded) or 2 to %d tiers",
				 path, line_of_nth(text, mpos, "\"tiers\"", 0), d.metric, GRADE_MAX_TIERS);
			goto out;
		}
		cJSON_ArrayForEach(tj, tiers) {
			struct grade_tier *gt = &d.tiers[ti];
			const char *bkey = d.higher_better ? "min" : "max";
			cJSON *b = cJSON_IsObject(tj) ? cJSON_GetObjectItemCaseSensitive(tj, bkey) : NULL;
			unsigned tline = line_of_nth(text, mpos, "\"tier\"", ti);

			if (!cJSON_IsObject(tj) || copy_str(tj, "tier", gt->tier, sizeof(gt->tier), true) < 0) {
				snprintf(err, errlen, "%s:%u: %s: tiers[%u]: key \"tier\" must be a short name",
					 path, tline, d.metric, ti);
				goto out;
			}
			if (copy_str(tj, "label", gt->label, sizeof(gt->label), false) < 0 ||
			    copy_str(tj, "meaning", gt->meaning, sizeof(gt->meaning), false) < 0) {
				snprintf(err, errlen, "%s:%u: %s: tiers[%u]: keys \"label\"/\"meaning\" must be strings "
					 "(at most %zu/%zu characters)", path, tline, d.metric, ti,
					 sizeof(gt->label) - 1, sizeof(gt->meaning) - 1);
				goto out;
			}
			if (!gt->label[0])
				memcpy(gt->label, gt->tier, sizeof(gt->tier));
			if (ti == 0 && (!b || cJSON_IsNull(b))) {
				gt->open = true;
			} else if (!cJSON_IsNumber(b) || !isfinite(b->valuedouble)) {
				snprintf(err, errlen, "%s:%u: %s: tiers[%u]: key \"%s\" must be a number%s",
					 path, tline, d.metric, ti, bkey,
					 ti == 0 ? " or null" : " (only the first, worst tier may be open)");
				goto out;
			} else {
				gt->bound = b->valuedouble;
				if (ti > 0 && !d.tiers[ti - 1].open &&
				    (d.higher_better ? gt->bound <= d.tiers[ti - 1].bound :
				     gt->bound >= d.tiers[ti - 1].bound)) {
					snprintf(err, errlen, "%s:%u: %s: tiers[%u]: key \"%s\" must be %s than the "
						 "previous tier's (tiers go from worst to best)", path, tline,
						 d.metric, ti, bkey, d.higher_better ? "higher" : "lower");
					goto out;
				}
			}
			ti++;
		}
		d.ntiers = ti;
		for (unsigned i = 0; i < t->n; i++)
			if (strcmp(t->def[i].metric, d.metric) == 0)
				slot = &t->def[i];
		if (!slot) {
			if (t->n >= GRADE_MAX_METRICS) {
				snprintf(err, errlen, "%s:%u: more than %d metrics", path, mline,
					 GRADE_MAX_METRICS);
				goto out;
			}
			slot = &t->def[t->n++];
		}
		if (!d.unit[0] && slot->unit[0])
			snprintf(d.unit, sizeof(d.unit), "%s", slot->unit);
		if (!d.desc[0] && slot->desc[0])
			snprintf(d.desc, sizeof(d.desc), "%s", slot->desc);
		*slot = d;
		mi++;
	}
	rc = load_rules(path, text, root, t, err, errlen);
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

#else

int grade_load_file(const char *path, struct grade_table *t, char *err, size_t errlen)
{
	(void)t;
	snprintf(err, errlen, "--thresholds %s: unavailable: built without cJSON", path);
	return -1;
}

#endif
