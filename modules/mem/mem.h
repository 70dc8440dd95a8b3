/*
 * mem.h — the memory module: bandwidth based on a variant of the STREAM
 * benchmark (Copy, Scale, Add, Triad; 1 and N pinned threads), dependent-
 * load latency over a random cyclic permutation at sizes from 16 KiB up to
 * 4x the last-level cache (on transparent huge pages; 4 KiB pages at the
 * top three sizes show the page-walk cost), a sysbench-memory-comparable
 * 1 MiB-block figure (cache-heavy), and the signs of an oversold host
 * (balloon, KSM, swap-in, memory pressure).
 *
 * By default the STREAM arrays are sized from the cache knee the latency
 * curve measured (4x, bounded MEM_FAST_MIN..MEM_FAST_MAX, grown while Triad
 * at S and 2S differ by more than MEM_GROW_TOL), on huge pages, with
 * repetitions budgeted by time; --mem-strict keeps STREAM's own rule
 * (4x the sysfs LLC, best of 10, the pages malloc would get).
 */
#ifndef VPSBENCH_MEM_H
#define VPSBENCH_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/host_mem.h"
#include "core/pass_cpu.h"
#include "core/value.h"

#define MEM_MIN_SIZE (1ULL << 20)      /* --mem-size floor, per array */
#define MEM_ASSUMED_LLC (64ULL << 20)  /* LLC size when neither sysfs nor CPUID has one */
#define MEM_LLC_FACTOR 4               /* STREAM: each array >= 4x the cache */
#define MEM_REPS 11                    /* at most (--mem-strict: always): best of 10, the first skipped */
#define MEM_MIN_REPS 6                 /* at least: 5 counted */
#define MEM_RUN_NS (1200ULL * 1000000ULL) /* repetitions past MEM_MIN_REPS while a run is under this */
#define MEM_FAST_MIN (64ULL << 20)     /* default array bounds (4x the measured knee) */
#define MEM_FAST_MAX (256ULL << 20)
#define MEM_GROW_TOL 0.05              /* Triad at S and 2S agree within 5%: no cache left in S */
#define MEM_GROW_REPS 4                /* Triad repetitions per size of that check (best of 3) */
#define MEM_LAT_MAX (1280ULL << 20)    /* default curve's top (4x a 320 MiB LLC); --mem-strict: none */
#define MEM_LAT_4K_POINTS 3            /* 4 KiB pages with no plateau to reuse: the top three sizes */
#define MEM_LAT_ROUNDS 5               /* chases of the graded point (its uncertainty) */
#define MEM_PLATEAU_TOP 3              /* the plateau point is at a third of the top's ns or more, */
#define MEM_PLATEAU_EDGE 2             /* at twice the cache edge or past it, ... */
#define MEM_PLATEAU_RISE 0.10          /* ... where the next point is at most 10% slower */
#define MEM_XLAT_TOP (1ULL << 30)      /* translation cost measured up to 1 GiB */
#define MEM_KNEE_AGREE 2               /* sysfs LLC above 2x the knee: the knee names the levels */
#define MEM_STREAM_SCALAR 3.0
#define MEM_MAX_SIZES 48
#define MEM_MAX_FLAGS 6
#define MEM_LAT_MIN (16ULL << 10)
#define MEM_SB_BLOCK (1ULL << 20)      /* sysbench --memory-block-size=1M */
/* progress estimates of a default run's steps (2-vCPU VM, LLC knee < 16 MiB; measured
 * for issue #39 with the passes undisturbed: huge 0.8-1.4 s, 4 KiB 0.2-0.3 s, S/2S
 * 0.1-1.4 s (1.0+ when it grows S), STREAM 0.1-0.5 s each, sysbench-style 0.6 s; the
 * module 2.4-4.1 s, median about 3.2 s, planned 3.15 s) */
