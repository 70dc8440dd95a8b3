#!/bin/bash
# vs-stream.sh — benchmark (not part of make test): vpsbench's mem module
# against Debian's likwid-bench (package likwid) and sysbench memory,
# alternating A B A B, medians of the per-round ratios vpsbench/peer.
#
# What each side counts per element (so the ratio compares like with like):
#   vpsbench (STREAM's rule)  Copy c=a 2 words = 16 B; Triad a=b+s*c 3 words = 24 B
#                             decimal MB/s, best of 10 reps after a first one
#   likwid-bench              "MByte/s" from its data volume: copy 16 B/element
#                             (1 load + 1 store), stream 24 B/element (2 loads +
#                             1 store); no write-allocate traffic, like STREAM.
#                             Kernels: stream, stream_sse, stream_avx = STREAM's
#                             triad (A = B*s + C); copy, copy_avx = copy. Compared
#                             with the best of them. -w N:SIZE:T takes the working
#                             set of all streams: 3 x array for triad, 2 x array
#                             for copy, so each array is as long as vpsbench's.
#   sysbench memory           MiB/s = events x 1 MiB / 2^20 / s, one 1 MiB block
#                             (global scope) passed over with 8-byte loads/stores,
#                             --threads=1 as ecs/LemonBench run it; vpsbench's
#                             "sysbench-style" figure does the same.
# likwid-bench's MByte/s is the volume of all its iterations over their total
# time (a mean); vpsbench's is STREAM's best repetition: on a busy machine the
# ratio rises above 1 for that reason alone, so run this on a quiet one. The
# script also prints the ratio of vpsbench's mean over its repetitions (from
# the JSON's min_s and avg_s) to likwid-bench's figure: mean against mean.
# Like with like: every 1-thread figure of both sides (vpsbench's 1-thread
# STREAM run, its sysbench-style figure, likwid-bench with 1 thread, sysbench)
# runs on the same CPU, vpsbench's single_cpu; N-thread runs take the first N
# CPUs on both sides. Sizes: likwid-bench's working set is 3 (triad) or 2
# (copy) of vpsbench's arrays; sysbench and vpsbench pass over one 1 MiB block
# for a fixed time each.
# Then the latency targets: 3 runs, the DRAM plateau (past 4x LLC, 4 KiB pages)
# of each, spread around their median (target +-10%) and DRAM / L1 (target >= 3).
#
# Usage: tests/compare/vs-stream.sh; PAIRS=N (default 3), MEM_SIZE (per array,
# default: what vpsbench picks, 4x LLC), THREADS (default: usable CPUs),
# SB_TIME (sysbench seconds, default 5). Targets: 0.95-1.05 for every ratio.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
pairs=${PAIRS:-3}
threads=${THREADS:-$(nproc)}
sbtime=${SB_TIME:-5}
[ "$pairs" -ge 3 ] 2>/dev/null || { echo "vs-stream: PAIRS must be >= 3" >&2; exit 1; }
[ -x "$VPSBENCH" ] || { echo "vs-stream: $VPSBENCH not built (run make)" >&2; exit 1; }
for t in likwid-bench sysbench python3; do
	command -v $t >/dev/null || { echo "vs-stream: needs $t (apt-get install likwid sysbench python3)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/vs-stream.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

sizeopt=()
[ -n "${MEM_SIZE:-}" ] && sizeopt=(--mem-size "$MEM_SIZE")
jget() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x not in ("", "-")]; print("%.4g" % statistics.median(v) if v else "-")' "$@"; }

# likwid-bench KERNEL BYTES THREADS -> MByte/s (decimal, as it prints). One thread
# runs on vpsbench's single_cpu (likwid-bench keeps to a taskset mask): the
# vCPUs of a VPS can differ in speed, so both sides must use the same one.
likwid() {
	local pin=()
	[ "$3" = 1 ] && pin=(taskset -c "$cpu1")
	"${pin[@]}" likwid-bench -t "$1" -w "N:${2}B:$3" 2>/dev/null | awk '/^MByte\/s:/ { print $2 }'
}
best_likwid() { # KERNELS... -- BYTES THREADS
	local best=0 v k
	local bytes=${*: -2:1} th=${*: -1}
	for k in "${@:1:$#-2}"; do
		v=$(likwid "$k" "$bytes" "$th")
		[ -n "$v" ] && best=$(python3 -c "print(max($best, $v))")
	done
	echo "$best"
}
# sysbench on the CPU vpsbench's sysbench-style figure ran on (its single_cpu)
sysbench_mibps() { # read|write
	taskset -c "$cpu1" sysbench memory --memory-block-size=1M --memory-total-size=100000G \
		--memory-oper="$1" --memory-access-mode=seq --threads=1 --time="$sbtime" run 2>/dev/null |
		sed -n 's/.*MiB transferred (\([0-9.]*\) MiB\/sec).*/\1/p'
}

