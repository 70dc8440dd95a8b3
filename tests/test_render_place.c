/*
 * test_render_place.c — "Among published results" in every format (#43),
 * from a struct place_result filled by hand: a placed fio figure (this run
 * between p25 and p50), a fio figure not placed (too few rows), the
 * 1-thread sysbench figure above p90 with a note, an iperf3 row below p10
 * and the rand note. Text: the ladder's numbers, the marker's place, the
 * ordinal, "not placed: why", 80 columns. JSON: every key and value, null
 * where not placed. Prom: the lines with their labels. HTML: the "this VPS"
 * marker's x against the strip's geometry (log and linear axes). The
 * population's text and JSON from a hand-made place_pop.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "report/report.h"
#include "th.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#define MARK "\xe2\x96\xb2"

static void set_q(struct place_item *it, double a, double b, double c, double d, double e)
{
	it->d.q[0] = a;
	it->d.q[1] = b;
	it->d.q[2] = c;
	it->d.q[3] = d;
	it->d.q[4] = e;
}

static void hand_result(struct place_result *p)
{
	struct place_item *it;

	memset(p, 0, sizeof(*p));
	p->ran = true;
	p->filter.kind = PUB_KIND_VPS;
	p->filter.year_lo = 2020;
	p->filter.year_hi = 2026;
	p->filter.min_n = 20;
	snprintf(p->filter_text, sizeof(p->filter_text),
		 "kind vps, any vCPUs, 2020-2026, every run, cache-inflated left out");
	p->source = "data/published (test)";
	snprintf(p->profile, sizeof(p->profile), "yabs");
	snprintf(p->rand_note, sizeof(p->rand_note),
		 "rand ran randrw 75/25, 4k, qd64: run --profile yabs to place it");
	p->nitems = 4;

	it = &p->item[0];
	snprintf(it->metric, sizeof(it->metric), PLACE_M_FIO_IOPS);
	it->bs = 4096;
	snprintf(it->label, sizeof(it->label), "4k total IOPS");
	snprintf(it->unit, sizeof(it->unit), "IOPS");
	it->value = mdbl_of(52300);
	it->placed = true;
	it->d.n = 339;
	it->below = 128;
	it->equal = 2;
	it->pct = 100.0 * (128 + 1) / 339; /* 38.05 */
	set_q(it, 10300, 35200, 92700, 181000, 273000);
	it->d.min = 1200;
	it->d.max = 910000;
	it->d.year_lo = 2020;
	it->d.year_hi = 2026;
	it->d.cached_out = 5;

	it = &p->item[1];
	snprintf(it->metric, sizeof(it->metric), PLACE_M_FIO_MBPS);
	it->bs = 1u << 20;
	snprintf(it->label, sizeof(it->label), "1m total MB/s");
	snprintf(it->unit, sizeof(it->unit), "MB/s");
	it->value = mdbl_of(1234.5);
	snprintf(it->why, sizeof(it->why), "12 published rows match the filter (minimum 20)");
	it->d.n = 12;

	it = &p->item[2];
	snprintf(it->metric, sizeof(it->metric), PLACE_M_CPU_1T);
	snprintf(it->label, sizeof(it->label), "1 thread");
	snprintf(it->unit, sizeof(it->unit), "events/s");
	it->value = mdbl_of(5012.34);
	it->placed = true;
	it->d.n = 120;
	it->below = 116;
	it->equal = 1;
	it->pct = 100.0 * (116 + 0.5) / 120; /* 97.08 */
	set_q(it, 700, 1100, 2000, 3000, 4500);
	it->d.min = 400;
	it->d.max = 6000;
	it->d.year_lo = 2023;
	it->d.year_hi = 2026;
	it->d.undated = 3;
	snprintf(it->note, sizeof(it->note), "max_prime 10000, as sysbench's default");

	it = &p->item[3];
	snprintf(it->metric, sizeof(it->metric), PLACE_M_NET_SEND);
	snprintf(it->server, sizeof(it->server), "Clouvider");
	snprintf(it->location, sizeof(it->location), "London, UK (10G)");
	snprintf(it->family, sizeof(it->family), "IPv4");
	snprintf(it->label, sizeof(it->label), "Clouvider London, UK (10G) IPv4 send");
	snprintf(it->unit, sizeof(it->unit), "Mbits/sec");
	it->value = mdbl_of(88);
	it->placed = true;
	it->d.n = 41;
	it->below = 0;
	it->equal = 0;
	it->pct = 0;
	set_q(it, 120, 450, 900, 2100, 5000);
	it->d.min = 95;
	it->d.max = 9400;
	it->d.year_lo = 2021;
	it->d.year_hi = 2026;
}