#define MEM_STEP_LAT_HUGE_NS (1100ULL * 1000000ULL)  /* the huge-page curve and its rounds */
#define MEM_STEP_LAT_4K_NS (250ULL * 1000000ULL)     /* the 4 KiB point's rounds */
#define MEM_STEP_GROW_NS (500ULL * 1000000ULL)       /* Triad at S and 2S */
#define MEM_STEP_STREAM_NS (350ULL * 1000000ULL)     /* one STREAM run */
#define MEM_PLANNED_STREAM_NS (MEM_STEP_GROW_NS + 2 * MEM_STEP_STREAM_NS)
#define MEM_PLANNED_LATENCY_NS (MEM_STEP_LAT_HUGE_NS + MEM_STEP_LAT_4K_NS)
#define MEM_PLANNED_SYSBENCH_NS (600ULL * 1000000ULL) /* read + write, 0.3 s each */
#define MEM_PLANNED_STRICT 2            /* --mem-strict: about that many times as long */

enum mem_kernel { MEM_COPY = 0, MEM_SCALE, MEM_ADD, MEM_TRIAD, MEM_NKERNELS };
enum mem_level { MEM_L1 = 0, MEM_L2, MEM_LLC, MEM_DRAM, MEM_NLEVELS };

extern const char *const mem_kernel_names[MEM_NKERNELS];  /* "copy", ... */
extern const unsigned mem_kernel_words[MEM_NKERNELS];     /* 2, 2, 3, 3 */
extern const char *const mem_level_names[MEM_NLEVELS];    /* "L1", "L2", "LLC", "DRAM" */

/* One STREAM run: all four kernels, `reps` times, on `threads` pinned threads. */
struct mem_stream {
	bool present;
	unsigned threads;
	unsigned reps;                     /* repetitions run (the first is not counted) */
	const char *isa;                   /* the kernels' loops: "avx2", "sse2", "baseline" */
	uint64_t array_bytes;              /* per array, the part this run used */
	bool first_touch;                  /* each thread faulted in its own slice for this run */
	enum mbool huge_used;              /* AnonHugePages seen backing the arrays */
	bool validated;                    /* the arrays held STREAM's expected values after */
	struct mdbl mbps[MEM_NKERNELS];    /* best rep, decimal MB/s */
	double mbps_u[MEM_NKERNELS];       /* half the range of the counted reps' MB/s (95%
	                                    * half-width of a best-of, core/uncert.h); NAN unknown */
	struct mdbl avg_s[MEM_NKERNELS], min_s[MEM_NKERNELS], max_s[MEM_NKERNELS];
	struct pass_cpu cpu;               /* CPU the threads got over the run; disturbed */
};

/* Latency versus working-set size on one page kind. */
struct mem_curve {
	bool present;
	bool huge;                         /* MADV_HUGEPAGE asked for */
	bool page_walk;                    /* 4 KiB pages at the top sizes only: the page-walk cost */
	enum mbool huge_used;              /* AnonHugePages seen backing the buffer */
	char reason[128];                  /* why absent or not huge */
	unsigned n;
	uint64_t size[MEM_MAX_SIZES];      /* bytes */
	double ns[MEM_MAX_SIZES];          /* ns per dependent load */
	struct mdbl level_ns[MEM_NLEVELS]; /* plateaus, unknown when not reached */
	/* The graded DRAM point: the first plateau past the cache (mem_plateau_point) */
	unsigned graded;                   /* index into size[]; >= n: none */
	unsigned rounds;                   /* chases of it (the curve's own first) */
	double round_ns[MEM_LAT_ROUNDS];
	struct mdbl graded_ns;             /* the mean of the rounds */
	double graded_u;                   /* its 95% half-width (uncert_mean_ci95); NAN unknown */
	/* translation cost: growth from the graded point to the curve's largest point
	 * up to MEM_XLAT_TOP (TLB misses and page walks, nested under a hypervisor) */
	uint64_t xlat_bytes;               /* that largest point; 0 = no point past the graded one */
	struct mdbl xlat_ns, xlat_pct;     /* ns there minus the graded point's; % of it */
	struct pass_cpu cpu;               /* CPU the chase got over the curve; disturbed */
};

/* sysbench memory --memory-block-size=1M --memory-access-mode=seq, 1 thread. */
struct mem_sysbench {
	bool present;
	struct mdbl read_mibps, write_mibps;
	double seconds;                    /* per operation */
	struct pass_cpu cpu;               /* CPU the pass got; disturbed */
};

