/*
 * test_mem.c — the mem module's figures against their raw parts: STREAM's
 * MB/s = words x 8 x n / time (also on a real run), best-of skipping the
 * first rep, array sizing and its caps, plateau naming on synthetic
 * curves, and the readers on the mem_oversell fixture tree.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "grade/grade.h"
#include "core/uncert.h"
#include "modules/mem/mem.h"
#include "modules/mem/mem_barrier.h"
#include "modules/mem/mem_kern.h"
#include "modules/mem/mem_priv.h"
#include "report/report.h"
#include "th.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static void fixture(char *root, size_t n, const char *name)
{
	snprintf(root, n, "%s/tests/fixtures/%s", th_srcdir(), name);
}

TH_TEST(mem_mbps_counts_stream_words)
{
	/* 10^6 elements in 10 ms: copy moves 2 x 8 x 10^6 B = 1600 MB/s; triad 3 words = 2400 */
	TH_NEAR(mem_mbps(2, 1000000, 0.01), 1600.0, 1e-9);
	TH_NEAR(mem_mbps(3, 1000000, 0.01), 2400.0, 1e-9);
	TH_NEAR(mem_mbps(mem_kernel_words[MEM_COPY], 1000000, 0.01), 1600.0, 1e-9);
	TH_NEAR(mem_mbps(mem_kernel_words[MEM_SCALE], 1000000, 0.01), 1600.0, 1e-9);
	TH_NEAR(mem_mbps(mem_kernel_words[MEM_ADD], 1000000, 0.01), 2400.0, 1e-9);
	TH_NEAR(mem_mbps(mem_kernel_words[MEM_TRIAD], 1000000, 0.01), 2400.0, 1e-9);
	TH_CHECK(isnan(mem_mbps(3, 1000, 0)));
}

TH_TEST(mem_best_of_skips_the_first_rep)
{
	/* the first rep (cold) is the fastest here and must not count */
	const double t[] = { 0.001, 0.5, 0.3, 0.4 };
	double mn, avg, mx;

	TH_CHECK(mem_best_of(t, 4, &mn, &avg, &mx));
	TH_NEAR(mn, 0.3, 1e-12);
	TH_NEAR(avg, 0.4, 1e-12);
	TH_NEAR(mx, 0.5, 1e-12);
	TH_CHECK(!mem_best_of(t, 1, &mn, &avg, &mx));
}

TH_TEST(mem_array_sizing_rules)
{
	bool capped;

	/* a quarter of MemAvailable; the cgroup room halved */
	TH_EQ_INT(mem_budget(8 * GiB, 0, 0), 2 * GiB);
	TH_EQ_INT(mem_budget(8 * GiB, 256 * MiB, 16 * MiB), 120 * MiB);
	TH_EQ_INT(mem_budget(8 * GiB, 256 * MiB, 300 * MiB), 0);
	TH_EQ_INT(mem_budget(0, 0, 0), UINT64_MAX);
	/* 4x a 32 MiB LLC fits 2 GiB: not capped */
	TH_EQ_INT(mem_array_bytes(128 * MiB, 2 * GiB, &capped), 128 * MiB);
	TH_CHECK(!capped);
	/* three arrays of 128 MiB do not fit 120 MiB: 40 MiB each */
	TH_EQ_INT(mem_array_bytes(128 * MiB, 120 * MiB, &capped), 40 * MiB);
	TH_CHECK(capped);
	/* exactly three arrays' worth fits */
	TH_EQ_INT(mem_array_bytes(40 * MiB, 120 * MiB, &capped), 40 * MiB);
	TH_CHECK(!capped);
	/* rounded down to 4 KiB */
	TH_EQ_INT(mem_array_bytes(128 * MiB, 100 * MiB + 5, &capped), ((100 * MiB + 5) / 3) & ~4095ULL);
}

TH_TEST(mem_cache_size_parse)
{
	uint64_t b = 0;

	TH_CHECK(mem_parse_cache_size("32K", &b) && b == 32 * KiB);
	TH_CHECK(mem_parse_cache_size("1024 KB", &b) && b == MiB);
	TH_CHECK(mem_parse_cache_size("32M", &b) && b == 32 * MiB);
	TH_CHECK(mem_parse_cache_size("512", &b) && b == 512);
	TH_CHECK(!mem_parse_cache_size("0K", &b));
	TH_CHECK(!mem_parse_cache_size("K", &b));
	TH_CHECK(!mem_parse_cache_size("32X", &b));
}

TH_TEST(mem_latency_sizes)
{
	uint64_t s[MEM_MAX_SIZES];
	unsigned n = mem_lat_sizes(64 * KiB, s, MEM_MAX_SIZES);

	TH_EQ_INT(n, 5);
	TH_EQ_INT(s[0], 16 * KiB);
	TH_EQ_INT(s[1], 24 * KiB);
	TH_EQ_INT(s[4], 64 * KiB);
	TH_EQ_INT(mem_lat_sizes(8 * KiB, s, MEM_MAX_SIZES), 0);
	/* 256 MiB: 15 doublings from 16 KiB, two points each but the last */
	TH_EQ_INT(mem_lat_sizes(256 * MiB, s, MEM_MAX_SIZES), 29);
}

/*
 * The curve always ends at its top, so the point at 4x LLC exists for the
 * LLCs hosts report (35, 36, 105 MiB; 260 MiB a host socket's), and
 * DRAM is named from it; the 25% rule only merges a grid point into it.
 */
