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
d=$base/dir; mkdir "$d"
export TMPDIR=$base/tmp; mkdir "$TMPDIR"
declare -A code=([INT]=130 [TERM]=143 [HUP]=129 [KILL]=137)
RUN=(--dir "$d" --skip cpu,mem --seq-runs 2 --seq-size 8M --size 8M --runtime 1 --ramp 0 --no-color
     --upload https://127.0.0.1:9/collect --output "$base/out.json")
# phase -> does a test file exist (open, unlinked) while waiting there
declare -A has_file=([seq-write-1]=1 [seq-write-2]=1 [seq-read]=1 [rand-layout]=1
		     [rand-pass-1]=1 [rand-pass-2]=1 [upload-1]=0)
phases=(seq-write-1 seq-write-2 seq-read rand-layout rand-pass-1 rand-pass-2 upload-1)
# PHASES=a,b runs only those (make mutate uses it to stay short)
[ -n "$PHASES" ] && IFS=, read -r -a phases <<< "$PHASES"

# wait_phase FILE PID: until the seam wrote its phase (10 s), 0 when it did
wait_phase() {
	for _ in $(seq 1 200); do
		[ -s "$1" ] && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# open_test_files PID: the test files the process holds, "name (deleted)" when unlinked
open_test_files() { ls -l "/proc/$1/fd" 2>/dev/null | grep -o '\.vpsbench-[^ ]*.*$'; }

run_case() { # PHASE SIG [SIG2]
	local ph=$1 s=$2 s2=$3 n="phase_${1}_$2${3:+_then_$3}" pf=$base/phase pid rc fds want
	rm -f "$pf" "$base/out.json"
	VPSBENCH_WAIT_PHASE=$ph${s2:++cleanup} VPSBENCH_PHASE_FILE=$pf \
		"$VPSBENCH" "${RUN[@]}" > "$base/out" 2> "$base/err" &
	pid=$!
	if ! wait_phase "$pf" "$pid"; then
		kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		t_fail "$n" "phase $ph never reached: $(tail -n 3 "$base/err")"; return
	fi
	fds=$(open_test_files "$pid")
	if [ "${has_file[$ph]}" = 1 ]; then
		# the early unlink: the file is open but has no name any more
		if [ -z "$fds" ] || echo "$fds" | grep -qv '(deleted)'; then
			kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			t_fail "$n" "test file not unlinked while open at $ph: '${fds:-none open}'"
			rm -rf "${d:?}"/.vpsbench-*; return
		fi
	fi
	kill -s "$s" "$pid"
	if [ -n "$s2" ]; then
		for _ in $(seq 1 200); do grep -q "^$ph+cleanup" "$pf" 2>/dev/null && break; sleep 0.05; done
		if ! grep -q "^$ph+cleanup" "$pf"; then
			kill -s KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
			t_fail "$n" "never reached $ph+cleanup: $(tail -n 3 "$base/err")"; return
		fi
		kill -s "$s2" "$pid"
		want=${code[$s2]}
	else
		want=${code[$s]}
	fi
	# 20 s at most: a hung run is a failure, not a wait
	for _ in $(seq 1 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	kill -0 "$pid" 2>/dev/null && { kill -s KILL "$pid"; t_fail "$n" "still running 20 s after $s"; wait "$pid" 2>/dev/null; return; }
	wait "$pid" 2>/dev/null; rc=$?
	local left tleft
	left=$(ls -A "$d"); tleft=$(ls -A "$TMPDIR")
	if [ $rc -ne "$want" ]; then
		t_fail "$n" "rc=$rc, want $want; $(tail -n 2 "$base/err")"
	elif [ -n "$left" ] || [ -n "$tleft" ]; then
		t_fail "$n" "left behind: $left $tleft"
	elif [ "$s" != KILL ] && [ -z "$s2" ] && [ "$ph" != upload-1 ] && ! grep -q 'incomplete' "$base/out"; then
		t_fail "$n" "no report marked incomplete"
	else
		t_ok "$n"
	fi
	rm -rf "${d:?}"/.vpsbench-* "${d:?}"/* "${TMPDIR:?}"/*
}

for ph in "${phases[@]}"; do
	for s in INT TERM HUP KILL; do
		run_case "$ph" "$s"
	done
	run_case "$ph" TERM INT   # a second signal while the run is stopping
done
[ -z "$PHASES" ] && run_case seq-write-1 INT KILL

# the seam is inert when unset or naming another phase: the run completes
VPSBENCH_WAIT_PHASE=no-such-phase "$VPSBENCH" --dir "$d" --only seq --seq-runs 1 --seq-size 8M \
	--quiet --json > "$base/o.json" 2> "$base/err"; rc=$?
[ $rc -eq 0 ] && t_json "$base/o.json" 'j["run"]["complete"]' && [ -z "$(ls -A "$d")" ] \
	&& t_ok phase_seam_inert || t_fail phase_seam_inert "rc=$rc $(tail -n 2 "$base/err")"
t_summary smoke_phase_signals
