#!/bin/bash
# run-all: long (see tests/run-all.sh)
# smoke_safety_root.sh — faults on real (temporary) storage, issue #8:
# ENOSPC on a 64 MiB loop-mounted ext4 (during the seq pass and during the
# rand layout), EROFS (remount ro), EACCES (user nobody on a root-owned 0755
# dir), a 64 MiB memory cgroup, and device-mapper faults (dm-error EIO,
# dm suspend = stalled storage). Needs root; each part skips cleanly when
# a tool or kernel feature is missing. Everything is undone by the trap.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
if ! t_is_root; then
	for n in enospc_seq_pass enospc_rand_layout erofs_skip eacces_skip memcg_64m dm_eio dm_stall; do
		t_skip "$n" "needs root (loop devices, mounts, cgroups)"
	done
	t_summary safety_root; exit
fi
base=$(t_tmpdir) || exit 1
LOOPS=(); MNTS=(); DMS=(); CGS=(); HELPERS=()
cleanup() {
	local x
	for x in "${HELPERS[@]}"; do kill "$x" 2>/dev/null; done
	for x in "${DMS[@]}"; do timeout 10 dmsetup resume "$x" 2>/dev/null; done
	for x in "${MNTS[@]}"; do umount -l "$x" 2>/dev/null; done
	for x in "${DMS[@]}"; do timeout 10 dmsetup remove "$x" 2>/dev/null; done
	for x in "${LOOPS[@]}"; do losetup -d "$x" 2>/dev/null; done
	for x in "${CGS[@]}"; do rmdir "$x" 2>/dev/null; done
	rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
empty_dir() { [ -z "$(ls -A "$1" | grep -v '^lost+found$')" ]; }

# mkloop NAME SIZE: a sparse image in $base on a loop device, ext4, mounted at $M
# (not in a subshell: the trap's lists must see the device and the mount)
mkloop() {
	local img=$base/$1.img m=$base/$1 dev
	M=
	truncate -s "$2" "$img" || return 1
	dev=$(losetup -f --show "$img" 2>/dev/null) || return 1
	LOOPS+=("$dev")
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || return 1
	mkdir -p "$m" && mount "$dev" "$m" 2>/dev/null || return 1
	MNTS+=("$m")
	M=$m
}

# Holds a FIFO full, so vpsbench blocks at its first progress line (after
# its free-space check, before it creates the file); the test fills the
# disk, then lets it go. Deterministic ENOSPC without timing games.
cat > "$base/hold.py" <<'PY'
import errno, fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_NONBLOCK)
filled = 0
while True:
    try:
        filled += os.write(fd, b'x' * 4096)
    except OSError as e:
        if e.errno != errno.EAGAIN: raise
        try: filled += os.write(fd, b'x')
        except OSError: break
print('full', flush=True)
sys.stdin.readline()
fcntl.fcntl(fd, fcntl.F_SETFL, 0)
with open(sys.argv[2], 'ab') as log:
    while True:
        b = os.read(fd, 65536)
        skip = min(filled, len(b)); filled -= skip  # our own filler comes out first
        log.write(b[skip:]); log.flush()
PY
# fault_run NAME DIR ARGS...: runs vpsbench blocked on the FIFO, fills DIR's fs, releases it
fault_run() {
	local name=$1 dir=$2 fifo=$base/$1.fifo pid hp i w
	shift 2
	mkfifo "$fifo" || return 1
	coproc HOLD { exec python3 "$base/hold.py" "$fifo" "$base/$name.err" 2>/dev/null; }
	hp=$HOLD_PID; HELPERS+=("$hp")
	read -r -t 10 _ <&"${HOLD[0]}" || return 1
	"$VPSBENCH" "$@" --skip mem --dir "$dir" --json > "$base/$name.json" 2> "$fifo" &
	pid=$!
	for i in $(seq 1 100); do
		w=$(cat /proc/$pid/wchan 2>/dev/null)
		# (pipe_write; anon_pipe_write from Linux 6.16)
		case $w in pipe_write | anon_pipe_write) break ;; esac
		sleep 0.1
	done
	head -c 1G /dev/zero > "$dir/filler" 2>/dev/null
	echo go >&"${HOLD[1]}"
	wait "$pid"; local rc=$?
	kill "$hp" 2>/dev/null; wait "$hp" 2>/dev/null
	rm -f "$dir/filler" "$fifo"
	return $rc
}