typedef void (*text_fn)(FILE *, const struct place_result *);

static char *to_mem(text_fn fn, const struct place_result *p)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	fn(f, p);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void prom_fn(FILE *f, const struct place_result *p)
{
	render_place_prom(f, p);
}

/* Columns of a UTF-8 line: code points. */
static size_t cols(const char *s, size_t len)
{
	size_t c = 0;

	for (size_t i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

TH_TEST(render_place_text_ladder)
{
	struct place_result *p = malloc(sizeof(*p));
	char *s;

	if (!p)
		return;
	hand_result(p);
	s = to_mem(render_place_text, p);
	TH_CHECK(s != NULL);
	if (!s) {
		free(p);
		return;
	}
	TH_CHECK(strstr(s, " Among published results\n") != NULL);
	TH_CHECK(strstr(s, " kind vps, any vCPUs, 2020-2026, every run, cache-inflated left out; a best-case\n"
			   " sample: see data/published/README.md\n") != NULL);
	/* 52.3k lies between p25 35.2k and p50 92.7k */
	TH_CHECK(strstr(s, "\n 4k total IOPS    52.3k  p10 10.3k  p25 35.2k " MARK
			   " p50 92.7k  p75 181k  p90 273k\n"
			   "                 " MARK " at the 38th percentile of 339 published results"
			   " (2020\xe2\x80\x93" "2026; 5\n"
			   "                 cache-inflated left out)\n") != NULL);
	/* not placed: its value, then why */
	TH_CHECK(strstr(s, "\n 1m total MB/s     1234\n"
			   "                 not placed: 12 published rows match the filter (minimum 20)\n")
		 != NULL);
	/* above p90: the marker after it; the note on its own line */
	TH_CHECK(strstr(s, "\n 1 thread          5012  p10 700  p25 1100  p50 2000  p75 3000  p90 4500 " MARK
			   "\n                 " MARK " at the 97th percentile of 120 published results"
			   " (2023\xe2\x80\x93" "2026; 3\n                 undated)\n"
			   "                 max_prime 10000, as sysbench's default\n") != NULL);
	/* a long label on its own line; under p10: the marker first */
	TH_CHECK(strstr(s, "\n Clouvider London, UK (10G) IPv4 send\n"
			   "                     88  " MARK " p10 120  p25 450  p50 900  p75 2100  p90 5000\n"
			   "                 " MARK " at the 0th percentile of 41 published results (2021\xe2\x80\x93"
			   "2026)\n") != NULL);
	TH_CHECK(strstr(s, " rand ran randrw 75/25, 4k, qd64: run --profile yabs to place it\n") != NULL);
	TH_CHECK(strstr(s, "faster than") == NULL);
	for (char *line = s; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (cols(line, len) > 80)
			th_fail(__FILE__, __LINE__, "line of %zu columns: %.*s", cols(line, len), (int)len, line);
		line = nl ? nl + 1 : NULL;
	}
	free(s);
	free(p);
}

TH_TEST(render_place_text_ordinals)
{
	static const struct {
		double pct;
		const char *want;
	} t[] = {
		{ 1, "1st" },   { 2, "2nd" },   { 3, "3rd" },   { 4, "4th" },   { 11, "11th" },
		{ 12, "12th" }, { 13, "13th" }, { 21, "21st" }, { 22.4, "22nd" }, { 41.6, "42nd" },
		{ 63, "63rd" }, { 100, "100th" }, { 0.4, "0th" },
	};
	struct place_result *p = malloc(sizeof(*p));
	char want[96];

	if (!p)
		return;
	hand_result(p);
	p->nitems = 1;
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *s;

		p->item[0].pct = t[i].pct;
		s = to_mem(render_place_text, p);
		snprintf(want, sizeof(want), " at the %s percentile of 339 ", t[i].want);
		if (!s || !strstr(s, want))
			th_fail(__FILE__, __LINE__, "pct %g: no \"%s\"", t[i].pct, want);
		free(s);
	}
	free(p);
}

TH_TEST(render_place_text_when)
{
	struct place_result *p = malloc(sizeof(*p));
	char *s;

	if (!p)
		return;
	hand_result(p);
	p->ran = false;
	s = to_mem(render_place_text, p);
	TH_CHECK(s && s[0] == '\0');
	free(s);
	/* `vpsbench place` of a report with nothing placeable says so */
	hand_result(p);
	p->nitems = 0;
	p->rand_note[0] = '\0';
	s = to_mem(render_place_text, p);
	TH_CHECK(s && strstr(s, "Among published results") && strstr(s, "\n nothing to place: "));
	free(s);
	/* the rand note alone is worth the section */
	hand_result(p);
	p->nitems = 0;
	s = to_mem(render_place_text, p);
	TH_CHECK(s && strstr(s, "Among published results") && strstr(s, "run --profile yabs"));
	free(s);
	free(p);
}

/* The report's text and JSON carry the section only when placement ran. */
TH_TEST(render_place_in_report)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct bench_plan plan = { .profile = "yabs" };
	struct render_style st = { false };
	char *buf = NULL;
	size_t n = 0;
	FILE *f;

	if (!rep)
		return;
	f = open_memstream(&buf, &n);
	if (!f) {
		free(rep);
		return;
	}
	render_text(f, rep, &plan, &st);
	fclose(f);
	TH_CHECK(buf && !strstr(buf, "Among published results"));
	free(buf);
	hand_result(&rep->place);
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f) {
		free(rep);
		return;
	}
	render_text(f, rep, &plan, &st);
	fclose(f);
	TH_CHECK(buf && strstr(buf, "Among published results") &&
		 strstr(buf, "at the 38th percentile of 339"));
	free(buf);
	/* placement ran, nothing to show: no section in the report */
	rep->place.nitems = 0;
	rep->place.rand_note[0] = '\0';
	buf = NULL;
	f = open_memstream(&buf, &n);
	if (!f) {
		free(rep);
		return;
	}
	render_text(f, rep, &plan, &st);
	fclose(f);
	TH_CHECK(buf && !strstr(buf, "Among published results"));
	free(buf);
	hand_result(&rep->place);
