/*
 * grade_table.c — the built-in speed tiers: the one place thresholds live.
 * Sequential tiers follow seed 002 (tocdo.net guide); IOPS tiers place the
 * seeds' figures (3,052 on a "high speed" volume, 10k-40k on VPS system
 * disks, 77k from a cached Azure disk).
 */
#include <stddef.h>

#include "grade.h"
#include "core/tail_ratio.h"

#define OPEN(t, l, m) { .open = true, .tier = t, .label = l, .meaning = m }
#define AT(b, t, l, m) { .bound = b, .tier = t, .label = l, .meaning = m }

/* .n is counted by grade_builtin_table(): a new entry needs no count kept by hand */
static const struct grade_table builtin = {
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
			AT(TAIL_DROP_RATIO, "steady", "no drop", "no drop during the pass"),
		} },
		/* the ecs scale for sysbench cpu --cpu-max-prime=10000, 1 thread */
		{ "cpu_single_eps", "events/s", "sysbench-comparable prime events/s, 1 thread",
		  true, 8, {
			OPEN("poor", "poor", "a slow or heavily shared CPU"),
			AT(500, "slow", "slow", "below an old Xeon E5"),
			AT(800, "old_e5", "old E5", "the speed of an old Xeon E5"),
			AT(1000, "tier5", "5th tier", "an ordinary VPS core"),
			AT(2000, "tier4", "4th tier", "a decent modern core"),
			AT(3000, "tier3", "3rd tier", "a good modern core"),
			AT(4000, "tier2", "2nd tier", "a fast modern core"),
			AT(5000, "tier1", "1st tier", "a top desktop-class core"),
		} },
		{ "cpu_scaling", "x", "N-thread / 1-thread prime events/s",
		  true, 2, {
			OPEN("capped", "capped", "more threads add almost nothing: concurrency capped or CPUs shared"),
			AT(1.25, "scales", "scales", "more threads add throughput (ideal: x the thread count)"),
		} },
		{ "cpu_steal_pct", "%", "CPU time stolen by the hypervisor during the cpu module",
		  false, 3, {
			OPEN("noisy", "noisy", "noisy neighbours: the host gives a large share of this CPU to others"),
			AT(5, "some", "some steal", "some contention on the host"),
			AT(1, "low", "low", "the CPU time is yours"),
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
			/* bare-metal servers 80-100 ns, cloud VMs 90-130 ns: README "Grades" */
			OPEN("slow", "slow", "beyond VM overhead: remote NUMA node, busy memory bus or overcommit"),
			AT(150, "acceptable", "acceptable",
			   "top of the cloud-VM range (90-130 ns) plus nested page walks"),
			AT(110, "good", "good", "about bare-metal server DRAM seen from a VM (90-100 ns)"),
			AT(80, "excellent", "excellent", "at or below a server's idle DRAM latency (80-100 ns)"),
		} },
		{ "net_send_mbit_s", "Mbit/s", "iperf3 send, best server (receiver side, decimal Mbit/s)",
		  true, 5, {
			OPEN("very_slow", "very slow", "below 100 Mbit/s: slow uploads and backups"),
			AT(100, "acceptable", "acceptable", "a 100 Mbit/s-class port"),
			AT(500, "good", "good", "fine for most sites"),
			AT(900, "ideal", "ideal", "a gigabit port at line rate"),
			AT(5000, "excellent", "excellent", "a 10G-class port"),
		} },
		{ "net_recv_mbit_s", "Mbit/s", "iperf3 receive (-R), best server (decimal Mbit/s)",
		  true, 5, {
			OPEN("very_slow", "very slow", "below 100 Mbit/s: slow downloads and updates"),
			AT(100, "acceptable", "acceptable", "a 100 Mbit/s-class port"),
			AT(500, "good", "good", "fine for most sites"),
			AT(900, "ideal", "ideal", "a gigabit port at line rate"),
			AT(5000, "excellent", "excellent", "a 10G-class port"),
		} },
	},
};

const char *const grade_metric_names[] = {
	"seq_write_mbps", "seq_read_mbps", "rand_iops", "rand_read_iops", "rand_write_iops",
	"lat_p50_ms", "lat_p99_ms", "rand_cov_pct", "rand_tail_ratio",
	"cpu_single_eps", "cpu_multi_eps", "cpu_scaling", "cpu_steal_pct",
	"mem_triad_mbps", "mem_triad_1t_mbps", "mem_copy_mbps", "mem_latency_ns",
	"mem_latency_huge_ns", "net_send_mbit_s", "net_recv_mbit_s", NULL,
};

const char *const grade_metric_descs[] = {
	"sequential write, decimal MB/s (all runs' bytes over their seconds)",
	"sequential read with O_DIRECT, decimal MB/s",
	"read+write IOPS of the main random pass (4k, qd>1)",
	"read IOPS of the main random pass",
	"write IOPS of the main random pass",
	"p50 clat of the 4k randread qd1 pass, ms",
	"p99 clat of the 4k randread qd1 pass, ms",
	"coefficient of variation of per-second IOPS, %",
	"last-third / first-third per-second IOPS ratio",
	"prime events/s on 1 thread (sysbench cpu --cpu-max-prime=10000)",
	"prime events/s on N threads (effective CPUs)",
	"N-thread / 1-thread events/s (about 1: concurrency capped)",
	"CPU steal during the cpu module, % (from /proc/stat)",
	"STREAM-variant Triad, all threads, MB/s",
	"STREAM-variant Triad, one thread, MB/s",
	"STREAM-variant Copy, all threads, MB/s",
	"DRAM latency (past 4x LLC), 4 KiB pages, ns",
	"DRAM latency (past 4x LLC), huge pages, ns",
	"iperf3 send, best server, Mbit/s (--net)",
	"iperf3 receive, best server, Mbit/s (--net)",
	NULL,
};

const struct grade_table *grade_builtin_table(void)
{
	static struct grade_table t;

	if (!t.n) {
		t = builtin;
		while (t.n < GRADE_MAX_METRICS && t.def[t.n].metric[0])
			t.n++;
	}
	return &t;
}
