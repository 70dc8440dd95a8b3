#!/bin/bash
# Runs the unit/fixture tests, then every tests/smoke_*.sh, and prints the
# totals as one "N passed, N failed" line (CI reads it). Exit 1 on failure.
#
# A script's first "# run-all: WORD..." line says how it runs (words before
# any "(" or ":"; several may be given):
#   (none)  with the others, TEST_JOBS at a time (default 2): most of a
#           script's time is spent waiting on children, servers and fsync.
#   alone   its checks need the machine to itself (throughput against a
#           shaped link, a CPU share under a quota, a global sysctl): runs
#           afterwards with no other test beside it.
#   long    may take more than TEST_MAX_S (default 120) seconds; any other
#           script that does fails the suite (the limit stretched by
#           1 / (1 - share) when a share of the machine's CPU time went to
#           work beside the suite, as /proc/stat less the suite's own CPU
#           time says). Long shared ones start first, so the others fill
#           the time beside them.
#   last    needs what RUN_ALL_BEFORE_LAST makes (CI links the static binary
#           there): runs at the end, TEST_JOBS at a time, after that command.
#   opt-in  far longer than the rest (a whole CI run in a chroot): runs,
#           alone, only with TEST_OPT_IN=1.
#   check   also in the fast set `make check` runs (TEST_SET=check: the unit
#           tests and these scripts only).
# CI builds the static libraries at nice 19 during the shared and alone parts
# (a nice-19 compile takes about 1.5% of a CPU from a test that wants it).
#
# At the end the suite fails naming anything a test left behind: a mount
# below a vpsbench-* directory, a loop device, a vpsbench* cgroup, a network
# namespace, a process started by a test (each carries VPSBENCH_SUITE_TOKEN
# in its environment), or a file in the suite's own TMPDIR (every test's
# temporary files go there) or /dev/shm/vpsbench-*.
cd "$(dirname "$0")/.." || exit 1
export VPSBENCH_SRCDIR=$PWD
# Debian's python3 first, as tests/lib.sh says
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	PATH=/usr/bin:$PATH; export PATH
fi
jobs_max=${TEST_JOBS:-2}
case $jobs_max in '' | *[!0-9]* | 0) echo "run-all: TEST_JOBS must be a positive integer" >&2; exit 1 ;; esac
max_s=${TEST_MAX_S:-120}
case $max_s in '' | *[!0-9]* | 0) echo "run-all: TEST_MAX_S must be a positive integer" >&2; exit 1 ;; esac
set_name=${TEST_SET:-all}
case $set_name in all | check) ;; *) echo "run-all: TEST_SET must be all or check" >&2; exit 1 ;; esac
pass=0; fail=0; skip=0
tally() { # reads "...: N passed, N failed, N skipped" lines from a log
	local line
	line=$(grep -E '^[a-z_-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then fail=$((fail+1)); echo "FAIL $2: no summary line"; return; fi
	set -- $(echo "$line" | sed -E 's/^[^:]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	pass=$((pass+$1)); fail=$((fail+$2)); skip=$((skip+${3:-0}))
}
logs=$(mktemp -d "${TMPDIR:-/tmp}/vpsbench-suite-logs.XXXXXX") || exit 1
# the tests' own temporary files go below a TMPDIR of the suite's, checked
# empty at the end (1777 like /tmp: nginx's and nobody's processes read it)
suite_tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpsbench-suite-tmp.XXXXXX") || exit 1
chmod 1777 "$suite_tmp"
trap 'rm -rf "$logs" "$suite_tmp"' EXIT
export TMPDIR=$suite_tmp
# every process a test starts inherits this; one still running at the end
# was left behind
VPSBENCH_SUITE_TOKEN=$$.$RANDOM$RANDOM
export VPSBENCH_SUITE_TOKEN
start=$SECONDS
# busy CPU seconds of the whole machine (user, system, irq, softirq, steal): the suite's own CPU time taken from it at the end leaves what ran
# beside the suite, which stretches the time limit below
# (not nice: CI's nice-19 static build beside the suite takes idle time only)
busy_s() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.2f", ($2 + $4 + $7 + $8 + $9) / hz }' /proc/stat; }
busy0=$(busy_s)

# leftovers KIND: what the tests could leave behind, one per line
leftovers() {
	case $1 in
	mount) awk '$5 ~ /\/vpsbench-/ { print $5 }' /proc/self/mountinfo | sort ;;
	loop) losetup -n -O NAME,BACK-FILE 2>/dev/null | sort ;;
	cgroup) find /sys/fs/cgroup -mindepth 1 -type d -name 'vpsbench*' 2>/dev/null | sort ;;
	netns) ip netns list 2>/dev/null | awk '{ print $1 }' | sort ;;
	tmp) { ls -d /dev/shm/vpsbench-* 2>/dev/null; find "$suite_tmp" -mindepth 1 -maxdepth 1 2>/dev/null; } | sort ;;
	process) # (grep without the token in its own environment)
		local f pid
		for f in $(env -u VPSBENCH_SUITE_TOKEN grep -lsz "^VPSBENCH_SUITE_TOKEN=$VPSBENCH_SUITE_TOKEN\$" /proc/[0-9]*/environ); do
			pid=${f#/proc/}; pid=${pid%/environ}
			[ "$pid" = $$ ] && continue
			echo "pid $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-160)"
		done ;;
	esac
}
# (TEST_LEFTOVER_KINDS: a subset, for tests/smoke_suite.sh's run-all inside
# the suite, where the other scripts' mounts, loops, cgroups and namespaces
# come and go)
kinds=${TEST_LEFTOVER_KINDS:-mount loop cgroup netns tmp process}
for k in $kinds; do leftovers "$k" > "$logs/before.$k"; done

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
# marks SCRIPT: the words of its "# run-all:" line
marks() { sed -n '0,/^# run-all:/s/^# run-all: *\([^(:]*\).*/\1/p' "$1" | tr ',' ' '; }
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }
long=(); shared=(); alone=(); last=(); declare -A is_long=()
for t in tests/smoke_*.sh tests/fuzz/smoke.sh; do
	m=$(marks "$t")
	has "$m" long && is_long[$t]=1
	if [ "$set_name" = check ]; then has "$m" check && shared+=("$t"); continue; fi
	if has "$m" opt-in; then [ -n "${TEST_OPT_IN:-}" ] && alone+=("$t")
	elif has "$m" alone; then alone+=("$t")
	elif has "$m" last; then last+=("$t")
	elif has "$m" long; then long+=("$t")
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
if [ -n "${RUN_ALL_BEFORE_LAST:-}" ] && [ ${#last[@]} -gt 0 ]; then
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
echo "== the suite's own checks"
# the share of the machine's CPU time used beside the suite (another job,
# stress-ng): a script's time limit is stretched by 1 / (1 - share)
times > "$logs/own.times" # (in this shell: in a pipe or $() it would count no children)
own=$(sed -n 2p "$logs/own.times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.2f", s }')
read -r foreign limit < <(awk -v b0="$busy0" -v b1="$(busy_s)" -v own="$own" -v n="$(nproc)" -v w=$((SECONDS - start)) -v m="$max_s" \
	'BEGIN { f = (b1 - b0 - own) / (n * (w > 0 ? w : 1)); if (f < 0) f = 0; if (f > 0.75) f = 0.75
		printf "%.0f %d\n", f * 100, m / (1 - f) }')
echo "  CPU time used beside the suite: ${foreign}% of the machine; script time limit ${limit} s (${max_s} s on a quiet machine)"
slow=""
for t in "${shared[@]}" "${alone[@]}" "${last[@]}"; do
	s=$(cut -d' ' -f1 "$logs/$(basename "$t" .sh).s" 2>/dev/null)
	if [ -n "$s" ] && [ "$s" -gt "$limit" ] && [ -z "${is_long[$t]:-}" ]; then
		slow="$slow  $t: $s s"$'\n'
	fi
done
if [ -n "$slow" ]; then
	echo "FAIL scripts over $limit s without '# run-all: long' on their first line:"; printf '%s' "$slow"
	fail=$((fail + 1))
else
	pass=$((pass + 1)); echo "ok   no script over $max_s s unless marked long"
fi
# anything left behind: compared with before the tests, waiting up to 5 s in
# all for a killed process to end or a loop device to clear
settle=$((SECONDS + 5))
for k in $kinds; do
	while :; do
		leftovers "$k" > "$logs/after.$k" # (not in a pipe: its other end would carry the token)
		left=$(comm -13 "$logs/before.$k" "$logs/after.$k")
		[ -z "$left" ] || [ $SECONDS -ge $settle ] && break
		sleep 0.2
	done
	if [ -n "$left" ]; then
		echo "FAIL left behind by the tests ($k):"; echo "$left" | sed 's/^/  /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1)); echo "ok   no $k left behind"
	fi
done
echo
echo "scripts by wall seconds, with the CPU seconds each used ($jobs_max at a time, then ${#alone[@]} alone, then ${#last[@]} last; $((SECONDS - start)) s in all):"
printf '%s' "$times" | sort -rn | awk '{ printf "  %4s s  cpu %4s s  %s\n", $1, $2, $3 }'
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
