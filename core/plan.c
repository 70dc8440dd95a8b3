/*
 * plan.c — built-in profiles (one per seed and peer), profile files, and
 * the command line's overrides, validated before any file is created.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "parse.h"
#include "plan.h"

const char *const rand_rw_names[] = { "randread", "randwrite", "randrw", NULL };
const char *const rand_engine_names[] = { "auto", "io_uring", "libaio", "psync", NULL };
const char *const mem_test_names[] = { "stream", "latency", "sysbench", NULL };

unsigned mem_tests_asked(const struct bench_opts *o)
{
	return o->mem_tests.set ? (unsigned)o->mem_tests.v : MEM_TESTS_ALL;
}

#define SEC 1000000000ULL
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define FIO_SEED 0x89

struct profile_def {
	const char *name;
	const char *desc;
	struct seq_spec seq;
	unsigned npass;
	struct rand_pass_spec pass[RAND_MAX_PASSES];
};

/* etcd's fio recipe: --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 */
#define FSYNC_BS 2300u
#define FSYNC_SIZE (22 * MiB)
#define FSYNC_SAMPLE_NS (3 * SEC)
#define FSYNC_FULL_CAP_NS (120 * SEC) /* 10029 syncs at 12 ms each: a slow disk still ends */
#define FSYNC_FULL_PROFILE "etcd"     /* the one profile that runs the whole recipe */

#define SEQ_DD { .runs = 3, .size = GiB, .bs = 64 * 1024 }
#define PASS(n, rw_, mix, bs_, qd, jobs_, size_, rt, ramp_, rate) \
	{ .name = n, .rw = rw_, .rwmixread = mix, .bs = bs_, .iodepth = qd, \
	  .jobs = jobs_, .size = size_, .runtime_ns = rt, .ramp_ns = ramp_, \
	  .rate_iops = rate, .seed = FIO_SEED }

