/*
 * text_health.c — the verdict line and the Health block at the top of the
 * text report, and the fit-for rules with their sources under the grades.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"



static const char *state_word(enum health_state s)
{
	return s == HEALTH_PROBLEM ? "PROBLEM" : s == HEALTH_NOT_RUN ? "not run" : "ok";
}

static const char *state_color(const struct render_style *st, enum health_state s)
{
	return text_color(st, s == HEALTH_PROBLEM ? "\033[31m" : s == HEALTH_NOT_RUN ? "\033[33m" :
			  "\033[32m");
}

void text_health(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct health_result *h = &rep->health;

	char head[64];

	if (rep->grade.graded) {
		snprintf(head, sizeof(head), " %sVerdict%s:", text_color(st, "\033[1m"),
			 text_color(st, "\033[0m"));
		text_wrap(f, head, 9, rep->grade.verdict);
	}
	if (!h->assessed || !h->n)
		return;
	text_heading(f, st, "Health");
	for (unsigned i = 0; i < h->n; i++) {
		const struct health_check *c = &h->c[i];
		char figs[160] = "";

		for (unsigned k = 0; k < c->nfig && c->state == HEALTH_PASSED; k++) {
			char num[32];
			size_t u = strlen(figs);

			grade_fmt_value(num, sizeof(num), c->fig[k].value);
			snprintf(figs + u, sizeof(figs) - u, "%s%s %s", k ? ", " : "", c->fig[k].name, num);
		}
		snprintf(head, sizeof(head), " %s%-7s%s %-13s", state_color(st, c->state),
			 state_word(c->state), text_color(st, "\033[0m"), c->check);
		text_wrap(f, head, 22, c->state == HEALTH_PASSED ? figs : c->evidence);
	}
}

void text_fit(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct grade_result *g = &rep->grade;

	if (!g->graded || !g->nfit)
		return;
	text_heading(f, st, "Fit for");
	for (unsigned i = 0; i < g->nfit; i++) {
		const struct fit_result *x = &g->fit[i];
		const char *word = x->answer == FIT_YES ? "yes" : x->answer == FIT_NO ? "no" : "unknown";

		char line[800], head2[64];

		snprintf(head2, sizeof(head2), " %-9s %s%-7s%s", x->rule.rule,
			 text_color(st, x->answer == FIT_YES ? "\033[32m" : x->answer == FIT_NO ?
				    "\033[31m" : "\033[33m"), word, text_color(st, "\033[0m"));
		snprintf(line, sizeof(line), "%s; for %s", x->why, x->rule.for_what);
		text_wrap(f, head2, 18, line);
		snprintf(line, sizeof(line), "source: %s %s", x->rule.src.url, x->rule.src.says);
		text_wrap(f, "                  ", 18, line);
	}
}
