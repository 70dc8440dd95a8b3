/*
 * test_prom_storage.c — the storage part in every format from a result
 * filled by hand (issue #41): prom has each size's median and range, qd1
 * p50/p99 in seconds, the knee with what showed it, the write tests'
 * burst bytes, drop and change second, the engine and its real depth, the
 * sizes never reached, and a capped part reads module_ok 0 and
 * run_complete 0 (promtool-clean); the JSON section's nulls carry their
 * reason; the text header says the engine, its depth and the budget used;
 * the plan's storage time counts --storage-write-time and is in the ETA;
 * a psync fallback keeps the engines' refusals.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/rand_engine.h"
#include "render/progress.h"
#include "render/render.h"
#include "th.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

static struct bench_plan plan = { .profile = "storage" };

/* 3 measured sizes with a knee after the 2nd (shown by latency), a 4th skipped for room. */
static struct bench_report *storage_report(bool capped)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct cache_result *r;

	if (!rep)
		return NULL;
	rep->outcome[MOD_cache].status = BENCH_OK;
	rep->outcome[MOD_seq].status = BENCH_OK;
	r = &rep->cache;
	snprintf(r->dir, sizeof(r->dir), "/srv");
	r->max_time_ns = 60000000000ULL;
	r->planned_ns = 60000000000ULL;
	r->elapsed_s = 41.5;
	r->time_capped = capped;
	snprintf(r->engine, sizeof(r->engine), "psync");
	r->depth = 1;
	snprintf(r->engine_why, sizeof(r->engine_why), "io_uring: Operation not permitted; libaio: built without libaio");
	r->repeats = 3;
	r->npoints = 4;
	for (unsigned i = 0; i < 3; i++) {
		struct cache_point *p = &r->points[i];

		p->size = (256ULL << 20) << i;
		p->status = BENCH_OK;
		p->nrep = 3;
		p->iops32 = 60000 - 1000.0 * i;
		p->iops32_lo = p->iops32 - 500;
		p->iops32_hi = p->iops32 + 700;
		p->p50_1_ns = i < 2 ? 90000 : 400000;
		p->p50_1_lo_ns = p->p50_1_ns - 2000;
		p->p50_1_hi_ns = p->p50_1_ns + 3000;
		p->p99_1_ns = 2 * p->p50_1_ns;
		p->cpu_share = i == 2 ? NAN : 0.25;
	}
	r->points[3].size = 2048ULL << 20;
	r->points[3].status = BENCH_SKIP;
	snprintf(r->points[3].reason, sizeof(r->points[3].reason), "no room: 1500 MiB free after the margin");
	r->knee = 1;
	r->knee_by = CACHE_KNEE_LAT;
	r->measured_up_to = 1024ULL << 20;
	snprintf(r->rnd.kind, sizeof(r->rnd.kind), "rand-4k");
	r->rnd.status = BENCH_OK;
	r->rnd.n = 10;
	r->rnd.secs = 10;
	r->rnd.bytes = 1000000000ULL;
	r->rnd.region = 1024ULL << 20;
	r->rnd.found = true;
	r->rnd.change_s = 4;
	r->rnd.burst_bps = 150e6;
	r->rnd.sustained_bps = 50e6;
	r->rnd.burst_bytes = 600e6;
	snprintf(r->rnd.io.engine, sizeof(r->rnd.io.engine), "psync");
	r->rnd.io.depth = 1;
	snprintf(r->seq.kind, sizeof(r->seq.kind), "seq-1m");
	r->seq.status = BENCH_SKIP;
	snprintf(r->seq.reason, sizeof(r->seq.reason), "time cap");
	return rep;
}

static char *prom_of(const struct bench_report *rep)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	render_prom(f, rep, &plan);
	fclose(f);
	return buf;
}

/* The value of the sample line that starts with series (name{labels}), NAN when absent. */
static double value_of(const char *page, const char *series)
{
	char key[400];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", series);
	p = strstr(page, key);
	return p ? strtod(p + strlen(key), NULL) : NAN;
}

