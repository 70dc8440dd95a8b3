/*
 * grade.c — tier evaluation, the operators, and --require gating.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"

const struct grade_def *grade_find(const struct grade_table *t, const char *metric)
{
	for (unsigned i = 0; i < t->n; i++)
		if (strcmp(t->def[i].metric, metric) == 0)
			return &t->def[i];
	return NULL;
}

unsigned grade_tier_of(const struct grade_def *d, double v)
{
	unsigned best = 0;

	/* tiers run worst to best: the best one whose bound the value meets */
	for (unsigned i = 0; i < d->ntiers; i++) {
		const struct grade_tier *t = &d->tiers[i];

		if (t->open || (d->higher_better ? v >= t->bound : v <= t->bound))
			best = i;
	}
	return best;
}

struct metric *metric_add(struct metric_set *ms, const char *name)
{
	struct metric *m;

	if (ms->n >= GRADE_MAX_METRICS)
		return NULL;
	m = &ms->m[ms->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->spread_pct = -1;
	m->uncert = NAN;
	return m;
}

const struct metric *metric_get(const struct metric_set *ms, const char *name)
{
	for (unsigned i = 0; i < ms->n; i++)
		if (strcmp(ms->m[i].name, name) == 0)
			return &ms->m[i];
	return NULL;
}

/* Appends "; why" (or why alone) to m's why_not, cut to fit. */
static void why_append(struct metric *m, const char *why)
{
	size_t u = strlen(m->why_not);

	if (u + 3 >= sizeof(m->why_not))
		return;
	snprintf(m->why_not + u, sizeof(m->why_not) - u, "%s%s", u ? "; " : "", why);
}

/*
 * The borderline rule (README "Grades"): the value v with its 95%
 * half-width u is graded only when no tier bound b lies strictly inside
 * (v - u, v + u), that is |v - b| < u. The edge: a value exactly u away
 * from a bound (|v - b| == u) is clear and takes the tier of v; with u == 0
 * nothing is borderline. Otherwise lo and hi are the worst and best tiers the
 * interval reaches and the function returns true.
 */
static bool straddles(const struct grade_def *d, double v, double u, unsigned *lo, unsigned *hi)
{
	unsigned k = grade_tier_of(d, v);

	*lo = *hi = k;
	for (unsigned i = 1; i < d->ntiers; i++) {
		const struct grade_tier *t = &d->tiers[i];

		if (t->open || !(fabs(v - t->bound) < u))
			continue;
		if (i - 1 < *lo)
			*lo = i - 1;
		if (i > *hi)
			*hi = i;
	}
	return *lo != *hi;
}

void grade_apply(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out)
{
	out->graded = true;
	out->n = 0;
	out->metrics = *ms;
	for (unsigned i = 0; i < ms->n && out->n < GRADE_MAX_METRICS; i++) {
		const struct metric *m = &ms->m[i];
		const struct grade_def *d = grade_find(t, m->name);
		struct grade *g;
		unsigned k, lo, hi;
		bool border;

		if (!d || !m->measured || !isfinite(m->value) || d->ntiers == 0)
			continue;
		if (m->disturbed)
			continue; /* shown with what disturbed it (why_not), never graded */
		if (isnan(m->uncert) || m->uncert < 0) {
			why_append(&out->metrics.m[i], "its uncertainty was not measured");
			continue;
		}
		if (!isfinite(m->uncert)) {
			why_append(&out->metrics.m[i], "its uncertainty is unbounded (too few samples)");
			continue;
		}
		border = straddles(d, m->value, m->uncert, &lo, &hi);
		k = border ? lo : grade_tier_of(d, m->value);
		g = &out->g[out->n];
		memset(g, 0, sizeof(*g));
		snprintf(g->metric, sizeof(g->metric), "%s", d->metric);
		snprintf(g->unit, sizeof(g->unit), "%s", d->unit);
		snprintf(g->tier, sizeof(g->tier), "%s", border ? "borderline" : d->tiers[k].tier);
		snprintf(g->label, sizeof(g->label), "%s", d->tiers[k].label);
		snprintf(g->meaning, sizeof(g->meaning), "%s", d->tiers[k].meaning);
		g->value = m->value;
		g->rank = k;
		g->rank_hi = border ? hi : k;
		g->borderline = border;
		if (border)
			snprintf(g->between, sizeof(g->between), "between %s and %s", d->tiers[lo].label,
				 d->tiers[hi].label);
		g->ntiers = d->ntiers;
		g->bound_next = d->ntiers > 1 ? d->tiers[1].bound : NAN;
		g->higher_better = d->higher_better;
		g->spread_pct = m->spread_pct;
		g->uncert = m->uncert;
		g->src = d->src;
		out->n++;
	}
	grade_pick_weak(t, out);
	rules_eval(t, ms, out);
}

void grade_fmt_value(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, n, "unknown");
	else if (a >= 1000 || a == floor(a))
		snprintf(buf, n, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, n, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3g", v);
}

bool grade_known_metric(const char *name)
{
	for (int i = 0; grade_metric_names[i]; i++)
		if (strcmp(grade_metric_names[i], name) == 0)
			return true;
	return false;
}

/* "a, b, c": every documented metric, for the error that names an unknown one. */
static void metric_list(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; grade_metric_names[i] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
					 grade_metric_names[i]);
}

