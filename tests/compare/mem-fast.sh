#!/bin/bash
# mem-fast.sh — benchmark (not part of make test): the default (fast) mem
# run against --mem-strict (STREAM's rule: 4x the sysfs LLC, best of 10),
# alternately A B A B, PAIRS rounds (default 5):
#   A: vpsbench --only mem                       (knee-sized huge-page arrays,
#                                                 reps budgeted by time)
#   B: vpsbench --only mem --mem-strict --mem-tests stream
# Per round: Triad on 1 and N threads of each side and the ratio A / B, the
# module's wall time, the CPU share of each run (a disturbed run is marked *);
# then the medians of the ratios (target 0.95-1.05) and, over the A runs,
# the DRAM latency on huge pages around its median (target within +-10%).
# Knobs: PAIRS, VPSBENCH. Prints `uptime` first and last: on a loaded host
# the figures move more than the targets allow.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
[ -x "$VPSBENCH" ] || { echo "mem-fast: $VPSBENCH not built (run make)" >&2; exit 1; }
echo "mem-fast: $("$VPSBENCH" --version | head -1); $(nproc) CPUs; $(uptime)"
python3 - "$VPSBENCH" "${PAIRS:-5}" <<'PY'
import json, statistics, subprocess, sys, time
vps, pairs = sys.argv[1], int(sys.argv[2])

def run(*extra):
    t0 = time.monotonic()
    out = subprocess.run([vps, "--only", "mem", "--json", "--quiet", *extra], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("mem-fast: vpsbench failed: " + out.stderr.strip()[:300])
    j = json.loads(out.stdout)
    return j["mem"], j["modules"]["mem"].get("seconds") or time.monotonic() - t0

def triad(m):
    return {r["threads"]: (r["kernels"]["triad"]["mbps"], r["cpu_share"], r["disturbed"]) for r in m["stream"]}

rat = {}
dram = []
print("%-5s %-7s %10s %10s %7s  %8s %8s  %6s %6s" % ("round", "threads", "fast", "strict", "ratio", "fast_MiB", "strict", "fast_s", "strict_s"))
for i in range(pairs):
    a, sa = run()
    b, sb = run("--mem-strict", "--mem-tests", "stream")
    ta, tb = triad(a), triad(b)
    h = [c for c in a["latency"] if c["pages"] == "huge"]
    if h and h[0]["levels_ns"]["DRAM"]:
        dram.append(h[0]["levels_ns"]["DRAM"])
    for t in sorted(ta):
        if t not in tb:
            continue
        r = ta[t][0] / tb[t][0]
        rat.setdefault(t, []).append(r)
        mark = lambda x: "*" if x[2] else " "
        print("%-5d %-7d %9.0f%s %9.0f%s %7.3f  %8d %8d  %6.1f %6.1f" % (i + 1, t, ta[t][0], mark(ta[t]), tb[t][0], mark(tb[t]), r,
              a["array_bytes"] >> 20, b["array_bytes"] >> 20, sa, sb))
for t, v in sorted(rat.items()):
    print("median Triad fast/strict, %d thread%s: %.3f (target 0.95-1.05; per round %s)" % (t, "s" if t > 1 else "", statistics.median(v), " ".join("%.3f" % x for x in v)))
if len(dram) >= 3:
    m = statistics.median(dram)
    print("DRAM latency, huge pages, fast runs: %s ns; spread around the median %+.1f%% .. %+.1f%% (target +-10%%)" % (
        ", ".join("%.1f" % x for x in dram), (min(dram) / m - 1) * 100, (max(dram) / m - 1) * 100))
PY
echo "mem-fast: $(uptime)"