TH_TEST(mem_latency_dram_point_for_common_llcs)
{
	const uint64_t llc[] = { 35 * MiB, 36 * MiB, 105 * MiB, 260 * MiB };

	for (unsigned i = 0; i < sizeof(llc) / sizeof(llc[0]); i++) {
		uint64_t size[MEM_MAX_SIZES], max = mem_lat_max(llc[i], UINT64_MAX, false);
		double ns[MEM_MAX_SIZES];
		struct mdbl lv[MEM_NLEVELS];
		unsigned n = mem_lat_sizes(max, size, MEM_MAX_SIZES);

		TH_EQ_INT(max, 4 * llc[i]);
		TH_EQ_INT(size[n - 1], 4 * llc[i]);
		TH_CHECK(size[n - 2] < size[n - 1] && size[n - 1] - size[n - 2] >= size[n - 2] / 4);
		for (unsigned k = 0; k < n; k++)
			ns[k] = size[k] <= llc[i] ? 20 : 100 + (double)k; /* DRAM rising by 1 ns a point */
		mem_plateaus(size, ns, n, 32 * KiB, 1 * MiB, llc[i], llc[i], lv);
		TH_CHECK(lv[MEM_DRAM].ok);
		TH_NEAR(lv[MEM_DRAM].v, 100 + (double)(n - 1), 1e-12); /* the top point alone */
	}
	/* 4x 36 MiB = 144 MiB: the grid's 128 MiB is 11% below, merged into the top */
	{
		uint64_t size[MEM_MAX_SIZES];
		unsigned n = mem_lat_sizes(144 * MiB, size, MEM_MAX_SIZES);

		TH_EQ_INT(size[n - 1], 144 * MiB);
		TH_EQ_INT(size[n - 2], 96 * MiB);
	}
}

TH_TEST(mem_latency_max_bounds)
{
	/* default: at least 64 MiB, at most MEM_LAT_MAX; strict: 4x LLC whatever it is */
	TH_EQ_INT(mem_lat_max(2 * MiB, UINT64_MAX, false), 64 * MiB);
	TH_EQ_INT(mem_lat_max(2 * MiB, UINT64_MAX, true), 8 * MiB);
	TH_EQ_INT(mem_lat_max(512 * MiB, UINT64_MAX, false), MEM_LAT_MAX);
	TH_EQ_INT(mem_lat_max(512 * MiB, UINT64_MAX, true), 2048 * MiB);
	/* the buffer and its 1/16 index within the budget */
	TH_EQ_INT(mem_lat_max(32 * MiB, 68 * MiB, false), 64 * MiB);
	TH_EQ_INT(mem_lat_max(32 * MiB, 34 * MiB, false), 32 * MiB);
}

/* The knee: the last size below half the top's latency. */
/* The knee names the levels only past 4x of it on the curve and with sysfs's LLC absent or > 2x it. */
TH_TEST(mem_knee_names_levels_rule)
{
	/* this VM: knee 8 MiB, curve to 1280 MiB, sysfs says the host's 260 MiB */
	TH_CHECK(mem_knee_names_levels(8 * MiB, 1280 * MiB, 260 * MiB, false));
	TH_CHECK(!mem_knee_names_levels(8 * MiB, 1280 * MiB, 260 * MiB, true)); /* --mem-strict */
	TH_CHECK(mem_knee_names_levels(8 * MiB, 32 * MiB, 0, false));           /* no sysfs LLC, 4x exactly */
	TH_CHECK(!mem_knee_names_levels(8 * MiB, 32 * MiB - 1, 0, false));      /* curve short of 4x */
	TH_CHECK(!mem_knee_names_levels(8 * MiB, 1280 * MiB, 16 * MiB, false)); /* sysfs 2x: agrees, sysfs names */
	TH_CHECK(mem_knee_names_levels(8 * MiB, 1280 * MiB, 16 * MiB + 1, false));
	TH_CHECK(!mem_knee_names_levels(0, 1280 * MiB, 260 * MiB, false));      /* no knee */
}

TH_TEST(mem_knee_and_fast_size)
{
	uint64_t size[MEM_MAX_SIZES];
	double ns[MEM_MAX_SIZES];
	unsigned n = mem_lat_sizes(64 * MiB, size, MEM_MAX_SIZES);

	/* LLC to 8 MiB at 12 ns, 12 MiB past half of DRAM's 80 ns (46): knee 8 MiB; at 39 ns: 12 MiB */
	for (unsigned i = 0; i < n; i++)
		ns[i] = size[i] <= 8 * MiB ? 12 : size[i] == 12 * MiB ? 46 : 80;
	TH_EQ_INT(mem_knee(size, ns, n), 8 * MiB);
	for (unsigned i = 0; i < n; i++)
		ns[i] = size[i] <= 8 * MiB ? 12 : size[i] == 12 * MiB ? 39 : 80;
	TH_EQ_INT(mem_knee(size, ns, n), 12 * MiB);
	/* a noisy dip above the knee does not move it down: the last point below half counts */
	ns[n - 3] = 30;
	TH_EQ_INT(mem_knee(size, ns, n), size[n - 3]);
	/* no step (flat curve), or too few points: no knee */
	for (unsigned i = 0; i < n; i++)
		ns[i] = 80;
	TH_EQ_INT(mem_knee(size, ns, n), 0);
	TH_EQ_INT(mem_knee(size, ns, 2), 0);
	/* 4x the knee rounded up to 1 MiB, within 64..256 MiB */
	TH_EQ_INT(mem_fast_size(1 * MiB), 64 * MiB);
	TH_EQ_INT(mem_fast_size(24 * MiB), 96 * MiB);
	TH_EQ_INT(mem_fast_size(24 * MiB + 1), 97 * MiB);
	TH_EQ_INT(mem_fast_size(105 * MiB), 256 * MiB);
}

