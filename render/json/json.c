/*
 * json.c — the JSON report ("vpsbench.report/1"), built as a cJSON tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "json_put.h"
#include "render/render.h"

#ifdef HAVE_CJSON

static void add_time(cJSON *o, const char *key, const struct timespec *ts)
{
	char buf[64];
	struct tm tm;

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON_AddStringToObject(o, key, buf);
}

char *render_json(const struct bench_report *rep, const struct bench_plan *plan)
{
	cJSON *root = cJSON_CreateObject(), *run, *mods, *warn;
	char *out = NULL;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "schema", "vpsbench.report/1");
	cJSON_AddStringToObject(root, "version", VPSBENCH_VERSION);
	run = cJSON_AddObjectToObject(root, "run");
	if (!run)
		goto out;
	add_time(run, "start", &rep->start_real);
	add_time(run, "end", &rep->end_real);
	cJSON_AddNumberToObject(run, "elapsed_s", rep->elapsed_s);
	cJSON_AddStringToObject(run, "profile", plan->profile);
	cJSON_AddBoolToObject(run, "complete", !rep->interrupted);
	if (rep->interrupted)
		cJSON_AddNumberToObject(run, "signal", rep->signal);

	if (json_add_labels(root, &rep->labels) < 0)
		goto out;
	/* the verdict and the Health block first: what a reader looks for */
	json_add_verdict(root, rep);
	json_add_health(root, &rep->health);

	mods = cJSON_AddObjectToObject(root, "modules");
	if (!mods)
		goto out;
	for (int i = 0; i < MOD_COUNT; i++) {
		const struct mod_outcome *o = &rep->outcome[i];
		cJSON *m;

		if (o->status == BENCH_NOT_RUN)
			continue;
		m = cJSON_AddObjectToObject(mods, bench_modules[i]->name);
		if (!m)
			goto out;
		cJSON_AddStringToObject(m, "status", bench_status_name(o->status));
		json_add_str(m, "reason", o->reason);
		cJSON_AddNumberToObject(m, "seconds", o->seconds);
	}

	warn = cJSON_AddArrayToObject(root, "warnings");
	if (!warn)
		goto out;
	for (unsigned i = 0; i < rep->warn.n; i++)
		cJSON_AddItemToArray(warn, cJSON_CreateString(rep->warn.msg[i]));

	if (render_section_ran(rep, MOD_sysinfo))
		cJSON_AddItemToObject(root, "sysinfo", json_sysinfo(rep));
	if (render_section_ran(rep, MOD_cpu))
		cJSON_AddItemToObject(root, "cpu", json_cpu(rep));
	if (render_section_ran(rep, MOD_mem))
		cJSON_AddItemToObject(root, "mem", json_mem(rep));
	if (render_section_ran(rep, MOD_seq))
		cJSON_AddItemToObject(root, "seq", json_seq(rep, plan));
	if (render_section_ran(rep, MOD_rand))
		cJSON_AddItemToObject(root, "rand", json_rand(rep, plan));
	if (render_section_ran(rep, MOD_fsync))
		cJSON_AddItemToObject(root, "fsync", json_fsync(rep));
	if (render_section_ran(rep, MOD_cache))
		cJSON_AddItemToObject(root, "storage", json_cache(rep));
	if (render_section_ran(rep, MOD_net))
		cJSON_AddItemToObject(root, "net", json_net(rep));

	json_add_grades(root, &rep->grade);
	if (rep->place.ran)
		cJSON_AddItemToObject(root, "placement", json_place(&rep->place));

	out = cJSON_Print(root);
out:
	cJSON_Delete(root);
	return out;
}

#else

char *render_json(const struct bench_report *rep, const struct bench_plan *plan)
{
	(void)rep;
	(void)plan;
	return NULL;
}

#endif