#ifdef HAVE_CJSON
	buf = render_json(rep, &plan);
	{
		cJSON *root = buf ? cJSON_Parse(buf) : NULL;
		cJSON *pl = cJSON_GetObjectItemCaseSensitive(root, "placement");

		TH_CHECK(cJSON_IsObject(pl));
		TH_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(pl, "items")), 4);
		cJSON_Delete(root);
	}
	free(buf);
	rep->place.ran = false;
	buf = render_json(rep, &plan);
	TH_CHECK(buf && !strstr(buf, "\"placement\""));
	free(buf);
#endif
	free(rep);
}

#ifdef HAVE_CJSON
static double num_of(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(x) ? x->valuestring : NULL;
}

static bool is_null(const cJSON *o, const char *k)
{
	return cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, k));
}

static bool range_is(const cJSON *o, const char *k, double lo, double hi)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsArray(a) && cJSON_GetArraySize(a) == 2 &&
	       cJSON_GetArrayItem(a, 0)->valuedouble == lo && cJSON_GetArrayItem(a, 1)->valuedouble == hi;
}

static const char *const item_keys[] = {
	"metric", "bs", "server", "location", "family", "label", "unit", "value", "placed", "why", "note",
	"n", "below", "equal", "percentile", "p10", "p25", "p50", "p75", "p90", "min", "max", "years",
	"undated", "cached_left_out",
};

