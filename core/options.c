/*
 * options.c — one table (curl's aliases[] / fio's options.c idea) drives
 * getopt_long, value parsing through offsetof, and the --help text.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "options.h"
#include "parse.h"
#include "plan.h"

enum opt_kind {
	OK_SECTION,  /* help heading only */
	OK_FLAG,     /* bool */
	OK_STR,      /* const char * */
	OK_DIR,      /* append to dirs[] */
	OK_LIST,     /* append to a struct opt_list */
	OK_MODLIST,  /* comma list of module names -> bitmask */
	OK_SIZE,     /* struct opt_u64, bytes */
	OK_DUR,      /* struct opt_u64, ns */
	OK_UINT,     /* struct opt_u64 */
	OK_ENUM,     /* struct opt_u64, index into names */
	OK_NAMESET,  /* struct opt_u64, bit per name of a comma list of names */
	OK_FORMAT,   /* enum out_format */
	OK_JSON,     /* --json: format = json */
	OK_LABEL,    /* --label NAME|key=value into labels */
	OK_HELP,
	OK_VERSION,
};

struct opt_def {
	const char *name;
	enum opt_kind kind;
	size_t off;
	uint64_t min, max;
	const char *const *names;
	const char *arg;
	const char *help;
};

static const char *const format_names[] = { "text", "json", "yabs", "prom", "fio", NULL };
const char *const upload_format_names[] = { "json", "yabs", "prom", NULL };

#define OFF(f) offsetof(struct bench_opts, f)

