#!/bin/bash
# vs-sysbench.sh — vpsbench's prime pass against Debian's sysbench 1.0.20
# (`apt-get install sysbench`), alternately A B A B: at T = 1 and T = N
# (nproc) threads, PAIRS rounds of
#   A: vpsbench --only cpu --cpu-time TIME --cpu-threads T  (the T-thread pass)
#   B: sysbench cpu --cpu-max-prime=10000 --time=TIME --threads=T run
# printing each round, the medians and the median of the per-round ratios
# A / B: of events/s (the target), and of events per CPU-second x T (the
# CPU time the threads got: vpsbench's cpu_seconds, sysbench's rusage),
# which agrees even when a loaded machine gives the threads part of a CPU.
# A benchmark, not a test: exits 0 once the table is printed.
# Knobs: PAIRS (3), TIME (5), SB_TIME (sysbench's --time, default TIME: 10 is
# sysbench's own default, against vpsbench's shorter passes), THREADS
# ("1 $(nproc)"), VPSBENCH, SYSBENCH.
set -u
cd "$(dirname "$0")/../.." || exit 1
PAIRS=${PAIRS:-3}
TIME=${TIME:-5}
SB_TIME=${SB_TIME:-$TIME}
THREADS=${THREADS:-"1 $(nproc)"}
SYSBENCH=${SYSBENCH:-sysbench}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "${VPSBENCH:-./vpsbench}" "$tmp/vpsbench" || { echo "build first: make vpsbench"; exit 1; }
command -v "$SYSBENCH" >/dev/null || { echo "sysbench not found: apt-get install sysbench"; exit 1; }

median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x != "-"]; print("%.2f" % statistics.median(v) if v else "-")' "$@"; }

echo "vpsbench $("$tmp/vpsbench" --version | cut -d' ' -f2) vs $("$SYSBENCH" --version); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
ratio() { python3 -c 'import sys; a,b=sys.argv[1:]; print("%.3f" % (float(a)/float(b)) if "-" not in (a,b) else "-")' "$1" "$2"; }
# sysbench with its CPU seconds: "eps events cpu_s"
sysb() {
	python3 - "$SYSBENCH" "$SB_TIME" "$1" <<'PY'
import re, resource, subprocess, sys
sb, tm, t = sys.argv[1:]
out = subprocess.run([sb, "cpu", "--cpu-max-prime=10000", "--time=" + tm, "--threads=" + t, "run"],
                     capture_output=True, text=True).stdout
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
eps = re.search(r"events per second:\s*([0-9.]+)", out)
ev = re.search(r"total number of events:\s*([0-9]+)", out)
print(eps.group(1) if eps else "-", ev.group(1) if ev else "-", ru.ru_utime)
PY
}
printf '%-8s %-6s %12s %12s %7s %12s %12s %7s\n' threads round vps_eps sysb_eps ratio vps_eps/cpu sysb_eps/cpu ratio
for t in $THREADS; do
	as=(); bs=(); rs=(); ac=(); bc=(); rc=()
	for i in $(seq 1 "$PAIRS"); do
		"$tmp/vpsbench" --only cpu --cpu-time "$TIME" --cpu-threads "$t" --json --quiet > "$tmp/a.json" 2>/dev/null
		read -r a a_cpu < <(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["cpu"]["prime"]
x = p["single" if int(sys.argv[2]) == 1 else "multi"]
ok = x["events_per_s"] and x["cpu_seconds"]
print("%.2f %.2f" % (x["events_per_s"], x["events"] / x["cpu_seconds"] * x["threads"]) if ok else "- -")' "$tmp/a.json" "$t" 2>/dev/null || echo "- -")
		read -r b b_ev b_cpu < <(sysb "$t")
		b_cpu=$(python3 -c 'import sys; e,c,t=sys.argv[1:]; print("%.2f" % (float(e)/float(c)*int(t)) if e != "-" and float(c) > 0 else "-")' "$b_ev" "$b_cpu" "$t")
		r=$(ratio "$a" "$b"); r2=$(ratio "$a_cpu" "$b_cpu")
		printf '%-8s %-6s %12s %12s %7s %12s %12s %7s\n' "$t" "$i" "$a" "$b" "$r" "$a_cpu" "$b_cpu" "$r2"
		[ "$a" = - ] && echo "! vpsbench run failed (threads $t, round $i)"
		[ "$b" = - ] && echo "! sysbench run failed (threads $t, round $i)"
		as+=("$a"); bs+=("$b"); rs+=("$r"); ac+=("$a_cpu"); bc+=("$b_cpu"); rc+=("$r2")
	done
	printf '%-8s %-6s %12s %12s %7s %12s %12s %7s\n' "$t" median "$(median "${as[@]}")" "$(median "${bs[@]}")" \
		"$(median "${rs[@]}")" "$(median "${ac[@]}")" "$(median "${bc[@]}")" "$(median "${rc[@]}")"
done
echo "eps/cpu = events per CPU-second x threads: what the threads do per CPU they actually got."
echo "vpsbench pins one thread per CPU, sysbench does not; same event (primes below 10000,"
echo "trial division to sqrt, 64-bit), compiled -O2 -funroll-loops as sysbench's configure does."