TH_TEST(render_place_json_values)
{
	struct place_result *p = malloc(sizeof(*p));
	char *s;
	cJSON *root, *pl, *fl, *items, *a, *b, *c, *d;

	if (!p)
		return;
	hand_result(p);
	s = render_place_json(p, "run/r.json", "yabs");
	root = s ? cJSON_Parse(s) : NULL;
	TH_CHECK(root != NULL);
	TH_EQ_STR(str_of(root, "schema"), "vpsbench.placement/1");
	TH_EQ_STR(str_of(root, "report"), "run/r.json");
	TH_EQ_STR(str_of(root, "profile"), "yabs");
	pl = cJSON_GetObjectItemCaseSensitive(root, "placement");
	TH_EQ_STR(str_of(pl, "source"), "data/published (test)");
	TH_CHECK(str_of(pl, "rule") && strstr(str_of(pl, "rule"), "100 x (below + equal / 2) / n"));
	TH_EQ_STR(str_of(pl, "rand_note"), "rand ran randrw 75/25, 4k, qd64: run --profile yabs to place it");
	fl = cJSON_GetObjectItemCaseSensitive(pl, "filter");
	TH_EQ_STR(str_of(fl, "kind"), "vps");
	TH_CHECK(is_null(fl, "vcpus"));
	TH_CHECK(range_is(fl, "years", 2020, 2026));
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(fl, "per_machine")));
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(fl, "include_cached")));
	TH_EQ_INT(num_of(fl, "min_n"), 20);
	TH_EQ_STR(str_of(fl, "text"), "kind vps, any vCPUs, 2020-2026, every run, cache-inflated left out");
	items = cJSON_GetObjectItemCaseSensitive(pl, "items");
	TH_EQ_INT(cJSON_GetArraySize(items), 4);
	for (int i = 0; i < cJSON_GetArraySize(items); i++)
		for (unsigned k = 0; k < sizeof(item_keys) / sizeof(item_keys[0]); k++)
			if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(items, i), item_keys[k]))
				th_fail(__FILE__, __LINE__, "item %d has no \"%s\"", i, item_keys[k]);
	a = cJSON_GetArrayItem(items, 0);
	TH_EQ_STR(str_of(a, "metric"), "fio_total_iops");
	TH_EQ_INT(num_of(a, "bs"), 4096);
	TH_CHECK(is_null(a, "server") && is_null(a, "location") && is_null(a, "family"));
	TH_EQ_STR(str_of(a, "label"), "4k total IOPS");
	TH_EQ_STR(str_of(a, "unit"), "IOPS");
	TH_NEAR(num_of(a, "value"), 52300, 0);
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "placed")));
	TH_CHECK(is_null(a, "why") && is_null(a, "note"));
	TH_EQ_INT(num_of(a, "n"), 339);
	TH_EQ_INT(num_of(a, "below"), 128);
	TH_EQ_INT(num_of(a, "equal"), 2);
	TH_NEAR(num_of(a, "percentile"), 100.0 * 129 / 339, 1e-12);
	TH_NEAR(num_of(a, "p10"), 10300, 0);
	TH_NEAR(num_of(a, "p25"), 35200, 0);
	TH_NEAR(num_of(a, "p50"), 92700, 0);
	TH_NEAR(num_of(a, "p75"), 181000, 0);
	TH_NEAR(num_of(a, "p90"), 273000, 0);
	TH_NEAR(num_of(a, "min"), 1200, 0);
	TH_NEAR(num_of(a, "max"), 910000, 0);
	TH_CHECK(range_is(a, "years", 2020, 2026));
	TH_EQ_INT(num_of(a, "undated"), 0);
	TH_EQ_INT(num_of(a, "cached_left_out"), 5);
	/* not placed: why, the value kept, the rest null or 0 */
	b = cJSON_GetArrayItem(items, 1);
	TH_EQ_INT(num_of(b, "bs"), 1048576);
	TH_CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(b, "placed")));
	TH_EQ_STR(str_of(b, "why"), "12 published rows match the filter (minimum 20)");
	TH_NEAR(num_of(b, "value"), 1234.5, 0);
	TH_EQ_INT(num_of(b, "n"), 0);
	TH_EQ_INT(num_of(b, "below"), 0);
	TH_EQ_INT(num_of(b, "equal"), 0);
	TH_CHECK(is_null(b, "percentile") && is_null(b, "p10") && is_null(b, "p25") && is_null(b, "p50") &&
		 is_null(b, "p75") && is_null(b, "p90") && is_null(b, "min") && is_null(b, "max") &&
		 is_null(b, "years"));
	c = cJSON_GetArrayItem(items, 2);
	TH_EQ_STR(str_of(c, "metric"), "sysbench_1t_eps");
	TH_CHECK(is_null(c, "bs"));
	TH_EQ_STR(str_of(c, "note"), "max_prime 10000, as sysbench's default");
	TH_NEAR(num_of(c, "percentile"), 100.0 * 116.5 / 120, 1e-12);
	TH_EQ_INT(num_of(c, "undated"), 3);
	TH_CHECK(range_is(c, "years", 2023, 2026));
	d = cJSON_GetArrayItem(items, 3);
	TH_EQ_STR(str_of(d, "metric"), "iperf_send_mbits");
	TH_CHECK(is_null(d, "bs"));
	TH_EQ_STR(str_of(d, "server"), "Clouvider");
	TH_EQ_STR(str_of(d, "location"), "London, UK (10G)");
	TH_EQ_STR(str_of(d, "family"), "IPv4");
	TH_EQ_STR(str_of(d, "unit"), "Mbits/sec");
	TH_NEAR(num_of(d, "percentile"), 0, 0);
	TH_NEAR(num_of(d, "p90"), 5000, 0);
	cJSON_Delete(root);
	free(s);
	/* the other filter words */
	p->filter.kind = PUB_KIND_UNKNOWN;
	p->filter.vcpus_lo = 2;
	p->filter.vcpus_hi = 4;
	p->filter.year_lo = p->filter.year_hi = 0;
	p->filter.per_machine = true;
	p->filter.include_cached = true;
	p->rand_note[0] = '\0';
	s = render_place_json(p, "r.json", "yabs");
	root = s ? cJSON_Parse(s) : NULL;
	fl = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "placement"), "filter");
	TH_EQ_STR(str_of(fl, "kind"), "any");
	TH_CHECK(range_is(fl, "vcpus", 2, 4));
	TH_CHECK(is_null(fl, "years"));
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fl, "per_machine")));
	TH_CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fl, "include_cached")));
	TH_CHECK(is_null(cJSON_GetObjectItemCaseSensitive(root, "placement"), "rand_note"));
	cJSON_Delete(root);
	free(s);
	free(p);
}
#endif

