#!/bin/bash
# same-output.sh OLD_BINARY NEW_BINARY — for refactors that must not change
# behaviour: runs each binary twice on the same fixed-seed small run (A B A B)
# and diffs their JSON reports with the fields that vary between two runs
# of the same binary (timings, rates, dates) and what is graded from them
# (grades, verdict, metrics) removed. Exit 0 when the rest
# is identical. Writes only inside a temporary directory it removes.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpsbench-same.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d"
args=(--json --quiet --seed 7 --dir "$tmp/d" --seq-size 16M --seq-runs 2 --size 16M --runtime 1 --ramp 0)
for i in 1 2; do
	"$1" "${args[@]}" > "$tmp/old$i.json" || { echo "old run $i failed" >&2; exit 2; }
	"$2" "${args[@]}" > "$tmp/new$i.json" || { echo "new run $i failed" >&2; exit 2; }
done
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def flat(o, p=''):
    if isinstance(o, dict):
        for k, v in o.items(): yield from flat(v, p + '/' + k)
    elif isinstance(o, list):
        for i, v in enumerate(o): yield from flat(v, p + '/%d' % i)
    else: yield p, o
r = {n: dict(flat(json.load(open('%s/%s.json' % (t, n))))) for n in ('old1', 'old2', 'new1', 'new2')}
keys = set().union(*r.values())
vary = {k for k in keys if r['old1'].get(k) != r['old2'].get(k) or r['new1'].get(k) != r['new2'].get(k)}
# grades, the verdict and the metrics are computed from the measured figures
vary |= {k for k in keys if k.split('/')[1] in ('grades', 'verdict', 'metrics')}
for n in ('old1', 'new1'):
    with open('%s/%s.stable' % (t, n), 'w') as f:
        for k in sorted(r[n]):
            if k not in vary: f.write('%s = %r\n' % (k, r[n][k]))
print('%d fields vary between two runs of one binary and are left out; %d compared'
      % (len(vary), len([k for k in r['old1'] if k not in vary])))
PY
if diff -u "$tmp/old1.stable" "$tmp/new1.stable"; then echo "same output"; else echo "OUTPUT DIFFERS"; exit 1; fi
