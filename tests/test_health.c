/*
 * test_health.c — the Health block, the fit-for rules and the verdict.
 * Three fixture machines (a healthy small VPS, a contended one, an
 * oversold one) are built as finished reports, graded and assessed as
 * bench.c does, and rendered in every format; the health lines and the
 * verdict of each format are checked against tests/golden/health-*.
 * (VPSBENCH_UPDATE_GOLDEN=1 rewrites the goldens; review the diff.)
 * Then each check, the weak-resource pick and the rules file one by one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lat_hist.h"
#include "grade/grade.h"
#include "grade/health.h"
#include "modules/sysinfo/sysinfo.h"
#include "render/render.h"
#include "report/report.h"
#include "th.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

enum machine { HEALTHY, CONTENDED, OVERSOLD };

static int pct_i(double p)
{
	for (int i = 0; i < LAT_NPCT; i++)
		if (fabs(lat_default_percentiles[i] - p) < 1e-9)
			return i;
	return 0;
}

static void share(struct pass_cpu *c, double s, double steal)
{
	pass_cpu_set_share(c, s, 1, 1.0);
	c->steal_pct = mdbl_of(steal);
}

static void rand_pass(struct rand_pass_result *p, const char *name, enum rand_rw rw, unsigned qd,
		      double riops, double wiops, const uint32_t *tl, unsigned ntl, double p99_ms)
{
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->dir = "/srv";
	p->rw = rw;
	p->bs = 4096;
	p->iodepth = p->iodepth_used = qd;
	p->jobs = 2;
	p->direct = true;
	p->status = BENCH_OK;
	p->runtime_ms = ntl * 1000;
	p->storage.cls = STORAGE_DEVICE;
	snprintf(p->engine, sizeof(p->engine), "io_uring");
	for (int d = 0; d < 2; d++) {
		struct rand_dir_result *r = &p->dir_res[d];
		double iops = d ? wiops : riops;

		if (iops <= 0)
			continue;
		r->present = true;
		r->iops = iops;
		r->total_ios = (uint64_t)(iops * ntl);
		r->ntimeline = ntl;
		for (unsigned s = 0; s < ntl; s++)
			r->timeline[s] = (uint32_t)(tl[s] * (iops / (riops + wiops)));
		r->clat_pct[pct_i(50)] = (uint64_t)(p99_ms * 1e6 / 4);
		r->clat_pct[pct_i(99)] = (uint64_t)(p99_ms * 1e6);
	}
}

/* The three machines: what the modules would have filled. */
static struct bench_report *machine(enum machine m)
{
	static const uint32_t steady[8] = { 32000, 32100, 31900, 32000, 32050, 31950, 32000, 32000 };
	static const uint32_t swings[8] = { 30000, 12000, 41000, 15000, 38000, 11000, 36000, 14000 };
	static const uint32_t drops[8] = { 30000, 30000, 29000, 20000, 15000, 14000, 13000, 12000 };
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct cpu_result *c;
	struct mem_result *mem;
	struct seq_dir_result *sd;
	struct fsync_dir_result *fd;

	if (!rep)
		return NULL;
	rep->start_real.tv_sec = 1796169600; /* 2026-12-02 00:00 UTC */
	rep->end_real.tv_sec = 1796169660;
	rep->elapsed_s = 60;
	for (int i = 0; i < MOD_COUNT; i++)
		rep->outcome[i].status = i == MOD_net ? BENCH_NOT_RUN : BENCH_OK;

	/* sysinfo: 2 vCPUs on 2 cores; the oversell signs readable */
	rep->sys.cpu.online = rep->sys.cpu.usable = mu64_of(2);
	rep->sys.cpu.physical_cores = mu64_of(2);
	rep->sys.mem.signs.balloon = MB_TRUE;
	rep->sys.mem.signs.ksm_run = m == OVERSOLD ? MB_TRUE : MB_FALSE;
	rep->sys.mem.signs.ksm_pages_sharing = mu64_of(m == OVERSOLD ? 51200 : 0);
	rep->sys.mem.signs.swap_total = mu64_of(1ull << 30);
	rep->sys.mem.signs.swap_used = mu64_of(m == OVERSOLD ? 300ull << 20 : 0);
	rep->sys.mem.signs.psi_some_avg10 = mdbl_of(m == OVERSOLD ? 4.5 : 0);
	rep->sys.mem.signs.psi_full_avg10 = mdbl_of(0);

