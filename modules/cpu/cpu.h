/*
 * cpu.h — the CPU module: sysbench cpu 1.0.20's prime event (events/s on
 * 1 thread and on N effective CPUs, pinned), AES-256-GCM and SHA-256 MB/s
 * through OpenSSL's libcrypto, and what the neighbours and the provider
 * took meanwhile: steal from /proc/stat, cgroup CPU throttling.
 */
#ifndef VPSBENCH_CPU_H
#define VPSBENCH_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pass_cpu.h"
#include "core/value.h"

#define CPU_DEFAULT_MAX_PRIME 10000u
#define CPU_MAX_THREADS 1024u
#define CPU_CRYPTO_BUF 16384u      /* openssl speed -bytes 16384 */
#define CPU_CRYPTO_FRAC 0.08       /* each crypto pass: this share of --cpu-time (0.2 s) */
#define CPU_TL_MAX 120             /* steal samples, one a second */
#define CPU_STEAL_NOISY 5.0        /* % above which neighbours are named */
#define CPU_SHARE_WARN 0.9         /* a pass's threads got less of their CPUs: warn */

/* One timed prime pass: events counted by all threads over wall seconds. */
struct cpu_prime_pass {
	unsigned threads;
	bool pinned;                 /* every thread pinned to its own CPU */
	uint64_t events;             /* full counts of primes below max_prime */
	double seconds;              /* release of the threads .. the last one joined */
	double cpu_seconds;          /* CPU time the threads got (less than threads x seconds when shared) */
	struct mdbl eps;             /* events / seconds; null if not run */
	/* 95% half-width of eps (core/uncert.h): the mean of the pass's per-0.2 s
	 * event rates, t x s / sqrt(n); NAN with fewer than 2 sub-intervals */
	double eps_u;
	unsigned nsub;               /* sub-intervals eps_u is told from */
	bool complete;               /* ran its whole time */
	struct pass_cpu cpu;         /* share of threads x seconds the threads ran; disturbed */
};

/* One crypto pass: bytes processed by all threads over wall seconds. */
struct cpu_crypto_pass {
	unsigned threads;
	uint64_t bytes;
	double seconds;
	double cpu_seconds;          /* CPU time the threads got */
	struct mdbl mbps;            /* decimal MB/s (10^6), as openssl speed's kB are 1000 B */
	/* every thread worked through the whole window: mbps is known only then;
	 * else null_reason says why (a busy CPU can leave a thread of a short
	 * pass without one finished unit: the figure would not be its N threads') */
	bool complete;
	char null_reason[112];
	struct pass_cpu cpu;         /* share of threads x seconds the threads ran; disturbed */
};

/* cgroup cpu.stat throttling counters at one level. */
struct cpu_throttle_counters {
	uint64_t nr_periods, nr_throttled;
	uint64_t throttled_ns;       /* v2 throttled_usec x 1000; v1 throttled_time: run-queue
	                              * time summed over CPUs, so it can pass the wall time */
	bool ok;
};

struct cpu_result {
	unsigned max_prime;
	double time_s;               /* per prime pass */
	unsigned threads;            /* N: the multi-thread pass */
	const char *threads_source;  /* "affinity", "cgroup quota", "--cpu-threads" */
	unsigned affinity_cpus;
	struct mdbl quota_cpus;      /* cgroup CPU quota in CPUs; null = none or unknown */
	unsigned long prime_count;   /* primes below max_prime the event found (1228 at 10000) */

	struct cpu_prime_pass single, multi;
	struct mdbl scaling;         /* multi.eps / single.eps */
	double scaling_u;            /* its 95% half-width (uncert_ratio); NAN unknown */

	bool crypto_available;
	char crypto_reason[96];      /* why not, when !crypto_available */
	struct cpu_crypto_pass aes1, aesn, sha1, shan;
	enum mbool aes_ni, sha_ext;  /* /proc/cpuinfo flags (aes / sha_ni; arm64 aes / sha2) */

	/* Steal over the module's run on the CPUs of the affinity mask (/proc/stat
	 * per-CPU deltas, steal / (busy + steal)): null when unreadable. */
	struct mdbl steal_pct;
	uint64_t steal_ticks, total_ticks; /* total = busy + steal ticks of those CPUs */
	unsigned nsteal;             /* per-second steal % samples during the passes */
	double steal_tl[CPU_TL_MAX];

	/* cgroup throttling over the run: null when no cpu.stat was readable. */
	int cgroup_version;          /* 0 unknown, 1, 2 */
	struct mu64 nr_periods, throttled_periods;
	struct mdbl throttled_s;
};

/* --- pure helpers (cpu_stat.c), unit-tested on fixtures --- */

/* Parses cpu.stat text (v1 or v2 keys) into c. */
void cpu_throttle_parse(const char *text, int version, struct cpu_throttle_counters *c);

/* --- the event (cpu_prime.c) --- */
/* sysbench's event: primes in 3 .. max_prime-1 by trial division up to sqrt. */
unsigned long cpu_prime_event(unsigned long long max_prime);

#endif