TH_TEST(render_place_prom_lines)
{
	struct place_result *p = malloc(sizeof(*p));
	char *s;
	const char *lab4k = "{metric=\"fio_total_iops\",bs=\"4096\",server=\"\",location=\"\",family=\"\","
			    "kind=\"vps\",vcpus=\"any\",years=\"2020-2026\",per_machine=\"false\","
			    "include_cached=\"false\"}";
	char want[512];

	if (!p)
		return;
	hand_result(p);
	s = to_mem(prom_fn, p);
	TH_CHECK(s != NULL);
	if (!s) {
		free(p);
		return;
	}
	snprintf(want, sizeof(want), "\nvpsbench_published_percentile%s 38.053097345132741\n", lab4k);
	TH_CHECK(strstr(s, want) != NULL);
	snprintf(want, sizeof(want), "\nvpsbench_published_n%s 339\n", lab4k);
	TH_CHECK(strstr(s, want) != NULL);
	snprintf(want, sizeof(want), "\nvpsbench_published_placed%s 1\n", lab4k);
	TH_CHECK(strstr(s, want) != NULL);
	/* the one not placed: placed 0, no percentile, no n */
	TH_CHECK(strstr(s, "vpsbench_published_placed{metric=\"fio_total_mbps\",bs=\"1048576\"") != NULL);
	TH_CHECK(strstr(s, "vpsbench_published_percentile{metric=\"fio_total_mbps\"") == NULL);
	TH_CHECK(strstr(s, "vpsbench_published_n{metric=\"fio_total_mbps\"") == NULL);
	TH_CHECK(strstr(s, "include_cached=\"false\"} 0\n") != NULL);
	TH_CHECK(strstr(s, "vpsbench_published_percentile{metric=\"iperf_send_mbits\",bs=\"\","
			   "server=\"Clouvider\",location=\"London, UK (10G)\",family=\"IPv4\"") != NULL);
	TH_CHECK(strstr(s, "vpsbench_published_percentile{metric=\"sysbench_1t_eps\",bs=\"\",server=\"\","
			   "location=\"\",family=\"\",kind=\"vps\",vcpus=\"any\",years=\"2020-2026\","
			   "per_machine=\"false\",include_cached=\"false\"} 97.083333333333329\n") != NULL);
	TH_CHECK(strstr(s, "# TYPE vpsbench_published_percentile gauge\n") != NULL);
	TH_CHECK(strstr(s, "# TYPE vpsbench_published_n gauge\n") != NULL);
	free(s);
	/* escaping; the filter in the labels */
	snprintf(p->item[3].location, sizeof(p->item[3].location), "a \"b\" \\c");
	p->filter.kind = PUB_KIND_DEDICATED;
	p->filter.vcpus_lo = p->filter.vcpus_hi = 4;
	p->filter.per_machine = true;
	s = to_mem(prom_fn, p);
	TH_CHECK(s && strstr(s, "location=\"a \\\"b\\\" \\\\c\",family=\"IPv4\",kind=\"dedicated\","
				"vcpus=\"4\",years=\"2020-2026\",per_machine=\"true\"") != NULL);
	free(s);
	/* nothing when placement did not run */
	p->ran = false;
	s = to_mem(prom_fn, p);
	TH_CHECK(s && s[0] == '\0');
	free(s);
	free(p);
}