echo "vs-stream: $pairs pairs, threads $threads, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -a rt rc rs1 rs2 rst rsc rsr rsw rtm rcm rs1m rs2m
for i in $(seq 1 "$pairs"); do
	# A: vpsbench
	"$VPSBENCH" --only mem "${sizeopt[@]}" --mem-threads "$threads" --json --quiet > "$work/v$i.json" 2>/dev/null
	arr=$(jget "$work/v$i.json" "j['mem']['array_bytes']")
	cpu1=$(jget "$work/v$i.json" "j['mem']['single_cpu']")
	[ "$cpu1" = None ] && cpu1=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
	vt=$(jget "$work/v$i.json" "j['mem']['stream'][-1]['kernels']['triad']['mbps']")
	vc=$(jget "$work/v$i.json" "j['mem']['stream'][-1]['kernels']['copy']['mbps']")
	vt1=$(jget "$work/v$i.json" "j['mem']['stream'][0]['kernels']['triad']['mbps']")
	vc1=$(jget "$work/v$i.json" "j['mem']['stream'][0]['kernels']['copy']['mbps']")
	# the same runs' mean over repetitions (bytes / avg_s = mbps * min_s / avg_s):
	# likwid-bench's own figure is a mean, so this is the like-for-like ratio
	k="['kernels']"; mean="['mbps'] * K['min_s'] / K['avg_s']"
	vtm=$(jget "$work/v$i.json" "(K := j['mem']['stream'][-1]$k['triad'])$mean")
	vcm=$(jget "$work/v$i.json" "(K := j['mem']['stream'][-1]$k['copy'])$mean")
	vt1m=$(jget "$work/v$i.json" "(K := j['mem']['stream'][0]$k['triad'])$mean")
	vc1m=$(jget "$work/v$i.json" "(K := j['mem']['stream'][0]$k['copy'])$mean")
	vr=$(jget "$work/v$i.json" "j['mem']['sysbench']['read_mibps']")
	vw=$(jget "$work/v$i.json" "j['mem']['sysbench']['write_mibps']")
	# B: the peers at the same array length and thread counts
	lt=$(best_likwid stream stream_sse stream_avx $((3 * arr)) "$threads")
	lc=$(best_likwid copy copy_avx $((2 * arr)) "$threads")
	lt1=$(best_likwid stream stream_sse stream_avx $((3 * arr)) 1)
	lc1=$(best_likwid copy copy_avx $((2 * arr)) 1)
	sr=$(sysbench_mibps read)
	sw=$(sysbench_mibps write)
	r() { python3 -c "print('%.3f' % ($1 / $2) if $2 else '-')" 2>/dev/null || echo -; }
	rt[$i]=$(r "$vt" "$lt"); rc[$i]=$(r "$vc" "$lc")
	rs1[$i]=$(r "$vt1" "$lt1"); rs2[$i]=$(r "$vc1" "$lc1")
	rsr[$i]=$(r "$vr" "$sr"); rsw[$i]=$(r "$vw" "$sw")
	rtm[$i]=$(r "$vtm" "$lt"); rcm[$i]=$(r "$vcm" "$lc")
	rs1m[$i]=$(r "$vt1m" "$lt1"); rs2m[$i]=$(r "$vc1m" "$lc1")
	printf 'round %d (load %s, 1 thread on CPU %s): arrays %d MiB; triad %s/%s copy %s/%s MB/s (N thr); triad %s/%s copy %s/%s (1 thr); sysbench read %s/%s write %s/%s MiB/s\n' \
		"$i" "$(cut -d' ' -f1 /proc/loadavg)" "$cpu1" $((arr >> 20)) "$vt" "$lt" "$vc" "$lc" "$vt1" "$lt1" "$vc1" "$lc1" "$vr" "$sr" "$vw" "$sw"
done
echo
echo "median ratios vpsbench / peer (target 0.95-1.05):"
echo "  triad, $threads threads vs likwid-bench best: $(median "${rt[@]}")"
echo "  copy,  $threads threads vs likwid-bench best: $(median "${rc[@]}")"
echo "  triad, 1 thread vs likwid-bench best:        $(median "${rs1[@]}")"
echo "  copy,  1 thread vs likwid-bench best:        $(median "${rs2[@]}")"
echo "  the same, vpsbench's mean over its repetitions (likwid-bench's figure is a mean):"
echo "    triad $threads threads $(median "${rtm[@]}"), copy $(median "${rcm[@]}"); 1 thread: triad $(median "${rs1m[@]}"), copy $(median "${rs2m[@]}")"
echo "  sysbench-style read vs sysbench memory:      $(median "${rsr[@]}")"
echo "  sysbench-style write vs sysbench memory:     $(median "${rsw[@]}")"

echo
echo "latency: DRAM plateau (4 KiB pages) of 3 runs:"
python3 - "$work"/v1.json "$work"/v2.json "$work"/v3.json <<'EOF'
import json, statistics, sys
d, l1 = [], []
for p in sys.argv[1:]:
    c = json.load(open(p))['mem']['latency'][0]['levels_ns']
    d.append(c['DRAM']); l1.append(c['L1'])
print("  DRAM ns:", ", ".join("%.1f" % x if x else "-" for x in d), " L1 ns:", ", ".join("%.2f" % x if x else "-" for x in l1))
dv = [x for x in d if x]
if len(dv) == 3:
    m = statistics.median(dv)
    print("  spread around the median: %+.1f%% .. %+.1f%% (target within +-10%%)" % ((min(dv) / m - 1) * 100, (max(dv) / m - 1) * 100))
    lv = [x for x in l1 if x]
    if lv:
        print("  DRAM / L1: %.1f (target >= 3)" % (m / statistics.median(lv)))
else:
    print("  ! a run had no DRAM plateau (arrays capped below 4x LLC?)")
EOF
exit 0
