/*
 * json_health.c — the "verdict" and "health" objects, first in the JSON
 * report after the run: the verdict line, its fit-for answers (each with
 * its rule's conditions and source) and the weak figures; each health check with its
 * state, evidence and figures.
 */
#include <math.h>

#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static const char *state_name(enum health_state s)
{
	return s == HEALTH_PROBLEM ? "problem" : s == HEALTH_NOT_RUN ? "not_run" : "passed";
}

/* "source": {"url", "says"} into o (also each grade's and health bound's). */
void json_add_source(cJSON *o, const struct grade_source *src)
{
	cJSON *j = cJSON_AddObjectToObject(o, "source");

	if (!j)
		return;
	cJSON_AddStringToObject(j, "url", src->url);
	cJSON_AddStringToObject(j, "says", src->says);
}

/* A grade's metric, value, unit, tier, label and meaning (grades[] and the verdict's weak[]). */
void json_add_grade_head(cJSON *o, const struct grade *x)
{
	cJSON_AddStringToObject(o, "metric", x->metric);
	cJSON_AddNumberToObject(o, "value", x->value);
	cJSON_AddStringToObject(o, "unit", x->unit);
	cJSON_AddStringToObject(o, "tier", x->tier);
	cJSON_AddStringToObject(o, "label", x->label);
	cJSON_AddStringToObject(o, "meaning", x->meaning);
}

/* One rule as the thresholds file spells it (also --dump-thresholds). */
void json_rule_fields(cJSON *o, const struct grade_rule *r)
{
	cJSON *conds;

	cJSON_AddStringToObject(o, "rule", r->rule);
	cJSON_AddStringToObject(o, "for", r->for_what);
	conds = cJSON_AddArrayToObject(o, "conditions");
	for (unsigned i = 0; conds && i < r->ncond && i < GRADE_MAX_COND; i++) {
		cJSON *c = cJSON_CreateObject();

		if (!c)
			break;
		cJSON_AddItemToArray(conds, c);
		cJSON_AddStringToObject(c, "metric", r->cond[i].metric);
		cJSON_AddStringToObject(c, "op", grade_op_text(r->cond[i].op));
		cJSON_AddNumberToObject(c, "value", r->cond[i].bound);
	}
	json_add_source(o, &r->src);
}

static const char *answer_name(enum fit_answer a)
{
	return a == FIT_YES ? "yes" : a == FIT_NO ? "no" : "unknown";
}

void json_add_verdict(cJSON *root, const struct bench_report *rep)
{
	const struct grade_result *g = &rep->grade;
	cJSON *v, *fit, *weak;

	if (!g->graded)
		return;
	v = cJSON_AddObjectToObject(root, "verdict");
	if (!v)
		return;
	cJSON_AddStringToObject(v, "text", g->verdict);
	cJSON_AddStringToObject(v, "health", health_status(&rep->health));
	fit = cJSON_AddArrayToObject(v, "fit_for");
	for (unsigned i = 0; fit && i < g->nfit; i++) {
		const struct fit_result *f = &g->fit[i];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddItemToArray(fit, o);
		json_rule_fields(o, &f->rule);
		cJSON_AddStringToObject(o, "answer", answer_name(f->answer));
		json_add_mdbl(o, "measured", (struct mdbl){ f->value, f->measured });
		cJSON_AddBoolToObject(o, "low_confidence", f->low_confidence);
		cJSON_AddBoolToObject(o, "disturbed", f->disturbed);
		cJSON_AddStringToObject(o, "why", f->why);
	}
	/* every robustly worst-tier figure, furthest off (|ln(value / next bound)|) first */
	weak = cJSON_AddArrayToObject(v, "weak");
	for (unsigned i = 0; weak && i < g->nweak; i++) {
		const struct grade *x = &g->g[g->weak[i]];
		cJSON *o = cJSON_CreateObject();

		if (!o)
			break;
		cJSON_AddItemToArray(weak, o);
		json_add_grade_head(o, x);
		json_add_mdbl(o, "ln_off", (struct mdbl){ g->weak_ln[i], isfinite(g->weak_ln[i]) });
	}
}

void json_add_health(cJSON *root, const struct health_result *h)
{
	cJSON *o, *problems, *checks;

	if (!h->assessed)
		return;
	o = cJSON_AddObjectToObject(root, "health");
	if (!o)
		return;
	cJSON_AddStringToObject(o, "status", health_status(h));
	problems = cJSON_AddArrayToObject(o, "problems");
	checks = cJSON_AddArrayToObject(o, "checks");
	for (unsigned i = 0; problems && checks && i < h->n; i++) {
		const struct health_check *c = &h->c[i];
		cJSON *x = cJSON_CreateObject(), *figs;

		if (!x)
			break;
		cJSON_AddStringToObject(x, "check", c->check);
		cJSON_AddStringToObject(x, "state", state_name(c->state));
		json_add_str(x, "evidence", c->evidence);
		figs = cJSON_AddObjectToObject(x, "figures");
		for (unsigned k = 0; figs && k < c->nfig; k++)
			cJSON_AddNumberToObject(figs, c->fig[k].name, c->fig[k].value);
		/* problems: the same entries as in checks, for readers that want only them */
		if (c->state == HEALTH_PROBLEM)
			cJSON_AddItemToArray(problems, cJSON_Duplicate(x, true));
		cJSON_AddItemToArray(checks, x);
	}
}

#endif