TH_TEST(prom_storage_figures)
{
	struct bench_report *rep = storage_report(false);
	char *s;

	plan.storage.nsizes = 5;
	for (unsigned i = 0; i < 5; i++)
		plan.storage.sizes[i] = (256ULL << 20) << i;
	TH_CHECK(rep && (s = prom_of(rep)) != NULL);
	if (!rep || !s)
		return;
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_iops{dir=\"/srv\",size=\"536870912\"}"), 59000, 1e-9);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_iops_min{dir=\"/srv\",size=\"536870912\"}"), 58500, 1e-9);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_iops_max{dir=\"/srv\",size=\"536870912\"}"), 59700, 1e-9);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_qd1_p50_seconds{dir=\"/srv\",size=\"1073741824\"}"), 400e-6, 1e-12);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_qd1_p99_seconds{dir=\"/srv\",size=\"1073741824\"}"), 800e-6, 1e-12);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_qd1_p50_min_seconds{dir=\"/srv\",size=\"268435456\"}"), 88e-6, 1e-12);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_qd1_p50_max_seconds{dir=\"/srv\",size=\"268435456\"}"), 93e-6, 1e-12);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_repeats{dir=\"/srv\",size=\"268435456\"}"), 3, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_cpu_share_ratio{dir=\"/srv\",size=\"268435456\"}"), 0.25, 0);
	/* an unknown CPU share has no sample */
	TH_CHECK(strstr(s, "vpsbench_storage_cliff_cpu_share_ratio{dir=\"/srv\",size=\"1073741824\"}") == NULL);
	/* the knee: the 2nd size, shown by latency (the IOPS stayed flat) */
	TH_NEAR(value_of(s, "vpsbench_storage_knee_found{dir=\"/srv\"}"), 1, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_knee_bytes{dir=\"/srv\",by=\"latency\"}"), 512ULL << 20, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_measured_up_to_bytes{dir=\"/srv\"}"), 1024ULL << 20, 0);
	/* the skipped size with its reason, and the plan's size past it never reached */
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_skipped{dir=\"/srv\",size=\"2147483648\",status=\"skipped\","
			 "reason=\"no room: 1500 MiB free after the margin\"}"), 1, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_cliff_skipped{dir=\"/srv\",size=\"4294967296\",status=\"skipped\","
			 "reason=\"not reached: a smaller size did not fit\"}"), 1, 0);
	/* the write test: rates, burst bytes, drop, change second, region */
	TH_NEAR(value_of(s, "vpsbench_storage_write_bytes_per_second{dir=\"/srv\",test=\"rand-4k\",phase=\"sustained\"}"), 50e6, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_write_burst_bytes{dir=\"/srv\",test=\"rand-4k\"}"), 600e6, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_write_drop{dir=\"/srv\",test=\"rand-4k\"}"), 1, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_write_change_seconds{dir=\"/srv\",test=\"rand-4k\"}"), 4, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_write_region_bytes{dir=\"/srv\",test=\"rand-4k\"}"), 1024ULL << 20, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_write_skipped{dir=\"/srv\",test=\"seq-1m\",status=\"skipped\",reason=\"time cap\"}"), 1, 0);
	/* the engine that ran and its real depth: psync at 1, not 32 */
	TH_NEAR(value_of(s, "vpsbench_storage_engine_info{dir=\"/srv\",part=\"cliff\",engine=\"psync\",depth=\"1\"}"), 1, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_budget_seconds{dir=\"/srv\"}"), 60, 0);
	TH_NEAR(value_of(s, "vpsbench_storage_elapsed_seconds{dir=\"/srv\"}"), 41.5, 0);
	free(s);
	/* one size measured: whether there is a knee is unknown, not 0 */
	rep->cache.points[1].status = rep->cache.points[2].status = BENCH_INCOMPLETE;
	rep->cache.knee = -1;
	s = prom_of(rep);
	TH_CHECK(s && strstr(s, "vpsbench_storage_knee_found{") == NULL);
	TH_CHECK(s && strstr(s, "vpsbench_storage_cliff_iops{dir=\"/srv\",size=\"268435456\"}") != NULL);
	plan.storage.nsizes = 0;
	free(s);
	free(rep);
}