	/* cpu: 1 and 2 threads */
	c = &rep->cpu;
	c->max_prime = 10000;
	c->time_s = 5;
	c->threads = 2;
	c->threads_source = "affinity";
	c->affinity_cpus = 2;
	c->single.threads = 1;
	c->multi.threads = 2;
	c->single.complete = c->multi.complete = true;
	c->single.seconds = c->multi.seconds = 5;
	c->single.eps = mdbl_of(m == CONTENDED ? 620 : 1100);
	c->multi.eps = mdbl_of(m == CONTENDED ? 1798 : m == OVERSOLD ? 1500 : 2150);
	c->scaling = mdbl_of(c->multi.eps.v / c->single.eps.v);
	share(&c->single.cpu, m == CONTENDED ? 0.52 : 0.99, 0);
	share(&c->multi.cpu, m == CONTENDED ? 0.93 : 0.98, 0);
	c->steal_pct = mdbl_of(m == CONTENDED ? 12.5 : 0.3);
	c->cgroup_version = 2;
	c->nr_periods = mu64_of(500);
	c->throttled_periods = mu64_of(m == OVERSOLD ? 120 : 0);
	c->throttled_s = mdbl_of(m == OVERSOLD ? 2.4 : 0);
	snprintf(c->crypto_reason, sizeof(c->crypto_reason), "built without libcrypto");

	/* mem: 1-thread and 2-thread Triad, the 4 KiB-page chase */
	mem = &rep->mem;
	mem->llc_source = "sysfs";
	mem->threads = 2;
	mem->threads_source = "affinity";
	for (int k = 0; k < 2; k++) {
		struct mem_stream *s = &mem->st[k];

		s->present = true;
		s->threads = k ? 2 : 1;
		s->reps = 10;
		s->isa = "avx2";
		s->validated = true;
		for (int j = 0; j < MEM_NKERNELS; j++)
			s->mbps[j] = mdbl_of(k ? (m == OVERSOLD ? 2400 : 22000) :
					     (m == OVERSOLD ? 6000 : 14000));
		share(&s->cpu, 0.99, 0.2);
	}
	mem->lat[0].present = true;
	mem->lat[0].level_ns[MEM_DRAM] = mdbl_of(m == OVERSOLD ? 260 : 190); /* page walks */
	share(&mem->lat[0].cpu, 0.99, 0.2);
	/* the graded DRAM figure is the huge-page one */
	mem->lat[1].present = true;
	mem->lat[1].huge = true;
	mem->lat[1].huge_used = MB_TRUE;
	mem->lat[1].level_ns[MEM_DRAM] = mdbl_of(m == OVERSOLD ? 160 : 105);
	/* its graded point: the first plateau past the cache, one size, one round */
	mem->lat[1].n = 1;
	mem->lat[1].size[0] = 64ULL << 20;
	mem->lat[1].ns[0] = mem->lat[1].level_ns[MEM_DRAM].v;
	mem->lat[1].graded = 0;
	mem->lat[1].rounds = 1;
	mem->lat[1].round_ns[0] = mem->lat[1].ns[0];
	mem_graded_fill(&mem->lat[1]);
	share(&mem->lat[1].cpu, 0.99, 0.2);
	mem->signs.host = rep->sys.mem.signs;
	mem->signs.swapin_pages = mu64_of(m == OVERSOLD ? 4096 : 0);

	/* seq, rand and fsync on one device directory */
	rep->seq.ndirs = 1;
	sd = &rep->seq.dirs[0];
	snprintf(sd->dir, sizeof(sd->dir), "/srv");
	sd->storage.cls = STORAGE_DEVICE;
	sd->status = SEQ_DONE;
	sd->total_mbps = mdbl_of(480);
	sd->cov = mdbl_of(0.03);
	sd->read.mbps = mdbl_of(900);
	sd->read.direct = MB_TRUE;
	rep->rand.npass = 2;
	rand_pass(&rep->rand.pass[0], "randrw-4k-qd64", RW_RANDRW, 64, 24000, 8000,
		  m == CONTENDED ? swings : m == OVERSOLD ? drops : steady, 8, 3.0);
	rand_pass(&rep->rand.pass[1], "randread-4k-qd1", RW_RANDREAD, 1, 2500, 0, steady, 8,
		  m == CONTENDED ? 12.0 : 0.8);
	rep->fsync.ndirs = 1;
	fd = &rep->fsync.dirs[0];
	snprintf(fd->dir, sizeof(fd->dir), "/srv");
	fd->storage.cls = STORAGE_DEVICE;
	fd->status = BENCH_OK;
	fd->syncs = fd->sync.n = m == OVERSOLD ? 400 : 2000;
	fd->p99_low_confidence = m == OVERSOLD;
	fd->sync.pct[pct_i(50)] = 900000;
	fd->sync.pct[pct_i(99)] = m == CONTENDED ? 14200000 : 4100000;
	return rep;
}

