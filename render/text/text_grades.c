/*
 * text_grades.c — the grades table with each tier's meaning and --require
 * results (the verdict is at the top: text_health.c); and `compare` output.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade/compare.h"
#include "render/marks.h"
#include "render/render.h"
#include "text_put.h"

/*
 * Each figure on two lines: its value ± its 95% uncertainty and where that
 * came from; then its tier with the count ("tier 4 of 5 (5 = best)") and
 * meaning, "between good and ideal" when borderline, "[weak]" when it is
 * one of the weak figures; a disturbed figure's value and "disturbed: why",
 * never a tier.
 */
static void value_line(FILE *f, const char *name, double v, double u, const char *unit,
		       const struct metric *m)
{
	char val[96];

	mark_value(val, sizeof(val), v, u, unit);
	if (m && m->uncert_from[0] && isfinite(u))
		fprintf(f, " %-16s %s, from %s\n", name, val, m->uncert_from);
	else
		fprintf(f, " %-16s %s\n", name, val);
}

void text_grades(FILE *f, const struct bench_report *rep, const struct render_style *st)
{
	const struct grade_result *g = &rep->grade;

	bool any = g->n > 0 || g->nreq > 0;

	for (unsigned i = 0; i < g->metrics.n; i++)
		any = any || (g->metrics.m[i].selected && !g->metrics.m[i].measured) ||
		      mark_ungraded_shown(g, &g->metrics.m[i]);
	if (!g->graded || !any)
		return;
	text_heading(f, st, "Grades (± is the 95% interval; tier 1 = worst)");
	for (unsigned i = 0; i < g->n; i++) {
		const struct grade *x = &g->g[i];
		int w = mark_weak_pos(g, i);
		const char *mean = x->borderline ? "borderline" : x->meaning;
		char tier[160];

		value_line(f, x->metric, x->value, mark_uncert(g, x), x->unit, mark_metric(g, x->metric));
		mark_tier(tier, sizeof(tier), x);
		fprintf(f, " %-16s %s%s%s:", "", x->borderline ? text_color(st, "\033[33m") :
			text_tier_color(st, x->rank, x->ntiers), tier, text_color(st, "\033[0m"));
		/* the meaning on a line of its own when the two pass 80 columns */
		if (18 + strlen(tier) + 2 + strlen(mean) + (w >= 0 ? 7 : 0) > 80)
			fprintf(f, "\n %-16s", "");
		fprintf(f, " %s%s%s%s\n", mean, w >= 0 ? text_color(st, "\033[31m") : "",
			w >= 0 ? " [weak]" : "", w >= 0 ? text_color(st, "\033[0m") : "");
	}
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (!mark_ungraded_shown(g, m))
			continue;
		char why[sizeof(m->why_not) + 40];

		value_line(f, m->name, m->value, m->uncert, mark_unit(m->name), m);
		snprintf(why, sizeof(why), "%s%s%s", m->disturbed ? "disturbed: " : "",
			 m->why_not[0] ? m->why_not : "disturbed",
			 strstr(m->why_not, "not graded") ? "" : "; not graded");
		text_wrap(f, "                 ", 17, why);
	}
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (!m->measured && m->selected && m->why_not[0])
		{
			char head[48];

			snprintf(head, sizeof(head), " %-16s %14s ", m->name, "not graded");
			text_wrap(f, head, 33, m->why_not);
		}
	}
	if (g->nweak) {
		fputs(" weak for its size:", f);
		for (unsigned k = 0; k < g->nweak && k < GRADE_MAX_WEAK; k++)
			if (g->weak[k] >= 0 && (unsigned)g->weak[k] < g->n)
				fprintf(f, "%s %s (ln distance %.2f)", k ? "," : "",
					g->g[g->weak[k]].metric, g->weak_ln[k]);
		fputc('\n', f);
	}
	if (g->nreq) {
		text_heading(f, st, g->requirements_failed ? "Requirements: FAILED" : "Requirements: met");
		for (unsigned i = 0; i < g->nreq; i++) {
			const struct require_result *r = &g->req[i];

			char num[32];

			grade_fmt_value(num, sizeof(num), r->value);
			if (r->passed)
				fprintf(f, " %spass%s %-28s measured %s\n", text_color(st, "\033[32m"),
					text_color(st, "\033[0m"), r->req.text, num);
			else
				fprintf(f, " %sFAIL%s %-28s %s\n", text_color(st, "\033[31m"),
					text_color(st, "\033[0m"), r->req.text, r->reason);
		}
	}
}

void text_compare(FILE *f, const struct compare_result *c, const struct render_style *st)
{
	fprintf(f, "%s\n vpsbench compare\n   old: %s (%s)\n   new: %s (%s)\n", TEXT_RULE,
		c->old_path, c->old_time, c->new_path, c->new_time);
	fprintf(f, "   health: old %s%s%s%s, new %s%s%s%s\n%s\n", c->old_health,
		c->old_problems[0] ? " (" : "", c->old_problems, c->old_problems[0] ? ")" : "",
		c->new_health, c->new_problems[0] ? " (" : "", c->new_problems,
		c->new_problems[0] ? ")" : "", TEXT_RULE);
	fprintf(f, " %-16s %11s %11s %8s  %s\n", "metric", "old", "new", "change", "tier / note");
	for (unsigned i = 0; i < c->n; i++) {
		const struct compare_row *r = &c->row[i];
		char o[24], n[24], ch[16], note[96];

		if (r->old_ok)
			grade_fmt_value(o, sizeof(o), r->old_v);
		else
			snprintf(o, sizeof(o), "n/a");
		if (r->new_ok)
			grade_fmt_value(n, sizeof(n), r->new_v);
		else
			snprintf(n, sizeof(n), "n/a");
		if (r->change_ok)
			snprintf(ch, sizeof(ch), "%+.1f%%", r->change_pct);
		else
			snprintf(ch, sizeof(ch), "n/a");
		if (r->tier_changed)
			snprintf(note, sizeof(note), "%s -> %s", r->old_tier, r->new_tier);
		else
			snprintf(note, sizeof(note), "%s", r->new_tier[0] ? r->new_tier : r->old_tier);
		if (r->significant)
			snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s%s%s (beyond %.0f%% noise)%s",
				 note[0] ? "; " : "", r->better > 0 ? text_color(st, "\033[32m") :
				 text_color(st, "\033[31m"), r->better > 0 ? "better" : "worse",
				 r->noise_pct * 2, text_color(st, "\033[0m"));
		fprintf(f, " %-16s %11s %11s %8s  %s\n", r->metric, o, n, ch, note);
	}
	fprintf(f, "%s\n Significant: the change exceeds twice the runs' own spread (CoV), or\n"
		" %.0f%% when a report does not carry it.\n%s\n", TEXT_RULE,
		2 * COMPARE_DEFAULT_NOISE_PCT, TEXT_RULE);
}