/* A capped part: not "ok" in prom although the exit code says a planned cap is no failure. */
TH_TEST(prom_storage_capped_is_incomplete)
{
	for (int capped = 0; capped < 2; capped++) {
		struct bench_report *rep = storage_report(capped);
		char *s = rep ? prom_of(rep) : NULL;

		TH_CHECK(s != NULL);
		if (!s) {
			free(rep);
			return;
		}
		TH_NEAR(value_of(s, "vpsbench_run_complete"), capped ? 0 : 1, 0);
		TH_NEAR(value_of(s, capped ? "vpsbench_module_ok{module=\"cache\",status=\"incomplete\"}"
					   : "vpsbench_module_ok{module=\"cache\",status=\"ok\"}"), capped ? 0 : 1, 0);
		TH_NEAR(value_of(s, "vpsbench_storage_incomplete{dir=\"/srv\"}"), capped, 0);
		/* other modules keep their meaning */
		TH_NEAR(value_of(s, "vpsbench_module_ok{module=\"seq\",status=\"ok\"}"), 1, 0);
		free(s);
		free(rep);
	}
}

TH_TEST(prom_storage_promtool_clean)
{
	struct bench_report *rep = storage_report(true);
	char *s = rep ? prom_of(rep) : NULL, path[] = "/tmp/vpsbench-test-prom.XXXXXX", cmd[160];
	int fd, rc;
	FILE *f;

	if (system("command -v promtool > /dev/null 2>&1") != 0) {
		free(s);
		free(rep);
		th_skip("no promtool");
		return;
	}
	TH_CHECK(s != NULL);
	fd = mkstemp(path);
	TH_CHECK(fd >= 0);
	if (!s || fd < 0 || !(f = fdopen(fd, "w"))) {
		free(s);
		free(rep);
		return;
	}
	fputs(s, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
	rc = system(cmd); /* lint problems exit 3: they fail too */
	TH_EQ_INT(rc, 0);
	unlink(path);
	free(s);
	free(rep);
}

TH_TEST(text_storage_header_engine)
{
	struct bench_report *rep = storage_report(false);
	struct render_style st = { false };
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	TH_CHECK(rep && f);
	if (!rep || !f) {
		free(rep);
		return;
	}
	text_cache(f, rep, &st);
	fclose(f);
	TH_CHECK(strstr(buf, "used 41.5 s of the 60 s cap") != NULL);
	TH_CHECK(strstr(buf, "engine psync: depth 1, not qd32 (io_uring: Operation not permitted") != NULL);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	snprintf(rep->cache.engine, sizeof(rep->cache.engine), "io_uring");
	rep->cache.depth = 32;
	text_cache(f, rep, &st);
	fclose(f);
	TH_CHECK(strstr(buf, "\n  engine io_uring, qd32\n") != NULL);
	free(buf);
	free(rep);
}

#ifdef HAVE_CJSON
TH_TEST(json_storage_section_nulls)
{
	struct bench_report *rep = storage_report(false);
	cJSON *o, *nr;

	if (!rep)
		return;
	o = json_cache(rep);
	TH_EQ_STR(cJSON_GetStringValue(cJSON_GetObjectItem(o, "engine")), "psync");
	TH_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "iodepth")), 1, 0);
	TH_EQ_STR(cJSON_GetStringValue(cJSON_GetObjectItem(o, "knee_by")), "latency");
	TH_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "knee_size")), 512ULL << 20, 0);
	TH_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "budget_s")), 60, 0);
	TH_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(o, "elapsed_s")), 41.5, 0);
	TH_CHECK(cJSON_GetObjectItem(o, "null_reasons") == NULL);
	cJSON_Delete(o);
	/* no knee over 3 measured sizes: none beyond the spread; over 1: no curve */
	rep->cache.knee = -1;
	o = json_cache(rep);
	TH_CHECK(cJSON_IsNull(cJSON_GetObjectItem(o, "knee_size")));
	nr = cJSON_GetObjectItem(o, "null_reasons");
	TH_EQ_STR(cJSON_GetStringValue(cJSON_GetObjectItem(nr, "knee_size")), "no knee: no split beyond the repeats' spread in qd32 IOPS or qd1 p50");
	cJSON_Delete(o);
	rep->cache.points[1].nrep = rep->cache.points[2].nrep = 0;
	o = json_cache(rep);
	nr = cJSON_GetObjectItem(o, "null_reasons");
	TH_EQ_STR(cJSON_GetStringValue(cJSON_GetObjectItem(nr, "knee_size")),
		  "one cliff size measured: no curve to split");
	cJSON_Delete(o);
	free(rep);
}
#endif

