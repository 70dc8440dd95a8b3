/*
 * grade_rules.c — the built-in fit-for rules and their answers. Each rule
 * cites the public source of its number; a rule is added here only when a
 * source states one. The database rule applies Microsoft's SQL Server read
 * latency bands (stated for the average) to the p99 of 4k reads at queue
 * depth 1: stricter than the source, never looser (README "Grades").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"

const struct grade_rule grade_builtin_rules[] = {
	{ "etcd", "etcd and other write-ahead logs", "fsync_p99_ms", REQ_LT, 10,
	  "https://etcd.io/docs/v3.5/faq/",
	  "monitor wal_fsync_duration_seconds: p99 duration should be less than 10ms; "
	  "its fio recipe: --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300" },
	{ "database", "latency-sensitive databases (4k random reads, queue depth 1)", "lat_p99_ms",
	  REQ_LT, 10,
	  "https://social.technet.microsoft.com/wiki/contents/articles/3214.monitoring-disk-usage.aspx",
	  "SQL Server, Avg. Disk sec/Read: less than 10 ms very good, 10-20 ms okay, 20-50 ms slow; "
	  "applied here to the p99 of qd1 reads, not their mean" },
};
const unsigned grade_builtin_nrules = sizeof(grade_builtin_rules) / sizeof(grade_builtin_rules[0]);

static void answer(const struct grade_rule *r, const struct metric_set *ms, struct fit_result *f)
{
	const struct metric *m = metric_get(ms, r->metric);
	char val[32], bound[32];

	memset(f, 0, sizeof(*f));
	f->rule = *r;
	f->asked = m && m->selected;
	if (!m || !m->measured || !isfinite(m->value)) {
		f->answer = FIT_UNKNOWN;
		snprintf(f->why, sizeof(f->why), "not measured%s%.120s", m && m->why_not[0] ? ": " : "",
			 m ? m->why_not : "");
		return;
	}
	f->measured = true;
	f->value = m->value;
	f->low_confidence = m->low_confidence;
	f->answer = grade_op_holds(r->op, m->value, r->bound) ? FIT_YES : FIT_NO;
	grade_fmt_value(val, sizeof(val), m->value);
	grade_fmt_value(bound, sizeof(bound), r->bound);
	snprintf(f->why, sizeof(f->why), "%s %s, needs %s %s%s%s", r->metric, val,
		 grade_op_text(r->op), bound, m->low_confidence ? "; low confidence: " : "",
		 m->low_confidence ? m->caveat : "");
}

void rules_eval(const struct grade_table *t, const struct metric_set *ms, struct grade_result *out)
{
	out->nfit = 0;
	for (unsigned i = 0; i < t->nrules && out->nfit < GRADE_MAX_RULES; i++)
		answer(&t->rule[i], ms, &out->fit[out->nfit++]);
}