/* grade, require, health and verdict as bench.c runs them */
static void assess(struct bench_report *rep, const struct grade_table *t)
{
	static struct metric_set ms;

	grade_collect(rep, NULL, &ms);
	/*
	 * The fixtures' figures taken as exact where the collectors give no
	 * uncertainty of their own: the borderline rule is test_grade.c's
	 */
	for (unsigned i = 0; i < ms.n; i++)
		if (ms.m[i].measured && isnan(ms.m[i].uncert))
			ms.m[i].uncert = 0;
	grade_apply(t, &ms, &rep->grade);
	require_eval(NULL, 0, &ms, &rep->grade);
	health_assess(rep, t, &rep->health);
	verdict_build(&rep->grade, &rep->health);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &n, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void golden(const char *name, const char *got)
{
	char path[512];
	char *want;

	snprintf(path, sizeof(path), "%s/tests/golden/%s", th_srcdir(), name);
	if (getenv("VPSBENCH_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		TH_CHECK(f && fputs(got, f) >= 0 && fclose(f) == 0);
		return;
	}
	want = slurp(path);
	if (!want)
		th_fail(__FILE__, __LINE__, "%s: cannot read the golden file", path);
	else if (strcmp(want, got))
		th_fail(__FILE__, __LINE__, "%s differs; got:\n%s", path, got);
	free(want);
}

/* text: from the verdict to the end of the Health block, and the Fit for block */
static char *text_part(const struct bench_report *rep, struct bench_plan *plan)
{
	struct render_style st = { false };
	char *buf = NULL, *out, *a, *b, *fit;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	render_text(f, rep, plan, &st);
	fclose(f);
	out = calloc(1, n + 1);
	a = strstr(buf, " Verdict:");
	b = a ? strstr(strstr(a, "\n Health\n") ? strstr(a, "\n Health\n") + 1 : a, "\n\n") : NULL;
	fit = strstr(buf, "\n Fit for\n");
	if (out && a && b) {
		memcpy(out, a, (size_t)(b - a) + 1);
		if (fit) {
			char *e = strstr(fit + 1, "\n\n");

			strncat(out, fit + 1, e ? (size_t)(e - fit) : strlen(fit + 1));
		}
	}
	free(buf);
	return out;
}

static char *prom_part(const struct bench_report *rep, struct bench_plan *plan)
{
	char *buf = NULL, *out, *line, *save = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	render_prom(f, rep, plan);
	fclose(f);
	out = calloc(1, n + 1);
	for (line = strtok_r(buf, "\n", &save); out && line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "vpsbench_health") || strstr(line, "vpsbench_fit") ||
		    strstr(line, "vpsbench_grade_rank")) {
			strcat(out, line);
			strcat(out, "\n");
		}
	free(buf);
	return out;
}

static char *html_part(const struct bench_report *rep, struct bench_plan *plan)
{
	char *buf = NULL, *out = NULL, *a, *b;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	render_html(f, rep, plan);
	fclose(f);
	a = strstr(buf, "<section id=\"health\">");
	b = a ? strstr(a, "</section>") : NULL;
	if (a && b && (out = calloc(1, (size_t)(b - a) + 16)))
		memcpy(out, a, (size_t)(b - a) + strlen("</section>"));
	if (out)
		strcat(out, "\n");
	free(buf);
	return out;
}

#ifdef HAVE_CJSON
static char *json_part(const struct bench_report *rep, struct bench_plan *plan)
{
	char *s = render_json(rep, plan), *out = NULL;
	cJSON *root = s ? cJSON_Parse(s) : NULL, *keep = cJSON_CreateObject();

	if (root && keep) {
		cJSON_AddItemToObject(keep, "verdict",
				      cJSON_Duplicate(cJSON_GetObjectItem(root, "verdict"), true));
		cJSON_AddItemToObject(keep, "health",
				      cJSON_Duplicate(cJSON_GetObjectItem(root, "health"), true));
		out = cJSON_Print(keep);
	}
	cJSON_Delete(root);
	cJSON_Delete(keep);
	free(s);
	return out;
}
#endif

static void machine_goldens(enum machine m, const char *name)
{
	struct bench_report *rep = machine(m);
	static struct bench_plan plan;
	char file[64], *t;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	snprintf(plan.profile, sizeof(plan.profile), "default");
	assess(rep, grade_builtin_table());
	snprintf(file, sizeof(file), "health-%s.txt", name);
	t = text_part(rep, &plan);
	TH_CHECK(t && *t);
	if (t)
		golden(file, t);
	free(t);
	snprintf(file, sizeof(file), "health-%s.prom", name);
	t = prom_part(rep, &plan);
	TH_CHECK(t && *t);
	if (t)
		golden(file, t);
	free(t);
	snprintf(file, sizeof(file), "health-%s.html", name);
	t = html_part(rep, &plan);
	TH_CHECK(t && *t);
	if (t)
		golden(file, t);
	free(t);
#ifdef HAVE_CJSON
	snprintf(file, sizeof(file), "health-%s.json", name);
	t = json_part(rep, &plan);
	TH_CHECK(t && *t);
	if (t)
		golden(file, t);
	free(t);
#endif
	free(rep);
}

static const struct health_check *find_check(const struct health_result *h, const char *name)
{
	for (unsigned i = 0; i < h->n; i++)
		if (!strcmp(h->c[i].check, name))
			return &h->c[i];
	return NULL;
}

static enum health_state state_of(const struct bench_report *rep, const char *name)
{
	const struct health_check *c = find_check(&rep->health, name);

	return c ? c->state : (enum health_state)-1;
}

/* Healthy small VPS: every check ran, no problem; nothing weak for 2 vCPUs. */
TH_TEST(health_fixture_healthy_small_vps)
{
	struct bench_report *rep = machine(HEALTHY);

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	assess(rep, grade_builtin_table());
	TH_EQ_INT(rep->health.nproblems, 0);
	TH_EQ_INT(rep->health.nnot_run, 0);
	TH_EQ_INT(rep->health.n, 10);
	TH_EQ_STR(health_status(&rep->health), "ok");
	TH_EQ_INT(rep->grade.nweak, 0);
	/* 22000 MB/s on 2 threads is 11000 per vCPU, 0.786 of one thread's 14000 */
	TH_NEAR(metric_get(&rep->grade.metrics, "mem_triad_per_vcpu_mbps")->value, 11000, 1e-9);
	TH_NEAR(metric_get(&rep->grade.metrics, "mem_scaling_eff")->value, 11000.0 / 14000, 1e-12);
	/* 2150 / 1100 over min(2 threads, 2 cores) */
	TH_NEAR(metric_get(&rep->grade.metrics, "cpu_scaling_per_core")->value, 2150.0 / 1100 / 2, 1e-12);
	TH_EQ_INT(rep->grade.nfit, 2);
	TH_EQ_INT(rep->grade.fit[0].answer, FIT_YES);
	TH_NEAR(rep->grade.fit[0].value, 4.1, 1e-12);
	/* the database rule reads the qd1 pass's p99: 0.8 ms < 10 */
	TH_EQ_STR(rep->grade.fit[1].rule.rule, "database");
	TH_EQ_INT(rep->grade.fit[1].answer, FIT_YES);
	TH_NEAR(rep->grade.fit[1].value, 0.8, 1e-12);
	TH_EQ_STR(rep->grade.verdict, "health: no problem found (10 checks) — etcd: yes — database: yes — "
		  "weak for its size: nothing");
	free(rep);
	machine_goldens(HEALTHY, "healthy");
}

/* Contended: the disturbed 1-thread pass is shown, not graded, and scaling above 2 is named. */
TH_TEST(health_fixture_contended)
{
	struct bench_report *rep = machine(CONTENDED);
	const struct metric *s, *sc;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "steal"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "cpu_share"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "cpu_scaling"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "iops_cov"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "iops_drop"), HEALTH_PASSED);
	TH_EQ_INT(rep->health.nproblems, 4);
	s = metric_get(&rep->grade.metrics, "cpu_single_eps");
	sc = metric_get(&rep->grade.metrics, "cpu_scaling");
	TH_CHECK(s && s->measured && s->disturbed && strstr(s->why_not, "52% of its CPU time"));
	TH_CHECK(sc && sc->measured && sc->disturbed && strstr(sc->why_not, "did not get its CPU"));
	TH_CHECK(grade_get(&rep->grade, "cpu_single_eps") == NULL);
	TH_CHECK(grade_get(&rep->grade, "cpu_scaling_per_core") == NULL);
	/* the verdict is not built on the disturbed figures: the weak one is the disk's p99 */
	TH_CHECK(rep->grade.nweak >= 1);
	if (rep->grade.nweak >= 1)
		TH_EQ_STR(rep->grade.g[rep->grade.weak[0]].metric, "lat_p99_ms");
	TH_EQ_INT(rep->grade.fit[0].answer, FIT_NO);
	TH_EQ_INT(rep->grade.fit[1].answer, FIT_NO); /* qd1 p99 12 ms, not below 10 */
	TH_NEAR(rep->grade.fit[1].value, 12.0, 1e-12);
	TH_CHECK(strstr(rep->grade.verdict, "database: no") != NULL);
	TH_CHECK(strstr(rep->grade.verdict, "cpu_single_eps") == NULL);
	free(rep);
	machine_goldens(CONTENDED, "contended");
}

