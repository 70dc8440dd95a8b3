/*
 * grade_table.c — the built-in speed tiers: the one place thresholds live.
 * Every definition with tiers carries its source (src): a public URL and
 * what that page says, or "README.md#grades" and the project's reasoning,
 * written out in the README's "Grades" section. tests/test_grade_table.c
 * fails on a definition without one, on bounds out of order and on a
 * repeated tier name. A definition with no tiers (ntiers 0) is shown and
 * never graded; its src says why.
 */
#include <stddef.h>

#include "grade.h"
#include "core/tail_ratio.h"

#define OPEN(t, l, m) { .open = true, .tier = t, .label = l, .meaning = m }
#define AT(b, t, l, m) { .bound = b, .tier = t, .label = l, .meaning = m }
#define SRC(u, s) .src = { .url = u, .says = s }

#define ECS_URL "https://github.com/oneclickvirt/ecs/blob/0314774b456188505003888df077387195c4d782/README_NEW_USER.md"

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
		  }, SRC("README.md#grades",
			 "The project's seed guide to the tocdo.net script (dd bs=64k count=16k "
			 "conv=fdatasync; its public URL was not found): \"Under 50MB / s the speed is "
			 "very slow\", \"From 50MB / s to 100MB / s is acceptable\", \"Above 100MB / s "
			 "... you can use peace of mind\", \"Over 200MB / s this speed is ideal when used "
			 "for VPS running the web\", \"Above 1GB / s is great, it might be using an NVME SSD\"") },
		/* no tiers: the seeds give dd write bounds only, and no public source found
		 * places bounds for a sequential O_DIRECT read */
		{ "seq_read_mbps", "MB/s", "sequential read, O_DIRECT (not from the page cache)",
		  true, 0, { { 0 } },
		  SRC("README.md#grades",
		      "Not graded: no public source found places sequential-read bounds (the seed "
		      "guides give dd write bounds only); shown with its uncertainty, and "
		      "--require can gate it") },
		{ "rand_iops", "IOPS", "4k random read+write IOPS of the main random pass",
		  true, 5, {
			OPEN("very_slow", "very slow", "under 1,000 IOPS: an HDD or a throttled volume"),
			AT(1000, "acceptable", "acceptable", "basic cloud volume"),
			AT(5000, "good", "good", "SATA-SSD class"),
			AT(20000, "ideal", "ideal", "ideal for databases on a VPS"),
			AT(100000, "excellent", "excellent", "local NVMe"),
		  }, SRC("README.md#grades",
			 "The project's placing among the seeds' figures: OVHcloud's \"High speed\" "
			 "additional disk \"around 3052 IOPS\", main disk \"around 40.0k IOPS\" (4k qd32), "
			 "Azure's cached disk \"more than 77,000 Read IOPS\"; 371 published yabs VPS "
			 "runs (4k randrw qd64): p10 10,300, p50 92,700 IOPS") },
		{ "lat_p99_ms", "ms", "4k random read latency at queue depth 1, p99 (clat)",
		  false, 5, {
			OPEN("very_slow", "very slow", "HDD or overloaded storage"),
			AT(10, "acceptable", "acceptable", "network volume or SATA disk"),
			AT(2, "good", "good", "typical cloud SSD volume"),
			AT(0.5, "ideal", "ideal", "fast SSD or a good network volume"),
			AT(0.2, "excellent", "excellent", "local NVMe"),
		  }, SRC("README.md#grades",
			 "10 ms: Microsoft's SQL Server guidance, Avg. Disk sec/Read \"less than 10 ms - "
			 "very good\", applied to the p99 (stricter than to the mean); 2, 0.5 and 0.2 ms "
			 "are the project's placing between a network volume and local NVMe: no public "
			 "source found places a qd1 p99") },
		{ "rand_cov_pct", "%", "variation of per-second IOPS in the main random pass (CoV)",
		  false, 3, {
			OPEN("unstable", "unstable", "IOPS swing by more than 15% from second to second"),
			AT(15, "variable", "variable", "some second-to-second variation"),
			AT(5, "stable", "stable", "steady throughout the pass"),
		  }, SRC("README.md#grades",
			 "The project's reasoning: a provisioned volume holds its rate (OVHcloud's "
			 "guide shows per-second IOPS with stdev 515 on avg 40,066, 1.3%); above 15% "
			 "(the iops_cov health bound) a single second is no guide to the next") },
		{ "rand_tail_ratio", "x", "last third / first third of per-second IOPS (drop flag)",
		  true, 2, {
			OPEN("drop", "drop", "speed fell during the pass: burst credits running out or throttling"),
			AT(TAIL_DROP_RATIO, "steady", "no drop", "no drop during the pass"),
		  }, SRC("README.md#grades",
			 "The project's reasoning: a fall of more than 30% from the first third of the "
			 "pass to the last is larger than a stable disk's second-to-second variation "
			 "and is how a burst bucket running out shows (the iops_drop health bound)") },
		/* ecs's scale for sysbench cpu --cpu-max-prime=10000, 1 thread. Its tier 1 (>= 5000)
		 * is the fastest: names ecs_t1 (best) .. ecs_t8 (worst), rank 7 .. 0 */
		{ "cpu_single_eps", "events/s",
		  "prime events/s, 1 thread (sysbench cpu --cpu-max-prime=10000: 64-bit divisions)",
		  true, 8, {
			OPEN("ecs_t8", "tier 8 of 8 (ecs scale)",
			     "< 500 events/s: ecs calls a core under 500 poor (E5 ~ 800-1000, 7950X ~ 6500)"),
			AT(500, "ecs_t7", "tier 7 of 8 (ecs scale)",
			   "500-800 events/s on ecs's scale: under its E5 range (800-1000), over its poor line (500)"),
			AT(800, "ecs_t6", "tier 6 of 8 (ecs scale)",
			   "800-1000 events/s: ecs's range for ordinary Intel server cores (E5 class)"),
			AT(1000, "ecs_t5", "tier 5 of 8 (ecs scale)",
			   ">= 1000 events/s on ecs's scale (E5 ~ 800-1000, 7950X ~ 6500); tier 1 is fastest"),
			AT(2000, "ecs_t4", "tier 4 of 8 (ecs scale)",
			   ">= 2000 events/s on ecs's scale (7950X ~ 6500, E5 ~ 800-1000); tier 1 is fastest"),
			AT(3000, "ecs_t3", "tier 3 of 8 (ecs scale)",
			   ">= 3000 events/s on ecs's scale (7950X ~ 6500, E5 ~ 800-1000); tier 1 is fastest"),
			AT(4000, "ecs_t2", "tier 2 of 8 (ecs scale)",
			   ">= 4000 events/s on ecs's scale (7950X ~ 6500, E5 ~ 800-1000); tier 1 is fastest"),
			AT(5000, "ecs_t1", "tier 1 of 8 (ecs scale)",
			   ">= 5000 events/s: ecs's first tier, high performance (7950X ~ 6500)"),
		  }, SRC(ECS_URL,
			 "\"A single-core CPU score of over 5000 in Sysbench can be considered first-tier "
			 "and classified as high performance, with roughly one tier for every 1000 points. "
			 "AMD 7950x single-core full performance scores around 6500, AMD 5950x single-core "
			 "full performance scores around 5700, Intel regular CPUs (E5 series) around "
			 "1000-800, single-core CPUs below 500 can be considered poor performance.\"") },
		/* scaling over the physical cores the threads had (SMT siblings from sysfs):
		 * two hyperthreads of one core adding 10% is normal, not capped */
		{ "cpu_scaling_per_core", "x", "N-thread / 1-thread events/s over min(N, physical cores)",
		  true, 2, {
			OPEN("capped", "capped", "more threads add little on these cores: concurrency capped or CPUs shared"),
			AT(0.75, "scales", "scales", "each physical core adds throughput"),
		  }, SRC("README.md#grades",
			 "ecs: \"Sometimes multi-core and single-core scores are identical, proving the "
			 "merchant is limiting program concurrent CPU usage\" (a ratio of 1/N per core); "
			 "0.75 is the project's line: each physical core adds at least three quarters "
			 "of what the first does") },
		{ "cpu_steal_pct", "%", "CPU time stolen by the hypervisor during the cpu module",
		  false, 3, {
			OPEN("noisy", "noisy", "the hypervisor gave over 10% of this CPU's time to others"),
			AT(10, "some", "some steal", "some contention on the host (1-10% stolen)"),
			AT(1, "low", "low", "the CPU time is yours"),
		  }, SRC("https://www.openpolitics.com/links/understanding-cpu-steal-time-when-should-you-be-worried",
			 "\"if steal time is greater than 10% for 20 minutes, the VM is likely in a state "
			 "that it is running slower than it should.\" The 1% line is the project's: "
			 "under it the CPU time is practically the guest's own") },
		/* one thread's Triad: not a grade. ecs's 10 GB/s oversell rule is for its own
		 * memory test and sits at a DDR3 channel's peak; README "Grades" */
		{ "mem_triad_1t_mbps", "MB/s", "STREAM-variant Triad, one thread, arrays >= 4x LLC",
		  true, 0, { { 0 } },
		  SRC(ECS_URL,
		      "Not graded. ecs: \"Generally speaking, you only need to determine if IO speed is "
		      "below `10240 MB/s (≈10 GB/s)`. If below this value, it proves poor memory "
		      "performance with high probability of overselling issues.\" Its own table gives "
		      "DDR3 single channel \"10 ~ 17 GB/s\": a channel's peak for its own test, not a "
		      "floor under one core's Triad, which the misses one core keeps in flight bound") },
		/* per vCPU, all streaming: hosts share channels among many cores, so the worst
		 * tiers are set where no host size explains them (README "Grades") */
		{ "mem_triad_per_vcpu_mbps", "MB/s", "STREAM-variant Triad, all threads, per thread",
		  true, 3, {
			OPEN("low", "low", "each vCPU streams under 1 GB/s when all stream: bandwidth capped"),
			AT(1000, "fair", "fair", "each vCPU streams 1-5 GB/s when all stream"),
			AT(5000, "good", "good", "each vCPU streams at least 5 GB/s when all stream"),
		  }, SRC("README.md#grades",
			 "The project's placing: a host's memory bandwidth is shared by all its cores, so "
			 "the per-vCPU figure falls on bigger guests (a 64-vCPU guest of a 300 GB/s host "
			 "gets about 4.7 GB/s each); the worst tier starts where no guest size explains "
			 "it, under 1 GB/s each") },
		{ "mem_scaling_eff", "x", "per-thread Triad of the N-thread run / 1-thread Triad",
		  true, 3, {
			OPEN("starved", "starved", "each thread gets under a quarter of what one streams alone"),
			AT(0.25, "shared", "shared", "the threads share the host's bandwidth, as cores of one host do"),
			AT(0.6, "scales", "scales", "each thread streams most of what one streams alone"),
		  }, SRC("README.md#grades",
			 "The project's placing: cores of one host share its bandwidth, so each thread's "
			 "share falls as threads are added; under a quarter of what one thread streams "
			 "alone is the mem_bandwidth health bound, 0.6 keeps most of it") },
		{ "mem_latency_huge_ns", "ns",
		  "DRAM load-to-use latency, first plateau point past the cache, transparent huge pages",
		  false, 4, {
			OPEN("slow", "slow", "over 200 ns: above any current server's DRAM latency plus a guest's page walk"),
			AT(200, "acceptable", "acceptable",
			   "150-200 ns: a current server's DRAM latency plus a guest's nested page walk"),
			AT(150, "good", "good", "about a current server's DRAM latency (EPYC 7742: ~134 ns bare metal)"),
			AT(100, "excellent", "excellent", "under 100 ns: lower than current servers' DRAM latency"),
		  }, SRC("https://www.anandtech.com/show/14694/amd-rome-epyc-2nd-gen/7",
			 "AnandTech's EPYC 7742 review, bare metal, full random: \"128MB Full Random "
			 "~122ns (NPS1)\", \"512MB Full Random ~134ns (NPS1)\". The project's placing: a "
			 "guest adds its nested page walk to that, so slow starts at 200 ns, above where "
			 "a healthy current platform lands") },
		{ "net_send_mbit_s", "Mbit/s", "iperf3 send, best server (receiver side, decimal Mbit/s)",
		  true, 5, {
			OPEN("very_slow", "very slow", "below 100 Mbit/s: slow uploads and backups"),
			AT(100, "acceptable", "acceptable", "a 100 Mbit/s-class port"),
			AT(500, "good", "good", "fine for most sites"),
			AT(900, "ideal", "ideal", "a gigabit port at line rate"),
			AT(5000, "excellent", "excellent", "a 10G-class port"),
		  }, SRC("README.md#grades",
			 "The project's placing on port classes: TCP over a 100 Mbit/s port tops out just "
			 "under 100, over a gigabit port at about 940 (so 900 is line rate), and above "
			 "5000 only a 10G-class port; 500 is half a gigabit port") },
		{ "net_recv_mbit_s", "Mbit/s", "iperf3 receive (-R), best server (decimal Mbit/s)",
		  true, 5, {
			OPEN("very_slow", "very slow", "below 100 Mbit/s: slow downloads and updates"),
			AT(100, "acceptable", "acceptable", "a 100 Mbit/s-class port"),
			AT(500, "good", "good", "fine for most sites"),
			AT(900, "ideal", "ideal", "a gigabit port at line rate"),
			AT(5000, "excellent", "excellent", "a 10G-class port"),
		  }, SRC("README.md#grades",
			 "The project's placing on port classes: TCP over a 100 Mbit/s port tops out just "
			 "under 100, over a gigabit port at about 940 (so 900 is line rate), and above "
			 "5000 only a 10G-class port; 500 is half a gigabit port") },
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