/*
 * Oversell signs over the module: the host's snapshot at its end (as
 * sysinfo reads it; unknown where the file is absent), then what the run
 * itself saw (deltas of the cumulative counters) and the flags in words.
 */
struct mem_signs {
	struct host_mem_signs host;        /* balloon, KSM, swap, PSI at the module's end */
	struct mu64 swapin_pages;          /* /proc/vmstat pswpin during the module */
	struct mdbl swapin_per_s;
	struct mdbl psi_some_ms;           /* stall time during the module */
	unsigned nflags;
	char flags[MEM_MAX_FLAGS][HOST_MEM_FLAG_LEN]; /* what was seen, for people */
};

/* The check that the arrays are past the cache: 1-thread Triad at S and at 2S. */
#define MEM_MAX_GROW 4
struct mem_grow {
	unsigned n;
	uint64_t bytes[MEM_MAX_GROW];      /* per array */
	double mbps[MEM_MAX_GROW];         /* best Triad MB/s at that size */
	bool settled;                      /* the last two sizes agreed within MEM_GROW_TOL */
	bool disturbed;                    /* stopped: a Triad got < PASS_CPU_SHARE_MIN of its CPU */
};

/* Cache sizes and the memory the arrays may take. */
struct mem_host {
	struct mu64 l1d, l2, llc;          /* bytes, from sysfs cache index dirs, else CPUID */
	unsigned llc_level;
	const char *cache_source;          /* "sysfs", "cpuid"; NULL = neither had them */
	struct mu64 avail;                 /* MemAvailable */
	struct mu64 cg_limit, cg_used;     /* memory cgroup limit and non-file usage */
};

struct mem_result {
	unsigned tests;                    /* bit per enum mem_test (core/plan.h) that was asked */
	bool strict;                       /* --mem-strict */
	struct mem_host host;
	uint64_t knee_bytes;               /* the cache knee of the huge-page curve; 0 = none seen */
	uint64_t llc_named;                /* the LLC size the levels were named from */
	const char *levels_source;         /* "sysfs", "cpuid", "curve" (knee), "assumed" */
	const char *size_source;           /* "curve knee", "LLC", "--mem-size" */
	uint64_t lat_max_bytes;            /* the latency curve's top size */
	struct mem_grow grow;
	uint64_t llc_used;                 /* LLC size the sizing used (assumed when unknown) */
	bool llc_assumed;
	const char *llc_source;            /* "sysfs", "cpuid", "assumed" (MEM_ASSUMED_LLC) */
	uint64_t want_bytes;               /* per array: 4x the knee (bounded), 4x LLC (strict), --mem-size */
	uint64_t array_bytes;              /* per array, after the caps (the STREAM runs' size) */
	uint64_t budget_bytes;             /* what all arrays together may take */
	bool capped;                       /* arrays < 4x the named LLC (budget or --mem-size): include cache */
	char cap_reason[160];
	unsigned threads;                  /* N of the N-thread run */
	double quota_cpus;                 /* cgroup CPU quota in CPUs; 0 = none or unknown */
	const char *threads_source;        /* "affinity", "cgroup quota", "--mem-threads" */
	int single_cpu;                    /* CPU of the latency curves and sysbench-style figure, -1 unpinned */
	struct mem_stream st[2];           /* [0] 1 thread, [1] N threads */
	struct mem_curve lat[2];           /* [0] 4 KiB pages, [1] huge pages */
	struct mem_sysbench sb;
	struct mem_signs signs;
};

/* --- pure helpers (mem_calc.c), unit-tested in tests/test_mem.c --- */

/* STREAM's rate: words x 8 bytes x n elements / seconds, in decimal MB/s. */
double mem_mbps(unsigned words, uint64_t n, double seconds);

/*
 * Best (min) time over reps 1..nreps-1 (rep 0 is a warm-up), with avg and
 * max of the same reps. Returns false when fewer than 2 reps.
 */
bool mem_best_of(const double *t, unsigned nreps, double *min, double *avg, double *max);

