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
	.n = 8,
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
	"net_send_mbit_s", "net_recv_mbit_s", NULL,
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
	"iperf3 send, best server, Mbit/s (--net)",
	"iperf3 receive, best server, Mbit/s (--net)",
	NULL,
};

const struct grade_table *grade_builtin_table(void)
{
	return &builtin;
}