/*
 * Oversold: this guest's memory short (swap-in, pressure), starved
 * bandwidth, throttling, an IOPS drop, a low-confidence etcd yes.
 */
TH_TEST(health_fixture_oversold)
{
	struct bench_report *rep = machine(OVERSOLD);

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "guest_memory"), HEALTH_PROBLEM);
	TH_CHECK(find_check(&rep->health, "oversell") == NULL);
	TH_EQ_INT(state_of(rep, "mem_bandwidth"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "cpu_throttle"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "iops_drop"), HEALTH_PROBLEM);
	TH_EQ_INT(state_of(rep, "iops_cov"), HEALTH_PROBLEM); /* a falling timeline varies too */
	TH_EQ_INT(state_of(rep, "steal"), HEALTH_PASSED);
	TH_EQ_INT(rep->health.nproblems, 5);
	TH_EQ_INT(rep->grade.fit[0].answer, FIT_YES);
	TH_CHECK(rep->grade.fit[0].low_confidence);
	TH_CHECK(strstr(rep->grade.verdict, "etcd: yes (low confidence)") != NULL);
	/*
	 * The 1-thread Triad (6000) has no tiers and 160 ns is acceptable
	 * (README "Grades"); in their worst tiers: the efficiency 1200 / 6000
	 * = 0.2 is |ln(0.8)| = 0.22 below 0.25 (per-vCPU 1200 is fair), 0.68
	 * per core |ln(0.68/0.75)| = 0.10 below 0.75: both weak, nearer later
	 */
	TH_EQ_INT(rep->grade.nweak, 2);
	if (rep->grade.nweak == 2) {
		TH_EQ_STR(rep->grade.g[rep->grade.weak[0]].metric, "mem_scaling_eff");
		TH_NEAR(rep->grade.weak_ln[0], -log(0.8), 1e-9);
		TH_EQ_STR(rep->grade.g[rep->grade.weak[1]].metric, "cpu_scaling_per_core");
	}
	TH_CHECK(grade_get(&rep->grade, "mem_triad_1t_mbps") == NULL);
	TH_EQ_STR(grade_get(&rep->grade, "mem_scaling_eff")->tier, "starved");
	TH_EQ_STR(grade_get(&rep->grade, "mem_triad_per_vcpu_mbps")->tier, "fair");
	free(rep);
	machine_goldens(OVERSOLD, "oversold");
}

