/*
 * render.h — turning a finished report into text or JSON. Renderers read
 * struct bench_report only; each module's section has its own file.
 */
#ifndef VPSBENCH_RENDER_H
#define VPSBENCH_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/plan.h"
#include "report/report.h"

struct render_style {
	bool color;
};

#define TEXT_RULE " ------------------------------------------------------------------------------"

void render_text(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
		 const struct render_style *st);

/* Returns the JSON report as a malloc'd string, or NULL (built without cJSON, or no memory). */
char *render_json(const struct bench_report *rep, const struct bench_plan *plan);

/* --format yabs: yabs.sh-shaped JSON (yabs.c), malloc'd; NULL without cJSON or memory. */
char *render_yabs(const struct bench_report *rep, const struct bench_plan *plan);
/* --format fio: the rand passes in fio's json+ envelope (fio.c), malloc'd; NULL without cJSON or memory. */
char *render_fio(const struct bench_report *rep, const struct bench_plan *plan);
/* --html FILE: one self-contained page with inline SVG charts (html.c). 0, or -1 on a write error. */
int render_html(FILE *f, const struct bench_report *rep, const struct bench_plan *plan);
/* --format prom: Prometheus text exposition (prom.c). Returns 0, or -1 on a write error. */
int render_prom(FILE *f, const struct bench_report *rep, const struct bench_plan *plan);

/* True when the section of module id belongs in the report. */
bool render_section_ran(const struct bench_report *rep, int id);


/* Section renderers (text). */
void text_sysinfo(FILE *f, const struct bench_report *rep, const struct render_style *st);
void text_seq(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
	      const struct render_style *st);
void text_rand(FILE *f, const struct bench_report *rep, const struct bench_plan *plan,
	       const struct render_style *st);
void text_fsync(FILE *f, const struct bench_report *rep, const struct render_style *st);
void text_cache(FILE *f, const struct bench_report *rep, const struct render_style *st);

void text_cpu(FILE *f, const struct bench_report *rep, const struct render_style *st);

/* --html: the memory section (html_mem.c). */
void html_mem(FILE *f, const struct bench_report *rep);
/* --html: the verdict, the Health block and the fit-for answers, first (html_health.c). */
void html_health(FILE *f, const struct bench_report *rep);
/* --html: the storage profile's section (html_cache.c). */
void html_cache(FILE *f, const struct bench_report *rep);
/* --html: the fdatasync section (html_fsync.c). */
void html_fsync(FILE *f, const struct bench_report *rep);
/* --html: the "Among published results" section of a report page (html_place.c). */
void html_place(FILE *f, const struct place_result *p);
void text_memory(FILE *f, const struct bench_report *rep, const struct render_style *st);
void text_net(FILE *f, const struct bench_report *rep, const struct render_style *st);
/* bits/s as iperf3 prints them: "938 Mbits/sec", "1.61 Gbits/sec" (net_fmt.c). */
void net_fmt_bps(char *buf, size_t n, double bps);
/* A round trip in ms without exponents: "0.04 ms", "77.5 ms", "1234.5 ms" (net_fmt.c). */
void net_fmt_ms(char *buf, size_t n, double ms);
/* Data moved, decimal units: "512 KB", "1.25 GB" (net_fmt.c). */
void net_fmt_bytes(char *buf, size_t n, double bytes);

void text_grades(FILE *f, const struct bench_report *rep, const struct render_style *st);
/* The verdict line and the Health block, first in the text report (text_health.c). */
void text_health(FILE *f, const struct bench_report *rep, const struct render_style *st);
/* The fit-for rules with their answers and sources, under the grades. */
void text_fit(FILE *f, const struct bench_report *rep, const struct render_style *st);
struct compare_result;
void text_compare(FILE *f, const struct compare_result *c, const struct render_style *st);
/* malloc'd JSON strings, NULL without cJSON or memory */
char *json_compare(const struct compare_result *c);
char *json_thresholds(const struct grade_table *t);