static const struct opt_def opt_table[] = {
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "General" },
	{ "dir", OK_DIR, 0, 0, 0, NULL, "PATH",
	  "directory to test in; repeatable (default: .)" },
	{ "only", OK_MODLIST, OFF(only_mask), 0, 0, NULL, "LIST",
	  "run only these modules: sysinfo,seq,rand,fsync,cache,cpu,mem,net" },
	{ "skip", OK_MODLIST, OFF(skip_mask), 0, 0, NULL, "LIST",
	  "do not run these modules" },
	{ "profile", OK_STR, OFF(profile), 0, 0, NULL, "NAME|FILE",
	  "pass set: built-in name or INI/JSON file (default: default)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Output" },
	{ "format", OK_FORMAT, OFF(format), 0, 0, format_names, "FMT",
	  "stdout format: text|json|yabs|prom|fio (default: text)" },
	{ "json", OK_JSON, 0, 0, 0, NULL, NULL, "same as --format json" },
	{ "output", OK_STR, OFF(output), 0, 0, NULL, "FILE",
	  "also write the JSON report to FILE" },
	{ "html", OK_STR, OFF(html), 0, 0, NULL, "FILE",
	  "also write a self-contained HTML report with charts" },
	{ "prom-file", OK_STR, OFF(prom_file), 0, 0, NULL, "FILE",
	  "also write the Prometheus metrics to FILE (textfile collector)" },
	{ "label", OK_LABEL, 0, 0, 0, NULL, "NAME|K=V",
	  "node name, or key=value; repeatable; [A-Za-z0-9_.:=-], <= 64 bytes" },
	{ "quiet", OK_FLAG, OFF(quiet), 0, 0, NULL, NULL,
	  "no progress lines on stderr" },
	{ "no-color", OK_FLAG, OFF(no_color), 0, 0, NULL, NULL,
	  "no colors (also when NO_COLOR is set)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL,
	  "Random I/O (rand); each overrides every pass of the profile" },
	{ "rw", OK_ENUM, OFF(rw), 0, 0, rand_rw_names, "MODE",
	  "randread|randwrite|randrw (default profile: randrw, then randread)" },
	{ "rwmixread", OK_UINT, OFF(rwmixread), 0, 100, NULL, "PCT",
	  "percent of reads in randrw, 0-100 (default: 75)" },
	{ "bs", OK_SIZE, OFF(bs), 512, 64ULL << 20, NULL, "SIZE",
	  "block size, multiple of 512 bytes (default: 4K)" },
	{ "iodepth", OK_UINT, OFF(iodepth), 1, 4096, NULL, "N",
	  "I/Os in flight per job, 1-4096 (default: 64, latency pass 1)" },
	{ "jobs", OK_UINT, OFF(jobs), 1, 256, NULL, "N",
	  "threads, 1-256 (default: usable CPUs)" },
	{ "size", OK_SIZE, OFF(size), 512, 1ULL << 50, NULL, "SIZE",
	  "test file size (default: 4G, capped to free space)" },
	{ "runtime", OK_DUR, OFF(runtime_ns), 1, 86400ULL * 1000000000ULL, NULL, "DUR",
	  "measured time per pass, s or m suffix (default: 8s)" },
	{ "ramp", OK_DUR, OFF(ramp_ns), 0, 3600ULL * 1000000000ULL, NULL, "DUR",
	  "uncounted warm-up per pass (default: 1s)" },
	{ "rate-iops", OK_UINT, OFF(rate_iops), 1, 100000000, NULL, "N",
	  "cap on IOPS over all jobs (default: none)" },
	{ "seed", OK_UINT, OFF(seed), 0, UINT64_MAX, NULL, "N",
	  "PRNG seed for repeatable offsets (default: 0x89, fio's)" },
	{ "engine", OK_ENUM, OFF(engine), 0, 0, rand_engine_names, "NAME",
	  "auto|io_uring|libaio|psync (default: auto)" },
	{ "zero-buffers", OK_FLAG, OFF(zero_buffers), 0, 0, NULL, NULL,
	  "write zeros instead of random data (to show the difference)" },
	{ "verify", OK_FLAG, OFF(verify), 0, 0, NULL, NULL,
	  "checksum written blocks and read them all back after the pass" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Sequential (seq)" },
	{ "seq-runs", OK_UINT, OFF(seq_runs), 1, 100, NULL, "N",
	  "write runs, 1-100 (default: 3)" },
	{ "seq-size", OK_SIZE, OFF(seq_size), 512, 1ULL << 50, NULL, "SIZE",
	  "bytes per run (default: 1G, capped to free space)" },
	{ "seq-bs", OK_SIZE, OFF(seq_bs), 512, 64ULL << 20, NULL, "SIZE",
	  "block size, multiple of 512, at most 64M (default: 64K)" },
	{ "seq-direct", OK_FLAG, OFF(seq_direct), 0, 0, NULL, NULL,
	  "O_DIRECT writes (dd oflag=direct) instead of conv=fdatasync" },
	{ "zero-fill", OK_FLAG, OFF(zero_fill), 0, 0, NULL, NULL,
	  "write zeros as dd if=/dev/zero does (to show the difference)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "fdatasync latency (fsync), etcd's fio recipe" },
	{ "fsync-time", OK_DUR, OFF(fsync_time_ns), 100000000ULL, 3600ULL * 1000000000ULL, NULL, "DUR",
	  "stop after DUR, 100ms-1h (default: 3s sample; --profile etcd 120s)" },
	{ "fsync-size", OK_SIZE, OFF(fsync_size), 512, 1ULL << 40, NULL, "SIZE",
	  "stop after SIZE written (default: 22M, capped to free space)" },
	{ "fsync-bs", OK_SIZE, OFF(fsync_bs), 1, 64ULL << 20, NULL, "SIZE",
	  "bytes per write, each followed by fdatasync (default: 2300)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Storage profile (cache; only with --profile storage)" },
	{ "storage-max-time", OK_DUR, OFF(storage_max_time_ns), 1000000000ULL, 86400ULL * 1000000000ULL, NULL,
	  "DUR", "cap on the cliff and write tests together (default: 5m; with --storage-write-time the "
	  "cliff gets 60% of it and the write tests their own time)" },
	{ "storage-sizes", OK_STR, OFF(storage_sizes), 0, 0, NULL, "LIST",
	  "cliff working sets, growing, multiples of 1M (default: 256M,1G,4G,16G,32G...)" },
	{ "storage-point-time", OK_DUR, OFF(storage_point_time_ns), 100000000ULL, 3600ULL * 1000000000ULL, NULL,
	  "DUR", "measured time of qd32 and of qd1 at each size and repeat (default: 2s)" },
	{ "storage-write-size", OK_SIZE, OFF(storage_write_size), 512, 1ULL << 50, NULL, "SIZE",
	  "cap on each write test (default: free space less a margin)" },
	{ "storage-repeats", OK_UINT, OFF(storage_repeats), 1, 9, NULL, "N",
	  "measurements of each cliff size, interleaved; the knee reads their medians (default: 3)" },
	{ "storage-warm", OK_ENUM, OFF(storage_warm), 0, 0, cache_warm_names, "MODE",
	  "warm pass before each size's reads: seq, random (what bcache/dm-cache/L2ARC admit) or both "
	  "(default: both)" },
	{ "storage-write-time", OK_DUR, OFF(storage_write_time_ns), 1000000000ULL, 7200ULL * 1000000000ULL,
	  NULL, "DUR", "time of each write test, up to 2h, added to the part's cap: 40m drains a cloud "
	  "volume's ~30-minute credit bucket (default: 20% of --storage-max-time each)" },
	{ "storage-recover-idle", OK_DUR, OFF(storage_recover_idle_ns), 1000000000ULL,
	  7200ULL * 1000000000ULL, NULL, "DUR",
	  "after a write test that dropped, stay idle DUR then rewrite: how much burst came back (default: off)" },
	{ "storage-report", OK_STR, OFF(storage_report), 0, 0, NULL, "FILE",
	  "(any profile) the JSON report (--output) of an earlier --profile storage run: a rand file in its dir "
	  "no larger than its cliff's knee is said to be cache-served" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "CPU (cpu)" },
	{ "cpu-time", OK_DUR, OFF(cpu_time_ns), 100000000ULL, 3600ULL * 1000000000ULL, NULL, "DUR",
	  "time of each prime pass, 100ms-1h (default: 2.5s)" },
	{ "cpu-max-prime", OK_UINT, OFF(cpu_max_prime), 3, 10000000, NULL, "N",
	  "primes below N per event, 3-10000000 (default: 10000)" },
	{ "cpu-threads", OK_UINT, OFF(cpu_threads), 1, 1024, NULL, "N",
	  "threads of the multi pass, 1-1024 (default: effective CPUs)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Memory (mem)" },
	{ "mem-size", OK_SIZE, OFF(mem_size), 1ULL << 20, 1ULL << 50, NULL, "SIZE",
	  "bytes per STREAM array, 1M to available memory (default: 4x the measured cache knee, 64M-256M)" },
	{ "mem-threads", OK_UINT, OFF(mem_threads), 1, 1024, NULL, "N",
	  "threads of the multi-thread run, 1-1024 (default: effective CPUs)" },
	{ "mem-tests", OK_NAMESET, OFF(mem_tests), 0, 0, mem_test_names, "LIST",
	  "run only these parts: stream,latency,sysbench (default: all)" },
	{ "mem-strict", OK_FLAG, OFF(mem_strict), 0, 0, NULL, NULL,
	  "STREAM's rule: arrays 4x the sysfs LLC, best of 10, no huge-page advice (slower)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Grading" },
	{ "thresholds", OK_STR, OFF(thresholds), 0, 0, NULL, "FILE",
	  "JSON tiers, fit-for rules and health bounds, each with its source" },
	{ "require", OK_STR, OFF(require), 0, 0, NULL, "EXPR,...",
	  "gate: metric>=N etc.; any failure exits 3 (metrics below)" },
	{ "dump-thresholds", OK_FLAG, OFF(dump_thresholds), 0, 0, NULL, NULL,
	  "print the built-in tiers, rules and health bounds, exit" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL,
	  "Among published results (offline: 410 published yabs runs and more, compiled in)" },
	{ "place-kind", OK_STR, OFF(place_kind), 0, 0, NULL, "KIND",
	  "vps, dedicated or any: the published runs compared with (default: vps)" },
	{ "place-vcpus", OK_STR, OFF(place_vcpus), 0, 0, NULL, "N|N-M|any",
	  "only published runs with this many vCPUs (default: any)" },
	{ "place-years", OK_STR, OFF(place_years), 0, 0, NULL, "Y|Y-Y|any",
	  "only published runs dated in these years; undated ones left out (default: any)" },
	{ "place-per-machine", OK_FLAG, OFF(place_per_machine), 0, 0, NULL, NULL,
	  "one published run per machine, its first (default: every run)" },
	{ "place-include-cached", OK_FLAG, OFF(place_include_cached), 0, 0, NULL, NULL,
	  "keep published yabs runs whose 1m total passes 15 GB/s (host cache; default: left out)" },
	{ "place-min-n", OK_STR, OFF(place_min_n), 0, 0, NULL, "N",
	  "fewest published rows to place a figure among, 1-1000 (default: 20)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Upload (nothing is sent without --upload)" },
	{ "upload", OK_LIST, OFF(upload), 0, 0, NULL, "URL",
	  "POST the JSON report to URL (https); repeatable" },
	{ "upload-header", OK_LIST, OFF(upload_header), 0, 0, NULL, "'N: V'",
	  "extra request header, e.g. a token; repeatable; never logged" },
	{ "upload-format", OK_ENUM, OFF(upload_format), 0, 0, upload_format_names, "FMT",
	  "json|yabs|prom body (yabs: passes as --format yabs); prom PUTs to a Pushgateway (default: json)" },
	{ "allow-http", OK_FLAG, OFF(allow_http), 0, 0, NULL, NULL,
	  "allow plain http:// upload URLs" },
	{ "cacert", OK_STR, OFF(cacert), 0, 0, NULL, "FILE",
	  "CA bundle for a private collector (default: system bundle)" },
	{ "connect-timeout", OK_DUR, OFF(connect_timeout_ns), 1000000, 600ULL * 1000000000ULL, NULL,
	  "DUR", "upload connect timeout (default: 10s)" },
	{ "upload-timeout", OK_DUR, OFF(upload_timeout_ns), 1000000, 3600ULL * 1000000000ULL, NULL,
	  "DUR", "upload total timeout per try (default: 30s)" },
	{ "include-host", OK_FLAG, OFF(include_host), 0, 0, NULL, NULL,
	  "keep paths below $HOME as they are (default: shown as ~)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Network (net; nothing is sent without --net)" },
	{ "net", OK_FLAG, OFF(net), 0, 0, NULL, NULL,
	  "run the network module (iperf3 send/receive, round trip, HTTP downloads)" },
	{ "net-server", OK_LIST, OFF(net_server), 0, 0, NULL, "SPEC",
	  "host[:port[-port]][,name,location], [v6] literal; repeatable" },
	{ "net-4", OK_FLAG, OFF(net_4), 0, 0, NULL, NULL, "IPv4 only" },
	{ "net-6", OK_FLAG, OFF(net_6), 0, 0, NULL, NULL, "IPv6 only" },
	{ "net-streams", OK_UINT, OFF(net_streams), 1, 128, NULL, "N",
	  "parallel iperf3 streams, 1-128, a thread each (default: 8)" },
	{ "net-time", OK_DUR, OFF(net_time_ns), 1000000000ULL, 3600ULL * 1000000000ULL, NULL, "DUR",
	  "iperf3 time per direction and HTTP cap, whole seconds, at least 1s (default: 10s)" },
	{ "net-max-time", OK_DUR, OFF(net_max_time_ns), 1000000000ULL, 86400ULL * 1000000000ULL, NULL,
	  "DUR", "cap on the whole net module, name lookups included (default: 10m)" },
	{ "net-url", OK_LIST, OFF(net_url), 0, 0, NULL, "URL",
	  "HTTP download test of URL (http/https); repeatable" },
	{ "net-conns", OK_UINT, OFF(net_conns), 1, 32, NULL, "N",
	  "parallel HTTP connections, 1-32 (default: 4)" },
	{ "net-quick", OK_FLAG, OFF(net_quick), 0, 0, NULL, NULL,
	  "3 of the built-in iperf3 servers (London, Singapore, NYC: yabs -r)" },
	{ "net-region", OK_STR, OFF(net_region), 0, 0, NULL, "CC",
	  "built-in iperf3 servers in this country only (UK, NL, UZ, SG, US, BR)" },
	{ NULL, OK_SECTION, 0, 0, 0, NULL, NULL, "Other" },
	{ "help", OK_HELP, 0, 0, 0, NULL, NULL, "this text" },
	{ "version", OK_VERSION, 0, 0, 0, NULL, NULL, "print the version" },
};

#define OPT_COUNT (sizeof(opt_table) / sizeof(opt_table[0]))

static void usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "vpsbench: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, " (see --help)\n");
}