static const struct profile_def profiles[] = {
	{ "default", "4k randrw 75/25 qd64 (jobs = CPUs), then 4k randread qd1 latency",
	  SEQ_DD, 2, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 0, 4 * GiB, 8 * SEC, SEC, 0),
		PASS("randread-4k-qd1", RW_RANDREAD, 100, 4096, 1, 1, 4 * GiB, 4 * SEC, SEC, 0),
	} },
	{ "dd-direct", "dd oflag=direct sequential writes (no page cache), default random passes",
	  { .runs = 3, .size = GiB, .bs = 64 * 1024, .direct = true }, 2, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 0, 4 * GiB, 8 * SEC, SEC, 0),
		PASS("randread-4k-qd1", RW_RANDREAD, 100, 4096, 1, 1, 4 * GiB, 4 * SEC, SEC, 0),
	} },
	{ "ovh", "OVHcloud guide: 4k randwrite qd32, 512M, jobs = CPUs, 120 s",
	  SEQ_DD, 1, {
		PASS("randwrite-4k-qd32", RW_RANDWRITE, 0, 4096, 32, 0, 512 * MiB, 120 * SEC, 0, 0),
	} },
	{ "vng", "VNG guide: 4k randrw 75/25, randread, randwrite; qd64, 8 jobs, 4G",
	  SEQ_DD, 3, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 8, 4 * GiB, 30 * SEC, 0, 0),
		PASS("randread-4k-qd64", RW_RANDREAD, 100, 4096, 64, 8, 4 * GiB, 30 * SEC, 0, 0),
		PASS("randwrite-4k-qd64", RW_RANDWRITE, 0, 4096, 64, 8, 4 * GiB, 30 * SEC, 0, 0),
	} },
	{ "tino", "tocdo.net guide: 4k randrw 75/25 qd64, 1G",
	  SEQ_DD, 1, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 1, GiB, 30 * SEC, 0, 0),
	} },
	{ "azure-write", "Azure guide: 4k randwrite qd256, 4 jobs, 30G, 30 s",
	  SEQ_DD, 1, {
		PASS("randwrite-4k-qd256", RW_RANDWRITE, 0, 4096, 256, 4, 30 * GiB, 30 * SEC, 0, 0),
	} },
	{ "azure-read", "Azure guide: 4k randread qd256, 4 jobs, 30G, 30 s",
	  SEQ_DD, 1, {
		PASS("randread-4k-qd256", RW_RANDREAD, 100, 4096, 256, 4, 30 * GiB, 30 * SEC, 0, 0),
	} },
	/* Azure runs 4 readers and 4 writers capped at 3200 IOPS each; here 4 randrw
	 * jobs whose writes are capped at the same total and yield to reads (fio's rate_ddir) */
	{ "azure-mixed", "Azure guide: 4k randrw qd128, 4 jobs, 30G, writes capped at 3200 IOPS/job",
	  SEQ_DD, 1, {
		{ .name = "randrw-4k-qd128", .rw = RW_RANDRW, .rwmixread = 50, .bs = 4096,
		  .iodepth = 128, .jobs = 4, .size = 30 * GiB, .runtime_ns = 30 * SEC,
		  .rate_iops_write = 4 * 3200, .seed = FIO_SEED },
	} },
	{ "yabs", "yabs.sh: randrw 50/50 qd64, 2 jobs, 2G, at 4k, 64k, 512k and 1m",
	  SEQ_DD, 4, {
		PASS("rand_rw_4k", RW_RANDRW, 50, 4096, 64, 2, 2 * GiB, 30 * SEC, 0, 0),
		PASS("rand_rw_64k", RW_RANDRW, 50, 64 * 1024, 64, 2, 2 * GiB, 30 * SEC, 0, 0),
		PASS("rand_rw_512k", RW_RANDRW, 50, 512 * 1024, 64, 2, 2 * GiB, 30 * SEC, 0, 0),
		PASS("rand_rw_1m", RW_RANDRW, 50, 1024 * 1024, 64, 2, 2 * GiB, 30 * SEC, 0, 0),
	} },
	{ "etcd", "default passes, and etcd's whole fdatasync recipe: 22 MiB of 2300-byte writes",
	  SEQ_DD, 2, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 0, 4 * GiB, 8 * SEC, SEC, 0),
		PASS("randread-4k-qd1", RW_RANDREAD, 100, 4096, 1, 1, 4 * GiB, 4 * SEC, SEC, 0),
	} },
	{ "storage", "default passes, then the cache cliff and burst/sustained writes (--storage-max-time)",
	  SEQ_DD, 2, {
		PASS("randrw-4k-qd64", RW_RANDRW, 75, 4096, 64, 0, 4 * GiB, 8 * SEC, SEC, 0),
		PASS("randread-4k-qd1", RW_RANDREAD, 100, 4096, 1, 1, 4 * GiB, 4 * SEC, SEC, 0),
	} },
};

#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

const char *const plan_profile_names[] = {
	"default", "dd-direct", "ovh", "vng", "tino", "azure-write", "azure-read", "azure-mixed", "yabs",
	"etcd", "storage", NULL
};

/* The cliff's working sets: 256 MiB, 1, 4, 16 GiB, then doubling while space and time allow. */
static const uint64_t storage_default_sizes[] = {
	256 * MiB, 1 * GiB, 4 * GiB, 16 * GiB, 32 * GiB, 64 * GiB, 128 * GiB, 256 * GiB,
};

/* --storage-sizes 16M,32M,...: growing sizes, each a multiple of 1 MiB. */
static int storage_sizes(const char *list, struct cache_spec *c, char *err, size_t errlen)
{
	char buf[512], *tok, *save = NULL;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--storage-sizes: list too long");
		return -1;
	}
	strcpy(buf, list);
	c->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_size(tok, &v) < 0 || v < MiB || v % MiB ||
		    (c->nsizes && v <= c->sizes[c->nsizes - 1]) || c->nsizes >= CACHE_SPEC_MAX) {
			snprintf(err, errlen, "--storage-sizes: '%s' is not a growing list of at most %d "
				 "sizes, each a multiple of 1M (such as 16M,32M,64M)", list, CACHE_SPEC_MAX);
			return -1;
		}
		c->sizes[c->nsizes++] = v;
	}
	if (!c->nsizes) {
		snprintf(err, errlen, "--storage-sizes: empty list");
		return -1;
	}
	return 0;
}

const char *const cache_warm_names[] = { "seq", "random", "both", NULL };