/* Scaling above the thread count is never graded, even with both passes undisturbed. */
TH_TEST(health_scaling_above_threads_not_graded)
{
	struct bench_report *rep = machine(HEALTHY);
	const struct metric *sc;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->cpu.multi.eps = mdbl_of(2420); /* 2.2x on 2 threads */
	rep->cpu.scaling = mdbl_of(2420.0 / 1100);
	assess(rep, grade_builtin_table());
	sc = metric_get(&rep->grade.metrics, "cpu_scaling_per_core");
	TH_CHECK(sc && !sc->measured && strstr(sc->why_not, "above the thread count"));
	TH_EQ_INT(state_of(rep, "cpu_scaling"), HEALTH_PROBLEM);
	/* 2.08 on 2 threads is within the 5% slack: graded, and scales */
	rep->cpu.multi.eps = mdbl_of(2288);
	rep->cpu.scaling = mdbl_of(2288.0 / 1100);
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "cpu_scaling"), HEALTH_PASSED);
	TH_CHECK(grade_get(&rep->grade, "cpu_scaling_per_core") != NULL);
	free(rep);
}

/* Two hyperthreads of one core adding 10% scale; two cores adding 10% are capped. */
TH_TEST(health_scaling_against_physical_cores)
{
	struct bench_report *rep = machine(HEALTHY);
	const struct grade *g;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->cpu.multi.eps = mdbl_of(1210);
	rep->cpu.scaling = mdbl_of(1.1);
	rep->sys.cpu.physical_cores = mu64_of(1);
	assess(rep, grade_builtin_table());
	g = grade_get(&rep->grade, "cpu_scaling_per_core");
	TH_CHECK(g && !strcmp(g->tier, "scales"));
	rep->sys.cpu.physical_cores = mu64_of(2);
	assess(rep, grade_builtin_table());
	g = grade_get(&rep->grade, "cpu_scaling_per_core");
	TH_CHECK(g && !strcmp(g->tier, "capped"));
	rep->sys.cpu.physical_cores = (struct mu64){ 0, false };
	assess(rep, grade_builtin_table());
	TH_CHECK(grade_get(&rep->grade, "cpu_scaling_per_core") == NULL);
	free(rep);
}

/* Steal at exactly 5% is not a problem; above it is. */
TH_TEST(health_steal_bound)
{
	struct bench_report *rep = machine(HEALTHY);

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	/* the steal_pct health bound, 10% (Scout APM's "greater than 10%") */
	rep->cpu.steal_pct = mdbl_of(10.0);
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "steal"), HEALTH_PASSED);
	rep->cpu.steal_pct = mdbl_of(10.01);
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "steal"), HEALTH_PROBLEM);
	/* unknown steal: the check could not run, and "no problem found" is not said */
	rep->cpu.steal_pct = (struct mdbl){ 0, false };
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "steal"), HEALTH_NOT_RUN);
	TH_CHECK(strstr(rep->grade.verdict, "no problem found") == NULL);
	TH_CHECK(strstr(rep->grade.verdict, "not run: steal") != NULL);
	TH_EQ_STR(health_status(&rep->health), "incomplete");
	free(rep);
}

/* A pass whose share is unknown: its module's share check could not run. */
TH_TEST(health_unknown_share_not_run)
{
	struct bench_report *rep = machine(HEALTHY);

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->mem.lat[0].cpu.share = (struct mdbl){ 0, false };
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "mem_share"), HEALTH_NOT_RUN);
	TH_CHECK(strstr(find_check(&rep->health, "mem_share")->evidence, "latency chase") != NULL);
	/* a share of exactly 0.9 is not disturbed */
	share(&rep->mem.lat[0].cpu, PASS_CPU_SHARE_MIN, 0);
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "mem_share"), HEALTH_PASSED);
	free(rep);
}