/*
 * Bytes per array: want (4x LLC or the override) unless the three arrays
 * would pass budget; then budget/3 rounded down to 4 KiB (*capped).
 * budget = min(avail / 4, cgroup room / 2); 0 avail or room = no such cap.
 */
uint64_t mem_budget(uint64_t avail, uint64_t cg_limit, uint64_t cg_used);
uint64_t mem_array_bytes(uint64_t want, uint64_t budget, bool *capped);

/*
 * The cache knee of a latency curve: the largest size whose latency is
 * below half the top size's, all larger ones at or above it; 0 when the
 * curve has fewer than 3 points or no such step (the top below twice the
 * first point's latency).
 */
uint64_t mem_knee(const uint64_t *size, const double *ns, unsigned n);
/* The default array size: 4x the knee rounded up to 1 MiB, within MEM_FAST_MIN..MAX. */
uint64_t mem_fast_size(uint64_t knee);
/*
 * Whether the curve's knee names the cache levels instead of sysfs's LLC:
 * a knee the curve reaches 4x of (a knee near the top is a noisy top, not a
 * cache), and sysfs with no LLC (llc 0) or one above MEM_KNEE_AGREE x the
 * knee (the host socket's, not this VM's share); never with --mem-strict.
 */
bool mem_knee_names_levels(uint64_t knee, uint64_t curve_max, uint64_t llc, bool strict);
/* The latency curve's top: 4x llc (at least MEM_FAST_MIN; at most MEM_LAT_MAX unless strict), within budget/2. */
uint64_t mem_lat_max(uint64_t llc, uint64_t budget, bool strict);
/* Whether Triad at a size and at twice it agree: |b - a| <= MEM_GROW_TOL x b. */
bool mem_grow_agrees(double mbps_s, double mbps_2s);
/*
 * After the newest point of the S/2S check (share: the CPU its Triad got,
 * < 0 unknown): false when done, with *s the size to run at (the first of
 * two that agreed, or the first of all when the check was starved); true
 * to go on, *s the newest size.
 */
bool mem_grow_step(struct mem_grow *g, double share, uint64_t *s);
/* Repetitions to run: MEM_REPS if strict, else until MEM_RUN_NS is spent (at least MEM_MIN_REPS). */
bool mem_rep_more(unsigned done, uint64_t elapsed_ns, bool strict);

/*
 * The curve's first plateau point past the cache, the DRAM latency that is
 * graded: the first point i
 *   - at a third of the top point's latency or more (past every cache level:
 *     caches answer several times faster than DRAM),
 *   - at twice the cache edge or more, the edge being the last smaller size
 *     whose latency is below half of ns[i] (at 2x the cache a random ring
 *     still hits it about half the time: the curve is still climbing), and
 *   - whose next point is at most MEM_PLATEAU_RISE slower:
 *     ns[i+1] <= ns[i] x 1.10 (past it latency grows only by the translation
 *     cost, TLB reach and page walks, not by cache misses any more).
 * The edge is the curve's own, not the knee (a top point inflated by page
 * walks moves the knee); an LLC size sysfs or CPUID gave (llc; 0 = none) is a
 * floor besides: the point is at twice it or more. The top point has
 * no next and is never picked. Returns n when there is no such point (the
 * curve did not level off within its sizes).
 */
unsigned mem_plateau_point(const uint64_t *size, const double *ns, unsigned n, uint64_t llc);
/* The cache edge below point i: the last smaller size whose latency is below half of ns[i]; 0 none. */
uint64_t mem_cache_edge(const uint64_t *size, const double *ns, unsigned i);
/*
 * From c->round_ns[0..rounds): graded_ns (their mean), graded_u
 * (uncert_mean_ci95), and the translation cost from the graded point to the
 * largest point of the curve up to MEM_XLAT_TOP.
 */
void mem_graded_fill(struct mem_curve *c);

/* The median of v[0..n) (sorts v in place); 0 when n is 0. */
double mem_median(double *v, unsigned n);

/* "32K", "1024 KB", "32M" as sysfs writes cache sizes; false when not one. */
bool mem_parse_cache_size(const char *s, uint64_t *bytes);

