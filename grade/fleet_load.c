/*
 * fleet_load.c — reading the nodes' JSON reports for `vpsbench fleet`:
 * files and directories of *.json; foreign or broken files are named.
 * Each report is placed among the published results under the fleet's
 * filter (grade/place.h) as `vpsbench place` would place it.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet.h"
#include "report_file.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

static const char *str_or(const cJSON *o, const char *key, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && v->valuestring ? v->valuestring : dflt;
}

/* The file name without its directory and .json: the label of an unlabelled node. */
static void base_label(const char *path, char *buf, size_t n)
{
	const char *b = strrchr(path, '/');
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	snprintf(buf, n, "%.*s", (int)len, b);
}

/*
 * The report's Health block (the checks grade/health.c ran when it was
 * made): its status and the checks with a problem. A report from before
 * the block existed is "unknown", never "ok".
 */
static void read_health(const cJSON *root, struct fleet_node *nd)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "health");
	const cJSON *problems = cJSON_GetObjectItemCaseSensitive(h, "problems"), *p;

	snprintf(nd->health, sizeof(nd->health), "%s", str_or(h, "status", "unknown"));
	cJSON_ArrayForEach(p, problems) {
		size_t u = strlen(nd->health_checks), w = strlen(nd->health_why);

		if (u < sizeof(nd->health_checks))
			snprintf(nd->health_checks + u, sizeof(nd->health_checks) - u, "%s%s",
				 u ? ", " : "", str_or(p, "check", "?"));
		if (w < sizeof(nd->health_why))
			snprintf(nd->health_why + w, sizeof(nd->health_why) - w, "%s%s: %s",
				 w ? "; " : "", str_or(p, "check", "?"), str_or(p, "evidence", ""));
	}
}

/*
 * A figure "metrics" leaves null because its pass was disturbed: the
 * report's metrics_detail says disturbed, with the value and why. Reports
 * from before metrics_detail have none: their null stays "no figure".
 */
static void read_disturbed(const cJSON *detail, unsigned m, struct fleet_node *nd)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(detail, grade_metric_names[m]);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, "value");
	struct fleet_disturbed *x;

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "disturbed")) ||
	    !cJSON_IsNumber(v) || !isfinite(v->valuedouble) || nd->ndist >= FLEET_MAX_DISTURBED)
		return;
	x = &nd->dist[nd->ndist++];
	x->m = m;
	x->v = v->valuedouble;
	snprintf(x->why, sizeof(x->why), "%s", str_or(d, "why", "its pass was disturbed"));
}

/* The report's figures among the published ones: nd's place cells. */
static void place_node(const char *text, const struct place_filter *pf, struct fleet_node *nd)
{
	static struct place_input in;     /* large: not on the stack */
	static struct place_result res;
	char err[200];

	memset(&in, 0, sizeof(in));
	memset(&res, 0, sizeof(res));
	if (place_input_from_json(text, &in, err, sizeof(err)) < 0) {
		for (unsigned c = 0; c < FLEET_PLACE_COLS; c++)
			snprintf(nd->place[c].why, sizeof(nd->place[c].why), "%s", err);
		return;
	}
	place_compute(&in, pf, &res);
	fleet_place_node(nd, &res);
}