/* The x="..." after needle in s, or NAN. */
static double attr_after(const char *s, const char *needle, const char *attr)
{
	const char *at = s ? strstr(s, needle) : NULL;
	char key[32];

	if (!at)
		return NAN;
	snprintf(key, sizeof(key), " %s=\"", attr);
	at = strstr(at, key);
	return at ? strtod(at + strlen(key), NULL) : NAN;
}

static void html_fn(FILE *f, const struct place_result *p)
{
	render_place_html(f, p, "vpsbench place r.json");
}

TH_TEST(render_place_html_marker)
{
	struct place_result *p = malloc(sizeof(*p));
	char *s, *at;
	double want, x;

	if (!p)
		return;
	hand_result(p);
	s = to_mem(html_fn, p);
	TH_CHECK(s != NULL);
	if (!s) {
		free(p);
		return;
	}
	TH_CHECK(strstr(s, "<!DOCTYPE html>") == s);
	TH_CHECK(strstr(s, "<h2>Among published results</h2>") != NULL);
	TH_CHECK(strstr(s, "a best-case sample: see data/published/README.md") != NULL);
	/* 4k IOPS: 1200..910000 spans more than 10x: log axis from x 20 to x 400 */
	want = 20 + 380 * (log(52300) - log(1200)) / (log(910000) - log(1200));
	x = attr_after(strstr(s, "aria-label=\"4k total IOPS:"), "class=\"pl-this\"", "x1");
	TH_NEAR(x, want, 0.051);
	want = 20 + 380 * (log(92700) - log(1200)) / (log(910000) - log(1200));
	TH_NEAR(attr_after(strstr(s, "aria-label=\"4k total IOPS:"), "class=\"pl-p50\"", "x1"), want, 0.051);
	want = 20 + 380 * (log(35200) - log(1200)) / (log(910000) - log(1200));
	TH_NEAR(attr_after(strstr(s, "aria-label=\"4k total IOPS:"), "class=\"pl-box\"", "x"), want, 0.051);
	TH_CHECK(strstr(s, "IOPS (log scale)") != NULL);
	TH_CHECK(strstr(s, "at the 38th percentile of 339 published results") != NULL);
	/* events/s: linear, 400..6000 */
	at = strstr(s, "aria-label=\"1 thread:");
	want = 20 + 380 * (5012.34 - 400) / (6000 - 400);
	TH_NEAR(attr_after(at, "class=\"pl-this\"", "x1"), want, 0.051);
	TH_CHECK(at && strstr(at, "events/s (linear)") != NULL);
	/* iperf3: this run (88) under the minimum (95): the axis starts at it */
	at = strstr(s, "aria-label=\"Clouvider London, UK (10G) IPv4 send:");
	TH_NEAR(attr_after(at, "class=\"pl-this\"", "x1"), 20, 0.051);
	want = 20 + 380 * (log(95) - log(88)) / (log(9400) - log(88));
	TH_NEAR(attr_after(at, "class=\"pl-whisker\"", "x1"), want, 0.051);
	/* not placed: why, no strip */
	TH_CHECK(strstr(s, "this VPS 1234 MB/s; not placed: 12 published rows match the filter (minimum 20)") != NULL);
	TH_CHECK(strstr(s, "aria-label=\"1m total MB/s") == NULL);
	TH_CHECK(strstr(s, "<script") == NULL && strstr(s, "http") == NULL);
	free(s);
	free(p);
}

