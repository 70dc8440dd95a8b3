/*
 * text_pass_io.c — the ± of a graded disk figure (text_pass_io.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text_pass_io.h"
#include "text_put.h"

double text_uncert(const struct grade_result *g, const char *metric)
{
	for (unsigned i = 0; i < g->metrics.n; i++) {
		const struct metric *m = &g->metrics.m[i];

		if (strcmp(m->name, metric) == 0 && m->measured)
			return m->uncert;
	}
	return NAN;
}

const char *text_pm(char *buf, size_t n, const struct grade_result *g, const char *metric,
		    double scale, const char *fmt)
{
	const struct metric_set *ms = &g->metrics;
	char v[32];

	buf[0] = '\0';
	if (!metric[0])
		return buf;
	for (unsigned i = 0; i < ms->n; i++) {
		const struct metric *m = &ms->m[i];

		if (strcmp(m->name, metric) != 0 || !m->measured || isnan(m->uncert))
			continue;
		if (isinf(m->uncert)) {
			snprintf(buf, n, " \u00b1 ? (too few samples)");
		} else {
			snprintf(v, sizeof(v), fmt, m->uncert * scale);
			snprintf(buf, n, " \u00b1 %s", v);
		}
		break;
	}
	return buf;
}

void text_disturbed(FILE *f, const struct render_style *st, const char *label, bool kv,
		    const char *what, const struct pass_io *p)
{
	char text[320];
	const char *w;
	size_t col, indent;

	if (!p->disturbed)
		return;
	snprintf(text, sizeof(text), "%s%s%s", what, what[0] ? ": " : "", p->why);
	if (kv) {
		fprintf(f, " %s%-22s%s: ", text_color(st, "\033[36m"), label, text_color(st, "\033[0m"));
		indent = 25;
	} else {
		fprintf(f, "%s", label);
		indent = strlen(label);
	}
	col = indent;
	/* word by word; a word longer than the line is printed whole */
	for (w = text; *w;) {
		size_t len = strcspn(w, " ");

		if (col > indent && col + 1 + len > 80) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, len, f);
		col += len;
		w += len;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

void text_pct_pm(FILE *f, const struct render_style *st, const char *label, bool kv,
		 const struct grade_result *g, const char *metric)
{
	const struct metric *m = NULL;
	char v[160];

	for (unsigned i = 0; metric[0] && i < g->metrics.n; i++)
		if (strcmp(g->metrics.m[i].name, metric) == 0 && g->metrics.m[i].measured)
			m = &g->metrics.m[i];
	if (!m || isnan(m->uncert))
		return;
	if (isinf(m->uncert))
		snprintf(v, sizeof(v), "unbounded: %s", m->caveat[0] ? m->caveat : m->uncert_from);
	else
		snprintf(v, sizeof(v), "\u00b1 %.1f us (95%%, %s)", m->uncert * 1000.0, m->uncert_from);
	if (kv)
		text_kv(f, st, label, "%s", v);
	else
		fprintf(f, "%s%s\n", label, v);
}