TH_TEST(mem_grow_and_rep_budget)
{
	/* within 5% of the larger size's figure */
	TH_CHECK(mem_grow_agrees(9500, 10000));
	TH_CHECK(!mem_grow_agrees(9499, 10000));
	TH_CHECK(mem_grow_agrees(10500, 10000));
	TH_CHECK(!mem_grow_agrees(10501, 10000));
	TH_CHECK(!mem_grow_agrees(1, 0));
	/* strict: MEM_REPS whatever the time; default: at least MEM_MIN_REPS, more while under budget */
	TH_CHECK(mem_rep_more(MEM_REPS - 1, 100 * MEM_RUN_NS, true));
	TH_CHECK(!mem_rep_more(MEM_REPS, 0, true));
	TH_CHECK(mem_rep_more(MEM_MIN_REPS - 1, 100 * MEM_RUN_NS, false));
	TH_CHECK(!mem_rep_more(MEM_MIN_REPS, MEM_RUN_NS, false));
	TH_CHECK(mem_rep_more(MEM_MIN_REPS, MEM_RUN_NS - 1, false));
	TH_CHECK(!mem_rep_more(MEM_REPS, 0, false));
	TH_EQ_INT(MEM_MIN_REPS - 1, 5);
}

/* The S/2S check: grow while they differ, run at the first of two that agree, keep S when starved. */
TH_TEST(mem_grow_step_picks_the_size)
{
	struct mem_grow g;
	uint64_t s = 0;

	memset(&g, 0, sizeof(g));
	g.bytes[0] = 64 * MiB, g.mbps[0] = 14000, g.n = 1;
	TH_CHECK(mem_grow_step(&g, 1.0, &s));
	TH_EQ_INT(s, 64 * MiB);
	g.bytes[1] = 128 * MiB, g.mbps[1] = 12000, g.n = 2; /* 64 MiB still had cache in it */
	TH_CHECK(mem_grow_step(&g, 1.0, &s));
	TH_EQ_INT(s, 128 * MiB);
	g.bytes[2] = 256 * MiB, g.mbps[2] = 11800, g.n = 3; /* 128 and 256 agree: run at 128 */
	TH_CHECK(!mem_grow_step(&g, 1.0, &s));
	TH_CHECK(g.settled && !g.disturbed);
	TH_EQ_INT(s, 128 * MiB);
	/* a starved Triad after a disagreement: S kept, not settled */
	memset(&g, 0, sizeof(g));
	g.bytes[0] = 64 * MiB, g.mbps[0] = 14000, g.bytes[1] = 128 * MiB, g.mbps[1] = 9000, g.n = 2;
	TH_CHECK(!mem_grow_step(&g, 0.5, &s));
	TH_CHECK(g.disturbed && !g.settled);
	TH_EQ_INT(s, 64 * MiB);
	/* unknown share: no evidence of starvation, go on */
	g.disturbed = false;
	TH_CHECK(mem_grow_step(&g, -1, &s));
	TH_EQ_INT(s, 128 * MiB);
}

/* A step curve: 1 ns to 32K, 4 ns to 512K, 12 ns to 8M, 80 ns beyond; transitions between. */
static unsigned synth(uint64_t *size, double *ns, bool ramps)
{
	unsigned n = mem_lat_sizes(64 * MiB, size, MEM_MAX_SIZES);

	for (unsigned i = 0; i < n; i++) {
		uint64_t s = size[i];

		ns[i] = s <= 32 * KiB ? 1 : s <= 512 * KiB ? 4 : s <= 8 * MiB ? 12 : 80;
		if (ramps && (s == 48 * KiB || s == 768 * KiB || s == 12 * MiB))
			ns[i] = ns[i - 1] * 2.2; /* a point halfway up each step */
	}
	return n;
}

TH_TEST(mem_plateaus_from_cache_sizes)
{
	uint64_t size[MEM_MAX_SIZES];
	double ns[MEM_MAX_SIZES];
	struct mdbl lv[MEM_NLEVELS];
	unsigned n = synth(size, ns, true);

	mem_plateaus(size, ns, n, 32 * KiB, 512 * KiB, 8 * MiB, 8 * MiB, lv);
	TH_CHECK(lv[MEM_L1].ok && lv[MEM_L2].ok && lv[MEM_LLC].ok && lv[MEM_DRAM].ok);
	TH_NEAR(lv[MEM_L1].v, 1, 1e-12);
	TH_NEAR(lv[MEM_L2].v, 4, 1e-12);
	TH_NEAR(lv[MEM_LLC].v, 12, 1e-12);
	TH_NEAR(lv[MEM_DRAM].v, 80, 1e-12);
	/* a curve that stops below 4x LLC has no DRAM figure */
	mem_plateaus(size, ns, n - 4, 32 * KiB, 512 * KiB, 8 * MiB, 8 * MiB, lv);
	TH_CHECK(!lv[MEM_DRAM].ok);
	TH_CHECK(lv[MEM_LLC].ok);
}