stall_pid=
# 1. device-mapper (first: its stall part waits in the background): dm-error in the middle of a dm-linear device (EIO), and
# dm suspend mid-pass (stalled storage). Resume always runs in the trap.
if command -v dmsetup >/dev/null && timeout 5 dmsetup version >/dev/null 2>&1 &&
   [ -e /dev/mapper/control ]; then
	img=$base/dm.img; truncate -s 256M "$img"
	if dev=$(losetup -f --show "$img" 2>/dev/null); then
		LOOPS+=("$dev")
		dmn=vpsbench-test-$$; DMS+=("$dmn")
		dmsetup create "$dmn" --table "0 524288 linear $dev 0" && mkfs.ext4 -q -F /dev/mapper/$dmn \
			&& mkdir -p "$base/dm" && mount /dev/mapper/$dmn "$base/dm" && MNTS+=("$base/dm")
		# EIO: everything past the first 8 MiB becomes an error target
		# (ext4's metadata is at the start; new data blocks land later)
		sync
		if mountpoint -q "$base/dm" && dmsetup suspend "$dmn" &&
		   dmsetup load "$dmn" --table "0 16384 linear $dev 0
16384 507904 error" && dmsetup resume "$dmn"; then
			timeout 60 "$VPSBENCH" --only sysinfo,rand --dir "$base/dm" --size 64M --runtime 1s --ramp 0 \
				--json --quiet > "$base/eio.json" 2>/dev/null; rc=$?
			if [ $rc -eq 2 ] && t_json "$base/eio.json" "j['modules']['rand']['status'] == 'failed'" \
				"'Input/output error' in j['modules']['rand']['reason']" \
				"all('read' not in p and 'write' not in p for p in j['rand']['passes'] if p['status'] == 'failed')"; then
				t_ok dm_eio; else t_fail dm_eio "rc=$rc"; fi
		else
			t_skip dm_eio "cannot load a dm-error table"
		fi
		umount -l "$base/dm" 2>/dev/null
		dmsetup suspend "$dmn" 2>/dev/null; dmsetup load "$dmn" --table "0 524288 linear $dev 0" &&
			dmsetup resume "$dmn" && mkfs.ext4 -q -F /dev/mapper/$dmn && mount /dev/mapper/$dmn "$base/dm"
		# stall: suspend once the first rand pass runs; the pass must end as
		# "timeout" (deadline ramp + runtime + 10 s) and the report be
		# printed; resume only after that (exit may wait for the kernel's I/O)
		# (in the background: its ~13 s are a wait; the other parts run beside it)
		if mountpoint -q "$base/dm"; then
			dm_stall() {
				local pid rc
				"$VPSBENCH" --only rand --engine io_uring --dir "$base/dm" --size 32M --runtime 2s --ramp 0 \
					--json > "$base/stall.json" 2> "$base/stall.err" &
				pid=$!
				for _ in $(seq 1 100); do grep -q 'randrw-4k-qd64 in' "$base/stall.err" && break; sleep 0.1; done
				timeout 10 dmsetup suspend --nolockfs --noflush "$dmn"
				# the report is written before exit: wait up to 60 s for it
				for _ in $(seq 1 600); do
					python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$base/stall.json" 2>/dev/null && break
					sleep 0.1
				done
				timeout 10 dmsetup resume "$dmn"
				timeout 30 tail --pid=$pid -f /dev/null; wait $pid; rc=$?
				echo $rc > "$base/stall.rc"
			}
			dm_stall &
			stall_pid=$!; HELPERS+=("$stall_pid")
		else
			t_skip dm_stall_timeout "cannot mount the dm device"
		fi
	else
		t_skip dm_eio "no loop device"; t_skip dm_stall_timeout "no loop device"
	fi
else
	t_skip dm_eio "device-mapper unavailable (dmsetup / dm_mod)"
	t_skip dm_stall_timeout "device-mapper unavailable (dmsetup / dm_mod)"
fi


