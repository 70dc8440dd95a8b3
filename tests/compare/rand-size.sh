#!/bin/bash
# rand-size.sh — which test-file size the default randrw pass needs (issue
# #14): host-side caches (qemu cache=writeback, RAID controllers) can hold a
# small file, so the pass measures the cache. Runs the default profile's
# randrw pass (4k, 75/25, qd64, jobs = CPUs) at each size, sizes rotated
# every round (A B C D, B C D A, ...), and prints the median IOPS of each
# with its ratio to the largest size. Benchmark, not a test.
#   DIR=/path ROUNDS=3 SIZES="256M 1G 2G 4G" RUNTIME=8 tests/compare/rand-size.sh
set -u
VPSBENCH=${VPSBENCH:-$(dirname "$0")/../../vpsbench}
DIR=${DIR:-.}
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-8}
read -r -a SIZES <<< "${SIZES:-256M 1G 2G 4G}"
tmp=$(mktemp -d "$DIR/vpsbench-size.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/profile.ini" <<PROF
[pass randrw]
rw = randrw
rwmixread = 75
bs = 4k
iodepth = 64
PROF
n=${#SIZES[@]}
for ((r = 0; r < ROUNDS; r++)); do
	for ((k = 0; k < n; k++)); do
		s=${SIZES[$(((k + r) % n))]}
		"$VPSBENCH" --only rand --profile "$tmp/profile.ini" --size "$s" --runtime "$RUNTIME" \
			--dir "$tmp" --json --quiet > "$tmp/out.json" 2>/dev/null
		python3 - "$tmp/out.json" "$s" >> "$tmp/iops" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
p = j["rand"]["passes"][0]
iops = sum((p.get(d) or {}).get("iops") or 0 for d in ("read", "write"))
print(sys.argv[2], iops, p.get("size_bytes", ""), p.get("engine", ""))
PY
		echo "round $((r + 1)): $(tail -n 1 "$tmp/iops")" >&2
	done
done
python3 - "$tmp/iops" "${SIZES[@]}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
sizes = sys.argv[2:]
med = {s: statistics.median(float(r[1]) for r in rows if r[0] == s) for s in sizes}
ref = med[sizes[-1]]
print("| size | IOPS (median of %d) | vs %s |" % (len(rows) // len(sizes), sizes[-1]))
print("|---|---|---|")
for s in sizes:
    print("| %s | %.0f | %.3f |" % (s, med[s], med[s] / ref if ref else float("nan")))
PY
