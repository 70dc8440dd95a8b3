#!/bin/bash
# run-all: long (see tests/run-all.sh)
# smoke_safety.sh — signals and leftovers (issue #8): INT, TERM, HUP and
# KILL at random moments of a short run, 20 times; after each, nothing is
# left in the directory, the exit code is the shell's 128+N, and a caught
# signal still prints the report marked incomplete. Also SIGPIPE (141 when
# stdout is a closed pipe mid-run), injected rand write faults, stalled
# storage, and the --dir refusals of a device.
# The parts that wait on sleeping shims (stalls) go on in the background,
# each in its own directory, while the SIGPIPE runs (held by the phase
# seam) are checked, and then beside the fault runs and the kill test's
# timing run.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
base=$(t_tmpdir) || exit 1
BG=(); STALLS=()
cleanup() {
	local x
	for x in "${BG[@]}"; do kill "$x" 2>/dev/null; done
	wait
	rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
d=$base/dir; mkdir "$d"
empty_dir() { [ -z "$(ls -A "$1")" ]; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
RUN=(--dir "$d" --seq-size 64M --size 16M --runtime 2s --no-color --skip mem)

# --dir: a character device is refused before anything is written
"$VPSBENCH" --dir /dev/null --only seq > "$base/o" 2> "$base/e"; rc=$?
[ $rc -eq 1 ] && grep -q 'never writes to devices' "$base/e" && [ ! -s "$base/o" ] \
	&& t_ok dir_chardev_refused || t_fail dir_chardev_refused "rc=$rc $(cat "$base/e")"

# The kill test (run last, below): 20 runs, 5 of each signal, each killed
# at a random moment of one phase of a short run (sysinfo, a seq write run,
# the seq read, the rand layout, each rand pass; each phase
# with several of the signals). The delay is
# computed from the phase: the run's stderr is polled for the phase's
# start line, then a random part of that phase's length (timed by a first,
# uninterrupted run, started below) passes before the signal.
# shellcheck disable=SC2054 # (a comma-separated module list)
KRUN=(--seq-size 32M --seq-runs 3 --size 16M --runtime 1s --ramp 0 --no-color --only sysinfo,seq,rand)
kphases=(sysinfo seq-write seq-read rand-layout rand-pass-1 rand-pass-2)
declare -A kstart=([sysinfo]='sysinfo: reading system information \.\.\.$'
	[seq-write]='seq: write run @RUN@/3 in .* \.\.\.$' [seq-read]='seq: read pass in .* \.\.\.$'
	[rand-layout]='rand: layout in .* \.\.\.$' [rand-pass-1]='rand: randrw-4k-qd64 in .* \.\.\.$'
	[rand-pass-2]='rand: randread-4k-qd1 in .* \.\.\.$')

# rand faults: an LD_PRELOAD shim fails the Nth 4 KiB pwrite() to a rand
# test file (the psync engine's writes; the layout writes 1 MiB chunks).
# Both runs at once, each in its own directory (on the same mount).
cat > "$base/shim.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long seen;
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	char p[64], t[4096];
	ssize_t k;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	k = readlink(p, t, sizeof(t) - 1);
	if (k > 0 && n == 4096) {
		t[k] = 0;
		if (strstr(t, "/.vpsbench-rand-") && ++seen == atol(getenv("SHIM_AT"))) {
			errno = atoi(getenv("SHIM_ERRNO"));
			return -1;
		}
	}
	return real(fd, buf, n, off);
}
SHIM
faults=0
cc -shared -fPIC -o "$base/shim.so" "$base/shim.c" -ldl 2>/dev/null && faults=1

# Stalled storage: a shim makes fdatasync()/fsync() (or the seq read()s)
# sleep 600 s, in a loop so a signal does not end the sleep. Each worker
# must be given up at the deadline (2 s here through the test-only
# VPSBENCH_SEQ_DEADLINE_MS): status failed with "timeout", no figures,
# exit 2 in seconds, nothing left behind. `timeout -k` kills a hung run.
# The four stalled runs go at once, each in its own directory: they wait
# on a sleeping shim, not on the CPU, and their bounds are seconds apart.
cat > "$base/stall.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void stall(void)
{
	struct timespec ts = { 1, 0 };

	for (int i = 0; i < 600; i++)
		nanosleep(&ts, NULL);
}
int fdatasync(int fd) { (void)fd; stall(); return 0; }
int fsync(int fd) { (void)fd; stall(); return 0; }
SHIM
cat > "$base/rstall.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	struct timespec ts = { 1, 0 };
	char p[64], t[4096];
	ssize_t k;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	k = readlink(p, t, sizeof(t) - 1);
	if (k > 0) {
		t[k] = 0;
		if (strstr(t, "/.vpsbench-seq-"))
			for (int i = 0; i < 600; i++)
				nanosleep(&ts, NULL);
	}
	return real(fd, buf, n);
}
SHIM
stalled() { # NAME SHIM DEADLINE_MS ARGS...: runs vpsbench in $base/NAME; "rc ms" to $base/NAME.rc
	local name=$1 so=$2 dl=$3 t0 rc
	shift 3
	mkdir "$base/$name"
	t0=$(now_ms)
	ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 VPSBENCH_SEQ_DEADLINE_MS=$dl \
		LD_PRELOAD=$so timeout -k 5 60 "$VPSBENCH" --dir "$base/$name" --json --quiet --skip mem "$@" \
		> "$base/$name.json" 2> "$base/$name.err"
	rc=$?
	echo "$rc $(( $(now_ms) - t0 ))" > "$base/$name.rc"
}
# stall_int: a signal while the worker is stuck; "rc ms" to $base/stallint.rc
# (no timeout(1) here: the INT must reach vpsbench itself; KILL after 20 s instead)
stall_int() {
	local sd=$base/stallint pid t0 rc
	mkdir "$sd"
	ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 LD_PRELOAD=$base/stall.so \
		"$VPSBENCH" --dir "$sd" --json --quiet --only seq --seq-size 16M \
		--seq-runs 1 > "$base/stallint.json" 2> "$base/stallint.err" &
	pid=$!
	t_wait_test_file "$pid" || echo "no test file open" > "$base/stallint.nofile"
	sleep 1
	t0=$(now_ms)
	kill -s INT "$pid" 2>/dev/null
	for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -s KILL "$pid" 2>/dev/null
	{ wait "$pid"; } 2>/dev/null; rc=$?
	echo "$rc $(( $(now_ms) - t0 ))" > "$base/stallint.rc"
}
# rc_ms NAME: sets rc and ms from $base/NAME.rc
rc_ms() { read -r rc ms < "$base/$1.rc" || { rc=none; ms=0; }; }
if cc -shared -fPIC -o "$base/stall.so" "$base/stall.c" 2>/dev/null &&
   cc -shared -fPIC -o "$base/rstall.so" "$base/rstall.c" -ldl 2>/dev/null; then
	stalls=1
	# seq: the flush of write run 1 never returns; rand still runs after it
	stalled seqstall "$base/stall.so" 2000 --only seq --seq-size 16M --seq-runs 1 &
	STALLS+=("$!")
	# seq: the read pass never returns; the finished write runs keep their figures
	stalled readstall "$base/rstall.so" 3000 --only seq --seq-size 16M --seq-runs 2 &
	STALLS+=("$!")
	# rand: the layout's fsync() never returns; both passes fail with the timeout
	stalled layoutstall "$base/stall.so" 2000 --only sysinfo,rand --size 16M &
	STALLS+=("$!")
	# a signal while the worker is stuck: exit 130 promptly, marked incomplete
	stall_int &
	STALLS+=("$!")
	BG+=("${STALLS[@]}")
