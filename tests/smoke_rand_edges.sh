# run-all: alone (see tests/run-all.sh): its checks need the machine to itself
# smoke_rand_edges.sh — rand on the edges a VPS has (issue 14): io_uring
# without IORING_FEAT_EXT_ARG (kernels 5.5-5.10, through the
# VPSBENCH_URING_MASK_FEATURES seam), io_uring refused by a seccomp filter
# (as Docker's default profile does) and by kernel.io_uring_disabled=2
# (root; restored by the trap): each falls back (io_uring -> libaio ->
# psync) and says why, never crashes.
# The runs before the sysctl part go at once, each in its own directory,
# and are checked in order afterwards; the sysctl part, global, runs last
# with no run of ours beside it.
. tests/lib.sh
base=$(t_tmpdir)
old_disabled=""
cleanup() {
	t_umount_below "$base"
	[ -n "$old_disabled" ] && echo "$old_disabled" > /proc/sys/kernel/io_uring_disabled
	rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

empty_dir() { [ -z "$(ls -A "$1")" ]; }
TINY="--only rand --size 8M --runtime 1s --ramp 0 --json --quiet"
# bg NAME CMD...: runs CMD in the background, its exit code to $base/NAME.rc
declare -A BGPID=()
bg() { local n=$1; shift; { "$@"; echo $? > "$base/$n.rc"; } & BGPID[$n]=$!; }
# fg NAME: waits for bg NAME; sets rc
fg() { wait "${BGPID[$1]}"; rc=$(cat "$base/$1.rc" 2>/dev/null || echo 255); }

# io_uring as on kernel 5.10: no EXT_ARG (liburing would submit its own
# timeout request with every wait) and no COOP/DEFER_TASKRUN set-up flags.
# 2 jobs at qd64: waits happen with I/Os still queued.
for mask in ext_arg ext_arg,setup_flags; do
	d=$base/mask.$mask; mkdir -p "$d"
	bg "m.$mask" env VPSBENCH_URING_MASK_FEATURES=$mask "$VPSBENCH" $TINY --engine io_uring --jobs 2 --iodepth 64 \
		--dir "$d" > "$base/m.$mask.json" 2> "$base/m.$mask.err"
done

# a seccomp filter like Docker's: io_uring refused (EPERM) -> libaio; io_setup too -> psync
if cc -std=gnu11 -O2 -o "$base/deny" tests/helpers/deny_syscalls.c 2>"$base/cc.err"; then
	seccomp=1
	mkdir -p "$base/sec1" "$base/sec2"
	bg s1 "$base/deny" io_uring_setup,io_uring_enter,io_uring_register -- "$VPSBENCH" $TINY --jobs 1 \
		--dir "$base/sec1" > "$base/s.json" 2> "$base/s.err"
	bg s2 "$base/deny" io_uring_setup,io_setup -- "$VPSBENCH" $TINY --jobs 1 --iodepth 8 \
		--dir "$base/sec2" > "$base/s2.json" 2> "$base/s2.err"
else
	seccomp=0
fi

# the test file's bytes differ between two runs with the same --seed (a
# per-run random value seeds the data; host-side dedupe cannot match runs).
# Read through /proc/PID/fd while the run holds the unlinked file, once
# its layout is done (its progress line says so).
layout_hash() { # DIR N: the hash to $base/hash.N
	local d=$1 pid fd h=""
	"$VPSBENCH" --only rand --size 8M --runtime 20s --ramp 0 --rw randread --jobs 1 --seed 7 \
		--json --no-color --dir "$d" > /dev/null 2> "$base/hash.$2.err" &
	pid=$!
	for _ in $(seq 300); do
		grep -q 'rand: layout in .* done' "$base/hash.$2.err" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	fd=$(ls -l /proc/$pid/fd 2>/dev/null | awk '/\.vpsbench-rand-.*deleted/ { print $9; exit }')
	[ -n "$fd" ] && h=$(head -c 4M "/proc/$pid/fd/$fd" | sha256sum | cut -c1-16)
	kill -INT $pid; wait $pid
	echo "$h" > "$base/hash.$2"
}
mkdir -p "$base/nonce1" "$base/nonce2"
layout_hash "$base/nonce1" 1 & hash1_pid=$!
layout_hash "$base/nonce2" 2 & hash2_pid=$!

# CPU % counts the kernel's io-wq workers: buffered io_uring writes on ramfs
# are done by io-wq threads of the process. The reported CPU (usr+sys % x
# runtime x jobs, per pass) must be most of the process's CPU time (which
# also has start-up and the layout) and never more than it.
if ! t_is_root; then
	t_skip cpu_counts_io_wq "needs root (ramfs mount)"
elif d=$base/ramfs && mkdir -p "$d" && mount -t ramfs ramfs "$d"; then
	out=$(python3 - "$VPSBENCH" "$d" <<'PY'
import json, resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
p = subprocess.run([sys.argv[1], "--only", "rand", "--size", "16M", "--runtime", "3s", "--ramp", "0",
                    "--rw", "randwrite", "--engine", "io_uring", "--jobs", "2", "--iodepth", "32",
                    "--json", "--quiet", "--dir", sys.argv[2]], capture_output=True)
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
tot = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
rep = 0.0
for x in json.loads(p.stdout)["rand"]["passes"]:
    rep += (x["cpu"]["usr_pct"] + x["cpu"]["sys_pct"]) / 100 * x["runtime_ms"] / 1000 * x["jobs"]
print("%.3f %.3f" % (tot, rep))
PY
)
	t_umount "$d"
	echo "process CPU s, reported CPU s: $out"
	if [ -n "$out" ] && awk -v t="${out% *}" -v r="${out#* }" 'BEGIN { exit !(t > 0 && r >= 0.7 * t && r <= 1.02 * t) }'; then
		t_ok cpu_counts_io_wq
	else
		t_fail cpu_counts_io_wq "process vs reported: $out"
	fi
else
	t_skip cpu_counts_io_wq "mount -t ramfs failed"
fi

for mask in ext_arg ext_arg,setup_flags; do
	d=$base/mask.$mask
	fg "m.$mask"
	if [ "$rc" = 0 ] && t_json "$base/m.$mask.json" \
		"all(x['status'] == 'ok' and x['engine'] == 'io_uring' for x in ps)" \
		"all('test seam' in x['engine_note'] for x in ps)" \
		"all(x['read']['clat_ns']['N'] == x['read']['total_ios'] > 1000 for x in ps)" \
		"p['write']['clat_ns']['N'] == p['write']['total_ios'] > 100" \
		"all(0 < x['iodepth_avg'] <= 64 for x in ps)" && empty_dir "$d"; then
		t_ok "uring_mask_$mask"
	else
		t_fail "uring_mask_$mask" "rc=$rc $(head -c 400 "$base/m.$mask.err")"
	fi
done

if [ $seccomp = 1 ]; then
	fg s1
	[ "$rc" = 0 ] && t_json "$base/s.json" \
		"all(x['status'] == 'ok' and x['engine'] == 'libaio' for x in ps)" \
		"all('io_uring' in x['engine_fallback_reason'] and 'not permitted' in x['engine_fallback_reason'] for x in ps)" \
		"p['read']['total_ios'] > 100" && empty_dir "$base/sec1" \
		&& t_ok seccomp_uring_libaio || t_fail seccomp_uring_libaio "rc=$rc $(head -c 400 "$base/s.err")"
	fg s2
	[ "$rc" = 0 ] && t_json "$base/s2.json" \
		"all(x['status'] == 'ok' and x['engine'] == 'psync' and x['iodepth_used'] == 1 for x in ps)" \
		"all('io_uring' in x['engine_fallback_reason'] and 'io_setup' in x['engine_fallback_reason'] for x in ps)" \
		"p['read']['total_ios'] > 100" && empty_dir "$base/sec2" \
		&& t_ok seccomp_both_psync || t_fail seccomp_both_psync "rc=$rc $(head -c 400 "$base/s2.err")"
else
	t_skip seccomp_uring_libaio "cannot build tests/helpers/deny_syscalls.c: $(head -c 200 "$base/cc.err")"
	t_skip seccomp_both_psync "cannot build the helper"
fi

wait "$hash1_pid" "$hash2_pid"
h1=$(cat "$base/hash.1"); h2=$(cat "$base/hash.2")
echo "layout hashes: $h1 $h2"
[ -n "$h1" ] && [ -n "$h2" ] && [ "$h1" != "$h2" ] && empty_dir "$base/nonce1" && empty_dir "$base/nonce2" \
	&& t_ok layout_differs_per_run || t_fail layout_differs_per_run "first 4 MiB: '$h1' vs '$h2'"
# kernel.io_uring_disabled=2 (6.6+; root): global, so the window is one short run
if ! t_is_root; then
	t_skip uring_disabled_sysctl "needs root"
elif [ ! -w /proc/sys/kernel/io_uring_disabled ]; then
	t_skip uring_disabled_sysctl "no kernel.io_uring_disabled (kernel before 6.6)"
else
	d=$base/sysctl; mkdir -p "$d"
	old_disabled=$(cat /proc/sys/kernel/io_uring_disabled)
	echo 2 > /proc/sys/kernel/io_uring_disabled
	"$VPSBENCH" --only rand --size 4M --runtime 300ms --ramp 0 --rw randread --jobs 1 --json --quiet \
		--dir "$d" > "$base/k.json" 2> "$base/k.err"
	rc=$?
	echo "$old_disabled" > /proc/sys/kernel/io_uring_disabled && old_disabled=""
	[ $rc -eq 0 ] && t_json "$base/k.json" \
		"all(x['status'] == 'ok' and x['engine'] == 'libaio' for x in ps)" \
		"all('io_uring_disabled=2' in x['engine_fallback_reason'] for x in ps)" && empty_dir "$d" \
		&& t_ok uring_disabled_sysctl || t_fail uring_disabled_sysctl "rc=$rc $(head -c 400 "$base/k.err")"
fi
t_umount_checked_below "$base"
t_summary rand_edges