const char *grade_op_text(enum grade_op op)
{
	switch (op) {
	case REQ_GE: return ">=";
	case REQ_GT: return ">";
	case REQ_LE: return "<=";
	case REQ_LT: return "<";
	}
	return "?";
}

int grade_op_parse(const char *s, enum grade_op *op)
{
	static const enum grade_op all[] = { REQ_GE, REQ_GT, REQ_LE, REQ_LT };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, grade_op_text(all[i])) == 0) {
			*op = all[i];
			return 0;
		}
	return -1;
}

int require_parse(const char *s, struct requirement *reqs, unsigned max, unsigned *n,
		  char *err, size_t errlen)
{
	const char *p = s;

	*n = 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char item[96], name[32], *q, *num_end;
		size_t nl = 0;
		struct requirement *r;

		if (len == 0 || len >= sizeof(item)) {
			snprintf(err, errlen, "--require: empty or overlong expression in '%s'", s);
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (*n >= max) {
			snprintf(err, errlen, "--require: more than %u expressions", max);
			return -1;
		}
		r = &reqs[*n];
		memset(r, 0, sizeof(*r));
		q = item;
		while (*q == ' ')
			q++;
		while ((isalnum((unsigned char)*q) || *q == '_') && nl < sizeof(name) - 1)
			name[nl++] = *q++;
		name[nl] = '\0';
		while (*q == ' ')
			q++;
		if (!nl) {
			snprintf(err, errlen, "--require: '%s' does not start with a metric name "
				 "(form: metric>=number, e.g. seq_write_mbps>=200)", item);
			return -1;
		}
		if (!grade_known_metric(name)) {
			char known[900];

			metric_list(known, sizeof(known));
			snprintf(err, errlen, "--require: unknown metric '%s' (known: %s)", name, known);
			return -1;
		}
		if (q[0] == '>' && q[1] == '=') {
			r->op = REQ_GE;
			q += 2;
		} else if (q[0] == '<' && q[1] == '=') {
			r->op = REQ_LE;
			q += 2;
		} else if (q[0] == '>') {
			r->op = REQ_GT;
			q++;
		} else if (q[0] == '<') {
			r->op = REQ_LT;
			q++;
		} else {
			snprintf(err, errlen, "--require: '%s' needs an operator >=, >, <= or < "
				 "(form: metric>=number)", item);
			return -1;
		}
		while (*q == ' ')
			q++;
		errno = 0;
		r->bound = strtod(q, &num_end);
		if (num_end == q || errno || !isfinite(r->bound)) {
			snprintf(err, errlen, "--require: '%s' needs a number after the operator", item);
			return -1;
		}
		while (*num_end == ' ')
			num_end++;
		if (*num_end) {
			snprintf(err, errlen, "--require: unexpected '%s' in '%s'", num_end, item);
			return -1;
		}
		snprintf(r->metric, sizeof(r->metric), "%s", name);
		snprintf(r->text, sizeof(r->text), "%s", item);
		(*n)++;
		if (end && !end[1]) {
			snprintf(err, errlen, "--require: trailing ',' in '%s'", s);
			return -1;
		}
		p = end ? end + 1 : p + len;
	}
	if (*n == 0) {
		snprintf(err, errlen, "--require needs at least one expression such as rand_iops>=20000");
		return -1;
	}
	return 0;
}

bool grade_op_holds(enum grade_op op, double v, double bound)
{
	switch (op) {
	case REQ_GE: return v >= bound;
	case REQ_GT: return v > bound;
	case REQ_LE: return v <= bound;
	case REQ_LT: return v < bound;
	}
	return false;
}

static bool req_holds(const struct requirement *r, double v)
{
	return grade_op_holds(r->op, v, r->bound);
}

void require_eval(const struct requirement *reqs, unsigned n, const struct metric_set *ms,
		  struct grade_result *out)
{
	out->nreq = 0;
	out->requirements_failed = false;
	for (unsigned i = 0; i < n && i < REQUIRE_MAX; i++) {
		struct require_result *rr = &out->req[out->nreq++];
		const struct metric *m = metric_get(ms, reqs[i].metric);

		memset(rr, 0, sizeof(*rr));
		rr->req = reqs[i];
		if (!m || !m->measured) {
			rr->passed = false;
			snprintf(rr->reason, sizeof(rr->reason), "not measured: %s",
				 m && m->why_not[0] ? m->why_not : "its test did not run");
		} else if (m->disturbed) {
			/* measured and shown, but not a figure to gate on */
			rr->passed = false;
			rr->measured = true;
			rr->value = m->value;
			snprintf(rr->reason, sizeof(rr->reason), "disturbed: %s",
				 m->why_not[0] ? m->why_not : "its pass was disturbed");
		} else {
			rr->measured = true;
			rr->value = m->value;
			rr->passed = req_holds(&reqs[i], m->value);
			if (!rr->passed) {
				char val[32];

				grade_fmt_value(val, sizeof(val), m->value);
				snprintf(rr->reason, sizeof(rr->reason), "measured %s", val);
			}
		}
		if (!rr->passed)
			out->requirements_failed = true;
	}
}
