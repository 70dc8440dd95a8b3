/*
 * text_place.c — "Among published results" (struct place_result) and the
 * published population (`vpsbench place --population`) in text.
 *
 * A placed figure is one ladder line within 80 columns: its label and
 * value, then p10..p90 of the published rows with "▲" where this run
 * falls (before p10, between two quantiles, after p90), and under it the
 * rank in words: "▲ at the 38th percentile of 339 published results
 * (2020–2026)". A value equal to a quantile is marked after it. Numbers
 * are in the published unit, IOPS and anything from 10000 with "k".
 * The report shows the section only when something was placed or a note
 * says why not (text.c); `vpsbench place` shows it always.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"

#define LABEL_W 15                 /* label column; a longer label gets its own line */
#define LADDER_INDENT 17           /* the words under the ladder start here */
#define MARK "\xe2\x96\xb2"        /* ▲ */
#define CAVEAT "a best-case sample: see data/published/README.md"

static const char *const q_names[PLACE_NQ] = { "p10", "p25", "p50", "p75", "p90" };

/* At most 5 characters: "52.3k", "181k", "1.23M" for IOPS and from 10000; "938", "92.7", "9.27", "88" below. */
static void place_num(char *buf, size_t n, double v, const char *unit)
{
	double a = fabs(v);

	if (a >= 1e6)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else if (a >= 1e5)
		snprintf(buf, n, "%.0fk", v / 1e3);
	else if (a >= 1e4 || (a >= 1e3 && strcmp(unit, "IOPS") == 0))
		snprintf(buf, n, a >= 1e4 ? "%.1fk" : "%.2fk", v / 1e3);
	else if (a >= 100)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.3g", v);
}