/* The storage part's time: the cap, or the cliff's share + 2 x --storage-write-time (+ idle); in the ETA. */
TH_TEST(plan_storage_time_in_eta)
{
	struct bench_ctx ctx;
	struct bench_opts o;
	struct bench_plan pl;
	uint64_t b, ns;
	char line[480];

	memset(&ctx, 0, sizeof(ctx));
	memset(&o, 0, sizeof(o));
	memset(&pl, 0, sizeof(pl));
	o.profile = "storage";
	o.only_mask = 1u << MOD_cache;
	pl.storage.max_ns = 300000000000ULL;
	ctx.opts = &o;
	ctx.plan = &pl;
	TH_EQ_INT(plan_storage_ns(&pl.storage), 300000000000ULL);
	progress_plan_work(&ctx, MOD_cache, &b, &ns);
	TH_EQ_INT(ns, 300000000000ULL);
	TH_EQ_INT(b, 0);
	pl.storage.write_ns = 600000000000ULL;       /* --storage-write-time 10m */
	pl.storage.recover_idle_ns = 60000000000ULL; /* --storage-recover-idle 1m */
	TH_EQ_INT(plan_storage_cliff_ns(&pl.storage), 180000000000ULL);
	/* two write tests of 10 min, each may idle 1 min then rewrite 10 s */
	TH_EQ_INT(plan_storage_ns(&pl.storage), 180000000000ULL + 2 * 600000000000ULL + 2 * 70000000000ULL);
	progress_plan_work(&ctx, MOD_cache, &b, &ns);
	TH_EQ_INT(ns, plan_storage_ns(&pl.storage));
	progress_plan_line(&ctx, line, sizeof(line));
	TH_EQ_STR(line, "plan: storage 25 min 20 s (at most): about 25 min 20 s");
	/* not in a run without --profile storage: nothing planned, no line */
	o.profile = NULL;
	progress_plan_work(&ctx, MOD_cache, &b, &ns);
	TH_EQ_INT(ns, 0);
	progress_plan_line(&ctx, line, sizeof(line));
	TH_EQ_STR(line, "");
}

/* io_uring and libaio refuse (the test seam): the cliff falls back to psync. */
static int refuse_async(const char *engine, unsigned depth)
{
	(void)depth;
	return strcmp(engine, "psync") ? -EPERM : 0;
}

/*
 * The storage part on psync because io_uring and libaio refused: its
 * depth (1) and the refusals are kept for the report; a 1 s cap leaves no
 * room for the random write test, which says so (not a bare "time cap").
 */
TH_TEST(cache_engine_fallback_says_why)
{
	char dir[] = "/var/tmp/vpsbench-test.XXXXXX";
	struct bench_opts o;
	struct bench_plan pl;
	struct bench_ctx ctx;
	struct mod_outcome out;
	struct cache_result *r = calloc(1, sizeof(*r));

	if (!r || !mkdtemp(dir)) {
		free(r);
		th_skip("no temp dir");
		return;
	}
	memset(&o, 0, sizeof(o));
	memset(&pl, 0, sizeof(pl));
	memset(&ctx, 0, sizeof(ctx));
	memset(&out, 0, sizeof(out));
	o.dirs[0] = dir;
	o.ndirs = 1;
	pl.engine = ENGINE_AUTO;
	pl.storage.on = true;
	pl.storage.max_ns = 1000000000ULL;
	pl.storage.point_ns = 50000000ULL;
	pl.storage.repeats = 1;
	pl.storage.sizes[0] = 4ULL << 20;
	pl.storage.nsizes = 1;
	ctx.opts = &o;
	ctx.plan = &pl;
	ctx.root = "";
	rand_engine_init_hook = refuse_async;
	bench_mod_cache.run(&ctx, r, &out);
	rand_engine_init_hook = NULL;
	rmdir(dir);
	if (r->npoints == 0 || r->points[0].status != BENCH_OK) {
		th_skip(r->npoints ? r->points[0].reason : out.reason); /* O_DIRECT refused here: tmpfs */
		free(r);
		return;
	}
	TH_EQ_STR(r->engine, "psync");
	TH_EQ_INT(r->depth, 1);
	TH_CHECK(strstr(r->engine_why, "io_uring") && strstr(r->engine_why, strerror(EPERM)));
	TH_EQ_INT(r->planned_ns, 1000000000ULL);
	TH_EQ_INT(r->rnd.status, BENCH_SKIP);
	TH_CHECK(strstr(r->rnd.reason, "less than 2 x 2 s") != NULL);
	TH_CHECK(r->time_capped);
	free(r);
}
