/*
 * test_compare.c — `vpsbench compare` on two hand-written reports whose
 * changes are computed here by hand: a change is significant only beyond
 * twice the larger of the two runs' spreads (CoV %), or twice the default
 * noise when neither report carries one; better or worse follows the
 * metric's direction. Each case sits between 1x and 2x the noise, or on
 * the 2x boundary itself, so a factor or a comparison off by one shows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade/compare.h"
#include "th.h"

#ifdef HAVE_CJSON
static int write_file(char *path, const char *body)
{
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fputs(body, f);
	return fclose(f);
}

static const struct compare_row *row_of(const struct compare_result *r, const char *metric)
{
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->row[i].metric, metric))
			return &r->row[i];
	th_fail(__FILE__, __LINE__, "no row for %s", metric);
	return NULL;
}
#endif

TH_TEST(compare_significance_is_twice_the_spread)
{
#ifdef HAVE_CJSON
	/*
	 * seq_write_mbps   100 -> 107,  spread 5 / 4     -> noise 5:   +7% < 10: not significant
	 * rand_iops       1000 -> 1110, spread 5 / 5     -> noise 5:  +11% > 10: significant, better
	 * rand_read_iops  1024 -> 1152, spread 6.25 / -  -> noise 6.25: +12.5% == 12.5: not (strict)
	 * rand_write_iops 1024 -> 1153, spread - / 6.25  -> noise 6.25: +12.6% > 12.5: significant
	 * lat_p99_ms         2 -> 2.25, spread 3 / 2     -> noise 3:  +12.5% > 6: significant, worse
	 * cpu_single_eps  1000 -> 1080, no spread        -> noise 5 (default): +8% < 10: not
	 * cpu_multi_eps   1000 -> 890,  no spread        -> noise 5:  -11%, |11| > 10: significant, worse
	 */
	static const char old_r[] =
		"{\"schema\": \"vpsbench.report/1\", \"run\": {\"start\": \"t0\"}, \"metrics\": {"
		"\"seq_write_mbps\": 100, \"rand_iops\": 1000, \"rand_read_iops\": 1024, "
		"\"rand_write_iops\": 1024, \"lat_p99_ms\": 2, \"cpu_single_eps\": 1000, \"cpu_multi_eps\": 1000},"
		" \"grades\": ["
		"{\"metric\": \"seq_write_mbps\", \"label\": \"good\", \"spread_pct\": 5},"
		"{\"metric\": \"rand_iops\", \"label\": \"good\", \"spread_pct\": 5},"
		"{\"metric\": \"rand_read_iops\", \"label\": \"good\", \"spread_pct\": 6.25},"
		"{\"metric\": \"lat_p99_ms\", \"label\": \"ideal\", \"spread_pct\": 3}]}\n";
	static const char new_r[] =
		"{\"schema\": \"vpsbench.report/1\", \"run\": {\"start\": \"t1\"}, \"metrics\": {"
		"\"seq_write_mbps\": 107, \"rand_iops\": 1110, \"rand_read_iops\": 1152, "
		"\"rand_write_iops\": 1153, \"lat_p99_ms\": 2.25, \"cpu_single_eps\": 1080, \"cpu_multi_eps\": 890},"
		" \"grades\": ["
		"{\"metric\": \"seq_write_mbps\", \"label\": \"good\", \"spread_pct\": 4},"
		"{\"metric\": \"rand_iops\", \"label\": \"ideal\", \"spread_pct\": 5},"
		"{\"metric\": \"rand_write_iops\", \"label\": \"good\", \"spread_pct\": 6.25},"
		"{\"metric\": \"lat_p99_ms\", \"label\": \"ideal\", \"spread_pct\": 2}]}\n";
	char a[] = "/tmp/vpsbench-th-XXXXXX", b[] = "/tmp/vpsbench-th-XXXXXX", err[256] = "";
	struct compare_result *res = calloc(1, sizeof(*res));
	const struct compare_row *r;
	int rc;

	TH_CHECK(res != NULL);
	if (!res)
		return;
	TH_EQ_INT(write_file(a, old_r), 0);
	TH_EQ_INT(write_file(b, new_r), 0);
	rc = compare_reports(a, b, res, err, sizeof(err));
	unlink(a);
	unlink(b);
	TH_EQ_INT(rc, 0);
	TH_EQ_STR(res->old_time, "t0");
	TH_EQ_STR(res->new_time, "t1");
	if ((r = row_of(res, "seq_write_mbps"))) {
		TH_NEAR(r->change_pct, 7.0, 1e-9);
		TH_NEAR(r->noise_pct, 5.0, 0);
		TH_CHECK(!r->significant);
		TH_EQ_INT(r->better, 1);
		TH_CHECK(!r->tier_changed);
	}
	if ((r = row_of(res, "rand_iops"))) {
		TH_NEAR(r->change_pct, 11.0, 1e-9);
		TH_CHECK(r->significant);
		TH_EQ_INT(r->better, 1);
		TH_CHECK(r->tier_changed);
		TH_EQ_STR(r->old_tier, "good");
		TH_EQ_STR(r->new_tier, "ideal");
	}
	if ((r = row_of(res, "rand_read_iops"))) {
		TH_NEAR(r->change_pct, 12.5, 0);
		TH_NEAR(r->noise_pct, 6.25, 0);
		TH_CHECK(!r->significant);
	}
	if ((r = row_of(res, "rand_write_iops"))) {
		TH_NEAR(r->noise_pct, 6.25, 0);
		TH_CHECK(r->significant);
	}
	if ((r = row_of(res, "lat_p99_ms"))) {
		TH_NEAR(r->change_pct, 12.5, 1e-9);
		TH_NEAR(r->noise_pct, 3.0, 0);
		TH_CHECK(r->significant);
		TH_EQ_INT(r->better, -1);      /* lower is better */
	}
	if ((r = row_of(res, "cpu_single_eps"))) {
		TH_NEAR(r->noise_pct, COMPARE_DEFAULT_NOISE_PCT, 0);
		TH_CHECK(!r->significant);
	}
	if ((r = row_of(res, "cpu_multi_eps"))) {
		TH_NEAR(r->change_pct, -11.0, 1e-9);
		TH_CHECK(r->significant);
		TH_EQ_INT(r->better, -1);
	}
	free(res);
#else
	th_skip("built without cJSON");
#endif
}
