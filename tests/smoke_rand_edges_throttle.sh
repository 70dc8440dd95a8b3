# smoke_rand_edges_throttle.sh — a slow disk is a low figure, not a
# failure (issue 14): the yabs profile's 1m pass (randrw 50/50, 1 MiB,
# 2 jobs x qd64: 128 MiB in flight) on a loop-mounted ext4 throttled to
# 5 MB/s read and 5 MB/s write (cgroup v1 blkio, in a child cgroup of
# its own) must end "ok" with a low figure, drain what it had in flight
# (a fixed 10 s limit could not: ~13 s of I/O), leave nothing behind, and
# leave no I/O in flight: the mount unmounts at once after the exit.
# Runtime and file size are short (the layout of 8 MiB alone takes 1.6 s
# at 5 MB/s); the in-flight shape is yabs's.
# Root only (loop device, mount, cgroup); skips cleanly otherwise.
. tests/lib.sh
name=rand_edges_throttle
if ! t_is_root; then t_skip slow_disk_drains "needs root"; t_summary $name; exit; fi
blk=/sys/fs/cgroup/blkio
if [ ! -w "$blk/cgroup.procs" ] || [ ! -e "$blk/blkio.throttle.read_bps_device" ]; then
	t_skip slow_disk_drains "no cgroup v1 blkio throttle"; t_summary $name; exit
fi
for c in losetup mkfs.ext4; do
	command -v $c >/dev/null || { t_skip slow_disk_drains "$c not installed"; t_summary $name; exit; }
done
base=$(t_tmpdir); mnt=$base/mnt; loop=""; cg=""
cleanup() {
	mountpoint -q "$mnt" 2>/dev/null && umount "$mnt" 2>/dev/null
	mountpoint -q "$mnt" 2>/dev/null && umount -l "$mnt"
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$base"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir "$mnt"
truncate -s 256M "$base/img" && loop=$(losetup -f --show "$base/img" 2>/dev/null) || loop=""
if [ -z "$loop" ] || ! mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 || ! mount "$loop" "$mnt"; then
	t_skip slow_disk_drains "no loop device / ext4 mount"; t_summary $name; exit
fi
devnum=$(cat "/sys/block/${loop#/dev/}/dev")
cg=$blk/vpsbench-test-$$
mkdir "$cg" || { cg=""; t_skip slow_disk_drains "cannot make a blkio cgroup"; t_summary $name; exit; }
echo "$devnum 5000000" > "$cg/blkio.throttle.read_bps_device" &&
	echo "$devnum 5000000" > "$cg/blkio.throttle.write_bps_device" ||
	{ t_skip slow_disk_drains "cannot set the blkio throttle"; t_summary $name; exit; }

cat > "$base/yabs1m.ini" <<'INI'
[pass rand_rw_1m]
rw = randrw
rwmixread = 50
bs = 1m
iodepth = 64
jobs = 2
size = 8m
runtime = 2s
ramp = 0
INI
t0=$(date +%s)
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	"$VPSBENCH" --only rand --profile "$base/yabs1m.ini" --dir "$mnt" --json --quiet \
	> "$base/o.json" 2> "$base/o.err"
rc=$?
secs=$(( $(date +%s) - t0 ))
left=$(ls -A "$mnt" | grep -v '^lost+found$')
# no I/O left in flight: the mount is not busy (one try, no retries)
umount "$mnt" 2>"$base/umount.err"; urc=$?
echo "rc=$rc after ${secs}s; umount rc=$urc $(cat "$base/umount.err")"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["rand"]["passes"][0]
print(p["status"], p.get("reason"), "read MB/s %.1f write MB/s %.1f runtime_ms %d" % (p["read"]["bw_bytes"]/1e6, p["write"]["bw_bytes"]/1e6, p["runtime_ms"]))' "$base/o.json" 2>/dev/null
if [ $rc -eq 0 ] && t_json "$base/o.json" \
	"p['status'] == 'ok' and p['name'] == 'rand_rw_1m' and p['bs'] == 1 << 20" \
	"p['iodepth'] == 64 and p['jobs'] == 2" \
	"0 < p['read']['bw_bytes'] < 7e6 and 0 < p['write']['bw_bytes'] < 7e6" \
	"p['read']['total_ios'] + p['write']['total_ios'] >= 128" \
	"p['runtime_ms'] > 10000" && [ -z "$left" ]; then
	t_ok slow_disk_drains
else
	t_fail slow_disk_drains "rc=$rc left=[$left] $(head -c 300 "$base/o.err")"
fi
[ $urc -eq 0 ] && t_ok nothing_in_flight_after_exit || t_fail nothing_in_flight_after_exit "umount: $(cat "$base/umount.err")"
t_summary $name