/* Code points, the columns a UTF-8 string takes ("▲", "–" one each). */
static int columns(const char *s, int len)
{
	int c = 0;

	for (int i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* indent spaces, then text word by word within 80 columns, continuation lines indented alike. */
static void wrap(FILE *f, int indent, const char *text)
{
	int col = indent;
	const char *p = text;

	fprintf(f, "%*s", indent, "");
	while (*p) {
		const char *e = strchr(p, ' ');
		int len = e ? (int)(e - p) : (int)strlen(p), w = columns(p, len);

		if (col > indent && col + 1 + w > 80) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		}
		fprintf(f, " %.*s", len, p);
		col += 1 + w;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* "1st", "2nd", "3rd", "4th", "11th".."13th", "21st", "42nd", "100th". */
static void ordinal(char *buf, size_t n, long k)
{
	long t = k % 100, u = k % 10;
	const char *suf = (t >= 11 && t <= 13) ? "th" : u == 1 ? "st" : u == 2 ? "nd" : u == 3 ? "rd" : "th";

	snprintf(buf, n, "%ld%s", k, suf);
}

/* How many of the ladder's quantiles lie at or below v: the marker goes after them. */
static unsigned ladder_slot(const struct place_item *it)
{
	unsigned k = 0;

	while (k < PLACE_NQ && it->d.q[k] <= it->value.v)
		k++;
	return k;
}

/* The label column; a label wider than it on a line of its own. */
static void put_label(FILE *f, const char *label)
{
	if (strlen(label) > LABEL_W)
		fprintf(f, " %s\n %-*s", label, LABEL_W, "");
	else
		fprintf(f, " %-*s", LABEL_W, label);
}

/* "(2020–2026)", "(2024)", "(2020–2026; 3 undated)", "(undated)"; cache-inflated ones left out named. */
static void years_words(char *buf, size_t n, const struct place_item *it)
{
	char yr[32] = "";
	size_t len;

	if (it->d.year_lo && it->d.year_hi != it->d.year_lo)
		snprintf(yr, sizeof(yr), "%u\xe2\x80\x93%u", it->d.year_lo, it->d.year_hi);
	else if (it->d.year_lo)
		snprintf(yr, sizeof(yr), "%u", it->d.year_lo);
	snprintf(buf, n, "(%s", yr[0] ? yr : "undated");
	len = strlen(buf);
	if (yr[0] && it->d.undated && len < n)
		len += (size_t)snprintf(buf + len, n - len, "; %u undated", it->d.undated);
	if (it->d.cached_out && len < n)
		len += (size_t)snprintf(buf + len, n - len, "; %u cache-inflated left out", it->d.cached_out);
	if (len < n)
		snprintf(buf + len, n - len, ")");
}

static void placed_item(FILE *f, const struct place_item *it)
{
	char v[16], q[16], ord[16], yrs[96], words[224];
	unsigned slot = ladder_slot(it);

	place_num(v, sizeof(v), it->value.v, it->unit);
	fprintf(f, " %6s  ", v);
	for (unsigned k = 0; k < PLACE_NQ; k++) {
		place_num(q, sizeof(q), it->d.q[k], it->unit);
		if (k == slot)
			fputs(k ? " " MARK " " : MARK " ", f);
		else if (k)
			fputs("  ", f);
		fprintf(f, "%s %s", q_names[k], q);
	}
	fputs(slot == PLACE_NQ ? " " MARK "\n" : "\n", f);
	ordinal(ord, sizeof(ord), lround(it->pct));
	years_words(yrs, sizeof(yrs), it);
	snprintf(words, sizeof(words), MARK " at the %s percentile of %u published results %s", ord,
		 it->d.n, yrs);
	wrap(f, LADDER_INDENT - 1, words);
}

static void one_item(FILE *f, const struct place_item *it)
{
	char why[224];

	put_label(f, it->label);
	if (it->placed && it->value.ok) {
		placed_item(f, it);
	} else {
		char v[16] = "-";

		if (it->value.ok)
			place_num(v, sizeof(v), it->value.v, it->unit);
		fprintf(f, " %6s\n", v);
		snprintf(why, sizeof(why), "not placed: %s", it->why[0] ? it->why : "no published rows");
		wrap(f, LADDER_INDENT - 1, why);
	}
	if (it->note[0])
		wrap(f, LADDER_INDENT - 1, it->note);
}

void render_place_text(FILE *f, const struct place_result *p)
{
	const struct render_style st = { .color = false };
	char line[256];

	if (!p->ran)
		return;
	text_heading(f, &st, "Among published results");
	snprintf(line, sizeof(line), "%s; %s", p->filter_text, CAVEAT);
	wrap(f, 0, line);
	if (!p->nitems && !p->rand_note[0])
		wrap(f, 0, "nothing to place: no figure of a published workload (yabs's fio, sysbench's "
			   "prime events, dd's write, iperf3) was measured");
	for (unsigned i = 0; i < p->nitems && i < PLACE_MAX_ITEMS; i++)
		one_item(f, &p->item[i]);
	if (p->rand_note[0])
		wrap(f, 0, p->rand_note);
}

/* "4k", "64k", "512k", "1m": yabs's block size names. */
static void bs_name(char *buf, size_t n, uint32_t bs)
{
	if (bs >= (1u << 20) && bs % (1u << 20) == 0)
		snprintf(buf, n, "%um", bs >> 20);
	else
		snprintf(buf, n, "%uk", bs >> 10);
}

/* A published table in words, with its unit: "4k total IOPS", "1 thread events/s" (sysbench). */
static void table_label(char *buf, size_t n, const struct pub_table *t)
{
	char bs[16];

	if (t->bs) {
		bs_name(bs, sizeof(bs), t->bs);
		snprintf(buf, n, "%s total %s", bs, t->unit);
	} else if (t->server) {
		snprintf(buf, n, "%s %s %s %s %s", t->server, t->location ? t->location : "",
			 t->family ? t->family : "", strcmp(t->metric, PLACE_M_NET_RECV) ? "send" : "recv",
			 t->unit);
	} else if (strcmp(t->metric, PLACE_M_CPU_1T) == 0) {
		snprintf(buf, n, "1 thread %s", t->unit);
	} else if (strcmp(t->metric, PLACE_M_CPU_ALL) == 0) {
		snprintf(buf, n, "all threads %s", t->unit);
	} else if (strcmp(t->metric, PLACE_M_DD) == 0) {
		snprintf(buf, n, "dd write %s", t->unit);
	} else {
		snprintf(buf, n, "%s %s", t->metric, t->unit);
	}
}

void render_population_text(FILE *f, const struct place_pop *pop)
{
	const struct render_style st = { .color = false };
	char line[256], label[256], num[16];

	text_heading(f, &st, "Published population");
	snprintf(line, sizeof(line), "%s; %s", pop->filter_text, CAVEAT);
	wrap(f, 0, line);
	fprintf(f, " %-22s %5s", "", "n");
	for (unsigned k = 0; k < PLACE_NQ; k++)
		fprintf(f, " %6s", q_names[k]);
	fprintf(f, " %6s %6s\n", "min", "max");
	for (unsigned i = 0; i < pop->ntables && i < PLACE_MAX_POP; i++) {
		const struct place_pop_table *t = &pop->table[i];

		if (!t->t)
			continue;
		table_label(label, sizeof(label), t->t);
		if (strlen(label) > 22)
			fprintf(f, " %s\n %-22s %5u", label, "", t->d.n);
		else
			fprintf(f, " %-22s %5u", label, t->d.n);
		if (!t->d.n) {
			fputs("  (no rows under the filter)\n", f);
			continue;
		}
		for (unsigned k = 0; k < PLACE_NQ; k++) {
			place_num(num, sizeof(num), t->d.q[k], t->t->unit);
			fprintf(f, " %6s", num);
		}
		place_num(num, sizeof(num), t->d.min, t->t->unit);
		fprintf(f, " %6s", num);
		place_num(num, sizeof(num), t->d.max, t->t->unit);
		fprintf(f, " %6s\n", num);
	}
}
