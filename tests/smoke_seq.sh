# run-all: check (see tests/run-all.sh)
# smoke_seq.sh — short real seq runs: JSON shape and plausible figures,
# nothing left behind, --zero-fill, --seq-direct, several dirs, the text
# layout, a signal; as root also O_DIRECT refusal (ramfs), read-only,
# too little space, shrinking to fit and running out of space (tmpfs).
. tests/lib.sh
base=$(t_tmpdir)
cleanup() {
	t_umount_below "$base"
	rm -rf "$base"
}
trap cleanup EXIT

empty_dir() { [ -z "$(ls -A "$1")" ]; }

M=$((64 << 20))
d=$base/plain; mkdir "$d"
"$VPSBENCH" --only seq --seq-size 64M --seq-runs 2 --dir "$d" --json --quiet > "$base/a.json" 2> "$base/a.err"
rc=$?
[ $rc -eq 0 ] && t_ok basic_exit_0 || t_fail basic_exit_0 "rc=$rc $(head -c 300 "$base/a.err")"
if t_json "$base/a.json" \
	"j['modules']['seq']['status'] == 'ok'" \
	"s['status'] == 'ok' and s['reason'] is None" \
	"s['dir'] == '$d'" \
	"s['fstype'] and s['mountpoint'] and s['device']" \
	"s['data'] == 'random' and s['bs'] == 65536 and s['size_bytes'] == $M" \
	"s['scaled_down'] is False and s['direct'] is False and s['direct_requested'] is False" \
	"len(s['write']['runs']) == 2" \
	"all(r['bytes'] == $M and r['seconds'] > 0 and 0 <= r['flush_seconds'] <= r['seconds'] for r in s['write']['runs'])" \
	"all(abs(r['mbps'] - $M / r['seconds'] / 1e6) < 1e-6 * r['mbps'] for r in s['write']['runs'])" \
	"all(abs(r['mibps'] * 1048576 - r['mbps'] * 1e6) < 1e-6 * r['mbps'] * 1e6 for r in s['write']['runs'])" \
	"all(r['mbps'] > 1 for r in s['write']['runs'])" \
	"s['write']['min_mbps'] <= s['write']['avg_mbps'] <= s['write']['max_mbps']" \
	"abs(s['write']['avg_mbps'] - sum(r['mbps'] for r in s['write']['runs']) / 2) < 1e-6" \
	"s['write']['cov'] is not None and s['write']['cov'] >= 0" \
	"s['read']['mbps'] > 1 and s['read']['direct'] is True and s['read']['bytes'] == $M" \
	"s['read']['seconds'] > 0 and s['read']['reason'] is None" \
	"s['generator_gbps'] > 0.5 and s['prng_gbps'] > 0.1" \
	"'dirs' not in s"
then t_ok basic_json_shape; else t_fail basic_json_shape; fi
# the read: 3 passes over consecutive thirds, the figure = all bytes / all
# seconds; every pass and run carries its disturbance (device found on a
# real filesystem, never "not checked" there)
if t_json "$base/a.json" \
	"len(s['read']['passes']) == 3" \
	"sum(p['bytes'] for p in s['read']['passes']) == $M" \
	"all(p['bytes'] % 65536 == 0 and p['seconds'] > 0 for p in s['read']['passes'])" \
	"abs(s['read']['seconds'] - sum(p['seconds'] for p in s['read']['passes'])) < 1e-6" \
	"abs(s['read']['mbps'] - $M / s['read']['seconds'] / 1e6) < 1e-6 * s['read']['mbps']" \
	"all(x['disturbance']['device'] and x['disturbance']['own_bytes'] > 0 for x in s['write']['runs'] + s['read']['passes'])" \
	"all(x['disturbance']['foreign_write_bytes'] is not None for x in s['write']['runs'] + s['read']['passes'])" \
	"all(x['disturbance']['own_bytes'] == $M for x in s['write']['runs'])" \
	"sum(x['disturbance']['own_bytes'] for x in s['read']['passes']) == $M"
then t_ok read_passes_and_disturbance; else t_fail read_passes_and_disturbance; fi
empty_dir "$d" && t_ok basic_nothing_left || t_fail basic_nothing_left "$(ls -A "$d")"