else
	stalls=0
fi

# SIGPIPE: stdout is a pipe whose reader is gone; the run is stopped with
# 141 and --output still gets the report, marked interrupted.
# The VPSBENCH_WAIT_PHASE seam holds the run in its first seq write until
# the signal, so the signal always lands mid-run (never a skip).
rm -f "$base/pf"
VPSBENCH_WAIT_PHASE=seq-write-1 VPSBENCH_PHASE_FILE=$base/pf \
	"$VPSBENCH" "${RUN[@]}" --output "$base/pipe.json" 2> "$base/pipe.err" | true &
ppid=$! # (the pipeline's last process; the run's pid comes from the seam)
for _ in $(seq 1 200); do [ -s "$base/pf" ] && break; sleep 0.05; done
pid=$(sed -n 's/.*phase seq-write-1: waiting (pid \([0-9]*\)).*/\1/p' "$base/pipe.err" | head -n 1)
if [ -n "$pid" ]; then
	kill -s PIPE "$pid"
	for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	wait "$ppid"
	if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; sys.exit(not (r["complete"] is False and r["signal"] == 13))' "$base/pipe.json" 2>/dev/null; then
		t_ok sigpipe_output_written; else t_fail sigpipe_output_written "$(tail -n 3 "$base/pipe.err")"; fi