static const struct pub_table pop_t[2] = {
	{ .metric = PLACE_M_FIO_IOPS, .set = PUB_SET_YABS_DISK, .bs = 4096, .unit = "IOPS" },
	{ .metric = PLACE_M_NET_RECV, .set = PUB_SET_YABS_NET, .server = "Clouvider",
	  .location = "London, UK (10G)", .family = "IPv6", .unit = "Mbits/sec" },
};

static void hand_pop(struct place_pop *pop)
{
	memset(pop, 0, sizeof(*pop));
	pop->filter.kind = PUB_KIND_VPS;
	pop->filter.min_n = 20;
	snprintf(pop->filter_text, sizeof(pop->filter_text), "kind vps, any vCPUs, all years");
	pop->ntables = 2;
	pop->table[0] = (struct place_pop_table){ .t = &pop_t[0], .d.n = 339,
						  .d.q = { 10300, 35200, 92700, 181000, 273000 },
						  .d.min = 1200, .d.max = 910000, .d.year_lo = 2020,
						  .d.year_hi = 2026, .d.undated = 4, .d.cached_out = 32 };
	pop->table[1] = (struct place_pop_table){ .t = &pop_t[1], .d.n = 0 };
}

static void pop_text_fn(FILE *f, const struct place_result *unused)
{
	struct place_pop *pop = malloc(sizeof(*pop));

	(void)unused;
	if (!pop)
		return;
	hand_pop(pop);
	render_population_text(f, pop);
	free(pop);
}

