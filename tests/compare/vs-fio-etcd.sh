#!/bin/bash
# vs-fio-etcd.sh — vpsbench's fdatasync pass against fio 3.33 running
# etcd's recipe, alternating (fio, vpsbench, fio, vpsbench...; PAIRS
# pairs) in the same directory:
#   fio --rw=write --ioengine=sync --fdatasync=1 --directory=DIR --size=22m
#       --bs=2300 --name=etcd --output-format=json
#   vpsbench --only fsync --profile etcd --dir DIR --json
# Scenarios (SCENARIOS="disk loop"):
#   disk  a temporary directory on the disk under DISK_DIR (default $PWD)
#   loop  (root) ext4 on a loop device backed by a file in a temporary
#         directory, its writes throttled to THROTTLE_IOPS with the cgroup v1
#         blkio controller (blkio.throttle.write_iops_device for the loop's
#         MAJ:MIN); both tools run inside that cgroup
# Prints per pair fio's and vpsbench's sync p50/p99 (fio: jobs[0].sync.lat_ns
# .percentile; vpsbench: fsync.dirs[0].sync.lat_ns.percentile), the ratios
# vpsbench/fio, the median ratio of the pairs, and whether the p99's is within
# +-15%. A benchmark, not a test: make test does not run it; it exits 0 once
# it has printed its tables (1 when a run or the setup failed).
#
# Env knobs: PAIRS (3), SCENARIOS ("disk loop"), DISK_DIR ($PWD), THROTTLE_IOPS
# (1000), LOOP_SIZE (256M), VPSBENCH (the repo's ./vpsbench), FIO (fio).
set -u

PAIRS=${PAIRS:-3}
SCENARIOS=${SCENARIOS:-disk loop}
DISK_DIR=${DISK_DIR:-$PWD}
THROTTLE_IOPS=${THROTTLE_IOPS:-1000}
LOOP_SIZE=${LOOP_SIZE:-256M}
VPSBENCH=${VPSBENCH:-$(dirname "$0")/../../vpsbench}
FIO=${FIO:-fio}
TOL=0.15

STATUS=0
die() { echo "vs-fio-etcd.sh: $*" >&2; STATUS=1; exit 1; }

command -v "$FIO" >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
[ -x "$VPSBENCH" ] || die "$VPSBENCH not found or not executable (run make, or set VPSBENCH)"
case "$PAIRS" in ''|*[!0-9]*) die "PAIRS must be a number, not '$PAIRS'" ;; esac
case "$THROTTLE_IOPS" in ''|*[!0-9]*) die "THROTTLE_IOPS must be a number, not '$THROTTLE_IOPS'" ;; esac

LOG=$(mktemp -d "${TMPDIR:-/tmp}/vs-fio-etcd.XXXXXX") || die "mktemp -d failed"
# A private copy: other people's rebuilds must not swap the binary mid-run.
cp "$VPSBENCH" "$LOG/vpsbench" || die "cannot copy $VPSBENCH to $LOG"
VPSBENCH=$LOG/vpsbench
DISK_TMP=""
LOOP_DEV=""
LOOP_MNT=""
CG=""

cleanup() {
	if [ -n "$LOOP_MNT" ] && mountpoint -q "$LOOP_MNT"; then
		umount "$LOOP_MNT" || { echo "vs-fio-etcd.sh: umount $LOOP_MNT failed" >&2; STATUS=1; }
	fi
	if [ -n "$LOOP_DEV" ]; then
		losetup -d "$LOOP_DEV" || { echo "vs-fio-etcd.sh: losetup -d $LOOP_DEV failed" >&2; STATUS=1; }
	fi
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		rmdir "$CG" || { echo "vs-fio-etcd.sh: rmdir $CG failed" >&2; STATUS=1; }
	fi
	[ -n "$DISK_TMP" ] && rm -rf "$DISK_TMP"
	rm -rf "$LOG"
}
trap 'cleanup; exit $STATUS' EXIT
trap 'STATUS=130; exit 130' INT TERM

# one run each; $1 = dir, $2 = output file; the cgroup (when set) first
in_cgroup() {
	if [ -n "$CG" ]; then
		sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CG" "$@"
	else
		"$@"
	fi
}
run_fio() {
	in_cgroup "$FIO" --rw=write --ioengine=sync --fdatasync=1 --directory="$1" --size=22m --bs=2300 \
		--name=etcd --output-format=json > "$2" 2> "$2.err" || { cat "$2.err" >&2; return 1; }
	rm -f "$1"/etcd.*
}
run_vps() {
	in_cgroup "$VPSBENCH" --only fsync --profile etcd --dir "$1" --json --quiet > "$2" 2> "$2.err"
	local rc=$?
	[ $rc -eq 0 ] || { echo "vpsbench exit $rc: $(head -c 300 "$2.err")" >&2; return 1; }
}

