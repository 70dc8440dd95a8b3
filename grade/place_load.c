/*
 * place_load.c — the placement input from a saved JSON report ("schema":
 * "vpsbench.report/1"): the same figures place_input.c takes from a run,
 * read from the keys render/json/ writes, through the same "why" rules.
 */
#include <stdio.h>
#include <string.h>

#include "core/plan.h"
#include "grade/place.h"

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>

#define YABS_MBPS_DIV (1024.0 * 1000.0)   /* yabs's MB/s: KiB/s / 1000 */

static const cJSON *key(const cJSON *o, const char *k)
{
	return o ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *x = key(o, k);

	return cJSON_IsString(x) && x->valuestring ? x->valuestring : "";
}

static struct mdbl num_of(const cJSON *o, const char *k)
{
	const cJSON *x = key(o, k);

	return cJSON_IsNumber(x) ? mdbl_of(x->valuedouble) : (struct mdbl){ 0, false };
}

static double num_or(const cJSON *o, const char *k, double dflt)
{
	struct mdbl v = num_of(o, k);

	return v.ok ? v.v : dflt;
}

static bool bool_of(const cJSON *o, const char *k)
{
	return cJSON_IsTrue(key(o, k));
}

/* The module ran: "modules": {name: {"status": ...}} with a status other than not_run. */
static bool module_ran(const cJSON *root, const char *name, const char **reason)
{
	const cJSON *m = key(key(root, "modules"), name);

	*reason = str_of(m, "reason");
	return m && strcmp(str_of(m, "status"), "not_run") != 0;
}

/* "storage": {"class", "graded", "reason"}; a report without it: graded. */
static void storage_why(const cJSON *o, char *why, size_t n)
{
	const cJSON *st = key(o, "storage");

	place_storage_why(why, n, !cJSON_IsFalse(key(st, "graded")), str_of(st, "class"),
			  str_of(st, "reason"));
}

static void rand_input(const cJSON *root, struct place_input *in)
{
	const cJSON *passes = key(key(root, "rand"), "passes"), *p;
	const char *dir0 = NULL;

	in->rand_ran = cJSON_IsArray(passes) && cJSON_GetArraySize(passes) > 0;
	if (!in->rand_ran)
		return;
	cJSON_ArrayForEach(p, passes) {
		const char *rw = str_of(p, "rw");
		struct rand_pass_spec spec = { .rw = RW_RANDREAD };
		const cJSON *r = key(p, "read"), *w = key(p, "write"), *dist = key(p, "disturbance");
		struct place_fio *x;
		double iops = 0, bw = 0;
		bool ok;

		if (!dir0)
			dir0 = str_of(p, "dir");
		if (strcmp(str_of(p, "dir"), dir0) != 0)
			continue;
		for (int i = 0; rand_rw_names[i]; i++)
			if (!strcmp(rand_rw_names[i], rw))
				spec.rw = (enum rand_rw)i;
		spec.rwmixread = (unsigned)num_or(p, "rwmixread", 0);
		spec.bs = (uint32_t)num_or(p, "bs", 0);
		spec.iodepth = (unsigned)num_or(p, "iodepth", 0);
		spec.jobs = (unsigned)num_or(p, "jobs", 0);
		if (!plan_pass_is_yabs(&spec) || strcmp(rw, "randrw") != 0) {
			place_rand_describe(in->rand_other, sizeof(in->rand_other), rw,
					    spec.rwmixread, spec.bs, spec.iodepth);
			continue;
		}
		if (in->nfio >= PLACE_MAX_FIO)
			continue;
		x = &in->fio[in->nfio++];
		x->bs = spec.bs;
		x->runtime_ms = (uint64_t)num_or(p, "runtime_ms", 0);
		x->size_bytes = (uint64_t)num_or(p, "size_bytes", 0);
		ok = !strcmp(str_of(p, "status"), "ok");
		if (cJSON_IsObject(r)) {
			iops += num_or(r, "iops", 0);
			bw += num_or(r, "bw_bytes", 0);
		}
		if (cJSON_IsObject(w)) {
			iops += num_or(w, "iops", 0);
			bw += num_or(w, "bw_bytes", 0);
		}
		if (ok) {
			x->iops = mdbl_of(iops);
			x->mbps = mdbl_of(bw / YABS_MBPS_DIV);
		}
		place_fio_why(x->why, sizeof(x->why), ok, str_of(p, "status"), str_of(p, "reason"),
			      bool_of(p, "direct"), str_of(p, "direct_reason"),
			      bool_of(dist, "disturbed"), str_of(dist, "why"));
		if (ok)
			storage_why(p, x->why, sizeof(x->why));
	}
}

