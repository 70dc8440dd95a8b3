# smoke_fsync.sh — real fdatasync runs (etcd's recipe) in temporary dirs:
# every figure recomputed from its raw parts (tests/helpers/truth.py: the
# percentiles from the exported bins by fio's rule, syncs x bs = bytes) in
# JSON, text, HTML, prom and --format fio; the 3 s cap and --fsync-time,
# --profile etcd's whole 22 MiB, the low-confidence rule, a memory-backed
# dir shown but not graded, ENOSPC (a write() failing with it) aborting
# with the mount named, SIGINT, bad options; nothing left behind.
# As root also a small tmpfs: the size cut to the free space, and a skip.
# The runs go at once, each in its own dir (the whole etcd recipe, the
# longest, first; none of their checks needs a quiet machine: the bounds are
# the run's own latencies), then are checked in turn; the truth.py checks in
# one process at the end (truth.py multi), the schema checks in another.
. tests/lib.sh
base=$(t_tmpdir)
shm=
pids=()
SCHEMAS=()
cleanup() {
	local m
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	wait
	for m in $(awk -v b="$base/" 'index($2, b) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" || echo "FAIL umount $m"
	done
	rm -rf "$base"
	[ -n "$shm" ] && rm -rf "$shm"
}
trap cleanup EXIT

empty_dir() { [ -z "$(ls -A "$1")" ]; }
# truth NAME CHECK ARGS...: queued; truth_run checks them all in one python
# (truth.py multi), each its own t_ok/t_fail with its false claims
TQ=()
truth() { [ ${#TQ[@]} -gt 0 ] && TQ+=(--); TQ+=("$@"); }
truth_run() {
	local out n i want=1 why
	[ ${#TQ[@]} -eq 0 ] && return
	out=$(python3 tests/helpers/truth.py multi "${TQ[@]}" 2>&1)
	for i in "${TQ[@]}"; do
		if [ $want = 1 ]; then
			n=$i
			if printf '%s\n' "$out" | grep -qxF "pass $n"; then t_ok "$n"
			else
				why=$(printf '%s\n' "$out" | awk -v n="fail $n" '$0 == n { on = 1; next } /^(pass|fail) / { on = 0 } on')
				t_fail "$n" "$(printf '%s' "${why:-$out}" | head -c 1500)"
			fi
		fi
		want=0; [ "$i" = -- ] && want=1
	done
}
# schema NAME=FILE...: t_schema for each, the reports validated in one
# python (tests/helpers/validate.py names the file on each error line)
schema() {
	local a n f files=() out="" rc=2 py
	for a in "$@"; do f=${a#*=}; [ -s "$f" ] && files+=("$f"); done
	if [ ${#files[@]} -gt 0 ]; then
		for py in /usr/bin/python3 python3; do # as t_schema: Debian's has python3-jsonschema
			out=$("$py" tests/helpers/validate.py schema/report.schema.json "${files[@]}" 2>&1); rc=$?
			[ $rc -ne 2 ] && break
		done
	fi
	for a in "$@"; do
		n=${a%%=*}; f=${a#*=}
		if [ ! -s "$f" ]; then t_fail "$n" "no report $f"
		elif [ $rc -eq 2 ]; then t_skip "$n" "python3-jsonschema not installed"
		elif [ $rc -eq 0 ]; then t_ok "$n"
		elif [ $rc -ne 1 ]; then t_fail "$n" "$(printf '%s' "$out" | head -c 600)"
		elif printf '%s\n' "$out" | grep -qF "$f: "; then t_fail "$n" "$(printf '%s\n' "$out" | grep -F "$f: " | head -c 600)"
		else t_ok "$n"
		fi
	done
}
# t_json over the report; $F is the first fsync dir
fj() { t_json "$@"; }
F="j['fsync']['dirs'][0]"

# The runs start at once, each in its own dir: the whole etcd recipe first
# (the longest), the ENOSPC shim's build, the default sample, the time cap,
# the low-confidence run and the memory-backed dir; SIGINT/SIGKILL and the
# option checks run meanwhile.
dir_of() { mkdir "$base/$1" && echo "$base/$1"; }
d_etcd=$(dir_of etcd); d=$(dir_of plain); d_cap=$(dir_of cap); d_low=$(dir_of low)
d_nospc=$(dir_of nospc); d_sig=$(dir_of sig)
"$VPSBENCH" --only fsync --profile etcd --dir "$d_etcd" --quiet --output "$base/etcd.json" \
	--format fio > "$base/etcd.fio" 2> "$base/etcd.err" &
pid_etcd=$!; pids+=($!)
cat > "$base/shim.c" <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	static int seen;
	char p[64], t[4096];
	ssize_t l;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	l = readlink(p, t, sizeof(t) - 1);
	if (l > 0) {
		t[l] = '\0';
		if (strstr(t, "/.vpsbench-fsync-") && ++seen >= atoi(getenv("SHIM_AT"))) {
			errno = ENOSPC;
			return -1;
		}
	}
	return real(fd, buf, n);
}
SHIM
cc -shared -fPIC -o "$base/shim.so" "$base/shim.c" -ldl 2>/dev/null &
pid_cc=$!; pids+=($!)
"$VPSBENCH" --only fsync --dir "$d" --quiet --output "$base/a.json" --html "$base/a.html" \
	--prom-file "$base/a.prom" > "$base/a.txt" 2> "$base/a.err" &
pid_a=$!; pids+=($!)
"$VPSBENCH" --only fsync --dir "$d_cap" --fsync-time 500ms --fsync-size 256M --json --quiet \
	> "$base/cap.json" 2> "$base/cap.err" &
pid_cap=$!; pids+=($!)
"$VPSBENCH" --only fsync --dir "$d_low" --fsync-time 100ms --fsync-size 2300000 --quiet \
	--output "$base/low.json" --prom-file "$base/low.prom" > "$base/low.txt" 2> "$base/low.err" &
pid_low=$!; pids+=($!)
pid_shm=""
if shm=$(mktemp -d /dev/shm/vpsbench-test.XXXXXX 2>/dev/null); then
	"$VPSBENCH" --only fsync --dir "$shm" --quiet --output "$base/shm.json" > "$base/shm.txt" \
		2> "$base/shm.err" &
	pid_shm=$!; pids+=($!)
fi

# 7. SIGINT during the whole recipe: incomplete, the syncs so far, file gone
"$VPSBENCH" --only fsync --profile etcd --fsync-size 1G --fsync-time 60s --dir "$d_sig" --json \
	--quiet > "$base/sig.json" 2> "$base/sig.err" &
pid=$!
t_wait_test_file $pid || t_fail sigint_started "no test file open"
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && fj "$base/sig.json" "j['modules']['fsync']['status'] == 'incomplete'" \
	"$F['status'] == 'incomplete' and $F['reason'].startswith('interrupted after ')" \
	"$F['syncs'] > 0 and $F['reason'] == 'interrupted after %d syncs: partial figures' % $F['syncs']" \
	"j['run']['complete'] is False and j['metrics']['fsync_p99_ms'] is None"; then
	t_ok sigint_incomplete; else t_fail sigint_incomplete "rc=$rc"; fi
empty_dir "$d_sig" && t_ok sigint_nothing_left || t_fail sigint_nothing_left "$(ls -A "$d_sig")"

# 7b. SIGKILL mid-run leaves nothing: the name is gone as soon as the file is open
"$VPSBENCH" --only fsync --profile etcd --fsync-size 1G --fsync-time 60s --dir "$d_sig" --json \
	--quiet > /dev/null 2>&1 &
pid=$!
if t_wait_test_file $pid; then
	kill -KILL $pid
	wait $pid 2>/dev/null
	empty_dir "$d_sig" && t_ok sigkill_nothing_left || t_fail sigkill_nothing_left "$(ls -A "$d_sig")"
else
	t_fail sigkill_nothing_left "no test file open"
fi

# 8. --skip fsync leaves it out; bad values: one line, exit 1, nothing run
"$VPSBENCH" --only sysinfo,fsync --skip fsync --dir "$d_sig" --json --quiet > "$base/skip.json" 2>/dev/null
fj "$base/skip.json" "'fsync' not in j['modules'] and 'fsync' not in j" \
	&& t_ok skip_fsync || t_fail skip_fsync
for bad in "--fsync-bs 0" "--fsync-time 10ms" "--fsync-size 1000 --fsync-bs 2300" "--fsync-size 1x"; do
	# shellcheck disable=SC2086
	"$VPSBENCH" --only fsync --dir "$d_sig" $bad --json --quiet > "$base/bad.out" 2> "$base/bad.err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l < "$base/bad.err")" -eq 1 ] && grep -q -- "--fsync-" "$base/bad.err" \
		&& [ ! -s "$base/bad.out" ]; then t_ok "bad_value ${bad// /_}"
	else t_fail "bad_value ${bad// /_}" "rc=$rc $(head -c 200 "$base/bad.err")"; fi
done
empty_dir "$d_sig" && t_ok bad_nothing_left || t_fail bad_nothing_left "$(ls -A "$d_sig")"

# 9. root: a 3 MiB tmpfs cuts the size to its free space; a 1 MiB one is skipped
if t_is_root; then
	m=$base/small; mkdir "$m"
	if mount -t tmpfs -o size=3m tmpfs "$m"; then
		"$VPSBENCH" --only fsync --dir "$m" --json --quiet > "$base/small.json" 2> "$base/small.err"
		if fj "$base/small.json" "$F['status'] == 'ok' and $F['scaled_down'] is True" \
			"$F['size_bytes'] == (3 * 2**20 - 2**20) // 2300 * 2300" \
			"$F['io_bytes'] == $F['size_bytes'] or $F['time_capped']" \
			"any('writes capped at' in w for w in j['warnings'])"; then
			t_ok small_tmpfs_scaled; else t_fail small_tmpfs_scaled; fi
		empty_dir "$m" && t_ok small_tmpfs_nothing_left || t_fail small_tmpfs_nothing_left
		umount "$m" && t_ok small_umount || t_fail small_umount
	else
		t_skip small_tmpfs_scaled "mount tmpfs failed"
	fi
	m=$base/tiny; mkdir "$m"
	if mount -t tmpfs -o size=1m tmpfs "$m"; then
		"$VPSBENCH" --only fsync --dir "$m" --json --quiet > "$base/tiny.json" 2> "$base/tiny.err"
		rc=$?
		# a skipped module has no section (as every module): the reason is the module's
		if [ $rc -eq 2 ] && fj "$base/tiny.json" "j['modules']['fsync']['status'] == 'skipped'" \
			"j['modules']['fsync']['reason'] == 'not enough free space in $m (1048576 bytes free)'" \
			"'fsync' not in j and j['metrics']['fsync_p99_ms'] is None"; then
			t_ok tiny_tmpfs_skipped; else t_fail tiny_tmpfs_skipped "rc=$rc"; fi
		SCHEMAS+=("tiny_schema=$base/tiny.json")
		umount "$m" && t_ok tiny_umount || t_fail tiny_umount
	fi
else
	t_skip small_tmpfs_scaled "not root"
fi

# 6. ENOSPC from write() mid-run: aborted, the mount named, no figures graded, file gone
if wait $pid_cc; then
	mnt=$(t_mount_point "$d_nospc") # longest prefix among its device's mounts, as vpsbench
	ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 SHIM_AT=50 LD_PRELOAD=$base/shim.so \
		"$VPSBENCH" --only fsync --dir "$d_nospc" --json --quiet > "$base/nospc.json" 2> "$base/nospc.err"
	rc=$?
	if [ $rc -eq 2 ] && fj "$base/nospc.json" "j['modules']['fsync']['status'] == 'failed'" \
		"$F['status'] == 'failed' and $F['reason'] == 'aborted: no space left on $mnt'" \
		"$F['syncs'] == 49 and $F['writes'] == 49" \
		"j['metrics']['fsync_p99_ms'] is None"; then
		t_ok enospc_aborted; else t_fail enospc_aborted "rc=$rc $(head -c 300 "$base/nospc.err")"; fi
	truth enospc_truth json "$base/nospc.json"
	SCHEMAS+=("enospc_schema=$base/nospc.json")
	empty_dir "$d_nospc" && t_ok enospc_nothing_left || t_fail enospc_nothing_left "$(ls -A "$d_nospc")"
else
	t_skip enospc_aborted "no cc for the write() shim"
fi

# 5. a memory-backed dir (tmpfs): measured and shown, never graded
if [ -n "$pid_shm" ]; then
	wait $pid_shm
	if fj "$base/shm.json" "$F['status'] == 'ok' and $F['syncs'] > 0" \
		"$F['storage']['class'] == 'memory-backed' and $F['storage']['graded'] is False" \
		"j['metrics']['fsync_p99_ms'] is None and j['metrics']['fsync_p50_ms'] is None" \
		"any('fsync: $shm is memory-backed' in w for w in j['warnings'])" \
		&& grep -q "Storage               : memory-backed (shown, not graded as a disk)" "$base/shm.txt"
	then t_ok tmpfs_not_graded; else t_fail tmpfs_not_graded; fi
	truth tmpfs_truth json "$base/shm.json"
	empty_dir "$shm" && t_ok tmpfs_nothing_left || t_fail tmpfs_nothing_left "$(ls -A "$shm")"
else
	t_skip tmpfs_not_graded "no /dev/shm"
fi

# 1. the default sample in a plain dir: every format agrees with the JSON's raw parts
wait $pid_a
rc=$?
[ $rc -eq 0 ] && t_ok sample_exit_0 || t_fail sample_exit_0 "rc=$rc $(head -c 300 "$base/a.err")"
if fj "$base/a.json" "j['modules']['fsync']['status'] == 'ok'" \
	"list(j['modules']) == ['fsync']" \
	"$F['status'] == 'ok' and $F['mode'] == 'sample' and $F['direct'] is False" \
	"$F['bs'] == 2300 and $F['size_bytes'] == 10029 * 2300 and $F['time_cap_s'] == 3" \
	"$F['syncs'] > 0 and $F['syncs'] == $F['writes']" \
	"$F['io_bytes'] == $F['syncs'] * 2300" \
	"$F['preallocated'] is True and $F['storage']['class'] == 'device'" \
	"$F['time_capped'] or $F['io_bytes'] == 10029 * 2300" \
	"$F['runtime_s'] <= 3 + ($F['sync']['lat_ns']['max'] + $F['write']['clat_ns']['max']) / 1e9" \
	"j['modules']['fsync']['seconds'] < 3.5 + ($F['sync']['lat_ns']['max'] + $F['write']['clat_ns']['max']) / 1e9"
then t_ok sample_json; else t_fail sample_json; fi
# the pass's disturbance: own bytes are its writes, the device is found
if fj "$base/a.json" "$F['disturbance']['own_bytes'] == $F['io_bytes']" \
	"$F['disturbance']['device'] and $F['disturbance']['foreign_write_bytes'] is not None" \
	"isinstance($F['disturbance']['disturbed'], bool)"
then t_ok sample_disturbance; else t_fail sample_disturbance; fi
truth sample_truth_json json "$base/a.json"
truth sample_text_same text "$base/a.json" "$base/a.txt"
truth sample_html_same html "$base/a.json" "$base/a.html"
truth sample_prom_same prom "$base/a.json" "$base/a.prom"
SCHEMAS=("sample_schema=$base/a.json" "${SCHEMAS[@]}")
empty_dir "$d" && t_ok sample_nothing_left || t_fail sample_nothing_left "$(ls -A "$d")"

# 2. the time cap ends a run the size would not: --fsync-time 500ms with 256M planned
wait $pid_cap
if fj "$base/cap.json" "$F['status'] == 'ok' and $F['time_capped'] is True" \
	"$F['time_cap_s'] == 0.5 and $F['io_bytes'] < $F['size_bytes']" \
	"0.5 <= $F['runtime_s'] <= 0.5 + ($F['sync']['lat_ns']['max'] + $F['write']['clat_ns']['max']) / 1e9" \
	"$F['p99_low_confidence'] == ($F['syncs'] < 1000)"
then t_ok time_cap_holds; else t_fail time_cap_holds "$(head -c 300 "$base/cap.err")"; fi
truth time_cap_truth json "$base/cap.json"
empty_dir "$d_cap" && t_ok time_cap_nothing_left || t_fail time_cap_nothing_left "$(ls -A "$d_cap")"

# 3. under 1000 syncs the p99 is marked low-confidence in JSON, text and prom
wait $pid_low
if fj "$base/low.json" "$F['syncs'] < 1000 and $F['p99_low_confidence'] is True" \
	&& grep -q "p99 confidence      : low: " "$base/low.txt" \
	&& grep -q '^vpsbench_fsync_low_confidence{dir="'"$d_low"'"} 1$' "$base/low.prom"; then
	t_ok low_confidence_marked; else t_fail low_confidence_marked; fi
truth low_confidence_text text "$base/low.json" "$base/low.txt"
if fj "$base/a.json" "$F['syncs'] < 1000 or ($F['p99_low_confidence'] is False)" \
	&& { fj "$base/a.json" "$F['syncs'] < 1000" || ! grep -q "p99 confidence" "$base/a.txt"; }; then
	t_ok low_confidence_only_below_1000; else t_fail low_confidence_only_below_1000; fi

# 4. --profile etcd: the whole recipe, 22 MiB in 10029 writes of 2300 bytes (fio's count)
wait $pid_etcd
rc=$?
if [ $rc -eq 0 ] && fj "$base/etcd.json" "j['run']['profile'] == 'etcd'" \
	"$F['mode'] == 'full' and $F['time_cap_s'] == 120 and $F['time_capped'] is False" \
	"$F['writes'] == 10029 and $F['syncs'] == 10029 and $F['io_bytes'] == 23066700" \
	"$F['sync']['lat_ns']['N'] == 10029 and $F['p99_low_confidence'] is False" \
	"(j['metrics']['fsync_p99_ms'] if j['metrics']['fsync_p99_ms'] is not None else j['metrics_detail']['fsync_p99_ms']['value']) == $F['sync']['lat_ns']['percentile']['99.000000'] / 1e6"
then t_ok etcd_profile_22m; else t_fail etcd_profile_22m "rc=$rc $(head -c 300 "$base/etcd.err")"; fi
truth etcd_truth json "$base/etcd.json"
truth etcd_format_fio fio "$base/etcd.json" "$base/etcd.fio"
SCHEMAS+=("etcd_schema=$base/etcd.json")
empty_dir "$d_etcd" && t_ok etcd_nothing_left || t_fail etcd_nothing_left "$(ls -A "$d_etcd")"
pids=()

# every figure from its raw parts, every format against its JSON; the schema
truth_run
schema "${SCHEMAS[@]}"
t_summary fsync
