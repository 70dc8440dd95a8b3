/*
 * grade_file.c — --thresholds FILE: JSON of the same shape as
 * --dump-thresholds prints: "metrics" (tiers, each metric with the source
 * of its bounds), "rules" (fit-for rules: conditions and their source) and
 * "health" (health bounds moved within their range, with their source).
 * Errors are one line naming the file, line and key.
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

/*
 * A "source" object {"url", "says"} of o into src: 0, or -1 when it is
 * absent, not an object, or either string is empty or too long.
 */
static int load_source(cJSON *o, struct grade_source *src)
{
	cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "source");

	memset(src, 0, sizeof(*src));
	if (!cJSON_IsObject(j) || copy_str(j, "url", src->url, sizeof(src->url), true) < 0 ||
	    copy_str(j, "says", src->says, sizeof(src->says), true) < 0 || !src->url[0] ||
	    !src->says[0])
		return -1;
	return 0;
}

/* One condition {"metric", "op", "value"} of j into c; -1 with the bad key and why. */
static int load_cond(cJSON *j, struct grade_cond *c, const char **bad, const char **why)
{
	cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
	cJSON *val = cJSON_GetObjectItemCaseSensitive(j, "value");

	memset(c, 0, sizeof(*c));
	if (copy_str(j, "metric", c->metric, sizeof(c->metric), true) < 0) {
		*bad = "metric";
		*why = "must be a metric name string";
	} else if (!grade_known_metric(c->metric)) {
		*bad = "metric";
		*why = "unknown metric (vpsbench --help lists them)";
	} else if (!cJSON_IsString(op) || grade_op_parse(op->valuestring, &c->op) < 0) {
		*bad = "op";
		*why = "unknown operator: must be \">=\", \">\", \"<=\" or \"<\"";
	} else if (!cJSON_IsNumber(val) || !isfinite(val->valuedouble)) {
		*bad = "value";
		*why = "must be a number";
	} else {
		c->bound = val->valuedouble;
		return 0;
	}
	return -1;
}

/*
 * One rules[] entry into r: "conditions": [{"metric", "op", "value"}...]
 * (all must hold) or the older single "metric"/"op"/"value", and its
 * "source". -1 with "FILE:LINE: rules[i] NAME: key ..." in err.
 */
static int load_rule(const char *path, const char *text, cJSON *o, unsigned ri,
		     struct grade_rule *r, char *err, size_t errlen)
{
	const char *rpos = nth_pos(text, "\"rule\"", ri);
	unsigned rline = line_of_nth(text, text, "\"rule\"", ri);
	cJSON *conds;
	const char *bad = NULL, *why = "";
	unsigned nth = 0; /* the failing condition: the key's nth occurrence in the rule */

	memset(r, 0, sizeof(*r));
	if (!cJSON_IsObject(o) || copy_str(o, "rule", r->rule, sizeof(r->rule), true) < 0 || !r->rule[0]) {
		snprintf(err, errlen, "%s:%u: rules[%u]: key \"rule\" must be a short name string",
			 path, rline, ri);
		return -1;
	}
	conds = cJSON_GetObjectItemCaseSensitive(o, "conditions");
	if (copy_str(o, "for", r->for_what, sizeof(r->for_what), false) < 0) {
		bad = "for";
		why = "must be a string of at most 95 characters";
	} else if (conds && (!cJSON_IsArray(conds) || cJSON_GetArraySize(conds) < 1 ||
			     cJSON_GetArraySize(conds) > GRADE_MAX_COND)) {
		bad = "conditions";
		why = "must be an array of 1 to 3 {\"metric\", \"op\", \"value\"} objects";
	} else if (conds) {
		cJSON *j;

		cJSON_ArrayForEach(j, conds) {
			if (!cJSON_IsObject(j)) {
				bad = "conditions";
				why = "each condition must be a {\"metric\", \"op\", \"value\"} object";
				break;
			}
			if (load_cond(j, &r->cond[r->ncond], &bad, &why) < 0) {
				nth = r->ncond;
				break;
			}
			r->ncond++;
		}
	} else if (load_cond(o, &r->cond[0], &bad, &why) == 0) {
		r->ncond = 1;
	}
	if (!bad && load_source(o, &r->src) < 0) {
		bad = "source";
		why = "every rule needs its public source: {\"url\": \"...\", \"says\": \"...\"}";
	}
	if (bad) {
		char key[16];
		const char *at, *next = strstr(rpos + 1, "\"rule\"");
		unsigned line = rline;

		/* the key's own line (in the failing condition) when inside this rule, else the rule's */
		snprintf(key, sizeof(key), "\"%s\"", bad);
		at = nth_pos(rpos, key, nth);
		if (at && at != rpos && strncmp(at, key, strlen(key)) == 0 && (!next || at < next))
			line = line_of_nth(text, rpos, key, nth);
		snprintf(err, errlen, "%s:%u: rules[%u] %s: key \"%s\": %s", path, line, ri, r->rule, bad,
			 why);
		return -1;
	}
	return 0;
}

