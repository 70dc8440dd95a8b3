/*
 * grade_rules.c — the built-in fit-for rules and their answers. Each rule
 * cites the public source of its numbers and says what vpsbench applies
 * them to; a rule is added here only when a source states a number. A rule
 * holds when all its conditions hold; a condition on a disturbed figure
 * leaves the rule unanswered ("not answered: disturbed (...)").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"

#define C(m, o, b) { .metric = m, .op = o, .bound = b }

const struct grade_rule grade_builtin_rules[] = {
	{ .rule = "etcd", .for_what = "etcd and other write-ahead logs", .ncond = 1,
	  .cond = { C("fsync_p99_ms", REQ_LT, 10) },
	  .src = { "https://etcd.io/docs/v3.5/faq/",
		   "etcd FAQ: \"monitor wal_fsync_duration_seconds (p99 duration should be less than "
		   "10ms) to confirm the disk is reasonably fast\"; vpsbench measures the p99 of "
		   "fdatasync after each 2300-byte write, as IBM's \"Using fio to tell whether your "
		   "storage is fast enough for etcd\" does (fio --rw=write --ioengine=sync --fdatasync=1 "
		   "--size=22m --bs=2300)" } },
	{ .rule = "database",
	  .for_what = "latency-sensitive databases (4k reads at queue depth 1, commits)", .ncond = 2,
	  .cond = { C("lat_p99_ms", REQ_LT, 10), C("fsync_p99_ms", REQ_LT, 10) },
	  .src = { "https://social.technet.microsoft.com/wiki/contents/articles/3214.sql-server-monitoring-disk-usage.aspx",
		   "SQL Server: \"Avg. Disk Sec/Read ... Less than 10 ms - very good; Between 10 - 20 ms - "
		   "okay; Between 20 - 50 ms - slow, needs attention\"; \"Avg. Disk Sec/Write ... The "
		   "guidelines for the Avg. Disk Sec/Read values apply here.\" The source bands the "
		   "AVERAGE latency; vpsbench applies its 10 ms to the p99 of 4k reads at queue depth 1 "
		   "and of fdatasync after small writes. A p99 does not bound a mean: a few long stalls "
		   "can put the mean above 10 ms with the p99 below it." } },
};
const unsigned grade_builtin_nrules = sizeof(grade_builtin_rules) / sizeof(grade_builtin_rules[0]);

/* Appends text to f->why, cut to fit. */
static void why_add(struct fit_result *f, const char *text)
{
	size_t u = strlen(f->why);

	if (u + 1 < sizeof(f->why))
		snprintf(f->why + u, sizeof(f->why) - u, "%s", text);
}

static void answer(const struct grade_rule *r, const struct metric_set *ms, struct fit_result *f)
{
	const struct metric *miss = NULL, *dist = NULL;
	bool all = true;

	memset(f, 0, sizeof(*f));
	f->rule = *r;
	f->value = NAN;
	for (unsigned i = 0; i < GRADE_MAX_COND; i++)
		f->values[i] = NAN;
	for (unsigned i = 0; i < r->ncond && i < GRADE_MAX_COND; i++) {
		const struct metric *m = metric_get(ms, r->cond[i].metric);

		if (m && m->selected)
			f->asked = true;
		if (m && m->measured && isfinite(m->value)) {
			f->values[i] = m->value;
			if (m->disturbed && !dist)
				dist = m;
			if (m->low_confidence)
				f->low_confidence = true;
		} else if (!m) {
			/* no such figure in the set at all */
			f->answer = FIT_UNKNOWN;
			snprintf(f->why, sizeof(f->why), "not measured: %s", r->cond[i].metric);
			return;
		} else {
			all = false;
			if (!miss)
				miss = m;
		}
	}
	f->value = f->values[0];
	if (dist) {
		f->answer = FIT_UNKNOWN;
		f->disturbed = true;
		snprintf(f->why, sizeof(f->why), "not answered: disturbed (%s: %.200s)", dist->name,
			 dist->why_not[0] ? dist->why_not : "its pass was disturbed");
		return;
	}
	if (!all) {
		f->answer = FIT_UNKNOWN;
		snprintf(f->why, sizeof(f->why), "not measured: %s%s%.200s", miss->name,
			 miss->why_not[0] ? ": " : "", miss->why_not);
		return;
	}
	f->measured = true;
	f->answer = FIT_YES;
	for (unsigned i = 0; i < r->ncond && i < GRADE_MAX_COND; i++) {
		const struct metric *m = metric_get(ms, r->cond[i].metric);
		bool holds = grade_op_holds(r->cond[i].op, m->value, r->cond[i].bound);
		char val[32], bound[32], part[128];

		if (!holds)
			f->answer = FIT_NO;
		grade_fmt_value(val, sizeof(val), m->value);
		grade_fmt_value(bound, sizeof(bound), r->cond[i].bound);
		snprintf(part, sizeof(part), "%s%s %s, needs %s %s", i ? "; " : "", m->name, val,
			 grade_op_text(r->cond[i].op), bound);
		why_add(f, part);
		if (m->low_confidence) {
			snprintf(part, sizeof(part), " (low confidence: %.80s)",
				 m->caveat[0] ? m->caveat : "few samples");
			why_add(f, part);
		}
	}
}

void rules_eval(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out)
{
	out->nfit = 0;
	for (unsigned i = 0; i < t->nrules && out->nfit < GRADE_MAX_RULES; i++)
		answer(&t->rule[i], ms, &out->fit[out->nfit++]);
}