else
	wait "$ppid"
	t_fail sigpipe_output_written "the run never reached its first write: $(tail -n 3 "$base/pipe.err")"
fi
# the exit code as the shell sees it (no pipeline: 141 cannot be read through one)
rm -f "$base/pf"
VPSBENCH_WAIT_PHASE=seq-write-1 VPSBENCH_PHASE_FILE=$base/pf \
	"$VPSBENCH" "${RUN[@]}" > "$base/p.out" 2> "$base/p.err" &
pid=$!
for _ in $(seq 1 200); do [ -s "$base/pf" ] && break; sleep 0.05; done
kill -s PIPE "$pid"; wait "$pid"; rc=$?
[ $rc -eq 141 ] && grep -q 'incomplete' "$base/p.out" && t_ok sigpipe_exit_141 \
	|| t_fail sigpipe_exit_141 "rc=$rc"
empty_dir "$d" && t_ok sigpipe_nothing_left || t_fail sigpipe_nothing_left "$(ls -A "$d")"

# the CPU-heavier runs start once the stalled ones sleep in their shim and
# the SIGPIPE runs are done: the kill test's timing run and the fault runs
mkdir "$base/cal"
"$VPSBENCH" --dir "$base/cal" "${KRUN[@]}" > "$base/cal.out" 2> "$base/cal.err" &
cal_pid=$!; BG+=("$cal_pid")
if [ $faults = 1 ]; then
	for e in 28:enospc 5:eio; do
		mkdir "$base/${e#*:}"
		ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 SHIM_AT=200 SHIM_ERRNO=${e%%:*} \
			LD_PRELOAD=$base/shim.so "$VPSBENCH" --only sysinfo,rand --engine psync --size 16M \
			--runtime 1s --ramp 0 --dir "$base/${e#*:}" --json --quiet > "$base/${e#*:}.json" 2> "$base/${e#*:}.err" &
		eval "pid_${e#*:}=$!"; BG+=("$!")
	done
fi

if [ $faults = 1 ]; then
	mnt=$(t_mount_point "$d")
	# shellcheck disable=SC2154 # set by the eval above
	{ wait "$pid_enospc"; rc_enospc=$?; wait "$pid_eio"; rc_eio=$?; }
	if [ "$rc_enospc" -eq 2 ] && t_json "$base/enospc.json" "p['status'] == 'failed'" \
		"p['reason'] == 'aborted: no space left on $mnt'" "'read' not in p and 'write' not in p" \
		"j['modules']['rand']['status'] == 'failed'" "j['modules']['sysinfo']['status'] == 'ok'" \
		"j['rand']['passes'][1]['status'] == 'ok'"; then
		t_ok rand_enospc_mid_pass; else t_fail rand_enospc_mid_pass "rc=$rc_enospc"; fi
	if [ "$rc_eio" -eq 2 ] && t_json "$base/eio.json" "p['status'] == 'failed'" \
		"'Input/output error' in p['reason']" "'write at offset ' in p['reason']" \
		"'read' not in p and 'write' not in p" "j['rand']['passes'][1]['status'] == 'ok'"; then
		t_ok rand_eio_mid_pass; else t_fail rand_eio_mid_pass "rc=$rc_eio"; fi
	empty_dir "$base/enospc" && empty_dir "$base/eio" && t_ok rand_faults_nothing_left \
		|| t_fail rand_faults_nothing_left "$(ls -A "$base/enospc" "$base/eio")"
else
	t_skip rand_enospc_mid_pass "no C compiler for the fault-injection shim"
	t_skip rand_eio_mid_pass "no C compiler for the fault-injection shim"
fi