TH_TEST(render_population_formats)
{
	char *s = to_mem(pop_text_fn, NULL);
#ifdef HAVE_CJSON
	struct place_pop *pop;
#endif

	TH_CHECK(s && strstr(s, "\n 4k total IOPS            339  10.3k  35.2k  92.7k   181k   273k  1.20k   910k\n"));
	TH_CHECK(s && strstr(s, "\n Clouvider London, UK (10G) IPv6 recv Mbits/sec\n"));
	TH_CHECK(s && strstr(s, "(no rows under the filter)"));
	free(s);
#ifdef HAVE_CJSON
	pop = malloc(sizeof(*pop));
	if (!pop)
		return;
	hand_pop(pop);
	s = render_population_json(pop);
	{
		cJSON *root = s ? cJSON_Parse(s) : NULL, *t, *a, *b;

		TH_EQ_STR(str_of(root, "schema"), "vpsbench.population/1");
		TH_CHECK(cJSON_GetObjectItemCaseSensitive(root, "source") != NULL);
		TH_EQ_STR(str_of(cJSON_GetObjectItemCaseSensitive(root, "filter"), "kind"), "vps");
		t = cJSON_GetObjectItemCaseSensitive(root, "tables");
		TH_EQ_INT(cJSON_GetArraySize(t), 2);
		a = cJSON_GetArrayItem(t, 0);
		TH_EQ_STR(str_of(a, "metric"), "fio_total_iops");
		TH_EQ_INT(num_of(a, "bs"), 4096);
		TH_EQ_INT(num_of(a, "n"), 339);
		TH_NEAR(num_of(a, "p10"), 10300, 0);
		TH_NEAR(num_of(a, "p50"), 92700, 0);
		TH_NEAR(num_of(a, "p90"), 273000, 0);
		TH_NEAR(num_of(a, "min"), 1200, 0);
		TH_NEAR(num_of(a, "max"), 910000, 0);
		TH_CHECK(range_is(a, "years", 2020, 2026));
		TH_EQ_INT(num_of(a, "undated"), 4);
		TH_EQ_INT(num_of(a, "cached_left_out"), 32);
		b = cJSON_GetArrayItem(t, 1);
		TH_CHECK(is_null(b, "bs") && is_null(b, "p10") && is_null(b, "max") && is_null(b, "years"));
		TH_EQ_STR(str_of(b, "server"), "Clouvider");
		TH_EQ_STR(str_of(b, "family"), "IPv6");
		cJSON_Delete(root);
	}
	free(s);
	free(pop);
#endif
}

/* Writes one file with fn's output; 0 or -1. */
static int dump_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		th_fail(__FILE__, __LINE__, "%s: %s", path, strerror(errno));
		return -1;
	}
	fputs(text ? text : "", f);
	if (fclose(f) != 0) {
		th_fail(__FILE__, __LINE__, "%s: write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static char *report_to_mem(int (*fn)(FILE *, const struct bench_report *, const struct bench_plan *),
			   const struct bench_report *rep, const struct bench_plan *plan)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	fn(f, rep, plan);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * For tests/smoke_html_place.sh: with VPSBENCH_PLACE_DUMP=DIR, the hand-made
 * placement's files there (the place page, a report page, the report's JSON
 * and prom, the place and population JSON), for Chromium, the schema and
 * promtool. Skipped without it.
 */
TH_TEST(render_place_dump)
{
	const char *dir = getenv("VPSBENCH_PLACE_DUMP");
	struct bench_report *rep;
	struct bench_plan plan = { .profile = "yabs" };
	struct place_pop *pop;
	char *s;

	if (!dir || !*dir) {
		th_skip("VPSBENCH_PLACE_DUMP not set (tests/smoke_html_place.sh sets it)");
		return;
	}
	rep = calloc(1, sizeof(*rep));
	pop = malloc(sizeof(*pop));
	if (!rep || !pop) {
		free(rep);
		free(pop);
		return;
	}
	rep->start_real.tv_sec = rep->end_real.tv_sec = 1796169600;
	hand_result(&rep->place);
	hand_pop(pop);
	s = to_mem(html_fn, &rep->place);
	dump_file(dir, "place.html", s);
	free(s);
	s = report_to_mem(render_html, rep, &plan);
	dump_file(dir, "report.html", s);
	free(s);
	s = report_to_mem(render_prom, rep, &plan);
	dump_file(dir, "report.prom", s);
	free(s);
#ifdef HAVE_CJSON
	s = render_json(rep, &plan);
	dump_file(dir, "report.json", s);
	free(s);
	s = render_place_json(&rep->place, "r.json", "yabs");
	dump_file(dir, "place.json", s);
	free(s);
	s = render_population_json(pop);
	dump_file(dir, "population.json", s);
	free(s);
#endif
	free(pop);
	free(rep);
}