"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --zero-fill --dir "$d" --json --quiet > "$base/z.json" 2>/dev/null
if t_json "$base/z.json" "s['data'] == 'zero'" "s['generator_gbps'] is None and s['prng_gbps'] is None" \
	"len(s['write']['runs']) == 1 and s['write']['cov'] is None"; then
	t_ok zero_fill; else t_fail zero_fill; fi

"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --seq-direct --dir "$d" --json --quiet > "$base/d.json" 2>"$base/d.err"
rc=$?
# the filesystem from stat (ext4 shows as ext2/ext3), not from the run: a run
# that died has no JSON to ask, and that is a failure, never a skip
fs=$(stat -f -c %T "$d")
if [ $rc -ne 0 ]; then
	t_fail direct_on_ext4 "the run died: rc=$rc $(tail -n 3 "$base/d.err")"
elif [ "$fs" = ext2/ext3 ]; then
	if t_json "$base/d.json" "s['fstype'] == 'ext4'" "s['direct'] is True" "s['direct_requested'] is True" \
		"s['direct_reason'] is None" "s['write']['runs'][0]['mbps'] > 1" \
		"s['read']['direct'] is True"; then
		t_ok direct_on_ext4; else t_fail direct_on_ext4; fi
else
	t_json "$base/d.json" "s['direct_requested'] is True" && t_ok direct_requested_recorded \
		|| t_fail direct_requested_recorded
	t_skip direct_on_ext4 "test directory is on $fs, not ext4"
fi
empty_dir "$d" && t_ok direct_nothing_left || t_fail direct_nothing_left

d2=$base/second; mkdir "$d2"
"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --dir "$d" --dir "$d2" --json --quiet > "$base/m.json" 2>/dev/null
rc=$?
if [ $rc -eq 0 ] && t_json "$base/m.json" "len(s['dirs']) == 2" "s['dir'] == '$d'" \
	"[x['dir'] for x in s['dirs']] == ['$d', '$d2']" \
	"all(x['status'] == 'ok' and x['write']['runs'][0]['mbps'] > 1 and x['read']['mbps'] > 1 for x in s['dirs'])" \
	"s['write'] == s['dirs'][0]['write']"; then
	t_ok two_dirs; else t_fail two_dirs; fi
empty_dir "$d" && empty_dir "$d2" && t_ok two_dirs_nothing_left || t_fail two_dirs_nothing_left

"$VPSBENCH" --only seq --seq-size 64M --seq-runs 2 --dir "$d" --no-color > "$base/t.txt" 2>/dev/null
if grep -qE '^ I/O \(1st run\) +: [0-9]+ MB/s \([0-9]+ MiB/s\), flush [0-9.]+ s' "$base/t.txt" &&
   grep -qE '^ I/O \(2nd run\) ' "$base/t.txt" &&
   grep -qE '^ Average +: [0-9]+\.[0-9] MB/s' "$base/t.txt" &&
   grep -qE '^ Spread +: min [0-9]+, max [0-9]+ MB/s, CoV [0-9.]+%' "$base/t.txt" &&
   grep -qE '^ Read +: [0-9]+ MB/s \([0-9]+ MiB/s\)( ± [0-9]+)? \(O_DIRECT, 3 passes\)' "$base/t.txt" &&
   grep -qE '^ Device +: .+ on /' "$base/t.txt"; then
	t_ok text_layout; else t_fail text_layout "$(grep -A12 Sequential "$base/t.txt")"; fi
long=$(sed -n '/Sequential I\/O/,/Data generator/p' "$base/t.txt" | awk 'length > 80' | grep -v -- "$d" | head -3)
[ -z "$long" ] && t_ok text_80_columns || t_fail text_80_columns "$long"

# a signal stops the pass promptly, marks it incomplete and removes the file
"$VPSBENCH" --only seq --seq-size 4G --seq-runs 3 --dir "$d" --json --quiet > "$base/s.json" 2>/dev/null &
pid=$!
t_wait_test_file $pid || t_fail sigint_write_started "no test file open"
sleep 0.3
kill -INT $pid
t0=$(date +%s%N)
wait $pid; rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [ $rc -eq 130 ] && t_json "$base/s.json" "j['run']['complete'] is False" \
	"j['modules']['seq']['status'] == 'incomplete'" "s['status'] == 'incomplete'" \
	"s['read']['mbps'] is None and s['read']['reason']"; then
	t_ok sigint_incomplete; else t_fail sigint_incomplete "rc=$rc"; fi