static const char *kind_form(const struct opt_def *d)
{
	switch (d->kind) {
	case OK_SIZE: return "a size such as 4096, 4K, 512M or 1G";
	case OK_DUR:  return "a duration such as 30, 30s, 500ms or 2m";
	case OK_UINT: return "a whole number";
	default:      return "a value";
	}
}

/* A duration bound as the parser reads it back: "100ms", "3600s", "1ns". */
static const char *dur_text(char *buf, size_t n, uint64_t ns)
{
	if (ns % 1000000000ULL == 0)
		snprintf(buf, n, "%llus", (unsigned long long)(ns / 1000000000ULL));
	else if (ns % 1000000ULL == 0)
		snprintf(buf, n, "%llums", (unsigned long long)(ns / 1000000ULL));
	else
		snprintf(buf, n, "%lluns", (unsigned long long)ns);
	return buf;
}

/* "a|b|c" (or with another separator) from a NULL-ended name list */
static void names_text(char *buf, size_t n, const char *const *names, const char *sep)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? sep : "", names[i]);
}

/*
 * A comma list -> a bit per name: its index in names, or with names NULL
 * the module id ("seq,rand" for --only/--skip). -1 on an unknown or empty list.
 */
static int parse_nameset(const char *s, const char *const *names, uint64_t *mask)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int idx = names ? parse_enum(tok, names) : bench_module_find(tok);

		if (idx < 0 || idx >= 64)
			return -1;
		*mask |= 1ULL << idx;
	}
	return *mask ? 0 : -1;
}

