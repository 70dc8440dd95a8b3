/*
 * text_put.c — the pieces every text section prints with: headings,
 * label: value lines, colors, the grade tag beside a figure. The text
 * dispatcher (text.c) and the sections (text_*.c) call these; nothing
 * here calls back into them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "render/marks.h"
#include "text_put.h"

const char *text_color(const struct render_style *st, const char *code)
{
	return st && st->color ? code : "";
}

void text_heading(FILE *f, const struct render_style *st, const char *title)
{
	fprintf(f, "\n %s%s%s\n%s\n", text_color(st, "\033[1m"), title, text_color(st, "\033[0m"),
		TEXT_RULE);
}

void text_kv(FILE *f, const struct render_style *st, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, " %s%-22s%s: ", text_color(st, "\033[36m"), label, text_color(st, "\033[0m"));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

const char *text_tier_color(const struct render_style *st, unsigned rank, unsigned ntiers)
{
	if (ntiers < 2)
		return "";
	if (rank == 0)
		return text_color(st, "\033[31m");
	if (rank + 1 >= ntiers)
		return text_color(st, "\033[32m");
	return text_color(st, "\033[33m");
}

void text_grade_tag(FILE *f, const struct render_style *st, const struct grade_result *g,
		    const char *metric, size_t used, unsigned indent)
{
	const struct grade *x = grade_get(g, metric);
	const struct metric *m = x ? NULL : metric_get(&g->metrics, metric);
	char tier[160];

	if (x) {
		const char *mean = x->borderline ? "borderline" : x->meaning;

		mark_tier(tier, sizeof(tier), x);
		if (used + 2 + strlen(tier) + 2 + strlen(mean) > 79) {
			fprintf(f, "\n%*s", (int)indent, "");
			used = indent;
		} else {
			fputs("  ", f);
			used += 2;
		}
		{
			/* "between very slow and excellent, tiers 1-5 of 5 (5 = best)" is long: past
			 * 80 columns even on its own line, it breaks after its first comma */
			const char *cut = used + strlen(tier) + 1 > 79 ? strstr(tier, ", ") : NULL;
			const char *on = x->borderline ? text_color(st, "\033[33m") :
					 text_tier_color(st, x->rank, x->ntiers);

			if (cut) {
				fprintf(f, "%s%.*s%s\n%*s", on, (int)(cut + 1 - tier), tier, text_color(st, "\033[0m"),
					(int)indent, "");
				used = indent;
				memmove(tier, cut + 2, strlen(cut + 2) + 1);
			}
			fprintf(f, "%s%s%s:", on, tier, text_color(st, "\033[0m"));
		}
		/* the meaning under the tier when both do not fit in 80 columns */
		if (used + strlen(tier) + 2 + strlen(mean) > 79)
			fprintf(f, "\n%*s%s", (int)indent, "", mean);
		else
			fprintf(f, " %s", mean);
	} else if (m && m->measured && m->disturbed) {
		/* the why is long: the Grades section (and a disk pass's own line) says it */
		static const char tag[] = "disturbed: not graded (why: Grades)";

		if (used + 2 + strlen(tag) > 79)
			fprintf(f, "\n%*s", (int)indent, "");
		else
			fputs("  ", f);
		fprintf(f, "%s%s%s", text_color(st, "\033[33m"), tag, text_color(st, "\033[0m"));
	}
	fputc('\n', f);
}

void text_pass_cpu(char *buf, size_t n, const struct pass_cpu *c)
{
	char sh[24] = "unknown", stl[24] = "unknown";

	if (c->share.ok)
		snprintf(sh, sizeof(sh), "%.0f%%", 100.0 * c->share.v);
	if (c->steal_pct.ok)
		snprintf(stl, sizeof(stl), "%.1f%%", c->steal_pct.v);
	snprintf(buf, n, "CPU %s, steal %s%s", sh, stl, c->disturbed ? ", disturbed" : "");
}

/*
 * Prints head (its visible width hw), then " word" by word, lines kept to
 * 80 columns; a continuation line starts with hw spaces, so the words line
 * up under the first one. A word longer than the room gets a line alone.
 */
#define TEXT_WIDTH 80

void text_wrap(FILE *f, const char *head, int hw, const char *text)
{
	int col = hw;
	const char *p = text;

	fputs(head, f);
	while (*p) {
		const char *e = strchr(p, ' ');
		int len = e ? (int)(e - p) : (int)strlen(p);

		if (col > hw && col + 1 + len > TEXT_WIDTH) {
			fprintf(f, "\n%*s", hw, "");
			col = hw;
		}
		fprintf(f, " %.*s", len, p);
		col += 1 + len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}