if [ $stalls = 1 ]; then
	wait "${STALLS[@]}"
	rc_ms seqstall
	if [ "$rc" = 2 ] && [ "$ms" -lt 10000 ] && t_json "$base/seqstall.json" "True" \
		"j['seq']['status'] == 'failed'" \
		"j['seq']['reason'] == 'timeout: write run 1 did not finish within 2 s (storage stalled?)'" \
		"j['seq']['write']['runs'] == [] and j['seq']['write']['avg_mbps'] is None" \
		"j['seq']['read']['mbps'] is None" "j['modules']['seq']['status'] == 'failed'"; then
		t_ok "seq_stalled_flush_timeout (${ms} ms)"
	else t_fail seq_stalled_flush_timeout "rc=$rc ms=$ms $(tail -n 2 "$base/seqstall.err")"; fi
	empty_dir "$base/seqstall" && t_ok seq_stall_nothing_left || t_fail seq_stall_nothing_left "$(ls -A "$base/seqstall")"
	rc_ms readstall
	if [ "$rc" = 2 ] && [ "$ms" -lt 15000 ] && t_json "$base/readstall.json" "True" \
		"j['seq']['status'] == 'failed'" \
		"j['seq']['reason'] == 'timeout: the read pass did not finish within 3 s (storage stalled?)'" \
		"len(j['seq']['write']['runs']) == 2" "j['seq']['read']['mbps'] is None" \
		"j['seq']['read']['reason'] == 'timeout'"; then
		t_ok "seq_stalled_read_timeout (${ms} ms)"
	else t_fail seq_stalled_read_timeout "rc=$rc ms=$ms $(tail -n 2 "$base/readstall.err")"; fi
	empty_dir "$base/readstall" && t_ok seq_read_stall_nothing_left || t_fail seq_read_stall_nothing_left "$(ls -A "$base/readstall")"
	rc_ms layoutstall
	if [ "$rc" = 2 ] && [ "$ms" -lt 10000 ] && t_json "$base/layoutstall.json" \
		"p['status'] == 'failed'" "p['reason'] == 'timeout: layout in $base/layoutstall did not finish within 2 s (storage stalled?)'" \
		"'read' not in p and 'write' not in p" \
		"all(q['status'] == 'failed' for q in j['rand']['passes'])" \
		"j['modules']['rand']['status'] == 'failed'" "j['modules']['sysinfo']['status'] == 'ok'"; then
		t_ok "rand_stalled_layout_timeout (${ms} ms)"
	else t_fail rand_stalled_layout_timeout "rc=$rc ms=$ms $(tail -n 2 "$base/layoutstall.err")"; fi
	empty_dir "$base/layoutstall" && t_ok layout_stall_nothing_left || t_fail layout_stall_nothing_left "$(ls -A "$base/layoutstall")"
	[ -e "$base/stallint.nofile" ] && t_fail stall_int_started "no test file open"
	rc_ms stallint
	if [ "$rc" = 130 ] && [ "$ms" -lt 4000 ] && t_json "$base/stallint.json" "True" \
		"j['seq']['status'] == 'incomplete'" "j['run']['complete'] is False" \
		"j['seq']['write']['runs'] == []"; then
		t_ok "stalled_sigint_prompt (${ms} ms)"
	else t_fail stalled_sigint_prompt "rc=$rc ms=$ms $(tail -n 2 "$base/stallint.err")"; fi
	empty_dir "$base/stallint" && t_ok stalled_sigint_nothing_left || t_fail stalled_sigint_nothing_left "$(ls -A "$base/stallint")"
else
	for n in seq_stalled_flush_timeout seq_stalled_read_timeout rand_stalled_layout_timeout \
		stalled_sigint_prompt; do
		t_skip "$n" "no C compiler for the stall shim"
	done
fi

# the kill test: phase lengths (ms) from the progress lines' "done (N s)"
# of the uninterrupted run
wait "$cal_pid"; rc=$?
BG=()
declare -A klen=()
if [ $rc -eq 0 ] && grep -q 'Finished in' "$base/cal.out" && empty_dir "$base/cal"; then
	t_ok kill_calibration_run
else
	t_fail kill_calibration_run "rc=$rc left: $(ls -A "$base/cal") $(tail -n 2 "$base/cal.err")"
fi
for ph in "${kphases[@]}"; do
	re=${kstart[$ph]/@RUN@/1}; re=${re%' \.\.\.$'}
	secs=$(grep -E "$re done \(" "$base/cal.err" | sed -n 's/.* done (\([0-9.]*\) s)$/\1/p' | head -n 1)
	klen[$ph]=$(awk -v s="${secs:-0.2}" 'BEGIN { v = int(s * 1000); print (v < 100 ? 100 : v) }')