/* A memory-backed directory is a storage problem; a module not asked has no check. */
TH_TEST(health_storage_and_unasked_modules)
{
	struct bench_report *rep = machine(HEALTHY);

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->rand.pass[1].storage.cls = STORAGE_MEMORY;
	snprintf(rep->rand.pass[1].storage.why, sizeof(rep->rand.pass[1].storage.why), "tmpfs");
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "storage"), HEALTH_PROBLEM);
	TH_CHECK(strstr(find_check(&rep->health, "storage")->evidence, "memory-backed") != NULL);
	rep->outcome[MOD_seq].status = rep->outcome[MOD_rand].status = BENCH_NOT_RUN;
	rep->outcome[MOD_fsync].status = BENCH_NOT_RUN;
	assess(rep, grade_builtin_table());
	TH_CHECK(find_check(&rep->health, "storage") == NULL);
	TH_CHECK(find_check(&rep->health, "iops_drop") == NULL);
	/* the etcd rule's module was not asked: the verdict does not answer it */
	TH_CHECK(strstr(rep->grade.verdict, "etcd") == NULL);
	TH_EQ_INT(rep->grade.fit[0].answer, FIT_UNKNOWN);
	free(rep);
}

static void add_m(struct metric_set *ms, const char *name, double v)
{
	struct metric *m = metric_add(ms, name);

	m->value = v;
	m->measured = true;
	m->selected = true;
	m->uncert = 0; /* exact: graded by its value alone */
}

/*
 * The weak figures: worst tier only, ordered by |ln(value / next bound)|
 * (the same for "half" and "double"), health metrics never among them.
 */
TH_TEST(grade_weak_pick)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;

	add_m(&ms, "rand_iops", 800);         /* worst of 5 tiers, ln(1000/800) = 0.223 */
	add_m(&ms, "seq_write_mbps", 30);     /* worst of 5 tiers, ln(50/30) = 0.511 */
	add_m(&ms, "lat_p99_ms", 13);         /* worst (lower is better), ln(13/10) = 0.262 */
	add_m(&ms, "cpu_steal_pct", 40);      /* worst tier, but the Health block's */
	add_m(&ms, "cpu_single_eps", 2100);   /* 5th of 8 tiers: not weak */
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.nweak, 3);
	if (g.nweak != 3)
		return;
	TH_EQ_STR(g.g[g.weak[0]].metric, "seq_write_mbps");
	TH_EQ_STR(g.g[g.weak[1]].metric, "lat_p99_ms");
	TH_EQ_STR(g.g[g.weak[2]].metric, "rand_iops");
	TH_NEAR(g.weak_ln[0], log(50.0 / 30), 1e-12);
	/* a second-tier figure is never weak, however long its scale */
	ms.n = 0;
	add_m(&ms, "cpu_single_eps", 600);    /* 2nd of 8 */
	add_m(&ms, "rand_iops", 1500);        /* 2nd of 5 */
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.nweak, 0);
	ms.n = 0;
	add_m(&ms, "rand_iops", 1000);        /* at the 2nd tier's bound: not weak */
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.nweak, 0);
	/* the verdict names it with its figure */
	ms.n = 0;
	add_m(&ms, "rand_iops", 800);
	grade_apply(grade_builtin_table(), &ms, &g);
	{
		static struct health_result h;

		verdict_build(&g, &h);
		TH_CHECK(strstr(g.verdict, "weak for its size: rand_iops = 800 IOPS (very slow") != NULL);
	}
}

/* Fit answers: yes/no at the bound, unknown when not measured, never pass/fail. */
TH_TEST(rules_answers)
{
	struct metric_set ms = { 0 };
	static struct grade_result g;
	struct metric *m;

	add_m(&ms, "fsync_p99_ms", 10);
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.fit[0].answer, FIT_NO); /* < 10: 10 itself is not below */
	ms.m[0].value = 9.99;
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.fit[0].answer, FIT_YES);
	TH_CHECK(strstr(g.fit[0].why, "fsync_p99_ms 9.99, needs < 10") != NULL);
	ms.n = 0;
	m = metric_add(&ms, "fsync_p99_ms");
	m->selected = true;
	snprintf(m->why_not, sizeof(m->why_not), "fsync skipped: no room");
	grade_apply(grade_builtin_table(), &ms, &g);
	TH_EQ_INT(g.fit[0].answer, FIT_UNKNOWN);
	TH_CHECK(strstr(g.fit[0].why, "not measured: fsync_p99_ms: fsync skipped") != NULL);
	{
		static struct health_result h;

		verdict_build(&g, &h);
		TH_CHECK(strstr(g.verdict, "etcd: unknown: not measured") != NULL);
	}
	TH_CHECK(g.fit[0].rule.src.url[0] && g.fit[0].rule.src.says[0]);
}

