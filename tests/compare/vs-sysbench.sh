#!/bin/bash
# vs-sysbench.sh — vpsbench's prime pass against Debian's sysbench 1.0.20
# (`apt-get install sysbench`), alternately A B A B: at T = 1 and T = N
# (nproc) threads, PAIRS rounds of
#   A: vpsbench --only cpu --cpu-time TIME --cpu-threads T  (the T-thread pass)
#   B: sysbench cpu --cpu-max-prime=10000 --time=TIME --threads=T run
# printing each round, the medians and the median of the per-round ratios
# A / B. A benchmark, not a test: exits 0 once the table is printed.
# Knobs: PAIRS (3), TIME (5), THREADS ("1 $(nproc)"), VPSBENCH, SYSBENCH.
set -u
cd "$(dirname "$0")/../.." || exit 1
PAIRS=${PAIRS:-3}
TIME=${TIME:-5}
THREADS=${THREADS:-"1 $(nproc)"}
SYSBENCH=${SYSBENCH:-sysbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "${VPSBENCH:-./vpsbench}" "$tmp/vpsbench" || { echo "build first: make vpsbench"; exit 1; }
command -v "$SYSBENCH" >/dev/null || { echo "sysbench not found: apt-get install sysbench"; exit 1; }

median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x != "-"]; print("%.2f" % statistics.median(v) if v else "-")' "$@"; }

echo "vpsbench $("$tmp/vpsbench" --version | cut -d' ' -f2) vs $("$SYSBENCH" --version); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-6s %14s %14s %8s\n' threads round vpsbench_eps sysbench_eps ratio
for t in $THREADS; do
	as=(); bs=(); rs=()
	for i in $(seq 1 "$PAIRS"); do
		"$tmp/vpsbench" --only cpu --cpu-time "$TIME" --cpu-threads "$t" --json --quiet > "$tmp/a.json" 2>/dev/null
		a=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["cpu"]["prime"]; x=p["single" if int(sys.argv[2]) == 1 else "multi"]["events_per_s"]; print("%.2f" % x if x else "-")' "$tmp/a.json" "$t" 2>/dev/null || echo -)
		b=$("$SYSBENCH" cpu --cpu-max-prime=10000 --time="$TIME" --threads="$t" run 2>/dev/null |
			awk '/events per second:/ { print $4 }')
		b=${b:--}
		r=$(python3 -c 'import sys; a,b=sys.argv[1:]; print("%.3f" % (float(a)/float(b)) if "-" not in (a,b) else "-")' "$a" "$b")
		printf '%-8s %-6s %14s %14s %8s\n' "$t" "$i" "$a" "$b" "$r"
		[ "$a" = - ] && echo "! vpsbench run failed (threads $t, round $i)"
		[ "$b" = - ] && echo "! sysbench run failed (threads $t, round $i)"
		as+=("$a"); bs+=("$b"); rs+=("$r")
	done
	printf '%-8s %-6s %14s %14s %8s\n' "$t" median "$(median "${as[@]}")" "$(median "${bs[@]}")" "$(median "${rs[@]}")"
done
echo "vpsbench pins one thread per CPU, sysbench does not; same event (primes below 10000,"
echo "trial division to sqrt, 64-bit), compiled -O2 -funroll-loops as sysbench's configure does."