# generous bound: the machine is shared; the module checks the flag every block
[ "$ms" -lt 5000 ] && t_ok sigint_prompt || t_fail sigint_prompt "took ${ms} ms"
empty_dir "$d" && t_ok sigint_nothing_left || t_fail sigint_nothing_left "$(ls -A "$d")"

# Fault injection: an LD_PRELOAD shim fails the Nth write() to a seq test
# file with the given errno, so ENOSPC and EIO mid-run are deterministic.
cat > "$base/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static long seen;
ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	char p[64], t[4096];
	ssize_t k;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	k = readlink(p, t, sizeof(t) - 1);
	if (k > 0) {
		t[k] = 0;
		if (strstr(t, "/.vpsbench-seq-") && ++seen == atol(getenv("SHIM_AT"))) {
			errno = atoi(getenv("SHIM_ERRNO"));
			return -1;
		}
	}
	return real(fd, buf, n);
}
EOF
if cc -shared -fPIC -o "$base/shim.so" "$base/shim.c" -ldl 2>/dev/null; then
	# the 1500th block is in run 2 of 2 x 64 MiB at 64 KiB (1024 blocks per run)
	ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 SHIM_AT=1500 SHIM_ERRNO=28 \
		LD_PRELOAD=$base/shim.so "$VPSBENCH" --only seq --seq-size 64M --seq-runs 2 --dir "$d" \
		--json --quiet > "$base/e1.json" 2>/dev/null
	rc=$?
	if [ $rc -eq 2 ] && t_json "$base/e1.json" "j['modules']['seq']['status'] == 'failed'" \
		"s['status'] == 'aborted'" "s['reason'].startswith('aborted: no space left on /')" \
		"s['write']['runs'] == [] and s['write']['avg_mbps'] is None" \
		"s['read']['mbps'] is None"; then
		t_ok enospc_mid_run; else t_fail enospc_mid_run "rc=$rc"; fi
	empty_dir "$d" && t_ok enospc_nothing_left || t_fail enospc_nothing_left "$(ls -A "$d")"
	ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 SHIM_AT=1500 SHIM_ERRNO=5 \
		LD_PRELOAD=$base/shim.so "$VPSBENCH" --only seq --seq-size 64M --seq-runs 2 --dir "$d" \
		--json --quiet > "$base/e2.json" 2>/dev/null
	rc=$?
	# block 1500 is block 476 of run 2, at offset 475 * 65536
	if [ $rc -eq 2 ] && t_json "$base/e2.json" "j['modules']['seq']['status'] == 'failed'" \
		"s['status'] == 'failed'" "'Input/output error' in s['reason']" \
		"'offset 31129600' in s['reason']" "len(s['write']['runs']) == 1" \
		"s['read']['mbps'] is None"; then
		t_ok eio_mid_run; else t_fail eio_mid_run "rc=$rc"; fi
	empty_dir "$d" && t_ok eio_nothing_left || t_fail eio_nothing_left "$(ls -A "$d")"
else
	t_skip enospc_mid_run "no C compiler for the fault-injection shim"
	t_skip eio_mid_run "no C compiler for the fault-injection shim"
fi

if ! t_is_root; then
	for n in nodirect_ramfs readonly_skip too_small_skip scaled_down no_space_abort; do
		t_skip "$n" "needs root for a temporary mount"
	done
	t_summary seq
	exit
fi

# mnt NAME TYPE OPTS: a temporary mount below $base, unmounted by the trap
mnt() {
	local m=$base/$1
	mkdir -p "$m" && mount -t "$2" -o "$3" "$2" "$m" 2>/dev/null || return 1
	echo "$m"
}