/*
 * "health": [{"name", "value", "source", ...}]: moves a known health bound
 * within its [min, max]; unit, description, min and max, when given, must be
 * the table's (a round trip of --dump-thresholds loads). -1 with
 * "FILE:LINE: health[i] NAME: key ...: problem" in err.
 */
static int load_health(const char *path, const char *text, cJSON *root, struct grade_table *t,
		       char *err, size_t errlen)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "health"), *o;
	const char *hpos;
	unsigned hi = 0;

	if (!arr)
		return 0;
	hpos = strstr(text, "\"health\"");
	if (!hpos)
		hpos = text;
	if (!cJSON_IsArray(arr)) {
		snprintf(err, errlen, "%s:%u: key \"health\": must be an array of health bound objects",
			 path, line_of_nth(text, text, "\"health\"", 0));
		return -1;
	}
	cJSON_ArrayForEach(o, arr) {
		unsigned line = line_of_nth(text, hpos, "\"name\"", hi);
		const char *npos = nth_pos(hpos, "\"name\"", hi);
		struct health_bound *slot = NULL;
		char name[32] = "";
		cJSON *val, *mn, *mx;
		const char *bad = NULL;
		char why[200] = "";

		if (!cJSON_IsObject(o) || copy_str(o, "name", name, sizeof(name), true) < 0) {
			snprintf(err, errlen, "%s:%u: health[%u]: key \"name\" must be a health bound's name",
				 path, line, hi);
			return -1;
		}
		for (unsigned i = 0; i < t->nhealth; i++)
			if (strcmp(t->health[i].name, name) == 0)
				slot = &t->health[i];
		val = cJSON_GetObjectItemCaseSensitive(o, "value");
		mn = cJSON_GetObjectItemCaseSensitive(o, "min");
		mx = cJSON_GetObjectItemCaseSensitive(o, "max");
		if (!slot) {
			size_t u = 0;

			bad = "name";
			u += (size_t)snprintf(why, sizeof(why), "unknown health bound (known:");
			for (unsigned i = 0; i < t->nhealth && u < sizeof(why); i++)
				u += (size_t)snprintf(why + u, sizeof(why) - u, " %s", t->health[i].name);
			if (u < sizeof(why))
				snprintf(why + u, sizeof(why) - u, ")");
		} else if (!cJSON_IsNumber(val) || !isfinite(val->valuedouble)) {
			bad = "value";
			snprintf(why, sizeof(why), "must be a number");
		} else if (val->valuedouble < slot->min || val->valuedouble > slot->max) {
			bad = "value";
			snprintf(why, sizeof(why), "%g is outside its range [%g, %g]", val->valuedouble,
				 slot->min, slot->max);
		} else if ((mn && (!cJSON_IsNumber(mn) || mn->valuedouble != slot->min)) ||
			   (mx && (!cJSON_IsNumber(mx) || mx->valuedouble != slot->max))) {
			bad = mn && (!cJSON_IsNumber(mn) || mn->valuedouble != slot->min) ? "min" : "max";
			snprintf(why, sizeof(why), "the range is fixed at [%g, %g]", slot->min, slot->max);
		} else if (load_source(o, &(struct grade_source){ 0 }) < 0) {
			bad = "source";
			snprintf(why, sizeof(why), "a moved health bound needs its source: "
				 "{\"url\": \"...\", \"says\": \"...\"}");
		}
		if (bad) {
			char key[16];
			const char *at, *next = strstr(npos + 1, "\"name\"");

			snprintf(key, sizeof(key), "\"%s\"", bad);
			at = strstr(npos, key);
			if (at && (!next || at < next))
				line = line_of_nth(text, npos, key, 0);
			snprintf(err, errlen, "%s:%u: health[%u] %s: key \"%s\": %s", path, line, hi, name,
				 bad, why);
			return -1;
		}
		slot->value = val->valuedouble;
		load_source(o, &slot->src);
		hi++;
	}
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
	if (!metrics && (cJSON_GetObjectItemCaseSensitive(root, "rules") ||
			 cJSON_GetObjectItemCaseSensitive(root, "health"))) {
		/* a rules-only or health-only file */
		rc = load_rules(path, text, root, t, err, errlen) < 0 ? -1 :
		     load_health(path, text, root, t, err, errlen);
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
		if (load_source(m, &d.src) < 0) {
			const char *next = strstr(mpos + 1, "\"metric\"");
			const char *at = strstr(mpos, "\"source\"");

			snprintf(err, errlen, "%s:%u: %s: key \"source\": tiers need the source of their "
				 "bounds: {\"url\": \"...\", \"says\": \"...\"} (a public page and what it "
				 "says, or README.md#... and the reasoning)", path,
				 at && (!next || at < next) ? line_of_nth(text, at, "\"source\"", 0) : mline,
				 d.metric);
			goto out;
		}
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
	rc = load_rules(path, text, root, t, err, errlen) < 0 ? -1 :
	     load_health(path, text, root, t, err, errlen);
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