/* The storage profile's part, and the check that its caps fit its smallest step. */
static int storage_plan(const struct bench_opts *o, struct bench_plan *plan, char *err, size_t errlen)
{
	struct cache_spec *c = &plan->storage;

	c->on = !strcmp(plan->profile, "storage");
	c->max_ns = o->storage_max_time_ns.set ? o->storage_max_time_ns.v : 300 * SEC;
	/* 2 s: three repeats of 2 s are 12 s of reads per size (18 s at 3 s), so the cliff's share
	 * of the 5-minute cap still holds several sizes with their warm passes */
	c->point_ns = o->storage_point_time_ns.set ? o->storage_point_time_ns.v : 2 * SEC;
	c->write_size = o->storage_write_size.set ? o->storage_write_size.v : 0;
	c->repeats = o->storage_repeats.set ? (unsigned)o->storage_repeats.v : 3;
	c->warm = o->storage_warm.set ? (enum cache_warm)o->storage_warm.v : CACHE_WARM_BOTH;
	c->write_ns = o->storage_write_time_ns.set ? o->storage_write_time_ns.v : 0;
	c->recover_idle_ns = o->storage_recover_idle_ns.set ? o->storage_recover_idle_ns.v : 0;
	c->nsizes = sizeof(storage_default_sizes) / sizeof(storage_default_sizes[0]);
	memcpy(c->sizes, storage_default_sizes, sizeof(storage_default_sizes));
	if (o->storage_sizes && storage_sizes(o->storage_sizes, c, err, errlen) < 0)
		return -1;
	/* the smallest step: one cliff point (qd32 and qd1) */
	if (c->on && c->max_ns < 2 * c->point_ns) {
		snprintf(err, errlen, "--storage-max-time must be at least twice --storage-point-time "
			 "(one cliff step: qd32 and qd1), %llu ms here",
			 (unsigned long long)(2 * c->point_ns / 1000000ULL));
		return -1;
	}
	if (c->write_size && c->write_size < MiB) {
		snprintf(err, errlen, "--storage-write-size must be at least 1M (one write of the sequential test)");
		return -1;
	}
	return 0;
}

uint64_t plan_storage_cliff_ns(const struct cache_spec *c)
{
	return c->max_ns / 10 * 6;
}

uint64_t plan_storage_ns(const struct cache_spec *c)
{
	/* --storage-write-time is each write test's own time, on top of the cliff's share */
	uint64_t writes = c->write_ns ? 2 * c->write_ns : c->max_ns - plan_storage_cliff_ns(c);

	/* each write test that drops may idle then rewrite: at most twice */
	uint64_t recover = c->recover_idle_ns ? 2 * (c->recover_idle_ns + CACHE_RECOVER_REWRITE_NS) : 0;

	return plan_storage_cliff_ns(c) + writes + recover;
}

static const struct profile_def *profile_named(const char *name);

bool plan_pass_is_yabs(const struct rand_pass_spec *p)
{
	if (p->rw != RW_RANDRW || p->rwmixread != 50 || p->iodepth != 64 || p->jobs != 2)
		return false;
	return p->bs == 4096 || p->bs == 64 * 1024 || p->bs == 512 * 1024 || p->bs == 1024 * 1024;
}

/* --size, --runtime, --ramp and --seed: every pass takes them, yabs's too. */
static void apply_run_overrides(const struct bench_opts *o, struct rand_pass_spec *r)
{
	if (o->size.set)
		r->size = o->size.v;
	if (o->runtime_ns.set)
		r->runtime_ns = o->runtime_ns.v;
	if (o->ramp_ns.set)
		r->ramp_ns = o->ramp_ns.v;
	if (o->seed.set)
		r->seed = o->seed.v;
}

/*
 * --format yabs, and --upload-format yabs with an --upload: yabs's fio[]
 * needs its four passes. When the plan has none that match, they are
 * added after the profile's own, with the command line's
 * size/runtime/ramp/seed but yabs's shape.
 */
