# smoke_rand.sh — short real rand runs: every engine built in, fio key
# names in the JSON, plausible figures, nothing left in the dir, --verify,
# --zero-buffers, a rate cap, a signal; as root a run on tmpfs, its mount
# free at once after io_uring runs, and the O_DIRECT refusal of ramfs.
. tests/lib.sh
base=$(t_tmpdir)
cleanup() {
	t_umount_below "$base"
	rm -rf "$base"
}
trap cleanup EXIT

empty_dir() { [ -z "$(ls -A "$1")" ]; }
TINY="--only rand --size 8M --runtime 1s --ramp 0 --jobs 1 --iodepth 8 --json --quiet"

# bg NAME CMD...: runs CMD in the background, its exit code to $base/NAME.rc
# (independent short runs go at once, each in its own directory)
declare -A BGPID=()
bg() { local n=$1; shift; { "$@"; echo $? > "$base/$n.rc"; } & BGPID[$n]=$!; }
# fg NAME: waits for bg NAME; sets rc
fg() { wait "${BGPID[$1]}"; rc=$(cat "$base/$1.rc" 2>/dev/null || echo 255); }

# the short runs, five at a time: every engine, --verify, and the rate cap
# (low CPU, its lower bound loose)
for eng in io_uring libaio psync; do
	d=$base/$eng; mkdir "$d"
	bg "$eng" "$VPSBENCH" $TINY --engine "$eng" --dir "$d" > "$base/$eng.json" 2> "$base/$eng.err"
done
mkdir "$base/verify" "$base/rate"
# --rate-iops caps the total: 200 IOPS over 2 jobs for 2 s (the lower bound is loose: a loaded
# CI machine may fall short of the cap, never above it)
bg verify "$VPSBENCH" $TINY --runtime 300ms --jobs 2 --verify --dir "$base/verify" > "$base/v.json" 2> "$base/v.err"
bg rate "$VPSBENCH" $TINY --jobs 2 --rate-iops 200 --runtime 2s --rw randread --dir "$base/rate" \
	> "$base/r.json" 2> "$base/r.err"

# every engine this build has (the unavailable ones must say so)
for eng in io_uring libaio psync; do
	d=$base/$eng
	fg "$eng"
	if [ $rc -ne 0 ] && grep -q 'built without' "$base/$eng.json" 2>/dev/null; then
		t_skip "engine_$eng" "built without it"
		continue
	fi
	qd=8; [ "$eng" = psync ] && qd=1
	if [ $rc -eq 0 ] && t_json "$base/$eng.json" \
		"j['modules']['rand']['status'] == 'ok'" \
		"len(ps) == 2 and all(x['status'] == 'ok' for x in ps)" \
		"p['engine'] == '$eng' and p['engine_fallback_reason'] is None" \
		"p['iodepth'] == 8 and p['iodepth_used'] == $qd and p['jobs'] == 1" \
		"p['rw'] == 'randrw' and p['rwmixread'] == 75 and p['bs'] == 4096" \
		"p['size_bytes'] == 8 << 20 and p['data'] == 'random' and p['dir'] == '$d'" \
		"p['runtime_ms'] >= 1000 and p['runtime_ms'] < 3000 and p['ramp_ms'] == 0" \
		"p['layout_seconds'] > 0 and isinstance(p['direct'], bool)" \
		"all(k in p['read'] for k in ('io_bytes','io_kbytes','bw_bytes','bw','iops','runtime','total_ios','short_ios','clat_ns','slat_ns'))" \
		"p['read']['iops'] > 50 and p['write']['iops'] > 10" \
		"p['read']['io_bytes'] == p['read']['total_ios'] * 4096" \
		"abs(p['read']['iops'] - 1000.0 * p['read']['total_ios'] / p['runtime_ms']) < 0.01" \
		"0.6 < p['read']['total_ios'] / (p['read']['total_ios'] + p['write']['total_ios']) < 0.9" \
		"p['read']['clat_ns']['N'] == p['read']['total_ios']" \
		"0 < p['read']['clat_ns']['min'] <= p['read']['clat_ns']['mean'] <= p['read']['clat_ns']['max']" \
		"'99.000000' in p['read']['clat_ns']['percentile'] and '50.000000' in p['read']['clat_ns']['percentile']" \
		"len(p['read']['clat_ns']['percentile']) == 17" \
		"p['read']['clat_ns']['percentile']['50.000000'] <= p['read']['clat_ns']['percentile']['99.000000']" \
		"len(p['read']['iops_timeline']) == 1 and p['read']['iops_timeline'][0] > 0" \
		"ps[1]['rw'] == 'randread' and 'write' not in ps[1] and ps[1]['iodepth'] == 8" \
		"p['cpu']['usr_pct'] is not None and p['iodepth_avg'] <= $qd" \
		"all(x['disturbance']['device'] and x['disturbance']['foreign_read_bytes'] is not None for x in ps)" \
		"all(x['disturbance']['own_bytes'] >= x['read']['io_bytes'] + (x['write']['io_bytes'] if 'write' in x else 0) for x in ps)" \
		&& empty_dir "$d"; then
		t_ok "engine_$eng"
	else
		t_fail "engine_$eng" "rc=$rc $(head -c 300 "$base/$eng.err") left: $(ls -A "$d")"
	fi