/* Among published results (grade/place.h): the "Among published results"
 * section of the text report; `vpsbench place`'s prom gauges (-1 with errno
 * on a write error) and its whole HTML page; the population under a filter. */
void render_place_text(FILE *f, const struct place_result *p);
int render_place_prom(FILE *f, const struct place_result *p);
int render_place_html(FILE *f, const struct place_result *p, const char *title);
void render_population_text(FILE *f, const struct place_pop *pop);
/* malloc'd JSON strings, NULL without cJSON or memory: the whole `vpsbench
 * place --format json` document ("vpsbench.placement/1"), the population's
 * ("vpsbench.population/1") */
char *render_place_json(const struct place_result *p, const char *report_path,
			const char *profile);
char *render_population_json(const struct place_pop *pop);

/* "web-1, dc=fra1" (labels_text.c); "" when no label was given. */
void labels_join(char *buf, size_t n, const struct bench_labels *l);

/* sysinfo's words when no oversell sign was seen (oversell_words.c): "unknown" or "none seen[; unknown: ...]". */
void oversell_none_words(char *buf, size_t n, const struct sys_mem *m);

/* one crypto pass's figure or "not measured: <why>" (crypto_words.c) */
void render_crypto_mbps(char *buf, size_t n, const struct cpu_crypto_pass *p);

/* Number formatting (units.c). */
/* fio's num2str(v, 4, 1, pow2, unit): "40.0k", "156Mi" + unit; at most 4 significant digits. */
void fmt_num2str(char *buf, size_t n, double v, bool pow2, const char *unit);
/* Human bytes with binary units: "1.5 GiB", "512 MiB", "4 KiB", "100 B". */
void fmt_bytes(char *buf, size_t n, uint64_t bytes);
/* Duration in ns as "812 ns", "4.65 us", "1.23 ms", "2.50 s". */
void fmt_ns(char *buf, size_t n, double ns);
/* Uptime as "3 days, 4 hours 12 min" / "0 hours 16 min"; "unknown". */
void fmt_uptime(char *buf, size_t n, struct mdbl up);

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

/* Section renderers (JSON): each returns a new object, or NULL on no memory. */
cJSON *json_sysinfo(const struct bench_report *rep);
cJSON *json_seq(const struct bench_report *rep, const struct bench_plan *plan);
cJSON *json_mem(const struct bench_report *rep);
cJSON *json_rand(const struct bench_report *rep, const struct bench_plan *plan);
cJSON *json_fsync(const struct bench_report *rep);
/* --profile storage: the cache cliff and write timelines (json_cache.c). */
cJSON *json_cache(const struct bench_report *rep);
cJSON *json_cpu(const struct bench_report *rep);
cJSON *json_net(const struct bench_report *rep);
/* yabs's "iperf" array from the net section (yabs_net.c); 0, or -1 on no memory. */
int yabs_add_iperf(cJSON *root, const struct bench_report *rep);
/* "label": NAME and "labels": {key: value} when given (json_labels.c); -1 on no memory. */
int json_add_labels(cJSON *root, const struct bench_labels *l);
/* The "placement" object (json_place.c); NULL on no memory. */
cJSON *json_place(const struct place_result *p);
/* Adds "grades", "fit_rules", "requirements" and "metrics" to the report root. */
void json_add_grades(cJSON *root, const struct grade_result *g);
/* "verdict" (text, health status, fit-for answers, weak resource) and "health" (json_health.c). */
void json_add_verdict(cJSON *root, const struct bench_report *rep);
void json_add_health(cJSON *root, const struct health_result *h);
/* A rule's keys as the thresholds file spells them. */
void json_rule_fields(cJSON *o, const struct grade_rule *r);
/* "source": {"url", "says"} into o. */
void json_add_source(cJSON *o, const struct grade_source *src);
void json_add_grade_head(cJSON *o, const struct grade *x);
#endif

#endif