static int add_yabs_passes(const struct bench_opts *o, struct bench_plan *plan, char *err,
			   size_t errlen)
{
	const struct profile_def *y = profile_named("yabs");
	unsigned had = plan->nrand;
	const char *flag = o->format == FMT_YABS ? "--format yabs" :
			   o->upload.n && o->upload_format.v == UPFMT_YABS ? "--upload-format yabs" : NULL;

	if (!flag || !options_module_selected(o, MOD_rand))
		return 0;
	for (unsigned i = 0; i < plan->nrand; i++)
		if (plan_pass_is_yabs(&plan->rand[i]))
			return 0;
	if (plan->nrand + y->npass > RAND_MAX_PASSES) {
		snprintf(err, errlen, "%s needs yabs's %u passes and profile %s already has %u "
			 "(at most %d in all): use --profile yabs", flag, y->npass, plan->profile,
			 plan->nrand, RAND_MAX_PASSES);
		return -1;
	}
	for (unsigned i = 0; i < y->npass; i++) {
		struct rand_pass_spec *r = &plan->rand[plan->nrand++];

		*r = y->pass[i];
		apply_run_overrides(o, r);
	}
	snprintf(plan->note, sizeof(plan->note),
		 "%s: profile %s has no pass with yabs's settings; running yabs's "
		 "randrw 50/50 qd64 2-job passes at 4k, 64k, 512k and 1m after its %u", flag,
		 plan->profile, had);
	return 0;
}

static void plan_from_profile(const struct profile_def *p, struct bench_plan *plan)
{
	bool full = !strcmp(p->name, FSYNC_FULL_PROFILE);

	snprintf(plan->profile, sizeof(plan->profile), "%s", p->name);
	snprintf(plan->profile_desc, sizeof(plan->profile_desc), "%s", p->desc);
	plan->seq = p->seq;
	plan->nrand = p->npass;
	memcpy(plan->rand, p->pass, sizeof(p->pass));
	plan->fsync = (struct fsync_spec){ .full = full, .bs = FSYNC_BS, .size = FSYNC_SIZE,
		.time_ns = full ? FSYNC_FULL_CAP_NS : FSYNC_SAMPLE_NS };
}

/* --- profile files: INI, "[seq]" and "[pass NAME]" sections of key = value --- */

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int pass_key(struct rand_pass_spec *p, const char *k, const char *v)
{
	uint64_t u;
	int i;

	if (!strcmp(k, "rw")) {
		if ((i = parse_enum(v, rand_rw_names)) < 0)
			return -1;
		p->rw = (enum rand_rw)i;
	} else if (!strcmp(k, "rwmixread")) {
		if (parse_uint(v, 0, 100, &u) < 0)
			return -1;
		p->rwmixread = (unsigned)u;
	} else if (!strcmp(k, "bs")) {
		if (parse_size(v, &u) < 0 || u > UINT32_MAX)
			return -1;
		p->bs = (uint32_t)u;
	} else if (!strcmp(k, "iodepth")) {
		if (parse_uint(v, 1, 4096, &u) < 0)
			return -1;
		p->iodepth = (unsigned)u;
	} else if (!strcmp(k, "jobs")) {
		if (parse_uint(v, 0, 256, &u) < 0)
			return -1;
		p->jobs = (unsigned)u;
	} else if (!strcmp(k, "size")) {
		if (parse_size(v, &p->size) < 0)
			return -1;
	} else if (!strcmp(k, "runtime")) {
		if (parse_duration(v, &p->runtime_ns) < 0 || !p->runtime_ns)
			return -1;
	} else if (!strcmp(k, "ramp")) {
		if (parse_duration(v, &p->ramp_ns) < 0)
			return -1;
	} else if (!strcmp(k, "rate-iops")) {
		if (parse_uint(v, 0, 100000000, &p->rate_iops) < 0)
			return -1;
	} else if (!strcmp(k, "rate-iops-write")) {
		if (parse_uint(v, 0, 100000000, &p->rate_iops_write) < 0)
			return -1;
	} else if (!strcmp(k, "seed")) {
		if (parse_uint(v, 0, UINT64_MAX, &p->seed) < 0)
			return -1;
	} else {
		return -2;
	}
	return 0;
}

