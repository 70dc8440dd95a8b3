#!/bin/bash
# smoke_phase_signals.sh — deterministic fault tests (issue 20): with the
# VPSBENCH_WAIT_PHASE seam the run stops at a named phase (each seq write
# run, the seq read, the rand layout, each rand pass, the upload) and waits
# for a signal. Every phase x INT/TERM/HUP/KILL, and a second signal during
# the stopping run (NAME+cleanup), on every run: the exit code is 128+N,
# nothing is left in the directory or in TMPDIR, and where a test file is
# open at that phase it is already unlinked (so KILL leaves nothing).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
base=$(t_tmpdir) || exit 1
trap 'rm -rf "$base"' EXIT
export TMPDIR=$base/tmp; mkdir "$TMPDIR"
declare -A code=([INT]=130 [TERM]=143 [HUP]=129 [KILL]=137)
# RUN DIR OUT: the run's arguments (fsync kept, but short: the upload
# comes after it; the passes short: the seam holds the run at their start)
# shellcheck disable=SC2054 # (a comma-separated module list)
RUN=(--skip cpu,mem --seq-runs 2 --seq-size 8M --size 8M --runtime 300ms --ramp 0 --fsync-time 100ms
     --no-color --upload https://127.0.0.1:9/collect)
# phase -> does a test file exist (open, unlinked) while waiting there
declare -A has_file=([seq-write-1]=1 [seq-write-2]=1 [seq-read]=1 [rand-layout]=1
		     [rand-pass-1]=1 [rand-pass-2]=1 [upload-1]=0)
phases=(seq-write-1 seq-write-2 seq-read rand-layout rand-pass-1 rand-pass-2 upload-1)
# PHASES=a,b runs only those (make mutate uses it to stay short)
[ -n "$PHASES" ] && IFS=, read -r -a phases <<< "$PHASES"

# nap SECS: sleeps without a fork (a read that times out on a FIFO held open by us)
mkfifo "$base/nap"; exec {nap_fd}<>"$base/nap"
nap() { read -r -t "$1" -u "$nap_fd" _; }
# wait_phase FILE PID: until the seam wrote its phase (10 s), 0 when it did
wait_phase() {
	for _ in $(seq 1 200); do
		[ -s "$1" ] && return 0
		kill -0 "$2" 2>/dev/null || return 1
		nap 0.05
	done
	return 1
}
# open_test_files PID: the test files the process holds, "name (deleted)" when unlinked
open_test_files() { ls -l "/proc/$1/fd" 2>/dev/null | grep -o '\.vpsbench-[^ ]*.*$'; }

# run_case K PHASE SIG [SIG2]: case K in its own directory and TMPDIR
# ($base/cK); its verdict, "ok NAME" or "fail NAME REASON", to $base/cK.res
run_case() {
	local k=$1 ph=$2 s=$3 s2=$4 c=$base/c$1 pid rc fds want
	local n="phase_${2}_$3${4:+_then_$4}" pf=$base/c$1/phase d=$base/c$1/dir tmp=$base/c$1/tmp
	local res=$base/c$1.res
	mkdir -p "$d" "$tmp"
	VPSBENCH_WAIT_PHASE=$ph${s2:++cleanup} VPSBENCH_PHASE_FILE=$pf TMPDIR=$tmp \
		"$VPSBENCH" --dir "$d" "${RUN[@]}" --output "$c/out.json" > "$c/out" 2> "$c/err" {nap_fd}>&- &
	pid=$!
	if ! wait_phase "$pf" "$pid"; then
		kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		echo "fail $n phase $ph never reached: $(tail -n 3 "$c/err")" > "$res"; return
	fi
	fds=$(open_test_files "$pid")
	if [ "${has_file[$ph]}" = 1 ]; then
		# the early unlink: the file is open but has no name any more
		if [ -z "$fds" ] || echo "$fds" | grep -qv '(deleted)'; then
			kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			echo "fail $n test file not unlinked while open at $ph: '${fds:-none open}'" > "$res"
			return
		fi
	fi
	kill -s "$s" "$pid"
	if [ -n "$s2" ]; then
		for _ in $(seq 1 200); do grep -q "^$ph+cleanup" "$pf" 2>/dev/null && break; nap 0.05; done
		if ! grep -q "^$ph+cleanup" "$pf"; then
			kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			echo "fail $n never reached $ph+cleanup: $(tail -n 3 "$c/err")" > "$res"; return
		fi
		kill -s "$s2" "$pid"
		want=${code[$s2]}
	else
		want=${code[$s]}
	fi
	# 20 s at most: a hung run is a failure, not a wait
	for _ in $(seq 1 400); do kill -0 "$pid" 2>/dev/null || break; nap 0.05; done
	if kill -0 "$pid" 2>/dev/null; then
		kill -s KILL "$pid"; wait "$pid" 2>/dev/null
		echo "fail $n still running 20 s after $s" > "$res"; return
	fi
	wait "$pid" 2>/dev/null; rc=$?
	local left tleft
	left=$(ls -A "$d"); tleft=$(ls -A "$tmp")
	if [ $rc -ne "$want" ]; then
		echo "fail $n rc=$rc, want $want; $(tail -n 2 "$c/err")"
	elif [ -n "$left" ] || [ -n "$tleft" ]; then
		echo "fail $n left behind: $left $tleft"
	elif [ "$s" != KILL ] && [ -z "$s2" ] && [ "$ph" != upload-1 ] && ! grep -q 'incomplete' "$c/out"; then
		echo "fail $n no report marked incomplete"
	else
		echo "ok $n"
	fi > "$res"
}

cases=()
for ph in "${phases[@]}"; do
	for s in INT TERM HUP KILL; do
		cases+=("$ph $s")
	done
	cases+=("$ph TERM INT")   # a second signal while the run is stopping
done
[ -z "$PHASES" ] && cases+=("seq-write-1 INT KILL")
# the cases three at a time: each worker takes every third case; the seam,
# not timing, puts each signal in its phase
for w in 0 1 2; do
	( for k in $(seq "$w" 3 $((${#cases[@]} - 1))); do
		# shellcheck disable=SC2086 # (the case's words are its arguments)
		run_case "$k" ${cases[$k]}
	done ) &
done
wait
for k in "${!cases[@]}"; do
	read -r v n why < "$base/c$k.res" || { t_fail "case_$k" "no verdict: ${cases[$k]}"; continue; }
	if [ "$v" = ok ]; then t_ok "$n"; else t_fail "$n" "$why"; fi
done

# the seam is inert when unset or naming another phase: the run completes
d=$base/dir; mkdir "$d"
VPSBENCH_WAIT_PHASE=no-such-phase "$VPSBENCH" --dir "$d" --only seq --seq-runs 1 --seq-size 8M \
	--quiet --json > "$base/o.json" 2> "$base/err"; rc=$?
[ $rc -eq 0 ] && t_json "$base/o.json" 'j["run"]["complete"]' && [ -z "$(ls -A "$d")" ] \
	&& t_ok phase_seam_inert || t_fail phase_seam_inert "rc=$rc $(tail -n 2 "$base/err")"
[ -z "$(ls -A "$TMPDIR")" ] || t_fail phase_tmpdir_left "$(ls -A "$TMPDIR")"
t_summary smoke_phase_signals
