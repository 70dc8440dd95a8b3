#!/bin/bash
# vs-watch-overhead.sh — what `vpsbench watch` costs the workload beside it:
# a fio 4k randread job and a `sysbench cpu` run, each alternately
#   A: alone
#   B: with `vpsbench watch` running at its default cadence (--every 15m,
#      its wake-up sampler always on; its start-up round done before B starts)
# A B A B ..., PAIRS rounds; prints each round, the medians, the median of the
# per-round ratios B/A and the difference in % (the issue's target: within 1%).
# A benchmark, not a test: exits 0 once the table is printed.
# Knobs: PAIRS (3), TIME (20, seconds per run), EVERY (the watcher's --every,
# default its own 15m), FIO_QD (32), FIO_SIZE (256M), VPSBENCH, FIO, SYSBENCH.
# Run it from a directory on the disk to measure (it makes a mktemp -d there).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
PAIRS=${PAIRS:-3}
TIME=${TIME:-20}
EVERY=${EVERY:-}
FIO_QD=${FIO_QD:-32}
FIO_SIZE=${FIO_SIZE:-256M}
FIO=${FIO:-fio}
SYSBENCH=${SYSBENCH:-sysbench}
tmp=$(mktemp -d "$PWD/vpsbench-overhead.XXXXXX") || exit 1
wpid=
cleanup() { [ -n "$wpid" ] && kill "$wpid" 2>/dev/null && wait "$wpid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cp "${VPSBENCH:-$src/vpsbench}" "$tmp/vpsbench" || { echo "build first: make vpsbench"; exit 1; }
command -v "$FIO" >/dev/null || { echo "fio not found: apt-get install fio"; exit 1; }
command -v "$SYSBENCH" >/dev/null || { echo "sysbench not found: apt-get install sysbench"; exit 1; }
mkdir "$tmp/state" "$tmp/fio"

# median [-4] VALUES...: two decimals, or four with -4 (the ratios)
median() {
	local d=2; [ "$1" = -4 ] && { d=4; shift; }
	python3 -c 'import statistics,sys; d=int(sys.argv[1]); v=[float(x) for x in sys.argv[2:] if x != "-"]; print("%.*f" % (d, statistics.median(v)) if v else "-")' "$d" "$@"
}
ratio() { python3 -c 'import sys; a,b=sys.argv[1:]; print("%.4f" % (float(b)/float(a)) if "-" not in (a,b) and float(a) > 0 else "-")' "$1" "$2"; }
pct() { python3 -c 'import sys; r=sys.argv[1]; print("%+.2f%%" % ((float(r)-1)*100) if r != "-" else "-")' "$1"; }

run_fio() {
	"$FIO" --name=ovh --directory="$tmp/fio" --size="$FIO_SIZE" --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth="$FIO_QD" --numjobs=1 --time_based --runtime="$TIME" \
		--output-format=json 2>/dev/null |
		python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["jobs"][0]["read"]["iops"])' 2>/dev/null || echo -
}
run_sysbench() {
	"$SYSBENCH" cpu --cpu-max-prime=10000 --threads="$(nproc)" --time="$TIME" run 2>/dev/null |
		sed -n 's/.*events per second: *\([0-9.]*\).*/\1/p' | grep . || echo -
}
watch_start() {
	rm -f "$tmp/state/history.jsonl"
	"$tmp/vpsbench" watch --state-dir "$tmp/state" --dir "$tmp/state" --listen none \
		--baseline "$src/tests/fixtures/watch/flat/baseline.json" ${EVERY:+--every "$EVERY"} \
		>"$tmp/watch.log" 2>&1 &
	wpid=$!
	# its first round (start-up) is not what a steady watcher costs: wait it out
	for _ in $(seq 1 300); do
		[ -s "$tmp/state/history.jsonl" ] && return 0
		kill -0 "$wpid" 2>/dev/null || { echo "! watch exited: $(tail -c 300 "$tmp/watch.log")"; wpid=; return 1; }
		sleep 0.1
	done
	echo "! watch wrote no round within 30 s"
	return 1
}
watch_stop() { [ -n "$wpid" ] && kill -TERM "$wpid" 2>/dev/null && wait "$wpid" 2>/dev/null; wpid=; }

"$FIO" --name=lay --directory="$tmp/fio" --size="$FIO_SIZE" --rw=write --bs=1M --direct=1 >/dev/null 2>&1
echo "vpsbench watch overhead, every ${EVERY:-15m (default)}; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg); $("$FIO" --version), $("$SYSBENCH" --version)"
printf '%-16s %-6s %12s %12s %8s %8s\n' workload round alone with_watch B/A diff
summary=()
for w in fio sysbench; do
	as=(); bs=(); rs=()
	for i in $(seq 1 "$PAIRS"); do
		a=$(run_$w)
		if watch_start; then b=$(run_$w); else b=-; fi
		watch_stop
		r=$(ratio "$a" "$b")
		printf '%-16s %-6s %12s %12s %8s %8s\n' "$w" "$i" "$a" "$b" "$r" "$(pct "$r")"
		as+=("$a"); bs+=("$b"); rs+=("$r")
	done
	mr=$(median -4 "${rs[@]}")
	summary+=("$(printf '%-16s %-6s %12s %12s %8s %8s' "$w" median "$(median "${as[@]}")" "$(median "${bs[@]}")" "$mr" "$(pct "$mr")")")
done
printf '%s\n' "${summary[@]}"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg) (a loaded machine's run-to-run spread hides a 1% effect: compare the rounds' spread with the diff)"
echo "units: fio read IOPS (4k randread qd$FIO_QD, O_DIRECT, libaio), sysbench cpu events/s ($(nproc) threads); diff = B/A - 1 (negative: the watcher cost that much)"
exit 0