# ramfs has no O_DIRECT and cannot drop its pages: both must be labelled
if m=$(mnt ramfs ramfs mode=0700); then
	"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --seq-direct --dir "$m" --json --quiet > "$base/r.json" 2>/dev/null
	rc=$?
	if [ $rc -eq 0 ] && t_json "$base/r.json" "s['fstype'] == 'ramfs'" \
		"s['direct'] is False and s['direct_requested'] is True" \
		"'O_DIRECT' in s['direct_reason']" "s['write']['runs'][0]['mbps'] > 1" \
		"s['read']['direct'] is False and 'O_DIRECT' in s['read']['reason']" \
		"s['read']['mbps'] > 1 and s['read']['cached_fraction'] > 0.5" \
		"any('buffered' in w for w in j['warnings'])" \
		"any('page cache' in w for w in j['warnings'])"; then
		t_ok nodirect_ramfs; else t_fail nodirect_ramfs "rc=$rc"; fi
	"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --seq-direct --dir "$m" --no-color > "$base/r.txt" 2>/dev/null
	grep -q 'Direct I/O *: not used: ramfs refuses O_DIRECT' "$base/r.txt" &&
		grep -qE '^ Read +: [0-9]+ MB/s \([0-9]+ MiB/s\) \(buffered, [0-9]+% still cached\)' "$base/r.txt" &&
		t_ok nodirect_text || t_fail nodirect_text
	empty_dir "$m" && t_ok nodirect_nothing_left || t_fail nodirect_nothing_left
else
	t_skip nodirect_ramfs "cannot mount ramfs"
fi

if m=$(mnt ro tmpfs size=256m,ro); then
	"$VPSBENCH" --only seq --seq-size 1M --seq-bs 64K --seq-runs 1 --dir "$m" --json --quiet > "$base/ro.json" 2>/dev/null
	rc=$?
	if [ $rc -eq 2 ] && t_json "$base/ro.json" "j['modules']['seq']['status'] == 'skipped'" \
		"'Read-only' in j['modules']['seq']['reason']" "'seq' not in j"; then
		t_ok readonly_skip; else t_fail readonly_skip "rc=$rc"; fi
else
	t_skip readonly_skip "cannot mount tmpfs"
fi

if m=$(mnt small tmpfs size=100m); then
	"$VPSBENCH" --only seq --seq-size 64M --seq-runs 1 --dir "$m" --json --quiet > "$base/sm.json" 2>/dev/null
	rc=$?
	if [ $rc -eq 2 ] && t_json "$base/sm.json" "j['modules']['seq']['status'] == 'skipped'" \
		"'free' in j['modules']['seq']['reason']" "'seq' not in j"; then
		t_ok too_small_skip; else t_fail too_small_skip "rc=$rc"; fi
	empty_dir "$m" && t_ok too_small_nothing_left || t_fail too_small_nothing_left
else
	t_skip too_small_skip "cannot mount tmpfs"
fi

if m=$(mnt mid tmpfs size=200m); then
	"$VPSBENCH" --only seq --seq-size 256M --seq-runs 1 --dir "$m" --json --quiet > "$base/sc.json" 2>/dev/null
	rc=$?
	if [ $rc -eq 0 ] && t_json "$base/sc.json" "s['scaled_down'] is True" \
		"$M <= s['size_bytes'] < (200 << 20) and s['size_bytes'] % 65536 == 0" \
		"s['write']['runs'][0]['bytes'] == s['size_bytes']" \
		"any('instead of' in w for w in j['warnings'])"; then
		t_ok scaled_down; else t_fail scaled_down "rc=$rc"; fi
else
	t_skip scaled_down "cannot mount tmpfs"
fi

# Another writer takes the space while the pass runs: either a write hits
# ENOSPC or the next run no longer fits; both abort with no figures.
if m=$(mnt full tmpfs size=320m); then
	"$VPSBENCH" --only seq --seq-size 100M --seq-runs 100 --dir "$m" --json --quiet > "$base/f.json" 2>/dev/null &
	pid=$!
	t_wait_test_file $pid || t_fail no_space_write_started "no test file open"
	fallocate -l 200M "$m/filler" 2>/dev/null || head -c 200M /dev/zero > "$m/filler" 2>/dev/null
	wait $pid; rc=$?
	rm -f "$m/filler"
	if [ $rc -eq 2 ] && t_json "$base/f.json" "j['modules']['seq']['status'] == 'failed'" \
		"s['status'] == 'aborted'" "s['reason'] == 'aborted: no space left on $m'" \
		"s['write']['runs'] == [] and s['write']['avg_mbps'] is None" \
		"s['read']['mbps'] is None"; then
		t_ok no_space_abort; else t_fail no_space_abort "rc=$rc"; fi
	empty_dir "$m" && t_ok no_space_nothing_left || t_fail no_space_nothing_left "$(ls -A "$m")"
else
	t_skip no_space_abort "cannot mount tmpfs"
fi

t_umount_checked_below "$base"
t_summary seq