done
echo "  phase lengths (ms): $(for ph in "${kphases[@]}"; do printf '%s=%s ' "$ph" "${klen[$ph]}"; done)"
# nap SECS: sleeps without a fork (a read that times out on a FIFO held open by us)
mkfifo "$base/nap"; exec {nap_fd}<>"$base/nap"
nap() { read -r -t "$1" -u "$nap_fd" _; }
sigs=(INT TERM HUP KILL)
declare -A code=([INT]=130 [TERM]=143 [HUP]=129 [KILL]=137)
# kill_run I DIR: one run killed with signal I % 4 in phase (I + I / 4) % 6
# (20 runs: 20 different pairs of phase and signal, 3 or 4 in each phase); its
# findings go to $base/res.I, one word a line (left exit report slow fin hit)
kill_run() {
	local i=$1 dir=$2 s=${sigs[$(($1 % 4))]} ph=${kphases[$((($1 + $1 / 4) % 6))]} re delay pid t0 ms rc res=$base/res.$1
	local out=$base/out.$1 err=$base/err.$1
	: > "$res"
	re=${kstart[$ph]/@RUN@/$(( RANDOM % 3 + 1 ))}
	delay=$(awk -v r=$RANDOM -v l="${klen[$ph]}" 'BEGIN { printf "%.3f", 0.9 * l / 1000 * r / 32767 }')
	: > "$err"
	"$VPSBENCH" --dir "$dir" "${KRUN[@]}" > "$out" 2> "$err" {nap_fd}>&- &
	pid=$!
	# the phase starts within 30 s even on a loaded machine; its stderr is
	# read as it grows (no fork a poll: a fork a poll was seconds of CPU)
	local efd l part="" found=0
	exec {efd}<"$err"
	for _ in $(seq 1 600); do
		while :; do
			if IFS= read -r -u "$efd" l; then
				l=$part$l; part=""
				[[ $l =~ $re ]] && { found=1; break; }
			else
				part=$part$l; break # (a line not yet whole)
			fi
		done
		[ $found = 1 ] && break
		kill -0 "$pid" 2>/dev/null || break
		nap 0.05
	done
	exec {efd}<&-
	[ $found = 1 ] && echo hit >> "$res"
	nap "$delay"
	t0=$(now_ms)
	kill -s "$s" "$pid" 2>/dev/null
	{ wait "$pid"; } 2>/dev/null; rc=$?
	ms=$(( $(now_ms) - t0 ))
	echo "ms $ms" >> "$res"
	local where; where="$ph+${delay}s (last: $(grep -E '^vpsbench: ' "$err" | tail -n 1 | sed 's/ in [^ ]* / /'))"
	if ! empty_dir "$dir"; then
		echo left >> "$res"
		echo "  run $i: $s at $where left: $(ls -A "$dir")"
		rm -rf "${dir:?}"/.vpsbench-* "${dir:?}"/*
	fi
	# a run that finished before the signal is fine (rc 0), but nothing else is
	if [ $rc -eq 0 ] && grep -q 'Finished in' "$out"; then
		echo fin >> "$res"
		echo "  run $i: finished before $s at $where"
		return
	fi
	if [ $rc -ne "${code[$s]}" ]; then
		echo exit >> "$res"
		echo "  run $i: $s at $where: rc=$rc, want ${code[$s]}; $(tail -n 2 "$err")"
	fi
	if [ "$s" != KILL ]; then
		# prompt: <= 2 s by design; 4 s bound for ASan on a shared machine
		[ $ms -gt 4000 ] && { echo slow >> "$res"; echo "  run $i: $s took ${ms} ms to exit"; }
		if ! grep -q 'interrupted: results incomplete' "$out" ||
		   ! grep -q 'incomplete' "$out"; then
			echo report >> "$res"
			echo "  run $i: $s at $where: no report marked incomplete"
		fi
	fi
}
# two runs at a time, each worker in its own directory, one after the other
nk=${KILL_RUNS:-20}
for w in 0 1; do
	mkdir -p "$base/k$w"
	( for i in $(seq "$w" 2 $((nk - 1))); do kill_run "$i" "$base/k$w"; done ) &
done
wait
cnt() { cat "$base"/res.* | grep -c "^$1\$"; }
bad_left=$(cnt left); bad_exit=$(cnt exit); bad_report=$(cnt report); slow=$(cnt slow)
worst=$(cat "$base"/res.* | awk '$1 == "ms" && $2 > m { m = $2 } END { print m + 0 }')
echo "  $(cnt hit) of $nk kills in their phase, $(cnt fin) runs finished first"
[ "$bad_left" -eq 0 ] && t_ok kill_nothing_left || t_fail kill_nothing_left "$bad_left of $nk runs left files"
[ "$bad_exit" -eq 0 ] && t_ok kill_exit_codes || t_fail kill_exit_codes "$bad_exit wrong exit codes"
[ "$bad_report" -eq 0 ] && t_ok kill_report_incomplete || t_fail kill_report_incomplete "$bad_report runs"
[ "$slow" -eq 0 ] && t_ok "kill_prompt (worst ${worst} ms)" || t_fail kill_prompt "$slow runs took > 4 s"

t_summary safety