static int seq_key(struct seq_spec *s, const char *k, const char *v)
{
	uint64_t u;

	if (!strcmp(k, "runs")) {
		if (parse_uint(v, 1, 100, &u) < 0)
			return -1;
		s->runs = (unsigned)u;
	} else if (!strcmp(k, "size")) {
		if (parse_size(v, &s->size) < 0)
			return -1;
	} else if (!strcmp(k, "bs")) {
		if (parse_size(v, &u) < 0 || u > UINT32_MAX)
			return -1;
		s->bs = (uint32_t)u;
	} else if (!strcmp(k, "direct") || !strcmp(k, "zero-fill")) {
		bool b;

		if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
			b = true;
		else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
			b = false;
		else
			return -1;
		if (!strcmp(k, "direct"))
			s->direct = b;
		else
			s->zero = b;
	} else {
		return -2;
	}
	return 0;
}

/*
 * A file profile starts from the default profile's seq settings; every
 * [pass NAME] section starts from the default profile's first pass.
 */
static int plan_from_file(const char *path, struct bench_plan *plan, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512], *s, *eq;
	unsigned lineno = 0;
	enum { SEC_NONE, SEC_SEQ, SEC_PASS } sec = SEC_NONE;
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "--profile: '%s' is neither a built-in profile nor a readable file: %s",
			 path, strerror(errno));
		return -1;
	}
	plan_from_profile(&profiles[0], plan);
	plan->nrand = 0;
	snprintf(plan->profile, sizeof(plan->profile), "file:%.58s", path);
	snprintf(plan->profile_desc, sizeof(plan->profile_desc), "from %.140s", path);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end) {
				snprintf(err, errlen, "%s:%u: unclosed section header", path, lineno);
				goto out;
			}
			*end = '\0';
			s = trim(s + 1);
			if (!strcmp(s, "seq")) {
				sec = SEC_SEQ;
			} else if (!strncmp(s, "pass", 4)) {
				if (plan->nrand >= RAND_MAX_PASSES) {
					snprintf(err, errlen, "%s:%u: more than %d passes", path, lineno,
						 RAND_MAX_PASSES);
					goto out;
				}
				plan->rand[plan->nrand] = profiles[0].pass[0];
				snprintf(plan->rand[plan->nrand].name, sizeof(plan->rand[0].name), "%s",
					 *trim(s + 4) ? trim(s + 4) : "pass");
				plan->nrand++;
				sec = SEC_PASS;
			} else {
				snprintf(err, errlen, "%s:%u: unknown section [%s] (use [seq] or [pass NAME])",
					 path, lineno, s);
				goto out;
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || sec == SEC_NONE) {
			snprintf(err, errlen, "%s:%u: expected 'key = value' inside [seq] or [pass NAME]",
				 path, lineno);
			goto out;
		}
		*eq = '\0';
		{
			char *k = trim(s), *v = trim(eq + 1);
			int r = sec == SEC_SEQ ? seq_key(&plan->seq, k, v) :
				pass_key(&plan->rand[plan->nrand - 1], k, v);

			if (r == -2) {
				snprintf(err, errlen, "%s:%u: unknown key '%s' in [%s]", path, lineno, k,
					 sec == SEC_SEQ ? "seq" : "pass");
				goto out;
			}
			if (r < 0) {
				snprintf(err, errlen, "%s:%u: bad value '%s' for key '%s'", path, lineno, v, k);
				goto out;
			}
		}
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

static int validate(const struct bench_plan *plan, char *err, size_t errlen)
{
	const struct seq_spec *s = &plan->seq;

	if (s->bs == 0 || s->bs % 512 || s->bs > 64 * MiB) {
		snprintf(err, errlen, "--seq-bs must be a multiple of 512 bytes and at most 64M, not %u",
			 s->bs);
		return -1;
	}
	if (s->runs == 0) {
		snprintf(err, errlen, "--seq-runs must be at least 1");
		return -1;
	}
	if (s->size < s->bs) {
		snprintf(err, errlen, "--seq-size (%llu bytes) must be at least --seq-bs (%u bytes)",
			 (unsigned long long)s->size, s->bs);
		return -1;
	}
	if (plan->fsync.size < plan->fsync.bs) {
		snprintf(err, errlen, "--fsync-size (%llu bytes) must be at least --fsync-bs (%u bytes)",
			 (unsigned long long)plan->fsync.size, plan->fsync.bs);
		return -1;
	}
	for (unsigned i = 0; i < plan->nrand; i++) {
		const struct rand_pass_spec *p = &plan->rand[i];

		if (p->bs == 0 || p->bs % 512) {
			snprintf(err, errlen, "--bs must be a multiple of 512 bytes, not %u (pass %s)",
				 p->bs, p->name);
			return -1;
		}
		if (p->size < p->bs) {
			snprintf(err, errlen, "--size (%llu bytes) must be at least --bs (%u bytes) (pass %s)",
				 (unsigned long long)p->size, p->bs, p->name);
			return -1;
		}
		if (p->iodepth == 0) {
			snprintf(err, errlen, "--iodepth must be at least 1 (pass %s)", p->name);
			return -1;
		}
	}
	return 0;
}