TH_TEST(mem_plateaus_from_the_curve)
{
	uint64_t size[MEM_MAX_SIZES];
	double ns[MEM_MAX_SIZES];
	struct mdbl lv[MEM_NLEVELS];
	unsigned n = synth(size, ns, true);

	/* no cache sizes: the flat runs name themselves; DRAM past 4x the hint */
	mem_plateaus(size, ns, n, 0, 0, 0, 8 * MiB, lv);
	TH_CHECK(lv[MEM_L1].ok && lv[MEM_L2].ok && lv[MEM_LLC].ok && lv[MEM_DRAM].ok);
	TH_NEAR(lv[MEM_L1].v, 1, 1e-12);
	TH_NEAR(lv[MEM_L2].v, 4, 1e-12);
	TH_NEAR(lv[MEM_LLC].v, 12, 1e-12);
	TH_NEAR(lv[MEM_DRAM].v, 80, 1e-12);
	/* a hint too large: no point reaches 4x it, so no DRAM figure */
	mem_plateaus(size, ns, n, 0, 0, 0, 64 * MiB, lv);
	TH_CHECK(!lv[MEM_DRAM].ok);
}

/*
 * CPUID cache leaves decoded from real dumps (`cpuid -r`, quoted in
 * Firecracker's CPU templates): an AWS t2.micro's Xeon E5-2676 v3 (leaf 4;
 * Intel's sheet: 30 MiB L3) and an m6a's EPYC Milan (0x8000001D; 32 MiB L3
 * per CCX). size = ways x partitions x line x sets, exactly.
 */
TH_TEST(mem_cpuid_cache_leaves_decode)
{
	static const uint32_t xeon[][3] = {
		{ 0x00004121, 0x01c0003f, 0x0000003f }, /* L1d: 8 x 1 x 64 x 64 */
		{ 0x00004122, 0x01c0003f, 0x0000003f }, /* L1i */
		{ 0x00004143, 0x01c0003f, 0x000001ff }, /* L2: 8 x 1 x 64 x 512 */
		{ 0x0007c163, 0x04c0003f, 0x00005fff }, /* L3: 20 x 1 x 64 x 24576 */
		{ 0x00000000, 0x00000000, 0x00000000 }, /* the end */
	};
	static const uint32_t epyc[][3] = {
		{ 0x00000121, 0x01c0003f, 0x0000003f },
		{ 0x00000122, 0x01c0003f, 0x0000003f },
		{ 0x00000143, 0x01c0003f, 0x000003ff }, /* L2: 8 x 1 x 64 x 1024 */
		{ 0x00004163, 0x03c0003f, 0x00007fff }, /* L3: 16 x 1 x 64 x 32768 */
	};
	struct mem_cpuid_cache c;
	struct mem_host h;

	TH_CHECK(mem_cpuid_cache_decode(xeon[3][0], xeon[3][1], xeon[3][2], &c));
	TH_EQ_INT(c.type, MEM_CPUID_UNIFIED);
	TH_EQ_INT(c.level, 3);
	TH_EQ_INT(c.bytes, 30 * MiB);
	TH_CHECK(mem_cpuid_cache_decode(epyc[3][0], epyc[3][1], epyc[3][2], &c));
	TH_EQ_INT(c.bytes, 32 * MiB);
	TH_CHECK(mem_cpuid_cache_decode(xeon[1][0], xeon[1][1], xeon[1][2], &c));
	TH_EQ_INT(c.type, MEM_CPUID_INSTR);
	TH_CHECK(!mem_cpuid_cache_decode(0, 0, 0, &c)); /* type 0: no more caches */
	/* partitions count too: 2 partitions double the size */
	TH_CHECK(mem_cpuid_cache_decode(0x163, 0x03c0103f, 0x3fff, &c));
	TH_EQ_INT(c.bytes, 32 * MiB);

	memset(&h, 0, sizeof(h));
	TH_CHECK(mem_cpuid_caches_from(xeon, 5, &h));
	TH_CHECK(h.l1d.ok && h.l1d.v == 32 * KiB); /* the data cache, not the instruction one */
	TH_CHECK(h.l2.ok && h.l2.v == 256 * KiB);
	TH_CHECK(h.llc.ok && h.llc.v == 30 * MiB);
	TH_EQ_INT(h.llc_level, 3);
	memset(&h, 0, sizeof(h));
	TH_CHECK(mem_cpuid_caches_from(epyc, 4, &h));
	TH_CHECK(h.l2.ok && h.l2.v == 512 * KiB);
	TH_CHECK(h.llc.ok && h.llc.v == 32 * MiB);
	/* all-zero leaves (this bhyve guest's leaf 4 and 0x8000001D): nothing, the caller assumes */
	memset(&h, 0, sizeof(h));
	TH_CHECK(!mem_cpuid_caches_from(xeon + 4, 1, &h));
	TH_CHECK(!h.llc.ok);
}

