/*
 * grade_table.c — the built-in speed tiers: the one place thresholds live.
 * Sequential tiers follow seed 002 (tocdo.net guide); IOPS tiers place the
 * seeds' figures (3,052 on a "high speed" volume, 10k-40k on VPS system
 * disks, 77k from a cached Azure disk).
 */
#include <stddef.h>

#include "grade.h"

#define OPEN(t, l, m) { .open = true, .tier = t, .label = l, .meaning = m }
#define AT(b, t, l, m) { .bound = b, .tier = t, .label = l, .meaning = m }

static const struct grade_table builtin = {
	.n = 9,
	.def = {
		{ "seq_write_mbps", "MB/s", "sequential write, fdatasync included (dd conv=fdatasync)",
		  true, 5, {
			OPEN("very_slow", "very slow", "not for running a web server"),
			AT(50, "acceptable", "acceptable", "the speed of an average HDD"),
			AT(100, "good", "good", "use it with peace of mind"),
			AT(200, "ideal", "ideal", "ideal for a web VPS"),
			AT(1000, "excellent", "excellent", "likely NVMe"),
		} },
		{ "seq_read_mbps", "MB/s", "sequential read, O_DIRECT (not from the page cache)",
		  true, 5, {
			OPEN("very_slow", "very slow", "loading files and backups will crawl"),
			AT(50, "acceptable", "acceptable", "the speed of an average HDD"),
			AT(100, "good", "good", "fine for most sites"),
			AT(200, "ideal", "ideal", "ideal for a web VPS"),
			AT(1000, "excellent", "excellent", "likely NVMe"),
		} },
		{ "rand_iops", "IOPS", "4k random read+write IOPS of the main random pass",
		  true, 5, {
			OPEN("very_slow", "very slow", "HDD or throttled volume"),
			AT(1000, "acceptable", "acceptable", "basic cloud volume"),
			AT(5000, "good", "good", "SATA-SSD class"),
			AT(20000, "ideal", "ideal", "ideal for databases on a VPS"),
			AT(100000, "excellent", "excellent", "local NVMe"),
		} },
		{ "lat_p99_ms", "ms", "4k random read latency at queue depth 1, p99 (clat)",
		  false, 5, {
			OPEN("very_slow", "very slow", "HDD or overloaded storage"),
			AT(10, "acceptable", "acceptable", "network volume or SATA disk"),
			AT(2, "good", "good", "typical cloud SSD volume"),
			AT(0.5, "ideal", "ideal", "fast SSD or a good network volume"),
			AT(0.2, "excellent", "excellent", "local NVMe"),
		} },
		{ "rand_cov_pct", "%", "variation of per-second IOPS in the main random pass (CoV)",
		  false, 3, {
			OPEN("unstable", "unstable", "IOPS swing a lot: noisy neighbours or throttling"),
			AT(15, "variable", "variable", "some second-to-second variation"),
			AT(5, "stable", "stable", "steady throughout the pass"),
		} },
		{ "rand_tail_ratio", "x", "last third / first third of per-second IOPS (drop flag)",
		  true, 2, {
			OPEN("drop", "drop", "speed fell during the pass: burst credits running out or throttling"),
			AT(0.7, "steady", "no drop", "no drop during the pass"),
		} },
		/* DRAM bandwidth: DDR4-2133 one channel ~17 GB/s, two ~35, DDR5-4800 one ~51
		 * (goecs's tiers, here on STREAM's Triad, arrays >= 4x LLC only) */
		{ "mem_triad_mbps", "MB/s", "STREAM-variant Triad, all threads, arrays >= 4x LLC",
		  true, 5, {
			OPEN("below_ddr4", "below one DDR4 channel", "slow, shared or throttled memory"),
			AT(17000, "ddr4_1ch", "one DDR4 channel", "about what one DDR4 channel streams (17 GB/s)"),
			AT(35000, "ddr4_2ch", "dual-channel DDR4", "about what two DDR4 channels stream (35 GB/s)"),
			AT(51000, "ddr5_1ch", "DDR5", "DDR5 class (51 GB/s)"),
			AT(78000, "ddr5_2ch", "dual-channel DDR5", "dual-channel DDR5 class or more (78 GB/s)"),
		} },
		{ "mem_triad_1t_mbps", "MB/s", "STREAM-variant Triad, one thread, arrays >= 4x LLC",
		  true, 2, {
			OPEN("oversold", "likely oversold or throttled", "one core streams under 10 GB/s"),
			AT(10000, "normal", "normal", "one core streams at least 10 GB/s"),
		} },
		{ "mem_latency_ns", "ns", "DRAM load-to-use latency, pointer chase past 4x LLC, 4 KiB pages",
		  false, 4, {
			OPEN("slow", "slow", "far or overloaded memory"),
			AT(150, "acceptable", "acceptable", "typical of a busy virtualised host"),
			AT(110, "good", "good", "typical server DRAM seen from a VM"),
			AT(80, "excellent", "excellent", "close to bare-metal DRAM latency"),
		} },
	},
};

const char *const grade_metric_names[] = {
	"seq_write_mbps", "seq_read_mbps", "rand_iops", "rand_read_iops", "rand_write_iops",
	"lat_p50_ms", "lat_p99_ms", "rand_cov_pct", "rand_tail_ratio",
	"mem_triad_mbps", "mem_triad_1t_mbps", "mem_copy_mbps", "mem_latency_ns",
	"mem_latency_huge_ns", NULL,
};

const char *const grade_metric_descs[] = {
	"sequential write, decimal MB/s (average of the runs)",
	"sequential read with O_DIRECT, decimal MB/s",
	"read+write IOPS of the main random pass (4k, qd>1)",
	"read IOPS of the main random pass",
	"write IOPS of the main random pass",
	"p50 clat of the 4k randread qd1 pass, ms",
	"p99 clat of the 4k randread qd1 pass, ms",
	"coefficient of variation of per-second IOPS, %",
	"last-third / first-third per-second IOPS ratio",
	"STREAM-variant Triad, all threads, MB/s",
	"STREAM-variant Triad, one thread, MB/s",
	"STREAM-variant Copy, all threads, MB/s",
	"DRAM latency (past 4x LLC), 4 KiB pages, ns",
	"DRAM latency (past 4x LLC), huge pages, ns",
	NULL,
};

const struct grade_table *grade_builtin_table(void)
{
	return &builtin;
}
