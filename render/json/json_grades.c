/*
 * json_grades.c — grades, requirements and metrics in the report;
 * the thresholds table (--dump-thresholds); compare as JSON.
 */
#include <math.h>
#include <stdlib.h>

#include "grade/compare.h"
#include "json_put.h"
#include "render/marks.h"
#include "render/render.h"

#ifdef HAVE_CJSON

/* A half-width: a number when finite; null when unknown or unbounded (uncertainty_from says). */
static void add_uncert(cJSON *o, const struct metric *m, double u)
{
	json_add_mdbl(o, "uncertainty", (struct mdbl){ u, isfinite(u) });
	json_add_str(o, "uncertainty_from", m ? m->uncert_from : NULL);
}

/*
 * "metrics_detail": {name: {value, measured, graded, disturbed, why,
 * uncertainty, uncertainty_from, low_confidence}}, beside "metrics" (name:
 * value|null, kept as it was for older readers: null when not measured or
 * disturbed).
 */
static void add_metrics_detail(cJSON *root, const struct grade_result *g)
{
	cJSON *det = cJSON_AddObjectToObject(root, "metrics_detail");

	for (unsigned i = 0; det && i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];
		cJSON *o = cJSON_AddObjectToObject(det, m->name);

		if (!o)
			break;
		json_add_mdbl(o, "value", (struct mdbl){ m->value, m->measured });
		cJSON_AddBoolToObject(o, "measured", m->measured);
		cJSON_AddBoolToObject(o, "graded", grade_get(g, m->name) != NULL);
		cJSON_AddBoolToObject(o, "disturbed", m->measured && m->disturbed);
		json_add_str(o, "why", m->why_not);
		add_uncert(o, m, m->measured ? m->uncert : NAN);
		cJSON_AddBoolToObject(o, "low_confidence", m->measured && m->low_confidence);
	}
}

void json_add_grades(cJSON *root, const struct grade_result *g)
{
	cJSON *arr, *metrics, *reqs;

	if (!g->graded)
		return;
	arr = cJSON_AddArrayToObject(root, "grades");
	for (unsigned i = 0; arr && i < g->n; i++) {
		const struct grade *x = &g->g[i];
		cJSON *o = cJSON_CreateObject();
		int w = mark_weak_pos(g, i);

		if (!o)
			break;
		json_add_grade_head(o, x);
		cJSON_AddNumberToObject(o, "rank", x->rank);
		cJSON_AddNumberToObject(o, "tiers", x->ntiers);
		json_add_mdbl(o, "spread_pct", (struct mdbl){ x->spread_pct, x->spread_pct >= 0 });
		json_add_source(o, &x->src);
		add_uncert(o, mark_metric(g, x->metric), mark_uncert(g, x));
		cJSON_AddBoolToObject(o, "borderline", x->borderline);
		json_add_str(o, "between", x->borderline ? x->between : NULL);
		if (x->borderline)
			cJSON_AddNumberToObject(o, "rank_hi", x->rank_hi);
		cJSON_AddBoolToObject(o, "weak", w >= 0);
		if (w >= 0)
			cJSON_AddNumberToObject(o, "weak_ln", g->weak_ln[w]);
		cJSON_AddItemToArray(arr, o);
	}
	metrics = cJSON_AddObjectToObject(root, "metrics");
	for (unsigned i = 0; metrics && i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		/* a disturbed figure stays null here, as before: fleet and compare read this */
		json_add_mdbl(metrics, m->name, (struct mdbl){ m->value, m->measured && !m->disturbed });
	}
	add_metrics_detail(root, g);
	if (!g->nreq)
		return;
	reqs = cJSON_AddArrayToObject(root, "requirements");
	for (unsigned i = 0; reqs && i < g->nreq; i++) {
		const struct require_result *r = &g->req[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddStringToObject(o, "expr", r->req.text);
		cJSON_AddStringToObject(o, "metric", r->req.metric);
		cJSON_AddBoolToObject(o, "passed", r->passed);
		json_add_mdbl(o, "value", (struct mdbl){ r->value, r->measured });
		json_add_str(o, "reason", r->reason);
		cJSON_AddItemToArray(reqs, o);
	}
}

char *json_thresholds(const struct grade_table *t)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.thresholds/1");
	arr = cJSON_AddArrayToObject(root, "metrics");
	for (unsigned i = 0; arr && i < t->n; i++) {
		const struct grade_def *d = &t->def[i];
		cJSON *o = cJSON_CreateObject(), *tiers;

		if (!o)
			goto out;
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "metric", d->metric);
		cJSON_AddStringToObject(o, "unit", d->unit);
		cJSON_AddStringToObject(o, "description", d->desc);
		cJSON_AddStringToObject(o, "direction", d->higher_better ? "higher" : "lower");
		tiers = cJSON_AddArrayToObject(o, "tiers");
		for (unsigned k = 0; tiers && k < d->ntiers; k++) {
			const struct grade_tier *gt = &d->tiers[k];
			cJSON *to = cJSON_CreateObject();
			const char *bkey = d->higher_better ? "min" : "max";

			if (!to)
				goto out;
			cJSON_AddItemToArray(tiers, to);
			cJSON_AddStringToObject(to, "tier", gt->tier);
			cJSON_AddStringToObject(to, "label", gt->label);
			cJSON_AddStringToObject(to, "meaning", gt->meaning);
			if (gt->open)
				cJSON_AddNullToObject(to, bkey);
			else
				cJSON_AddNumberToObject(to, bkey, gt->bound);
		}
		json_add_source(o, &d->src);
	}
	arr = cJSON_AddArrayToObject(root, "rules");
	for (unsigned i = 0; arr && i < t->nrules; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!o)
			goto out;
		cJSON_AddItemToArray(arr, o);
		json_rule_fields(o, &t->rule[i]);
	}
	arr = cJSON_AddArrayToObject(root, "health");
	for (unsigned i = 0; arr && i < t->nhealth; i++) {
		const struct health_bound *b = &t->health[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			goto out;
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", b->name);
		cJSON_AddNumberToObject(o, "value", b->value);
		cJSON_AddStringToObject(o, "unit", b->unit);
		cJSON_AddStringToObject(o, "description", b->desc);
		cJSON_AddNumberToObject(o, "min", b->min);
		cJSON_AddNumberToObject(o, "max", b->max);
		json_add_source(o, &b->src);
	}
	out = cJSON_Print(root);
out:
	cJSON_Delete(root);
	return out;
}