static int apply(const struct opt_def *d, const char *arg, struct bench_opts *o)
{
	char *base = (char *)o;
	struct opt_u64 *u = (struct opt_u64 *)(base + d->off);
	uint64_t v;
	int idx;
	char form[160], lo[32], hi[32];

	switch (d->kind) {
	case OK_FLAG:
		*(bool *)(base + d->off) = true;
		return 0;
	case OK_STR:
		if (!*arg) {
			usage_error("--%s needs a non-empty value%s", d->name, "");
			return 1;
		}
		*(const char **)(base + d->off) = arg;
		return 0;
	case OK_DIR:
		if (!*arg) {
			usage_error("--%s needs a directory path%s", d->name, "");
			return 1;
		}
		if (o->ndirs >= BENCH_MAX_DIRS) {
			usage_error("--%s given more than %s times", d->name, "16");
			return 1;
		}
		o->dirs[o->ndirs++] = arg;
		return 0;
	case OK_LIST: {
		struct opt_list *l = (struct opt_list *)(base + d->off);

		if (!*arg) {
			usage_error("--%s needs a non-empty value%s", d->name, "");
			return 1;
		}
		if (l->n >= OPT_LIST_MAX) {
			usage_error("--%s given more than %s times", d->name, "16");
			return 1;
		}
		l->v[l->n++] = arg;
		return 0;
	}
	case OK_MODLIST:
		if (parse_nameset(arg, NULL, &v) < 0) {
			usage_error("--%s takes a comma list of modules from sysinfo,seq,rand,cpu,mem,net, not '%s'",
				    d->name, arg);
			return 1;
		}
		*(unsigned *)(base + d->off) = (unsigned)v;
		return 0;
	case OK_SIZE:
	case OK_DUR:
	case OK_UINT:
		if ((d->kind == OK_SIZE ? parse_size(arg, &v) :
		     d->kind == OK_DUR ? parse_duration(arg, &v) :
		     parse_uint(arg, 0, UINT64_MAX, &v)) < 0) {
			snprintf(form, sizeof(form), "%s, not '%s'", kind_form(d), arg);
			usage_error("--%s takes %s", d->name, form);
			return 1;
		}
		if (v < d->min || v > d->max) {
			if (d->kind == OK_UINT)
				snprintf(form, sizeof(form), "from %llu to %llu, not '%s'",
					 (unsigned long long)d->min, (unsigned long long)d->max, arg);
			else if (d->kind == OK_DUR)
				snprintf(form, sizeof(form), "from %s to %s, not '%s'",
					 dur_text(lo, sizeof(lo), d->min), dur_text(hi, sizeof(hi), d->max),
					 arg);
			else
				snprintf(form, sizeof(form), "%s within its range (see --help), not '%s'",
					 kind_form(d), arg);
			usage_error("--%s takes a value %s", d->name, form);
			return 1;
		}
		u->v = v;
		u->set = true;
		return 0;
	case OK_NAMESET:
		if (parse_nameset(arg, d->names, &v) < 0) {
			names_text(form, sizeof(form), d->names, ",");
			usage_error("--%s takes a comma list from %s", d->name, form);
			return 1;
		}
		u->v = v;
		u->set = true;
		return 0;
	case OK_ENUM:
	case OK_FORMAT:
		idx = parse_enum(arg, d->names);
		if (idx < 0) {
			names_text(form, sizeof(form), d->names, "|");
			usage_error("--%s takes one of %s", d->name, form);
			return 1;
		}
		if (d->kind == OK_FORMAT) {
			o->format = (enum out_format)idx;
		} else {
			u->v = (uint64_t)idx;
			u->set = true;
		}
		return 0;
	case OK_JSON:
		o->format = FMT_JSON;
		return 0;
	case OK_LABEL: {
		char err[256];

		if (labels_add(&o->labels, arg, err, sizeof(err)) < 0) {
			usage_error("%s%s", err, "");
			return 1;
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* MemAvailable in bytes (below VPSBENCH_ROOT in tests), 0 when unknown. */
static uint64_t mem_available(void)
{
	const char *root = getenv("VPSBENCH_ROOT");
	char path[4096], line[256];
	unsigned long long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root ? root : "");
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

int options_parse(int argc, char **argv, struct bench_opts *o)
{
	struct option lopts[OPT_COUNT + 1];
	const struct opt_def *defs[OPT_COUNT];
	size_t n = 0;
	int c, idx, rc;
	bool want_help = false, want_version = false;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *d = &opt_table[i];
		bool takes_arg;

		if (d->kind == OK_SECTION)
			continue;
		takes_arg = !(d->kind == OK_FLAG || d->kind == OK_JSON ||
			      d->kind == OK_HELP || d->kind == OK_VERSION);
		lopts[n] = (struct option){ d->name, takes_arg ? required_argument : no_argument,
					    NULL, (int)(256 + n) };
		defs[n++] = d;
	}
	lopts[n] = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	optind = 0; /* glibc: 0 is the full reset of getopt state */
	while ((c = getopt_long(argc, argv, ":hV", lopts, &idx)) != -1) {
		if (c == 'h') {
			want_help = true;
			continue;
		}
		if (c == 'V') {
			want_version = true;
			continue;
		}
		if (c == '?') {
			if (optopt >= 256 && optopt < (int)(256 + n))
				usage_error("--%s takes no value%s", defs[optopt - 256]->name, "");
			else if (optopt) {
				char opt[2] = { (char)optopt, '\0' };

				usage_error("unknown option '-%s'%s", opt, "");
			}
			else
				usage_error("unknown option '%s'%s", argv[optind - 1], "");
			return 1;
		}
		if (c == ':') {
			const char *name = optopt >= 256 && optopt < (int)(256 + n) ?
				defs[optopt - 256]->name : argv[optind - 1];
			const struct opt_def *d = optopt >= 256 && optopt < (int)(256 + n) ?
				defs[optopt - 256] : NULL;

			usage_error("--%s needs a value: %s", name,
				    d && d->arg ? d->arg : "see --help");
			return 1;
		}
		if (c < 256 || c >= (int)(256 + n))
			continue;
		if (defs[c - 256]->kind == OK_HELP) {
			want_help = true;
			continue;
		}
		if (defs[c - 256]->kind == OK_VERSION) {
			want_version = true;
			continue;
		}
		rc = apply(defs[c - 256], optarg, o);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		usage_error("unexpected argument '%s'%s", argv[optind], "");
		return 1;
	}
	if (o->mem_size.set && !want_help && !want_version) {
		uint64_t avail = mem_available();
		char lim[64];

		if (avail && o->mem_size.v > avail) {
			snprintf(lim, sizeof(lim), "%llu MiB", (unsigned long long)(avail >> 20));
			usage_error("--mem-size is more than the available memory (%s)%s", lim, "");
			return 1;
		}
	}
	if (want_help) {
		o->show_help = true; /* bench.c prints it: the metric list is grade's */
		return -1;
	}
	if (want_version) {
		printf("vpsbench %s\n", VPSBENCH_VERSION);
		return -1;
	}
	if (o->ndirs == 0)
		o->dirs[o->ndirs++] = ".";
	if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
		o->no_color = true;
	return 0;
}

bool options_module_selected(const struct bench_opts *o, int id)
{
	if (id == MOD_net && !o->net) /* opt-in: no traffic without --net */
		return false;
	if (id == MOD_cache && !(o->profile && !strcmp(o->profile, "storage")))
		return false; /* opt-in: only --profile storage */
	if (o->only_mask && !(o->only_mask & (1u << id)))
		return false;
	return !(o->skip_mask & (1u << id));
}

void options_help(FILE *f, const char *const *metric_names, const char *const *metric_descs)
{
	fprintf(f,
		"Usage: vpsbench [OPTION]...\n"
		"Benchmark this machine: system info, dd-style sequential passes and\n"
		"fio-style random I/O, graded. Offline unless a flag asks otherwise.\n");
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *d = &opt_table[i];
		char lhs[48];

		if (d->kind == OK_SECTION) {
			fprintf(f, "\n%s:\n", d->help);
			continue;
		}
		snprintf(lhs, sizeof(lhs), "--%s%s%s", d->name, d->arg ? " " : "",
			 d->arg ? d->arg : "");
		fprintf(f, "  %-22s %s\n", lhs, d->help);
	}
	fprintf(f, "\nMetrics for --require (and the JSON \"metrics\" object):\n");
	for (int i = 0; metric_names[i]; i++)
		fprintf(f, "  %-17s %s\n", metric_names[i], metric_descs[i]);
	fprintf(f, "\nCompare two JSON reports:\n"
		"  vpsbench compare OLD.json NEW.json [--format text|json]\n");
	fprintf(f, "\nRank a fleet's JSON reports (files or directories):\n"
		"  vpsbench fleet REPORT...|DIR [--format text|json|csv|html] [--outlier PCT]\n"
		"                 [--require EXPR,...] [--no-color] [--place-* filters]\n");
	fprintf(f, "\nPlace a saved JSON report among published results, or show them (vpsbench place --help):\n"
		"  vpsbench place REPORT.json [--place-* filters] [--format text|json|prom] [--html FILE]\n"
		"  vpsbench place --population [--place-* filters] [--format text|json]\n");
	fprintf(f, "\nWatch this machine over days against a baseline (vpsbench watch --help):\n"
		"  vpsbench watch [--baseline FILE] [--state-dir DIR] [--every DUR] [--listen ADDR:PORT|none]\n"
		"  vpsbench watch --report [--state-dir DIR] [--since DUR] [--html FILE]\n");
	fprintf(f, "\nProfiles:");
	for (int i = 0; plan_profile_names[i]; i++)
		fprintf(f, " %s", plan_profile_names[i]);
	fprintf(f,
		"\n\nSizes take K/M/G/T suffixes (binary: 1K = 1024 bytes); durations take\n"
		"s, ms or m (a plain number is seconds). Figures: MB/s is decimal (10^6 B/s,\n"
		"as dd prints), MiB/s binary; latencies in ns/us/ms as labelled.\n"
		"\nEnvironment: NO_COLOR disables colors; VPSBENCH_ROOT reads /proc, /sys\n"
		"and /etc below that directory (for tests).\n"
		"\nExit status:\n"
		"  0  ok\n"
		"  1  usage error (bad option or value; nothing was written)\n"
		"  2  a test could not run or failed\n"
		"  3  results below required thresholds\n"
		"  4  upload failed\n");
}
