#!/bin/bash
# same-answer.sh — benchmark (not part of make test): "same VPS, same
# answer" (issue #39). Runs the default vpsbench run RUNS times back to back
# (default 5) in a temporary directory on the disk under $PWD and prints
# each run's wall time and verdict, then one row per graded metric with
# each run's value ± its uncertainty and its tier (or "between X and Y",
# "disturbed", "not graded"), and which metrics changed tier between runs.
# A flip between two named tiers is what the borderline rule must prevent;
# a figure that moves between a tier and "between ..." is the rule at work.
# Exits 0 once it has printed its table; prints `uptime` first and last.
# Knobs: RUNS, VPSBENCH (binary; copied at start), ARGS (extra arguments),
# KEEP (a directory: the runs' JSON reports are copied there as run-N.json,
# e.g. to record fixtures).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-5}
tmp=$(mktemp -d "$PWD/vpsbench-same-answer.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "${VPSBENCH:-$here/vpsbench}" "$tmp/vpsbench" || exit 1
mkdir "$tmp/d"
echo "same-answer: $("$tmp/vpsbench" --version | head -1); $RUNS default runs in $tmp/d; $(uptime)"
for i in $(seq "$RUNS"); do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$tmp/vpsbench" --quiet --dir "$tmp/d" --json ${ARGS:-} > "$tmp/r$i.json" 2> "$tmp/r$i.err"
	rc=$?
	echo "$rc $(/usr/bin/python3 -c "import time; print('%.1f' % (time.time() - $t0))")" > "$tmp/r$i.rc"
done
/usr/bin/python3 - "$tmp" "$RUNS" <<'PY'
import json, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
reps = []
for i in range(1, runs + 1):
    rc, wall = open("%s/r%d.rc" % (tmp, i)).read().split()
    try:
        reps.append((rc, float(wall), json.load(open("%s/r%d.json" % (tmp, i)))))
    except Exception as e:
        print("! run %d: exit %s, no JSON report (%s)" % (i, rc, e))
        reps.append((rc, float(wall), None))

def cell(rep, name):
    if rep is None:
        return "-"
    g = {x["metric"]: x for x in rep.get("grades", [])}
    det = (rep.get("metrics_detail") or {}).get(name) or {}
    m = rep.get("metrics", {}).get(name)
    if name in g:
        x = g[name]
        u = x.get("uncertainty")
        v = "%.4g" % x["value"] + ("±%.2g" % u if isinstance(u, (int, float)) else "")
        t = x.get("between") if x.get("borderline") else x.get("tier")
        return "%s %s" % (v, t)
    if det.get("disturbed"):
        return "%.4g disturbed" % m if isinstance(m, (int, float)) else "disturbed"
    if isinstance(m, (int, float)):
        return "%.4g (not graded)" % m
    return "null"

print("\n%-4s %-5s %7s  %s" % ("run", "exit", "wall s", "verdict"))
for i, (rc, wall, rep) in enumerate(reps, 1):
    v = rep.get("verdict", {}).get("text", "?") if rep else "-"
    print("%-4d %-5s %7.1f  %s" % (i, rc, wall, v))
names = []
for _, _, rep in reps:
    for x in (rep or {}).get("grades", []):
        if x["metric"] not in names:
            names.append(x["metric"])
for _, _, rep in reps:
    for k, d in ((rep or {}).get("metrics_detail") or {}).items():
        if k not in names and isinstance(d, dict) and d.get("disturbed"):
            names.append(k)
print("\n%-26s %s" % ("metric", "  |  ".join("run %d" % i for i in range(1, runs + 1))))
flips = []
for n in names:
    cells = [cell(rep, n) for _, _, rep in reps]
    print("%-26s %s" % (n, "  |  ".join(cells)))
    tiers = set()
    for _, _, rep in reps:
        for x in (rep or {}).get("grades", []):
            if x["metric"] == n and not x.get("borderline"):
                tiers.add(x["tier"])
    if len(tiers) > 1:
        flips.append("%s (%s)" % (n, ", ".join(sorted(tiers))))
verdicts = [rep.get("verdict", {}).get("text") for _, _, rep in reps if rep]
print("\nverdicts: %d distinct in %d runs" % (len(set(verdicts)), len(verdicts)))
print("metrics that changed between two named tiers: %s" % (", ".join(flips) or "none"))
walls = sorted(w for _, w, _ in reps)
print("wall time: median %.1f s, max %.1f s" % (walls[len(walls) // 2], walls[-1]))
PY
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && for i in $(seq "$RUNS"); do cp "$tmp/r$i.json" "$KEEP/run-$i.json"; done
fi
echo "same-answer: $(uptime)"
exit 0