char *json_compare(const struct compare_result *c)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.compare/1");
	cJSON_AddStringToObject(root, "old", c->old_path);
	cJSON_AddStringToObject(root, "new", c->new_path);
	cJSON_AddStringToObject(root, "old_time", c->old_time);
	cJSON_AddStringToObject(root, "new_time", c->new_time);
	cJSON_AddStringToObject(root, "old_health", c->old_health);
	cJSON_AddStringToObject(root, "new_health", c->new_health);
	cJSON_AddStringToObject(root, "old_health_problems", c->old_problems);
	cJSON_AddStringToObject(root, "new_health_problems", c->new_problems);
	arr = cJSON_AddArrayToObject(root, "metrics");
	for (unsigned i = 0; arr && i < c->n; i++) {
		const struct compare_row *r = &c->row[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			goto out;
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "metric", r->metric);
		cJSON_AddStringToObject(o, "unit", r->unit);
		json_add_mdbl(o, "old", (struct mdbl){ r->old_v, r->old_ok });
		json_add_mdbl(o, "new", (struct mdbl){ r->new_v, r->new_ok });
		json_add_mdbl(o, "change_pct", (struct mdbl){ r->change_pct, r->change_ok });
		json_add_str(o, "old_tier", r->old_tier);
		json_add_str(o, "new_tier", r->new_tier);
		cJSON_AddBoolToObject(o, "tier_changed", r->tier_changed);
		cJSON_AddNumberToObject(o, "noise_pct", r->noise_pct);
		cJSON_AddBoolToObject(o, "significant", r->significant);
		if (r->better)
			cJSON_AddStringToObject(o, "direction", r->better > 0 ? "better" : "worse");
		else
			cJSON_AddNullToObject(o, "direction");
	}
	out = cJSON_Print(root);
out:
	cJSON_Delete(root);
	return out;
}

#else

char *json_thresholds(const struct grade_table *t)
{
	(void)t;
	return NULL;
}

char *json_compare(const struct compare_result *c)
{
	(void)c;
	return NULL;
}

#endif
