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
		/* the ecs scale's bounds for sysbench cpu --cpu-max-prime=10000, 1 thread; no
		 * CPU generations named: the event (~117,500 64-bit divisions) ranks dividers,
		 * and cores generations apart land on the same figure */
		{ "cpu_single_eps", "events/s", "sysbench-comparable prime events/s, 1 thread",
		  true, 8, {
			OPEN("poor", "poor", "a slow or heavily shared core"),
			AT(500, "slow", "slow", "a slow core"),
			AT(800, "modest", "modest", "below an ordinary VPS core"),
			AT(1000, "tier5", "5th tier", "an ordinary VPS core"),
			AT(2000, "tier4", "4th tier", "a decent core"),
			AT(3000, "tier3", "3rd tier", "a good core"),
			AT(4000, "tier2", "2nd tier", "a fast core"),
			AT(5000, "tier1", "1st tier", "a top desktop-class core"),
		} },
		/* scaling over the physical cores the threads had (SMT siblings from sysfs):
		 * two hyperthreads of one core adding 10% is normal, not capped */
		{ "cpu_scaling_per_core", "x", "N-thread / 1-thread events/s over min(N, physical cores)",
		  true, 2, {
			OPEN("capped", "capped", "more threads add little on these cores: concurrency capped or CPUs shared"),
			AT(0.75, "scales", "scales", "each physical core adds throughput"),
		} },
		{ "cpu_steal_pct", "%", "CPU time stolen by the hypervisor during the cpu module",
		  false, 3, {
			OPEN("noisy", "noisy", "noisy neighbours: the host gives a large share of this CPU to others"),
			AT(5, "some", "some steal", "some contention on the host"),
			AT(1, "low", "low", "the CPU time is yours"),
		} },
		/* Memory per vCPU: what a small VPS's cores stream is bounded by the misses they
		 * keep in flight, not by the host's DDR channels, so all-thread Triad has no tiers */
		{ "mem_triad_1t_mbps", "MB/s", "STREAM-variant Triad, one thread, arrays >= 4x LLC",
		  true, 2, {
			OPEN("oversold", "likely oversold or throttled", "one core streams under 10 GB/s"),
			AT(10000, "normal", "normal", "one core streams at least 10 GB/s"),
		} },
		/* per vCPU, all streaming: hosts share channels among many cores, so the worst
		 * tiers are set where no host size explains them (README "Grades") */
		{ "mem_triad_per_vcpu_mbps", "MB/s", "STREAM-variant Triad, all threads, per thread",
		  true, 3, {
			OPEN("low", "low", "each vCPU streams under 1 GB/s when all stream: bandwidth capped"),
			AT(1000, "fair", "fair", "each vCPU streams 1-5 GB/s when all stream"),
			AT(5000, "good", "good", "each vCPU streams at least 5 GB/s when all stream"),
		} },
		{ "mem_scaling_eff", "x", "per-thread Triad of the N-thread run / 1-thread Triad",
		  true, 3, {
			OPEN("starved", "starved", "each thread gets under a quarter of what one streams alone"),
			AT(0.25, "shared", "shared", "the threads share the host's bandwidth, as cores of one host do"),
			AT(0.6, "scales", "scales", "each thread streams most of what one streams alone"),
		} },
		{ "mem_latency_huge_ns", "ns",
		  "DRAM load-to-use latency, pointer chase past 4x LLC, transparent huge pages",
		  false, 4, {
			/* bare-metal servers 80-100 ns, cloud VMs 90-130 ns: README "Grades"; on
			 * huge pages, so a guest's nested page walks (the 4 KiB figure) are not graded */
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
	"fsync_p50_ms", "fsync_p99_ms", "storage_cliff_gib", "storage_sustained_write_mbps",
	"cpu_single_eps", "cpu_multi_eps", "cpu_scaling", "cpu_steal_pct",
	"mem_triad_mbps", "mem_triad_1t_mbps", "mem_copy_mbps", "mem_latency_ns",
	"mem_latency_huge_ns", "net_send_mbit_s", "net_recv_mbit_s",
	"cpu_scaling_per_core", "mem_triad_per_vcpu_mbps", "mem_scaling_eff", NULL,
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
	"p50 of fdatasync() after 2300-byte writes (etcd's recipe), ms",
	"p99 of fdatasync() after 2300-byte writes (etcd's recipe), ms",
	"--profile storage: working set served from a cache up to this, GiB (the cliff's knee)",
	"--profile storage: sequential 1 MiB O_DIRECT write rate after the burst, decimal MB/s",
	"prime events/s on 1 thread (sysbench cpu --cpu-max-prime=10000)",
	"prime events/s on N threads (effective CPUs)",
	"N-thread / 1-thread events/s (about 1: concurrency capped)",
	"CPU steal during the cpu module, % (from /proc/stat)",
	"STREAM-variant Triad, all threads, MB/s",
	"STREAM-variant Triad, one thread, MB/s",
	"STREAM-variant Copy, all threads, MB/s",
	"DRAM latency (past 4x LLC), 4 KiB pages, ns: with a guest's nested page walks, not tiered",
	"DRAM latency (past 4x LLC), huge pages, ns",
	"iperf3 send, best server, Mbit/s (--net)",
	"iperf3 receive, best server, Mbit/s (--net)",
	"cpu_scaling / min(threads, physical cores)",
	"all-thread Triad / threads, MB/s",
	"all-thread Triad / threads / 1-thread Triad",
	NULL,
};

const struct grade_table *grade_builtin_table(void)
{
	static struct grade_table t;

	if (!t.n) {
		t = builtin;
		while (t.n < GRADE_MAX_METRICS && t.def[t.n].metric[0])
			t.n++;
		for (unsigned i = 0; i < grade_builtin_nrules && i < GRADE_MAX_RULES; i++)
			t.rule[t.nrules++] = grade_builtin_rules[i];
		for (unsigned i = 0; i < grade_builtin_nhealth && i < GRADE_MAX_HEALTH; i++)
			t.health[t.nhealth++] = grade_builtin_health[i];
	}
	return &t;
}