static const struct profile_def *profile_named(const char *name)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

int plan_build(const struct bench_opts *o, struct bench_plan *plan, char *err, size_t errlen)
{
	const char *name = o->profile ? o->profile : "default";
	const struct profile_def *p = NULL;

	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			p = &profiles[i];
	if (p)
		plan_from_profile(p, plan);
	else if (strchr(name, '/') || strchr(name, '.'))
		{ if (plan_from_file(name, plan, err, errlen) < 0)
			return -1; }
	else {
		snprintf(err, errlen, "--profile takes a file or one of default, dd-direct, ovh, vng, tino, "
			 "azure-write, azure-read, azure-mixed, yabs, etcd, not '%s'", name);
		return -1;
	}

	for (unsigned i = 0; i < plan->nrand; i++) {
		struct rand_pass_spec *r = &plan->rand[i];

		if (o->rw.set)
			r->rw = (enum rand_rw)o->rw.v;
		if (o->rwmixread.set)
			r->rwmixread = (unsigned)o->rwmixread.v;
		if (o->bs.set)
			r->bs = (uint32_t)o->bs.v;
		if (o->iodepth.set)
			r->iodepth = (unsigned)o->iodepth.v;
		if (o->jobs.set)
			r->jobs = (unsigned)o->jobs.v;
		apply_run_overrides(o, r);
		if (o->rate_iops.set)
			r->rate_iops = o->rate_iops.v;
		if (r->rw == RW_RANDREAD)
			r->rwmixread = 100;
		else if (r->rw == RW_RANDWRITE)
			r->rwmixread = 0;
	}
	if (o->seq_runs.set)
		plan->seq.runs = (unsigned)o->seq_runs.v;
	if (o->seq_size.set)
		plan->seq.size = o->seq_size.v;
	if (o->seq_bs.set)
		plan->seq.bs = (uint32_t)o->seq_bs.v;
	if (o->seq_direct)
		plan->seq.direct = true;
	if (o->zero_fill)
		plan->seq.zero = true;
	if (o->fsync_time_ns.set)
		plan->fsync.time_ns = o->fsync_time_ns.v;
	if (o->fsync_size.set)
		plan->fsync.size = o->fsync_size.v;
	if (o->fsync_bs.set)
		plan->fsync.bs = (uint32_t)o->fsync_bs.v;
	/*
	 * 2.5 s passes: against sysbench's own 10 s run, tests/compare/vs-sysbench.sh
	 * gave median ratios 0.98 (1 thread) and 1.00 (2 threads) over 5 pairs.
	 */
	plan->cpu.time_ns = o->cpu_time_ns.set ? o->cpu_time_ns.v : 2500000000ULL;
	plan->cpu.max_prime = o->cpu_max_prime.set ? (unsigned)o->cpu_max_prime.v : 10000u;
	plan->cpu.threads = o->cpu_threads.set ? (unsigned)o->cpu_threads.v : 0;
	plan->engine = o->engine.set ? (enum rand_engine_kind)o->engine.v : ENGINE_AUTO;
	plan->zero_buffers = o->zero_buffers;
	plan->verify = o->verify;
	if (add_yabs_passes(o, plan, err, errlen) < 0)
		return -1;
	if (storage_plan(o, plan, err, errlen) < 0)
		return -1;
	return validate(plan, err, errlen);
}