# prints "p50 p99" in ms of one output
fio_pct() {
	python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["jobs"][0]["sync"]["lat_ns"]
p=l["percentile"]; print("%.4f %.4f %d" % (p["50.000000"]/1e6, p["99.000000"]/1e6, l["N"]))' "$1"
}
vps_pct() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["fsync"]["dirs"][0]; l=d["sync"]["lat_ns"]
p=l["percentile"]; print("%.4f %.4f %d" % (p["50.000000"]/1e6, p["99.000000"]/1e6, l["N"]))' "$1"
}

scenario() {
	local name=$1 dir=$2 i f v rows=()
	echo
	echo "== $name: $dir"
	printf '%-5s %10s %10s %7s %10s %10s %7s %9s %9s\n' pair fio_p50ms fio_p99ms fio_N \
		vps_p50ms vps_p99ms vps_N r_p50 r_p99
	for i in $(seq 1 "$PAIRS"); do
		run_fio "$dir" "$LOG/$name-fio-$i.json" || return 1
		run_vps "$dir" "$LOG/$name-vps-$i.json" || return 1
		read -r fp50 fp99 fn < <(fio_pct "$LOG/$name-fio-$i.json")
		read -r vp50 vp99 vn < <(vps_pct "$LOG/$name-vps-$i.json")
		rows+=("$fp50 $fp99 $vp50 $vp99")
		printf '%-5s %10s %10s %7s %10s %10s %7s %9s %9s\n' "$i" "$fp50" "$fp99" "$fn" "$vp50" "$vp99" \
			"$vn" "$(python3 -c "print('%.3f' % ($vp50 / $fp50))")" \
			"$(python3 -c "print('%.3f' % ($vp99 / $fp99))")"
	done
	python3 - "$TOL" "${rows[@]}" <<'EOF'
import statistics, sys
tol = float(sys.argv[1])
r = [tuple(map(float, x.split())) for x in sys.argv[2:]]
m50 = statistics.median(v50 / f50 for f50, f99, v50, v99 in r)
m99 = statistics.median(v99 / f99 for f50, f99, v50, v99 in r)
ok = abs(m99 - 1) <= tol
print("median ratio vpsbench/fio: p50 %.3f, p99 %.3f -> p99 %s (target within +-%d%%)" %
      (m50, m99, "WITHIN" if ok else "OUTSIDE", tol * 100))
EOF
}

echo "vs-fio-etcd.sh: $PAIRS pairs, fio $("$FIO" --version), $("$VPSBENCH" --version 2>&1 | head -n 1)"
echo "load before: $(uptime)"
for s in $SCENARIOS; do
	case $s in
	disk)
		DISK_TMP=$(mktemp -d "$DISK_DIR/vs-fio-etcd.XXXXXX") || die "mktemp -d in $DISK_DIR failed"
		scenario disk "$DISK_TMP" || STATUS=1
		rm -rf "$DISK_TMP"; DISK_TMP=""
		;;
	loop)
		if [ "$(id -u)" -ne 0 ]; then echo "== loop: skipped (needs root)"; continue; fi
		[ -d /sys/fs/cgroup/blkio ] || { echo "== loop: skipped (no cgroup v1 blkio)"; continue; }
		truncate -s "$LOOP_SIZE" "$LOG/loop.img" || die "truncate $LOG/loop.img failed"
		LOOP_DEV=$(losetup --find --show "$LOG/loop.img") || die "losetup failed"
		mkfs.ext4 -q -F "$LOOP_DEV" || die "mkfs.ext4 $LOOP_DEV failed"
		LOOP_MNT=$LOG/mnt; mkdir "$LOOP_MNT"
		mount "$LOOP_DEV" "$LOOP_MNT" || { LOOP_MNT=""; die "mount $LOOP_DEV failed"; }
		CG=/sys/fs/cgroup/blkio/vs-fio-etcd-$$
		mkdir "$CG" || { CG=""; die "mkdir $CG failed"; }
		majmin=$(lsblk -dno MAJ:MIN "$LOOP_DEV" | tr -d ' ')
		echo "$majmin $THROTTLE_IOPS" > "$CG/blkio.throttle.write_iops_device" ||
			die "cannot throttle $majmin in $CG"
		echo "(loop $LOOP_DEV = $majmin, ext4, writes throttled to $THROTTLE_IOPS IOPS in $CG)"
		scenario "loop-throttled-${THROTTLE_IOPS}iops" "$LOOP_MNT" || STATUS=1
		;;
	*) die "unknown scenario '$s' (disk, loop)" ;;
	esac
done
echo
echo "load after: $(uptime)"