# 6. The default profile's depth and jobs inside a 64 MiB memory cgroup
# (release binary: ASan's shadow memory alone would not fit).
cg=
own=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
if [ -n "$own" ] && [ -w "/sys/fs/cgroup/memory$own" ]; then
	cg=/sys/fs/cgroup/memory$own/vpsbench-test-$$
	mkdir "$cg" && CGS+=("$cg") && echo $((64 << 20)) > "$cg/memory.limit_in_bytes" || cg=
	limfile=memory.limit_in_bytes
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	# cgroup v2: a child gets memory.max only when its PARENT's
	# cgroup.subtree_control enables memory; our own cgroup first, else the
	# root (which may enable it: the root has no internal-process rule)
	own=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup)
	parent=
	for p in "/sys/fs/cgroup${own%/}" /sys/fs/cgroup; do
		grep -qw memory "$p/cgroup.subtree_control" 2>/dev/null && { parent=$p; break; }
	done
	if [ -z "$parent" ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers &&
	   echo +memory > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		parent=/sys/fs/cgroup
	fi
	if [ -n "$parent" ]; then
		cg=$parent/vpsbench-test-$$
		mkdir "$cg" 2>/dev/null && CGS+=("$cg") && echo $((64 << 20)) > "$cg/memory.max" 2>/dev/null || cg=
	fi
	limfile=memory.max
fi
mem_pid=
if [ -n "$cg" ] && [ -x ./vpsbench ]; then
	md=$base/mem; mkdir "$md"
	# (every module; cpu and fsync short: their memory is not at issue)
	# in the background, beside parts 2-5 (checked after them)
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" --dir "$3" --seq-size 64M --size 64M --runtime 1s --ramp 0 --cpu-time 200ms --fsync-time 100ms --json --quiet' \
		sh "$cg" "$PWD/vpsbench" "$md" > "$base/mem.json" 2> "$base/mem.err" &
	mem_pid=$!; HELPERS+=("$mem_pid")
fi

# 2. ENOSPC during the seq pass: the run aborts, no figure, the file is gone
# seq keeps a fixed 64 MiB margin, so its filesystem is 128 MiB; rand's is 64 MiB
if mkloop space 128M && mkloop small 64M; then
	m=$base/space; small=$base/small
	# only the module under test: its progress line is the first one printed
	fault_run seqfull "$m" --only seq --seq-size 16M --seq-runs 2; rc=$?
	if [ $rc -eq 2 ] && t_json "$base/seqfull.json" "j['modules']['seq']['status'] == 'failed'" \
		"j['seq']['status'] == 'aborted'" "j['seq']['reason'] == 'aborted: no space left on $m'" \
		"j['seq']['write']['runs'] == [] and j['seq']['write']['avg_mbps'] is None" \
		"j['seq']['read']['mbps'] is None" "j['run']['complete'] is True"; then
		t_ok enospc_seq_pass; else t_fail enospc_seq_pass "rc=$rc $(tail -n 2 "$base/seqfull.err")"; fi
	empty_dir "$m" && t_ok enospc_seq_nothing_left || t_fail enospc_seq_nothing_left "$(ls -A "$m")"

	# 3. ENOSPC during the rand layout (fallocate or the writes)
	fault_run randfull "$small" --only rand --size 16M --runtime 1s; rc=$?
	if [ $rc -eq 2 ] && t_json "$base/randfull.json" "j['modules']['rand']['status'] == 'failed'" \
		"all(p['status'] == 'failed' and p['reason'] == 'aborted: no space left on $small' for p in j['rand']['passes'])" \
		"all('read' not in p and 'write' not in p for p in j['rand']['passes'])" \
		"j['run']['complete'] is True"; then
		t_ok enospc_rand_layout; else t_fail enospc_rand_layout "rc=$rc $(tail -n 2 "$base/randfull.err")"; fi
	empty_dir "$small" && t_ok enospc_rand_nothing_left || t_fail enospc_rand_nothing_left "$(ls -A "$small")"

	# 4. EROFS: disk modules skip with the reason; sysinfo runs; exit 0 when it did, 2 when nothing ran
	if mount -o remount,ro "$m" 2>/dev/null; then
		"$VPSBENCH" --skip cpu,mem --dir "$m" --seq-size 16M --size 16M --runtime 1s --json --quiet > "$base/ro.json" 2>/dev/null; rc=$?
		if [ $rc -eq 0 ] && t_json "$base/ro.json" "j['modules']['sysinfo']['status'] == 'ok'" \
			"j['modules']['seq']['status'] == 'skipped' and 'Read-only file system' in j['modules']['seq']['reason']" \
			"j['modules']['rand']['status'] == 'skipped' and 'Read-only file system' in j['modules']['rand']['reason']"; then
			t_ok erofs_skip; else t_fail erofs_skip "rc=$rc"; fi
		"$VPSBENCH" --only seq,rand --dir "$m" --seq-size 16M --size 16M --runtime 1s --quiet > "$base/ro2.txt" 2>/dev/null; rc=$?
		[ $rc -eq 2 ] && grep -q 'Read-only file system' "$base/ro2.txt" \
			&& t_ok erofs_nothing_ran_exit_2 || t_fail erofs_nothing_ran_exit_2 "rc=$rc"
		mount -o remount,rw "$m" 2>/dev/null
	else
		t_skip erofs_skip "remount,ro refused"
	fi
else
	t_skip enospc_seq_pass "no loop device / mkfs.ext4 / mount"
	t_skip enospc_rand_layout "no loop device / mkfs.ext4 / mount"
	t_skip erofs_skip "no loop device / mkfs.ext4 / mount"
fi

# 5. EACCES: user nobody in a root-owned 0755 directory
if command -v setpriv >/dev/null && [ -x "$VPSBENCH" ]; then
	ad=$base/acc; mkdir -m 0755 "$ad"; chmod 0755 "$base"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$VPSBENCH" --skip cpu,mem --dir "$ad" --seq-size 16M \
		--size 16M --runtime 1s --json --quiet > "$base/acc.json" 2>/dev/null; rc=$?
	if [ $rc -eq 0 ] && t_json "$base/acc.json" "j['modules']['sysinfo']['status'] == 'ok'" \
		"j['modules']['seq']['status'] == 'skipped' and 'Permission denied' in j['modules']['seq']['reason']" \
		"j['modules']['rand']['status'] == 'skipped' and 'Permission denied' in j['modules']['rand']['reason']"; then
		t_ok eacces_skip; else t_fail eacces_skip "rc=$rc"; fi
	setpriv --reuid=65534 --regid=65534 --clear-groups "$VPSBENCH" --only seq,rand --dir "$ad" \
		--seq-size 16M --size 16M --runtime 1s --quiet > /dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] && t_ok eacces_nothing_ran_exit_2 || t_fail eacces_nothing_ran_exit_2 "rc=$rc"
	empty_dir "$ad" && t_ok eacces_nothing_written || t_fail eacces_nothing_written "$(ls -A "$ad")"