static int load_text(const char *text, struct grade_table *t, char *err, size_t n)
{
	char path[] = "/tmp/vpsbench-rules-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;

	if (fd < 0)
		return -2;
	f = fdopen(fd, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		unlink(path);
		return -2;
	}
	rc = grade_load_file(path, t, err, n);
	/* the message names the file: checked against its base name */
	if (rc < 0 && !strstr(err, path))
		rc = -3;
	unlink(path);
	return rc;
}

/* Bad rules: no source, an unknown metric or operator: file, line and key. */
TH_TEST(rules_file_errors_name_line_and_key)
{
#ifndef HAVE_CJSON
	th_skip("built without cJSON");
#else
	static struct grade_table t;
	char err[512];

	t = *grade_builtin_table();
	TH_EQ_INT(load_text("{\"rules\": [\n {\"rule\": \"db\", \"for\": \"x\",\n  \"metric\": \"lat_p99_ms\", "
			    "\"op\": \"<\", \"value\": 1}\n]}\n", &t, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, ":2: rules[0] db: key \"source\"") != NULL);
	TH_EQ_INT(load_text("{\"rules\": [\n {\"rule\": \"db\",\n  \"metric\": \"lat_p98_ms\",\n  \"op\": \"<\", "
			    "\"value\": 1, \"source\": {\"url\": \"u\", \"says\": \"s\"}}\n]}\n", &t, err,
			    sizeof(err)), -1);
	TH_CHECK(strstr(err, ":3: rules[0] db: key \"metric\": unknown metric") != NULL);
	TH_EQ_INT(load_text("{\"rules\": [\n {\"rule\": \"db\", \"metric\": \"lat_p99_ms\",\n\n  \"op\": \"=<\", "
			    "\"value\": 1, \"source\": {\"url\": \"u\", \"says\": \"s\"}}\n]}\n", &t, err,
			    sizeof(err)), -1);
	TH_CHECK(strstr(err, ":4: rules[0] db: key \"op\": unknown operator") != NULL);
	TH_EQ_INT(load_text("{\"rules\": [\n {\"rule\": \"db\", \"metric\": \"lat_p99_ms\", \"op\": \"<\", "
			    "\"value\": 1, \"source\": {\"url\": \"u\"}}\n]}\n", &t, err, sizeof(err)), -1);
	TH_CHECK(strstr(err, "key \"source\"") != NULL);
	/* a good one extends the built-ins and replaces one of the same name */
	TH_EQ_INT(load_text("{\"rules\": [{\"rule\": \"db\", \"for\": \"my db\", \"metric\": \"lat_p99_ms\", "
			    "\"op\": \"<=\", \"value\": 2, \"source\": {\"url\": \"https://example.org\", "
			    "\"says\": \"p99 <= 2 ms\"}},\n {\"rule\": \"etcd\", \"metric\": \"fsync_p99_ms\", "
			    "\"op\": \"<\", \"value\": 20, \"source\": {\"url\": \"u\", \"says\": \"s\"}}]}\n",
			    &t, err, sizeof(err)), 0);
	TH_EQ_INT(t.nrules, 3);
	TH_EQ_STR(t.rule[0].rule, "etcd");
	TH_NEAR(t.rule[0].cond[0].bound, 20, 0);
	TH_EQ_STR(t.rule[1].rule, "database"); /* the built-in one, kept */
	TH_NEAR(t.rule[1].cond[0].bound, 10, 0);
	TH_EQ_STR(t.rule[2].rule, "db");
	TH_EQ_INT(t.rule[2].cond[0].op, REQ_LE);
#endif
}

/*
 * Physical cores from sysfs topology: 4 CPUs in 2 sibling sets (cpu0-1 by
 * core_cpus_list, cpu2-3 by the older thread_siblings_list) are 2 cores;
 * a tree without topology leaves them unknown, never the CPU count.
 */
TH_TEST(sysinfo_physical_cores_from_topology)
{
	static struct sysinfo si;
	static const char *const dirs[] = { "/" };
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/smt_topology", th_srcdir());
	TH_EQ_INT(sysinfo_gather(root, dirs, 1, &si), 0);
	TH_CHECK(si.cpu.online.ok && si.cpu.online.v == 4);
	TH_CHECK(si.cpu.physical_cores.ok);
	TH_EQ_INT(si.cpu.physical_cores.v, 2);
	snprintf(root, sizeof(root), "%s/tests/fixtures/kvm_vps", th_srcdir());
	TH_EQ_INT(sysinfo_gather(root, dirs, 1, &si), 0);
	TH_CHECK(!si.cpu.physical_cores.ok);
}

