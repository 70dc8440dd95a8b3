/*
 * text.c — the text report: header, one section per module that ran,
 * module outcomes, then every warning in one place at the end.
 */
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "text_put.h"

void render_text(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
		 const struct render_style *st)
{
	char when[64], who[LABEL_MAX_PAIRS * 140];
	struct tm tm;
	bool any_note = false;

	gmtime_r(&rep->start_real.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "%s\n vpsbench %s  —  %s  —  profile %s\n%s\n", TEXT_RULE, VPSBENCH_VERSION,
		when, plan->profile, TEXT_RULE);
	labels_join(who, sizeof(who), &rep->labels);
	if (who[0])
		fprintf(f, " node %s\n%s\n", who, TEXT_RULE);
	text_health(f, rep, st);

	if (render_section_ran(rep, MOD_sysinfo))
		text_sysinfo(f, rep, st);
	if (render_section_ran(rep, MOD_cpu))
		text_cpu(f, rep, st);
	if (render_section_ran(rep, MOD_mem))
		text_memory(f, rep, st);
	if (render_section_ran(rep, MOD_seq))
		text_seq(f, rep, plan, st);
	if (render_section_ran(rep, MOD_rand))
		text_rand(f, rep, plan, st);
	if (render_section_ran(rep, MOD_fsync))
		text_fsync(f, rep, st);
	if (render_section_ran(rep, MOD_cache))
		text_cache(f, rep, st);
	if (render_section_ran(rep, MOD_net))
		text_net(f, rep, st);

	text_grades(f, rep, st);
	text_fit(f, rep, st);

	for (int i = 0; i < MOD_COUNT; i++) {
		const struct mod_outcome *o = &rep->outcome[i];

		if (o->status == BENCH_NOT_RUN || o->status == BENCH_OK)
			continue;
		if (!any_note) {
			text_heading(f, st, "Modules not completed");
			any_note = true;
		}
		text_kv(f, st, bench_modules[i]->name, "%s%s%s", bench_status_name(o->status),
			o->reason[0] ? ": " : "", o->reason);
	}
	/* among published results: when a figure or the rand note is there to show */
	if (rep->place.ran && (rep->place.nitems || rep->place.rand_note[0]))
		render_place_text(f, &rep->place);
	if (rep->warn.n) {
		text_heading(f, st, "Warnings");
		for (unsigned i = 0; i < rep->warn.n; i++)
			fprintf(f, " %s!%s %s\n", text_color(st, "\033[33m"), text_color(st, "\033[0m"),
				rep->warn.msg[i]);
	}
	fprintf(f, "\n%s\n Finished in %.1f s%s\n%s\n", TEXT_RULE, rep->elapsed_s,
		rep->interrupted ? " (interrupted: results incomplete)" : "", TEXT_RULE);
}