done

# psync's slat is not measured: N = 0 and null figures, never 0
t_json "$base/psync.json" "p['read']['slat_ns']['N'] == 0 and p['read']['slat_ns']['mean'] is None" \
	&& t_ok psync_slat_null || t_fail psync_slat_null

# the same seed gives the same offsets: the read/write split of two runs matches closely
d=$base/verify
fg verify
if [ "$rc" = 0 ] && t_json "$base/v.json" \
	"p['status'] == 'ok' and p['verify']['bad'] == 0" \
	"p['verify']['blocks'] == (8 << 20) // 4096 and p['jobs'] == 2" \
	"'verify' not in ps[1]" && empty_dir "$d"; then
	t_ok verify_healthy
else
	t_fail verify_healthy "rc=$rc $(head -c 300 "$base/v.err")"
fi

# SIGINT stops a long pass within 2 s (beside the rate-capped run only), marked incomplete, file removed
d=$base/sig; mkdir "$d"
"$VPSBENCH" --only rand --size 8M --runtime 60s --ramp 0 --jobs 1 --json --quiet --dir "$d" \
	> "$base/s.json" 2> "$base/s.err" &
pid=$!
t_wait_test_file $pid || t_fail sigint_started "no test file open"
sleep 1.5
kill -INT $pid
t0=$(date +%s%N)
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [ $rc -eq 130 ] && [ $ms -le 2500 ] && t_json "$base/s.json" \
	"j['modules']['rand']['status'] == 'incomplete'" "p['status'] == 'incomplete'" \
	&& empty_dir "$d"; then t_ok sigint_stops
else t_fail sigint_stops "rc=$rc after ${ms} ms"; fi


# the rate cap
fg rate
t_json "$base/r.json" "100 < p['read']['iops'] <= 215" && t_ok rate_cap \
	|| t_fail rate_cap "$(head -c 300 "$base/r.err"; head -c 300 "$base/r.json")"