/* N follows the cgroup CPU quota rounded up, as the cpu module's threads do. */
TH_TEST(mem_threads_follow_cgroup_quota)
{
	char root[512];
	const char *src = NULL;

	fixture(root, sizeof(root), "docker_v2"); /* cpu.max 150000 100000: 1.5 CPUs */
	TH_EQ_INT(mem_threads(root, 4, 0, &src), 2);
	TH_CHECK(src && strcmp(src, "cgroup quota") == 0);
	TH_EQ_INT(mem_threads(root, 1, 0, &src), 1); /* the mask below the quota */
	TH_CHECK(src && strcmp(src, "affinity") == 0);
	fixture(root, sizeof(root), "docker_v1"); /* container 50000/100000 below the parent's 2 CPUs */
	TH_EQ_INT(mem_threads(root, 8, 0, &src), 1);
	TH_CHECK(src && strcmp(src, "cgroup quota") == 0);
	fixture(root, sizeof(root), "kvm_vps"); /* cpu.max "max" */
	TH_EQ_INT(mem_threads(root, 4, 0, &src), 4);
	TH_CHECK(src && strcmp(src, "affinity") == 0);
	fixture(root, sizeof(root), "docker_v2"); /* --mem-threads wins over the quota */
	TH_EQ_INT(mem_threads(root, 4, 3, &src), 3);
	TH_CHECK(src && strcmp(src, "--mem-threads") == 0);
}

TH_TEST(mem_host_from_fixture)
{
	char root[512];
	struct mem_host h;

	fixture(root, sizeof(root), "mem_oversell");
	mem_read_host(root, &h);
	TH_CHECK(h.l1d.ok && h.l1d.v == 48 * KiB); /* index1 is the instruction cache */
	TH_CHECK(h.l2.ok && h.l2.v == MiB);
	TH_CHECK(h.llc.ok && h.llc.v == 2 * MiB);
	TH_EQ_INT(h.llc_level, 3);
	TH_EQ_STR(h.cache_source, "sysfs");
	TH_CHECK(h.avail.ok && h.avail.v == 1024000ULL * 1024);
	/* the lowest limit on the way up (user.slice has "max"); used = current - file */
	TH_CHECK(h.cg_limit.ok && h.cg_limit.v == 256 * MiB);
	TH_CHECK(h.cg_used.ok && h.cg_used.v == 16 * MiB);
	TH_EQ_INT(mem_budget(h.avail.v, h.cg_limit.v, h.cg_used.v), 120 * MiB);

	/* no cache dirs, no cgroup limit: unknown, not 0 */
	fixture(root, sizeof(root), "no_sys");
	mem_read_host(root, &h);
	TH_CHECK(!h.llc.ok && !h.l1d.ok && !h.cg_limit.ok);
	TH_CHECK(h.cache_source == NULL); /* a fixture root is another machine: no CPUID */
}

/* A size's latency is the median of its timed chunks: a chunk another task's time slice
 * landed in does not move it, and an even count takes the middle two's mean. */
TH_TEST(mem_median_of_chunks)
{
	double odd[] = { 101.0, 100.0, 5000.0, 99.0, 100.5 };   /* one preempted chunk */
	double even[] = { 4.0, 1.0, 3.0, 2.0 };
	double one[] = { 7.5 };

	TH_NEAR(mem_median(odd, 5), 100.5, 1e-12);
	TH_NEAR(mem_median(even, 4), 2.5, 1e-12);
	TH_NEAR(mem_median(one, 1), 7.5, 1e-12);
	TH_NEAR(mem_median(one, 0), 0, 0);
}

TH_TEST(mem_oversell_signs_from_fixture)
{
	char root[512];
	struct mem_signs_start s0;
	struct mem_signs s;

	fixture(root, sizeof(root), "mem_oversell");
	mem_signs_begin(root, &s0);
	TH_CHECK(s0.pswpin.ok && s0.pswpin.v == 100);
	/* as if 60 pages came in over the 2 s the module ran */
	s0.pswpin.v = 40;
	s0.psi_some_total_us.v = 4800000; /* 200 ms stalled */
	mem_signs_end(root, &s0, 2.0, &s);
	TH_EQ_INT(s.host.balloon, MB_TRUE);
	TH_EQ_INT(s.host.ksm_run, MB_TRUE);
	TH_CHECK(s.host.ksm_pages_sharing.ok && s.host.ksm_pages_sharing.v == 4242);
	TH_CHECK(s.host.swap_used.ok && s.host.swap_used.v == 512 * MiB);
	TH_CHECK(s.swapin_pages.ok && s.swapin_pages.v == 60);
	TH_NEAR(s.swapin_per_s.v, 30, 1e-9);
	TH_NEAR(s.host.psi_some_avg10.v, 2.5, 1e-9);
	TH_NEAR(s.psi_some_ms.v, 200, 1e-9);
	/* the balloon is a figure (s.host.balloon), not a sign */
	TH_EQ_INT(s.nflags, 4);
	TH_CHECK(strstr(s.flags[0], "KSM") && strstr(s.flags[0], "4242"));
	TH_CHECK(strstr(s.flags[1], "512 MiB") != NULL);
	TH_CHECK(strstr(s.flags[2], "60 pages") != NULL);
	TH_CHECK(strstr(s.flags[3], "pressure") != NULL);

	/* a tree without these files: every sign unknown, nothing flagged */
	fixture(root, sizeof(root), "no_sys");
	mem_signs_begin(root, &s0);
	mem_signs_end(root, &s0, 2.0, &s);
	TH_EQ_INT(s.host.balloon, MB_UNKNOWN);
	TH_EQ_INT(s.host.ksm_run, MB_UNKNOWN);
	TH_CHECK(!s.swapin_pages.ok);
	TH_EQ_INT(s.nflags, 0);
}

