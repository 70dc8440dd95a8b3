#!/bin/bash
# run-all: alone
# smoke_storage_cliff.sh — a real knee (issue #30): a device-mapper
# device concatenating a fast loop device (its file on tmpfs) for the first
# N MiB and a slow one (dm-delay, 2 ms reads) for the rest, ext4 on it,
# the test file on the mount; the cliff's knee within one size step of N,
# for two N. Root only (loop, dmsetup, mount); skips cleanly otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BIN=${BIN:-./build/san/vpsbench}
t_is_root || { t_skip "storage cliff" "needs root"; t_summary smoke_storage_cliff; exit 0; }
command -v dmsetup >/dev/null || { t_skip "storage cliff" "no dmsetup"; t_summary smoke_storage_cliff; exit 0; }
# the kernel's device-mapper with the delay target (modprobe may add it)
modprobe dm-delay 2>/dev/null
dmsetup targets 2>/dev/null | grep -q '^delay' ||
	{ t_skip "storage cliff" "no device-mapper delay target in this kernel"; t_summary smoke_storage_cliff; exit 0; }
B=$(t_tmpdir)
TAG=vpsbench-cliff-$$
L1= L2=
cleanup() {
	umount "$B/mnt" 2>/dev/null
	dmsetup remove "$TAG" 2>/dev/null; dmsetup remove "$TAG-slow" 2>/dev/null
	[ -n "$L1" ] && losetup -d "$L1"; [ -n "$L2" ] && losetup -d "$L2"
	umount "$B/t" 2>/dev/null
	rm -rf "$B"
}
cleanup_run() {
	umount "$B/mnt" 2>/dev/null
	dmsetup remove "$TAG" 2>/dev/null; dmsetup remove "$TAG-slow" 2>/dev/null
	[ -n "$L1" ] && losetup -d "$L1"; [ -n "$L2" ] && losetup -d "$L2"
	L1= L2=
	rm -f "$B/t/fast" "$B/t/slow"
}
trap cleanup EXIT
mkdir -p "$B/t" "$B/mnt"
mount -t tmpfs -o size=700m tmpfs "$B/t" || { t_fail "tmpfs mount"; exit 1; }

run_n() { # N_MiB: the knee is expected at the last step <= N
	local n=$1 total=400
	truncate -s ${n}M "$B/t/fast"; truncate -s $((total - n))M "$B/t/slow"
	L1=$(losetup -f --show "$B/t/fast") || return 1
	L2=$(losetup -f --show "$B/t/slow") || return 1
	local s1=$((n * 2048)) s2=$(((total - n) * 2048))
	echo "0 $s2 delay $L2 0 2 $L2 0 0" | dmsetup create "$TAG-slow" || return 1
	printf '0 %s linear %s 0\n%s %s linear /dev/mapper/%s 0\n' $s1 "$L1" $s1 $s2 "$TAG-slow" |
		dmsetup create "$TAG" || return 1
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/mapper/$TAG || return 1
	mount /dev/mapper/$TAG "$B/mnt" || return 1
	$BIN --profile storage --only cache --dir "$B/mnt" --storage-sizes 16M,32M,64M,128M,256M \
		--storage-point-time 1s --storage-max-time 40s --output "$B/r$n.json" --quiet >/dev/null 2>"$B/e$n"
	python3 - "$B/r$n.json" "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["storage"]; n = int(sys.argv[2]) << 20
sizes = [p["size"] for p in r["cliff"] if p["status"] == "ok"]
for p in r["cliff"]:
    print("# %dM %s %.0f IOPS p99 %.0f us" % (p["size"] >> 20, p["status"], p["qd32_iops"] or 0, (p["qd1_p99_ns"] or 0) / 1e3))
truth = max(i for i, s in enumerate(sizes) if s <= n)
k = r["knee_size"]
print("# N %dM: knee %s, truth %dM" % (n >> 20, k and k >> 20, sizes[truth] >> 20))
sys.exit(0 if k is not None and abs(sizes.index(k) - truth) <= 1 else 1)
PY
	return $?
}
for n in 48 100; do
	t_check "knee within one step of N=${n}M" run_n $n
	cleanup_run # also after a failed step: nothing stays attached
done
t_summary smoke_storage_cliff
