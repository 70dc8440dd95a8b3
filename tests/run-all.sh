#!/bin/bash
# Runs the unit/fixture tests, then every tests/smoke_*.sh, and prints the
# totals as one "N passed, N failed" line (CI reads it). Exit 1 on failure.
cd "$(dirname "$0")/.." || exit 1
export VPSBENCH_SRCDIR=$PWD
pass=0; fail=0; skip=0
tally() { # reads "...: N passed, N failed, N skipped" lines from a log
	local line
	line=$(grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then fail=$((fail+1)); echo "FAIL $2: no summary line"; return; fi
	set -- $(echo "$line" | sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	pass=$((pass+$1)); fail=$((fail+$2)); skip=$((skip+${3:-0}))
}
log=$(mktemp); trap 'rm -f "$log"' EXIT
echo "== unit and fixture tests (ASan/UBSan)"
./build/san/unit > "$log" 2>&1; rc=$?
cat "$log"; tally "$log" unit
[ $rc -ne 0 ] && ! grep -q ' failed' "$log" && fail=$((fail+1))
times=""
for t in tests/smoke_*.sh; do
	echo "== $t"
	t0=$SECONDS
	bash "$t" > "$log" 2>&1
	cat "$log"; tally "$log" "$t"
	times="$times$((SECONDS - t0)) $t"$'\n'
done
# libFuzzer targets (built by `make fuzz-build`), one result per target
echo "== tests/fuzz/smoke.sh"
bash tests/fuzz/smoke.sh > "$log" 2>&1
cat "$log"; tally "$log" tests/fuzz/smoke.sh
echo
echo "slowest (seconds):"
printf '%s' "$times" | sort -rn | head -n 8 | sed 's/^/  /'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