# --zero-buffers and the text report at once
d=$base/zero; mkdir "$d"
bg zero "$VPSBENCH" $TINY --runtime 300ms --rw randwrite --zero-buffers --dir "$d" > "$base/z.json" 2> "$base/z.err"
d=$base/text; mkdir "$d"
bg text "$VPSBENCH" --only rand --size 8M --runtime 300ms --ramp 0 --jobs 1 --quiet --dir "$d" > "$base/t.txt" 2>&1
# (runs whose checks do not need a whole second of I/O are 300 ms a pass:
# on tmpfs and ramfs a pass keeps a CPU busy)
# as root: tmpfs and ramfs runs beside the io_uring mount loop (each its own mount)
if t_is_root; then
	tm=skip; ra=skip
	d=$base/tmpfs; mkdir "$d"
	if mount -t tmpfs -o size=64m tmpfs "$d"; then
		tm=run; bg tmpfs "$VPSBENCH" $TINY --runtime 300ms --dir "$d" > "$base/tm.json" 2> "$base/tm.err"
	fi
	d=$base/ramfs; mkdir "$d"
	if mount -t ramfs ramfs "$d"; then
		ra=run; bg ramfs "$VPSBENCH" $TINY --runtime 300ms --dir "$d" > "$base/ra.json" 2> "$base/ra.err"
	fi
	# nothing held after exit: io_uring's registered file is released before
	# the process ends (not by the kernel's ring exit work, which a busy
	# machine runs late), so each of 8 runs' tmpfs unmounts at once
	d=$base/uring; mkdir "$d"; busy=0
	for i in 1 2 3 4 5 6 7 8; do
		mount -t tmpfs -o size=32m tmpfs "$d" || { busy=mount; break; }
		"$VPSBENCH" --only rand --engine io_uring --size 4M --runtime 0.1s --ramp 0 --jobs 2 --iodepth 16 \
			--json --quiet --dir "$d" > /dev/null 2>&1
		umount "$d" 2>/dev/null || { busy=$((busy + 1)); sleep 1; umount "$d" || umount -l "$d"; }
	done
	[ "$busy" = 0 ] && t_ok uring_mount_free_at_exit || t_fail uring_mount_free_at_exit "busy right after exit: $busy of 8"
	d=$base/tmpfs
	if [ $tm = run ]; then
		fg tmpfs
		[ "$rc" = 0 ] && t_json "$base/tm.json" "p['status'] == 'ok' and p['read']['iops'] > 50" \
			"any('tmpfs' in w for w in j['warnings'])" && empty_dir "$d" \
			&& t_ok tmpfs_run || t_fail tmpfs_run "rc=$rc"
		t_umount "$d"
	else
		t_skip tmpfs_run "mount -t tmpfs failed"
	fi
	# ramfs has no O_DIRECT: the pass runs buffered and says so
	d=$base/ramfs
	if [ $ra = run ]; then
		fg ramfs
		[ "$rc" = 0 ] && t_json "$base/ra.json" "p['status'] == 'ok' and p['direct'] is False" \
			"'O_DIRECT' in p['direct_reason']" \
			"any('buffered' in w for w in j['warnings'])" && empty_dir "$d" \
			&& t_ok ramfs_buffered || t_fail ramfs_buffered "rc=$rc"
		t_umount "$d"
	else
		t_skip ramfs_buffered "mount -t ramfs failed"
	fi
else
	t_skip tmpfs_run "needs root"
	t_skip ramfs_buffered "needs root"
fi

fg zero
[ "$rc" = 0 ] && t_json "$base/z.json" "p['data'] == 'zero' and p['rw'] == 'randwrite' and 'read' not in p" \
	"p['rwmixread'] == 0 and p['write']['iops'] > 10" && t_ok zero_buffers || t_fail zero_buffers

# text report: fio-style lines, 80 columns
fg text
# width of the rand section only: from its heading to the next one
w=$(awk '/^ Random I\/O/ { on = 1 } on && /^ [A-Z]/ && !/^ Random/ { on = 0 }
	on { n = length($0); if (n > m) m = n } END { print m + 0 }' "$base/t.txt")
if grep -qE '^ +read: IOPS=[0-9.]+k?, BW=[0-9.]+[KMG]?i?B/s \([0-9.]+[kMG]?B/s\)$' "$base/t.txt" \
	&& grep -q 'clat p50' "$base/t.txt" && [ "$w" -gt 40 ] && [ "$w" -le 80 ]; then t_ok text_fio_lines
else t_fail text_fio_lines "width=$w"; fi

t_summary rand