static void cpu_pass(const cJSON *pass, struct mdbl *eps, char *why, size_t n)
{
	*eps = num_of(pass, "events_per_s");
	place_cpu_why(why, n, *eps, bool_of(pass, "complete"), bool_of(pass, "disturbed"),
		      num_or(pass, "cpu_share", 0));
}

static void cpu_input(const cJSON *root, struct place_input *in)
{
	const cJSON *prime = key(key(root, "cpu"), "prime");
	const char *reason;

	in->cpu_ran = module_ran(root, "cpu", &reason);
	if (!in->cpu_ran)
		return;
	in->max_prime = (unsigned)num_or(prime, "max_prime", 0);
	in->cpu_threads = (unsigned)num_or(key(prime, "multi"), "threads", 0);
	cpu_pass(key(prime, "single"), &in->cpu_1t, in->why_1t, sizeof(in->why_1t));
	cpu_pass(key(prime, "multi"), &in->cpu_all, in->why_all, sizeof(in->why_all));
}

static void seq_input(const cJSON *root, struct place_input *in)
{
	const cJSON *s = key(root, "seq"), *runs = key(key(s, "write"), "runs");
	const char *reason;
	bool direct;

	in->seq_ran = module_ran(root, "seq", &reason);
	if (!in->seq_ran)
		return;
	in->seq_zero = !strcmp(str_of(s, "data"), "zero");
	if (!cJSON_IsString(key(s, "dir"))) {
		place_seq_why(in->why_dd, sizeof(in->why_dd), false, "not_run", "", reason);
		return;
	}
	in->dd_mbps = num_of(key(s, "write"), "avg_mbps");
	in->seq_bs = (uint32_t)num_or(s, "bs", 0);
	in->seq_size = (uint64_t)num_or(s, "size_bytes", 0);
	in->seq_runs = cJSON_IsArray(runs) ? (unsigned)cJSON_GetArraySize(runs) : 0;
	direct = bool_of(s, "direct");
	in->seq_direct = direct;
	place_seq_why(in->why_dd, sizeof(in->why_dd), !strcmp(str_of(s, "status"), "ok"),
		      str_of(s, "status"), str_of(s, "reason"), reason);
	storage_why(s, in->why_dd, sizeof(in->why_dd));
}

static void net_input(const cJSON *root, struct place_input *in)
{
	const cJSON *net = key(root, "net"), *row;
	const char *reason;

	in->net_ran = module_ran(root, "net", &reason);
	if (!in->net_ran)
		return;
	in->net_streams = (unsigned)num_or(net, "streams", 0);
	cJSON_ArrayForEach(row, key(net, "servers")) {
		struct place_net *x;
		const char *dk[2] = { "send", "recv" };
		struct mdbl *v[2];
		char *why[2];

		if (in->nnet >= PLACE_MAX_NET)
			break;
		x = &in->net[in->nnet++];
		v[0] = &x->send_mbits;
		v[1] = &x->recv_mbits;
		why[0] = x->why_send;
		why[1] = x->why_recv;
		snprintf(x->server, sizeof(x->server), "%s", str_of(row, "provider"));
		snprintf(x->location, sizeof(x->location), "%s", str_of(row, "location"));
		x->family = !strcmp(str_of(row, "mode"), "IPv6") ? 6 : 4;
		for (int k = 0; k < 2; k++) {
			const cJSON *d = key(row, dk[k]);
			struct mdbl bps = num_of(d, "bits_per_second");

			if (bps.ok)
				*v[k] = mdbl_of(bps.v / 1e6);
			place_net_why(why[k], sizeof(x->why_send), bps, bool_of(d, "implausible"),
				      str_of(d, "status"));
		}
	}
}

int place_input_from_json(const char *text, struct place_input *in, char *err, size_t errlen)
{
	cJSON *root;
	const cJSON *schema;

	memset(in, 0, sizeof(*in));
	root = cJSON_Parse(text ? text : "");
	if (!root) {
		snprintf(err, errlen, "not JSON");
		return -1;
	}
	schema = key(root, "schema");
	if (!cJSON_IsObject(root) || !cJSON_IsString(schema) ||
	    strcmp(schema->valuestring, "vpsbench.report/1") != 0) {
		snprintf(err, errlen, "not a vpsbench report (\"schema\" is not \"vpsbench.report/1\")");
		cJSON_Delete(root);
		return -1;
	}
	snprintf(in->profile, sizeof(in->profile), "%s", str_of(key(root, "run"), "profile"));
	rand_input(root, in);
	cpu_input(root, in);
	seq_input(root, in);
	net_input(root, in);
	cJSON_Delete(root);
	return 0;
}

#else

int place_input_from_json(const char *text, struct place_input *in, char *err, size_t errlen)
{
	(void)text;
	memset(in, 0, sizeof(*in));
	snprintf(err, errlen, "reading a JSON report is unavailable: built without cJSON");
	return -1;
}

#endif
