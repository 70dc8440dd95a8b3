/*
 * html_health.c — the HTML report's first section: the verdict line, the
 * Health block (each check with its state and evidence) and the fit-for
 * answers with the source each rule cites.
 */
#include <stdio.h>

#include "html_chart.h"
#include "render/render.h"

static const char *state_word(enum health_state s)
{
	return s == HEALTH_PROBLEM ? "problem" : s == HEALTH_NOT_RUN ? "not run" : "ok";
}

/* t0/t1/t2: the grade table's worst, middle and best colours. */
static int state_class(enum health_state s)
{
	return s == HEALTH_PROBLEM ? 0 : s == HEALTH_NOT_RUN ? 1 : 2;
}

static void fit_rows(FILE *f, const struct grade_result *g)
{
	if (!g->nfit)
		return;
	fputs("<h3>Fit for</h3>\n<div class=\"scroll\"><table>"
	      "<tr><th>rule</th><th>answer</th><th>figure</th><th>source</th></tr>\n", f);
	for (unsigned i = 0; i < g->nfit; i++) {
		const struct fit_result *x = &g->fit[i];

		fputs("<tr><td>", f);
		html_esc(f, x->rule.for_what);
		fprintf(f, "</td><td class=\"t%d\">%s%s</td><td>", x->answer == FIT_YES ? 2 :
			x->answer == FIT_NO ? 0 : 1, x->answer == FIT_YES ? "yes" : x->answer == FIT_NO ?
			"no" : "unknown", x->low_confidence ? " (low confidence)" : "");
		html_esc(f, x->why);
		/* the address as text: the page references nothing outside itself */
		fputs("</td><td>", f);
		html_esc(f, x->rule.src.url);
		fputs(": ", f);
		html_esc(f, x->rule.src.says);
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

void html_health(FILE *f, const struct bench_report *rep)
{
	const struct health_result *h = &rep->health;

	if (!rep->grade.graded && !h->assessed)
		return;
	fputs("<section id=\"health\"><h2>Health</h2>\n", f);
	if (rep->grade.graded) {
		fputs("<p id=\"verdict\"><b>Verdict:</b> ", f);
		html_esc(f, rep->grade.verdict);
		fputs("</p>\n", f);
	}
	if (h->assessed && h->n) {
		fputs("<div class=\"scroll\"><table>"
		      "<tr><th>check</th><th>state</th><th>evidence</th></tr>\n", f);
		for (unsigned i = 0; i < h->n; i++) {
			const struct health_check *c = &h->c[i];

			fputs("<tr><td>", f);
			html_esc(f, c->check);
			fprintf(f, "</td><td class=\"t%d\">%s</td><td>", state_class(c->state),
				state_word(c->state));
			html_esc(f, c->evidence);
			fputs("</td></tr>\n", f);
		}
		fputs("</table></div>\n", f);
	}
	fit_rows(f, &rep->grade);
	fputs("</section>\n", f);
}