/* prom: vpsbench_health_ok is 1 only when every check ran and none found a problem. */
TH_TEST(health_prom_ok_needs_every_check)
{
	struct bench_report *rep = machine(HEALTHY);
	static struct bench_plan plan;
	char *t;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	assess(rep, grade_builtin_table());
	t = prom_part(rep, &plan);
	TH_CHECK(t && strstr(t, "vpsbench_health_ok 1\n") && !strstr(t, "vpsbench_health_not_run"));
	free(t);
	rep->cpu.steal_pct = (struct mdbl){ 0, false };
	assess(rep, grade_builtin_table());
	t = prom_part(rep, &plan);
	TH_CHECK(t && strstr(t, "vpsbench_health_ok 0\n") &&
		 strstr(t, "vpsbench_health_not_run{check=\"steal\"} 1\n"));
	free(t);
	free(rep);
}

/*
 * net (only with --net): a failed public server is that server's row, never
 * this machine's problem: passed when any server was measured, not run when
 * none was; the failures a figure.
 */
TH_TEST(health_net_rows)
{
	struct bench_report *rep = machine(HEALTHY);
	const struct health_check *c;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	assess(rep, grade_builtin_table());
	TH_CHECK(find_check(&rep->health, "net") == NULL); /* not asked: no check */
	rep->outcome[MOD_net].status = BENCH_OK;
	rep->net.nrows = 3;
	snprintf(rep->net.rows[0].srv.name, sizeof(rep->net.rows[0].srv.name), "a");
	rep->net.rows[0].status = rep->net.rows[0].send.status = rep->net.rows[0].recv.status = NET_DONE;
	snprintf(rep->net.rows[1].srv.name, sizeof(rep->net.rows[1].srv.name), "b");
	rep->net.rows[1].status = rep->net.rows[1].send.status = rep->net.rows[1].recv.status = NET_BUSY;
	assess(rep, grade_builtin_table());
	TH_EQ_INT(state_of(rep, "net"), HEALTH_PASSED);
	snprintf(rep->net.rows[2].srv.name, sizeof(rep->net.rows[2].srv.name), "c");
	rep->net.rows[2].family = 6;
	rep->net.rows[2].status = NET_FAILED;
	snprintf(rep->net.rows[2].reason, sizeof(rep->net.rows[2].reason), "connection refused");
	assess(rep, grade_builtin_table());
	c = find_check(&rep->health, "net");
	TH_CHECK(c && c->state == HEALTH_PASSED);
	TH_CHECK(c && c->nfig == 2 && !strcmp(c->fig[0].name, "measured") && c->fig[0].value == 1 &&
		 !strcmp(c->fig[1].name, "failed") && c->fig[1].value == 1);
	TH_EQ_INT(rep->health.nproblems, 0);
	/* none measured: not run, never a problem */
	rep->net.rows[0].status = rep->net.rows[0].send.status = rep->net.rows[0].recv.status = NET_TIMEOUT;
	assess(rep, grade_builtin_table());
	c = find_check(&rep->health, "net");
	TH_CHECK(c && c->state == HEALTH_NOT_RUN && strstr(c->evidence, "those servers' rows"));
	TH_EQ_INT(rep->health.nproblems, 0);
	free(rep);
}

/* --require's unknown-metric error names every metric, not only the disk ones (#26 item 5). */
TH_TEST(require_unknown_metric_lists_all)
{
	struct requirement r[REQUIRE_MAX];
	unsigned n;
	char err[1024];

	TH_EQ_INT(require_parse("foo>=1", r, REQUIRE_MAX, &n, err, sizeof(err)), -1);
	for (int i = 0; grade_metric_names[i]; i++)
		if (!strstr(err, grade_metric_names[i]))
			th_fail(__FILE__, __LINE__, "error does not list %s: %s", grade_metric_names[i], err);
}

/*
 * guest_memory: swap in use and KSM merging are this guest's own state,
 * figures, never a problem alone; pressure at the mem_psi_avg10 bound (1%)
 * is one, just under it is not; a balloon is a figure.
 */
TH_TEST(health_guest_memory_signs)
{
	struct bench_report *rep = machine(HEALTHY);
	const struct health_check *c;

	TH_CHECK(rep != NULL);
	if (!rep)
		return;
	rep->sys.mem.signs.swap_used = mu64_of(300ull << 20);
	rep->sys.mem.signs.ksm_run = MB_TRUE;
	rep->sys.mem.signs.ksm_pages_sharing = mu64_of(51200);
	rep->sys.mem.signs.psi_some_avg10 = mdbl_of(nextafter(1.0, 0));
	assess(rep, grade_builtin_table());
	c = find_check(&rep->health, "guest_memory");
	TH_CHECK(c && c->state == HEALTH_PASSED);
	TH_CHECK(find_check(&rep->health, "oversell") == NULL);
	TH_EQ_INT(rep->health.nproblems, 0);
	rep->sys.mem.signs.psi_some_avg10 = mdbl_of(1.0);
	assess(rep, grade_builtin_table());
	c = find_check(&rep->health, "guest_memory");
	TH_CHECK(c && c->state == HEALTH_PROBLEM);
	TH_CHECK(c && strstr(c->evidence, "this guest's memory pressure") &&
		 strstr(c->evidence, "300 MiB of this guest's swap in use") &&
		 strstr(c->evidence, "not a sign of the host's"));
	free(rep);
}