/*
 * The spinning barrier lets no thread through a round before every thread
 * has arrived: each bumps the round's count, waits, and then must see all
 * of them. Workers are joined with a deadline, so a broken barrier fails
 * the test instead of hanging it (the stuck threads end with the process).
 */
enum { BAR_ROUNDS = 3000 };
struct bar_test {
	struct mem_barrier b;
	unsigned threads;
	atomic_uint count[BAR_ROUNDS];
	atomic_uint early;             /* passes that saw a round not yet full */
};

static void *bar_worker(void *arg)
{
	struct bar_test *t = arg;

	for (unsigned r = 0; r < BAR_ROUNDS; r++) {
		atomic_fetch_add(&t->count[r], 1);
		mem_barrier_wait(&t->b);
		if (atomic_load(&t->count[r]) != t->threads)
			atomic_fetch_add(&t->early, 1);
	}
	return NULL;
}

static void check_barrier(unsigned threads, unsigned spins)
{
	static struct bar_test t[2]; /* one per call: stuck threads of a failed one keep theirs */
	static int used;
	struct bar_test *bt = &t[used++ % 2];
	pthread_t tid[8];
	struct timespec dl;
	bool all_done = true;

	memset(bt, 0, sizeof(*bt));
	bt->threads = threads;
	mem_barrier_init(&bt->b, threads, spins);
	for (unsigned i = 0; i < threads; i++)
		TH_EQ_INT(pthread_create(&tid[i], NULL, bar_worker, bt), 0);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 20;
	for (unsigned i = 0; i < threads; i++)
		if (pthread_timedjoin_np(tid[i], NULL, &dl) != 0)
			all_done = false;
	TH_CHECK(all_done);
	TH_EQ_INT(atomic_load(&bt->early), 0);
	if (all_done)
		TH_EQ_INT(atomic_load(&bt->count[BAR_ROUNDS - 1]), threads);
}

TH_TEST(mem_barrier_holds_every_round)
{
	check_barrier(2, MEM_BARRIER_SPINS); /* spinning */
	check_barrier(3, 0);                 /* yielding at once: more threads than CPUs here */
}

/* A real STREAM run on small arrays: every rate is words x 8 x n / its best time. */
TH_TEST(mem_stream_rates_match_their_times)
{
	struct bench_ctx ctx;
	struct mem_stream st;
	size_t n = 64 * 1024, len = n * sizeof(double);
	double *arr[3];
	int cpus[1] = { 0 };
	char err[256];

	memset(&ctx, 0, sizeof(ctx));
	for (int i = 0; i < 3; i++) {
		arr[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		TH_CHECK(arr[i] != MAP_FAILED);
		if (arr[i] == MAP_FAILED)
			return;
	}
	TH_EQ_INT(mem_stream_run(&ctx, arr, n, 2, cpus, 0, true, 0, &st, err, sizeof(err)), 0);
	TH_EQ_INT(st.reps, MEM_REPS);
	/* the CPU the two threads got: seconds over 2 x wall, a share, never above 1 */
	TH_CHECK(st.cpu.share.ok && st.cpu.share.v > 0 && st.cpu.share.v <= 1.01);
	TH_CHECK(st.cpu.disturbed == (st.cpu.share.v < PASS_CPU_SHARE_MIN));
	TH_CHECK(st.validated);
	for (int k = 0; k < MEM_NKERNELS; k++) {
		TH_CHECK(st.mbps[k].ok && st.min_s[k].ok);
		TH_NEAR(st.mbps[k].v, mem_kernel_words[k] * 8.0 * (double)n / st.min_s[k].v / 1e6,
			1e-6 * st.mbps[k].v);
		TH_CHECK(st.min_s[k].v <= st.avg_s[k].v && st.avg_s[k].v <= st.max_s[k].v);
		/* best-of: half the range of the counted reps' rates (fastest - slowest) / 2 */
		TH_NEAR(st.mbps_u[k], (st.mbps[k].v - mem_kernel_words[k] * 8.0 * (double)n /
				       st.max_s[k].v / 1e6) / 2, 1e-6 * st.mbps[k].v);
	}
	for (int i = 0; i < 3; i++)
		munmap(arr[i], len);
}

/* Both kernel sets compute STREAM's four formulas element by element, tail included
 * (n odd, not a multiple of any vector width), and the AVX2 set is picked where the CPU has it. */
static void check_kernels(const struct mem_kernels *k)
{
	enum { N = 1003 };
	static double a[N], b[N], c[N];
	const double s = 3.0;
	bool ok = true;

	for (size_t j = 0; j < N; j++) {
		a[j] = 1.0 + (double)j;
		b[j] = 0.5 * (double)j;
		c[j] = -1.0;
	}
	k->copy(c, a, N);                      /* c = a */
	for (size_t j = 0; j < N; j++)
		ok = ok && c[j] == 1.0 + (double)j;
	k->scale(b, c, s, N);                  /* b = s c */
	for (size_t j = 0; j < N; j++)
		ok = ok && b[j] == s * (1.0 + (double)j);
	k->add(c, a, b, N);                    /* c = a + b */
	for (size_t j = 0; j < N; j++)
		ok = ok && c[j] == (1.0 + s) * (1.0 + (double)j);
	k->triad(a, b, c, s, N);               /* a = b + s c */
	for (size_t j = 0; j < N; j++)
		ok = ok && a[j] == s * (1.0 + (double)j) + s * (1.0 + s) * (1.0 + (double)j);
	TH_CHECK(ok);
}

TH_TEST(mem_kernels_compute_stream)
{
	check_kernels(&mem_kernels_base);
#if defined(__x86_64__)
	TH_EQ_STR(mem_kernels_base.isa, "sse2");
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2")) {
		check_kernels(&mem_kernels_avx2);
		TH_CHECK(mem_kernels_pick() == &mem_kernels_avx2);
	} else {
		TH_CHECK(mem_kernels_pick() == &mem_kernels_base);
	}
#else
	TH_CHECK(mem_kernels_pick() == &mem_kernels_base);
#endif
}