/* One report into nd; -1 with why (not JSON, not ours, no metrics). */
static int read_node(const char *path, const struct place_filter *pf, struct fleet_node *nd,
		     char *why, size_t wn)
{
	char *text = report_file_read(path, why, wn);
	cJSON *root = NULL, *metrics, *labels, *l;
	const cJSON *run, *complete, *verdict, *detail;
	int rc = -1;

	if (!text)
		return -1;
	memset(nd, 0, sizeof(*nd));
	root = cJSON_Parse(text);
	if (!root) {
		snprintf(why, wn, "not valid JSON");
		goto out;
	}
	if (strcmp(str_or(root, "schema", ""), "vpsbench.report/1") != 0) {
		snprintf(why, wn, "not a vpsbench report (no \"schema\": \"vpsbench.report/1\")");
		goto out;
	}
	metrics = cJSON_GetObjectItemCaseSensitive(root, "metrics");
	if (!cJSON_IsObject(metrics)) {
		snprintf(why, wn, "report has no \"metrics\" object");
		goto out;
	}
	detail = cJSON_GetObjectItemCaseSensitive(root, "metrics_detail");
	snprintf(nd->file, sizeof(nd->file), "%s", path);
	snprintf(nd->label, sizeof(nd->label), "%s", str_or(root, "label", ""));
	if (!nd->label[0])
		base_label(path, nd->label, sizeof(nd->label));
	labels = cJSON_GetObjectItemCaseSensitive(root, "labels");
	cJSON_ArrayForEach(l, labels) {
		size_t used = strlen(nd->tags);

		if (cJSON_IsString(l) && l->string && used < sizeof(nd->tags))
			snprintf(nd->tags + used, sizeof(nd->tags) - used, "%s%s=%s", used ? ", " : "",
				 l->string, l->valuestring);
	}
	run = cJSON_GetObjectItemCaseSensitive(root, "run");
	snprintf(nd->profile, sizeof(nd->profile), "%s", str_or(run, "profile", "unknown"));
	complete = cJSON_GetObjectItemCaseSensitive(run, "complete");
	nd->complete = !cJSON_IsFalse(complete);
	verdict = cJSON_GetObjectItemCaseSensitive(root, "verdict");
	snprintf(nd->verdict, sizeof(nd->verdict), "%s", str_or(verdict, "text", ""));
	read_health(root, nd);
	for (unsigned m = 0; grade_metric_names[m] && m < GRADE_MAX_METRICS; m++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(metrics, grade_metric_names[m]);

		nd->has[m] = cJSON_IsNumber(v) && isfinite(v->valuedouble);
		nd->v[m] = nd->has[m] ? v->valuedouble : 0;
		if (!nd->has[m])
			read_disturbed(detail, m, nd);
	}
	place_node(text, pf, nd);
	rc = 0;
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

static int add_broken(struct fleet *f, const char *path, const char *why)
{
	if (f->nbroken == f->capb) {
		unsigned cap = f->capb ? f->capb * 2 : 8;
		struct fleet_broken *p = realloc(f->broken, cap * sizeof(*p));

		if (!p)
			return -1;
		f->broken = p;
		f->capb = cap;
	}
	snprintf(f->broken[f->nbroken].file, sizeof(f->broken[0].file), "%s", path);
	snprintf(f->broken[f->nbroken].why, sizeof(f->broken[0].why), "%s", why);
	f->nbroken++;
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

static int load_dir(struct fleet *f, const char *dir, const struct place_filter *pf, char *err,
		    size_t errlen)
{
	static struct fleet_node nd;
	struct dirent **ents = NULL;
	char path[PATH_MAX], why[256];
	int n = scandir(dir, &ents, is_json, by_name), rc = 0;

	if (n < 0) {
		snprintf(err, errlen, "fleet: %s: %s", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (rc == 0) {
			snprintf(path, sizeof(path), "%s%s%s", dir,
				 dir[strlen(dir) - 1] == '/' ? "" : "/", ents[i]->d_name);
			if (read_node(path, pf, &nd, why, sizeof(why)) < 0 ? add_broken(f, path, why) < 0 :
			    fleet_add(f, &nd) < 0) {
				snprintf(err, errlen, "fleet: out of memory");
				rc = -1;
			}
		}
		free(ents[i]);
	}
	free(ents);
	if (rc == 0 && n == 0 && f->nbroken == 0)
		add_broken(f, dir, "no *.json files in this directory");
	return rc;
}

int fleet_load(struct fleet *f, const char *const *paths, unsigned npaths,
	       const struct place_filter *pf, char *err, size_t errlen)
{
	static struct fleet_node nd;
	char why[256];
	struct stat st;

	f->place_filter = *pf;
	place_filter_text(pf, f->place_filter_text, sizeof(f->place_filter_text));
	f->placed_any = true;
	for (unsigned i = 0; i < npaths; i++) {
		if (stat(paths[i], &st) < 0) {
			snprintf(err, errlen, "fleet: %s: %s", paths[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			if (load_dir(f, paths[i], pf, err, errlen) < 0)
				return -1;
			continue;
		}
		if (read_node(paths[i], pf, &nd, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "fleet: %s: %s", paths[i], why);
			return -1;
		}
		if (fleet_add(f, &nd) < 0) {
			snprintf(err, errlen, "fleet: out of memory");
			return -1;
		}
	}
	if (f->n == 0) {
		if (f->nbroken == 1)
			snprintf(err, errlen, "fleet: no readable report: %s: %s", f->broken[0].file,
				 f->broken[0].why);
		else
			snprintf(err, errlen, "fleet: no readable report among %u file%s (first: %s: %s)",
				 f->nbroken, f->nbroken == 1 ? "" : "s",
				 f->nbroken ? f->broken[0].file : "none",
				 f->nbroken ? f->broken[0].why : "nothing given");
		return -1;
	}
	return 0;
}

#else

int fleet_load(struct fleet *f, const char *const *paths, unsigned npaths,
	       const struct place_filter *pf, char *err, size_t errlen)
{
	(void)f;
	(void)paths;
	(void)npaths;
	(void)pf;
	snprintf(err, errlen, "fleet: unavailable: built without cJSON");
	return -1;
}

#endif
