#!/bin/bash
# Runs the unit/fixture tests, then every tests/smoke_*.sh, and prints the
# totals as one "N passed, N failed" line (CI reads it). Exit 1 on failure.
#
# Smoke scripts run TEST_JOBS at a time (default 2): most of their time is
# spent waiting on child processes, servers and fsync, not on a CPU. A
# script whose checks depend on having the machine to itself (throughput
# against a shaped link, a CPU share under a quota, a global sysctl) says
# so with a line "# run-all: alone" and runs afterwards with no other test
# beside it; one that takes minutes says "# run-all: long" and starts
# first, so the others fill the time beside it; one that needs what
# RUN_ALL_BEFORE_LAST makes says "# run-all: last" and runs at the end,
# TEST_JOBS at a time, after that command. CI builds the static libraries
# at nice 19 during the shared and alone parts (a nice-19 compile takes
# about 1.5% of a CPU from a test that wants it) and links the static
# binary, which the "last" scripts run, in RUN_ALL_BEFORE_LAST.
# TEST_JOBS=1 runs everything one after another. A script that takes far
# longer than the rest (a whole CI run in a chroot) says "# run-all: opt-in"
# and runs, alone, only with TEST_OPT_IN=1.
cd "$(dirname "$0")/.." || exit 1
export VPSBENCH_SRCDIR=$PWD
jobs_max=${TEST_JOBS:-2}
case $jobs_max in '' | *[!0-9]* | 0) echo "run-all: TEST_JOBS must be a positive integer" >&2; exit 1 ;; esac
pass=0; fail=0; skip=0
tally() { # reads "...: N passed, N failed, N skipped" lines from a log
	local line
	line=$(grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then fail=$((fail+1)); echo "FAIL $2: no summary line"; return; fi
	set -- $(echo "$line" | sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	pass=$((pass+$1)); fail=$((fail+$2)); skip=$((skip+${3:-0}))
}
logs=$(mktemp -d); trap 'rm -rf "$logs"' EXIT
start=$SECONDS
# the mounts below the tests' temporary directories (vpsbench-*), now and
# at the end: one made by a test and left behind fails the suite
test_mounts() { awk '$5 ~ /\/vpsbench-/ { print $5 }' /proc/self/mountinfo | sort; }
test_mounts > "$logs/mounts.before"
echo "== unit and fixture tests (ASan/UBSan)"
./build/san/unit > "$logs/unit" 2>&1; rc=$?
cat "$logs/unit"; tally "$logs/unit" unit
[ $rc -ne 0 ] && ! grep -q ' failed' "$logs/unit" && fail=$((fail+1))

# run_one SCRIPT: its output in $logs/NAME.log; in $logs/NAME.s its wall
# seconds and the CPU seconds (user+sys) it and its children used
run_one() {
	local n t0=$SECONDS cpu
	n=$(basename "$1" .sh)
	bash "$1" > "$logs/$n.log" 2>&1
	# times (in this shell: a pipe or $() would fork and see no children):
	# line 2 is the children's "XmY.YYYs XmY.YYYs" (user, sys)
	times > "$logs/$n.times"
	cpu=$(sed -n 2p "$logs/$n.times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%d", s + 0.5 }')
	echo "$((SECONDS - t0)) ${cpu:-?}" > "$logs/$n.s"
}
long=(); shared=(); alone=(); last=()
for t in tests/smoke_*.sh tests/fuzz/smoke.sh; do
	if grep -q '^# run-all: alone' "$t"; then alone+=("$t")
	elif grep -q '^# run-all: long' "$t"; then long+=("$t")
	elif grep -q '^# run-all: last' "$t"; then last+=("$t")
	elif grep -q '^# run-all: opt-in' "$t"; then [ -n "${TEST_OPT_IN:-}" ] && alone+=("$t")
	else shared+=("$t"); fi
done
shared=("${long[@]}" "${shared[@]}")
# run_some SCRIPT...: TEST_JOBS at a time, until all have ended
run_some() {
	local t running=0
	for t in "$@"; do
		if [ "$running" -ge "$jobs_max" ]; then wait -n; running=$((running - 1)); fi
		run_one "$t" &
		running=$((running + 1))
	done
	wait
}
run_some "${shared[@]}"
# (each in a subshell: run_one reads `times`, which in this shell would
# count every child since the start)
for t in "${alone[@]}"; do ( run_one "$t" ); done
# RUN_ALL_BEFORE_LAST: a command to finish first (CI waits for the static
# libraries it built beside the other parts and links the static binary);
# its failure counts as one
if [ -n "${RUN_ALL_BEFORE_LAST:-}" ]; then
	echo "== before the last part: $RUN_ALL_BEFORE_LAST"
	if ! bash -c "$RUN_ALL_BEFORE_LAST"; then
		echo "FAIL the command before the last part"
		fail=$((fail + 1))
	fi
fi
run_some "${last[@]}"

# reports in a fixed order, whatever order they finished in
times=""
for t in "${shared[@]}" "${alone[@]}" "${last[@]}"; do
	n=$(basename "$t" .sh)
	echo "== $t"
	cat "$logs/$n.log"; tally "$logs/$n.log" "$t"
	times="$times$(cat "$logs/$n.s" 2>/dev/null || echo '? ?') $t"$'\n'
done
left=$(test_mounts | comm -13 "$logs/mounts.before" -)
if [ -n "$left" ]; then
	echo "FAIL mounts left behind by the tests:"; echo "$left" | sed 's/^/  /'
	fail=$((fail + 1))
else
	pass=$((pass + 1)); echo "ok   no mount left behind"
fi
echo
echo "scripts by wall seconds, with the CPU seconds each used ($jobs_max at a time, then ${#alone[@]} alone, then ${#last[@]} last; $((SECONDS - start)) s in all):"
printf '%s' "$times" | sort -rn | awk '{ printf "  %4s s  cpu %4s s  %s\n", $1, $2, $3 }'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