TH_TEST(mem_sysbench_write_stores_words_left)
{
	/* sysbench 1.0.20's seq write: every word of the block, each set to
	 * the count of words left to the end (the last word gets 1) */
	uint64_t buf[10];

	memset(buf, 0xff, sizeof(buf));
	mem_k_sb_write(buf, 9);
	for (size_t i = 0; i < 9; i++)
		TH_EQ_INT(buf[i], 9 - i);
	TH_EQ_INT(buf[9], UINT64_MAX);
	mem_k_sb_read(buf, 9);
}

/* "arrays capped" is the reason for a missing DRAM figure only when the arrays were capped. */
TH_TEST(mem_latency_why_capped_only_when_capped)
{
	struct bench_report *rep = calloc(1, sizeof(*rep));
	struct metric_set *ms = calloc(1, sizeof(*ms));
	const struct metric *lat;

	TH_CHECK(rep && ms);
	if (!rep || !ms)
		goto out;
	rep->outcome[MOD_mem].status = BENCH_OK;
	rep->mem.lat[0].present = true;
	rep->mem.lat[0].n = 1;
	rep->mem.lat[0].size[0] = 16 << 10;
	rep->mem.lat[0].ns[0] = 1.0;
	grade_collect(rep, NULL, ms);
	lat = metric_get(ms, "mem_latency_ns");
	TH_CHECK(lat && !lat->measured && !strstr(lat->why_not, "capped"));
	rep->mem.capped = true;
	grade_collect(rep, NULL, ms);
	lat = metric_get(ms, "mem_latency_ns");
	TH_CHECK(lat && !lat->measured && strstr(lat->why_not, "arrays capped"));
	/* with the graded plateau point there, a figure with its rounds' uncertainty */
	rep->mem.lat[0].graded = 0;
	rep->mem.lat[0].rounds = 3;
	rep->mem.lat[0].round_ns[0] = 94;
	rep->mem.lat[0].round_ns[1] = 95;
	rep->mem.lat[0].round_ns[2] = 96;
	mem_graded_fill(&rep->mem.lat[0]);
	/* capped arrays: even a plateau the curve found is the cache's, not graded */
	grade_collect(rep, NULL, ms);
	lat = metric_get(ms, "mem_latency_ns");
	TH_CHECK(lat && !lat->measured && strstr(lat->why_not, "arrays capped"));
	rep->mem.capped = false;
	grade_collect(rep, NULL, ms);
	lat = metric_get(ms, "mem_latency_ns");
	TH_CHECK(lat && lat->measured && lat->value == 95.0 && !lat->disturbed);
	TH_NEAR(lat->uncert, uncert_t975(2) * 1.0 / sqrt(3.0), 1e-9);
	TH_CHECK(strstr(lat->uncert_from, "3 rounds") != NULL);
	/* a chase that did not get its CPU: kept, marked disturbed, not graded */
	pass_cpu_set_share(&rep->mem.lat[0].cpu, 0.5, 1, 1.0);
	grade_collect(rep, NULL, ms);
	lat = metric_get(ms, "mem_latency_ns");
	TH_CHECK(lat && lat->disturbed && lat->value == 95.0 && strstr(lat->why_not, "50%"));
out:
	free(ms);
	free(rep);
}

/*
 * The graded DRAM point: the first point at a third of the top's latency or
 * more, at twice the cache edge (the last size below half its latency) or
 * more, whose next point is at most 10% slower. Exact boundaries: 10% is a
 * plateau, just above is not; 2x the edge counts, just below does not; a
 * third of the top counts; the top point never.
 */