/*
 * Sizes for the latency curve: 16 KiB upward by steps of 2^(1/2) (4 KiB
 * aligned) up to max, and max itself always last (in place of a grid point
 * within 25% below it); returns how many (<= MEM_MAX_SIZES).
 */
unsigned mem_lat_sizes(uint64_t max, uint64_t *size, unsigned cap);

/*
 * Names the plateaus of a latency curve. With cache sizes known (0 =
 * unknown): L1 = median of sizes <= L1d/2, L2 of 2 L1d .. L2/2, LLC of
 * 2 L2 .. LLC/2, DRAM of sizes >= 4 LLC. Unknown sizes: DRAM of sizes >=
 * 4x llc_hint (the LLC size assumed), and below that the flat runs of the
 * curve (every point within 20% of the run's lowest) in order: the first
 * L1 when it starts at the smallest size, then L2, the last LLC (runs that
 * start past llc_hint are the way up to DRAM and are not named).
 */
void mem_plateaus(const uint64_t *size, const double *ns, unsigned n, uint64_t l1d,
		  uint64_t l2, uint64_t llc, uint64_t llc_hint, struct mdbl out[MEM_NLEVELS]);

/* Adds a flag line to signs (dropped when full). */
void mem_flag(struct mem_signs *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --- cache sizes from CPUID (mem_cpuid.c) --- */

/* The cache type field of CPUID leaf 4 / 0x8000001D EAX[4:0]. */
enum { MEM_CPUID_NONE = 0, MEM_CPUID_DATA = 1, MEM_CPUID_INSTR = 2, MEM_CPUID_UNIFIED = 3 };

struct mem_cpuid_cache {
	unsigned type, level;              /* EAX[4:0], EAX[7:5] */
	uint64_t bytes;                    /* ways x partitions x line x sets */
};

/*
 * One subleaf of Intel's leaf 4 or AMD's 0x8000001D (the same layout):
 * EBX[31:22] ways-1, EBX[21:12] partitions-1, EBX[11:0] line-1, ECX sets-1.
 * False at the list's end (type 0). Pure: any architecture.
 */
bool mem_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct mem_cpuid_cache *c);
/* l1d, l2, llc (the highest level's data or unified cache) from n subleaves' {eax, ebx, ecx}. */
bool mem_cpuid_caches_from(const uint32_t (*regs)[3], unsigned n, struct mem_host *h);
/* The same from this CPU's CPUID (x86 only: false elsewhere, or when both leaves are empty). */
bool mem_cpuid_caches(struct mem_host *h);

/* --- readers under root (mem_host.c), fixture-tested --- */

void mem_read_host(const char *root, struct mem_host *h);
/*
 * N of the N-thread run: override (--mem-threads) when not 0, else the
 * effective CPUs, the affinity mask cut by the cgroup CPU quota rounded
 * up (as the cpu module); *source says which ("--mem-threads",
 * "cgroup quota", "affinity").
 */
unsigned mem_threads(const char *root, unsigned affinity, unsigned override, const char **source);
/* Counters at the start; mem_signs_end adds the deltas over `seconds` and the flags. */
struct mem_signs_start {
	struct mu64 pswpin;
	struct mdbl psi_some_total_us;
};
void mem_signs_begin(const char *root, struct mem_signs_start *s0);
void mem_signs_end(const char *root, const struct mem_signs_start *s0, double seconds,
		   struct mem_signs *s);

/* --- one DRAM latency point (mem_point.c), for `vpsbench watch` --- */

/*
 * ns per dependent load of a pointer chase over a buffer past the cache
 * (4x the LLC, MEM_POINT_MIN..MEM_POINT_MAX) on transparent huge pages, the
 * median of timed chunks as the latency curve's; stops early when *stop is
 * set. *huge_used: huge pages seen backing it. 0, or -1 with err.
 */
#define MEM_POINT_MIN (64ULL << 20)
#define MEM_POINT_MAX (256ULL << 20)
int mem_dram_point(const char *root, const volatile int *stop, double *ns, enum mbool *huge_used,
		   char *err, size_t errlen);

#endif