else
	t_skip eacces_skip "no setpriv"
fi

# 6. (the memory cgroup run, started above)
if [ -n "$mem_pid" ]; then
	wait "$mem_pid"; rc=$?
	oom=$(sed -n 's/^oom_kill //p' "$cg/memory.oom_control" "$cg/memory.events" 2>/dev/null | head -n 1)
	if [ $rc -eq 0 ] && [ "${oom:-0}" -eq 0 ] && t_json "$base/mem.json" \
		"all(j['modules'][m]['status'] == 'ok' for m in ('sysinfo', 'seq', 'rand'))" \
		"j['rand']['passes'][0]['iodepth'] == 64" \
		"j['sysinfo']['mem']['cgroup_limit_bytes'] == 64 << 20" 2>/dev/null; then
		t_ok memcg_64m; else t_fail memcg_64m "rc=$rc oom_kill=${oom:-?} $(tail -n 2 "$base/mem.err")"; fi
	empty_dir "$md" && t_ok memcg_nothing_left || t_fail memcg_nothing_left "$(ls -A "$md")"
else
	t_skip memcg_64m "no writable memory cgroup (v1 memory controller or cgroup2 memory.max)"
fi

# the dm stall, started above
if [ -n "$stall_pid" ]; then
	wait "$stall_pid"; rc=$(cat "$base/stall.rc" 2>/dev/null || echo none)
	if [ "$rc" = 2 ] && t_json "$base/stall.json" \
		"j['rand']['passes'][0]['reason'].startswith('timeout')" \
		"'read' not in j['rand']['passes'][0]"; then
		t_ok dm_stall_timeout; else t_fail dm_stall_timeout "rc=$rc"; fi
fi

t_summary safety_root