TH_TEST(mem_plateau_point_boundaries)
{
	const uint64_t M = 1ULL << 20;
	uint64_t size[] = { 4 * M, 6 * M, 8 * M, 12 * M, 16 * M, 24 * M, 32 * M, 48 * M };
	double ns[] = { 20, 24, 40, 140, 150, 150 * (1 + MEM_PLATEAU_RISE), 170, 180 };

	/* edge of 140 (half 70): 8 MiB; 12 MiB < 16: no; 16 MiB: 150 -> 165 exactly +10%: yes */
	TH_EQ_INT(mem_plateau_point(size, ns, 8, 0), 4);
	ns[5] = nextafter(ns[5], INFINITY); /* just over 10%: 24 MiB (-> 170, +3%) */
	TH_EQ_INT(mem_plateau_point(size, ns, 8, 0), 5);
	ns[5] = 165;
	/* 2x the edge exactly counts: an edge at 6 MiB (8 MiB now slow) makes 12 MiB a candidate */
	{
		double e[] = { 20, 24, 100, 140, 150, 165, 170, 180 };
		uint64_t sz[] = { 4 * M, 6 * M, 8 * M, 12 * M, 16 * M, 24 * M, 32 * M, 48 * M };

		/* 12 MiB: 140, half 70: edge 6 MiB, 12 >= 12; next 150 within 10% */
		TH_EQ_INT(mem_plateau_point(sz, e, 8, 0), 3);
		sz[3] = 12 * M - 1; /* just under twice the edge */
		TH_EQ_INT(mem_plateau_point(sz, e, 8, 0), 4);
	}
	/* a third of the top: a point at exactly top / 3 is past the caches, below it not */
	{
		double t[] = { 2, 2.1, 4, 60, 62, 100, 150, 180 };

		/* 12 MiB: 60 = 180 / 3, edge (half 30) 8 MiB -> 12 < 16: no; 16 MiB: 62, edge 8,
		 * 16 >= 16, next 100: +61%: no; 24 MiB 100: edge 8 (62 > 50), next +50%: no;
		 * 32 MiB: 150, edge 16 MiB (62 < 75): 32 >= 32, next 180: +20%: no -> none */
		TH_EQ_INT(mem_plateau_point(size, t, 8, 0), 8);
		t[7] = 165; /* now 32 MiB: 150 -> 165 +10%: yes */
		TH_EQ_INT(mem_plateau_point(size, t, 8, 0), 6);
	}
	{
		/* exactly a third of the top (60 of 180) is past the caches: 16 MiB, edge 8 MiB */
		uint64_t sz[] = { 4 * M, 6 * M, 8 * M, 16 * M, 24 * M, 32 * M, 48 * M, 64 * M };
		double t[] = { 1, 2, 4, 60, 62, 100, 150, 180 };

		TH_EQ_INT(mem_plateau_point(sz, t, 8, 0), 3);
		t[3] = nextafter(60, 0); /* just below a third: 24 MiB (62 -> 100) rises, so none */
		TH_EQ_INT(mem_plateau_point(sz, t, 8, 0), 8);
	}
	{
		/* an L2-like flat run below a third of the top is never picked */
		double l2[] = { 1, 3, 3.1, 20, 120, 125, 130, 190 };

		/* 6-8 MiB flat but far below 190 / 3; 16 MiB: edge 12 -> 16 < 24; 24 MiB: 125, edge
		 * 12 MiB, 24 >= 24, next 130 +4%: yes */
		TH_EQ_INT(mem_plateau_point(size, l2, 8, 0), 5);
		l2[5] = 63; /* below a third of 190 (63.3): not past the caches; 32 MiB's edge is 24 */
		TH_EQ_INT(mem_plateau_point(size, l2, 8, 0), 8);
	}
	/* the edge below the pick: the last size under half its latency */
	TH_EQ_INT(mem_cache_edge(size, ns, 4), 8 * M);
	TH_EQ_INT(mem_cache_edge(size, ns, 0), 0);
	/* an LLC floor: twice it or more; exactly twice counts */
	TH_EQ_INT(mem_plateau_point(size, ns, 8, 8 * M), 4);
	TH_EQ_INT(mem_plateau_point(size, ns, 8, 8 * M + 1), 5);
	/* still rising at the top: no plateau; the top point alone is never one */
	{
		double up[] = { 20, 24, 40, 140, 160, 180, 200, 230 };

		TH_EQ_INT(mem_plateau_point(size, up, 8, 0), 8);
		TH_EQ_INT(mem_plateau_point(size + 7, up + 7, 1, 0), 1);
	}
}

/* Rounds: mean and t x s / sqrt(n); translation cost to the largest point up to 1 GiB. */
TH_TEST(mem_graded_rounds_and_translation_cost)
{
	const uint64_t M = 1ULL << 20;
	struct mem_curve c;

	memset(&c, 0, sizeof(c));
	c.n = 4;
	c.size[0] = 32 * M;
	c.size[1] = 256 * M;
	c.size[2] = 1024 * M;
	c.size[3] = 1280 * M;
	c.ns[0] = 100;
	c.ns[1] = 120;
	c.ns[2] = 150;
	c.ns[3] = 999;
	c.graded = 0;
	c.rounds = 5;
	for (unsigned i = 0; i < 5; i++)
		c.round_ns[i] = 98 + i; /* mean 100, s = sqrt(2.5) */
	mem_graded_fill(&c);
	TH_CHECK(c.graded_ns.ok);
	TH_NEAR(c.graded_ns.v, 100, 1e-9);
	TH_NEAR(c.graded_u, uncert_t975(4) * sqrt(2.5) / sqrt(5.0), 1e-9);
	TH_EQ_INT(c.xlat_bytes, 1024 * M); /* 1280 MiB is past 1 GiB */
	TH_NEAR(c.xlat_ns.v, 50, 1e-9);
	TH_NEAR(c.xlat_pct.v, 50, 1e-9);
	/* the graded point is the top: no translation cost; one round: no uncertainty */
	c.graded = 3;
	c.rounds = 1;
	mem_graded_fill(&c);
	TH_CHECK(c.graded_ns.ok && !c.xlat_ns.ok && c.xlat_bytes == 0 && isnan(c.graded_u));
	c.graded = 4; /* none */
	mem_graded_fill(&c);
	TH_CHECK(!c.graded_ns.ok);
}
