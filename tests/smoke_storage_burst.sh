#!/bin/bash
# smoke_storage_burst.sh — burst then sustained writes against a known
# truth (issue #30, #41): ext4 on a loop device (its file in this test's
# temporary directory), vpsbench in a cgroup v1 blkio group whose write
# limit on that loop device is HIGH bytes/s at first and lowered by this
# script to LOW once the sequential write test has written TRUTH bytes
# (counted in the group's blkio.throttle.io_service_bytes from the moment
# the burst file is open). The storage profile's writes are O_DIRECT, so
# v1 throttling applies to them (buffered writeback would not be
# attributed).
# The truth is what the group's own counter shows, sampled by this script
# (not the product's report): the bytes written before the lowering and the
# rate after it. So a disk slowed by another job still gives a truth as long
# as the group's writes show the drop (seen beside `stress-ng --hdd 1` on
# the same filesystem). The sequential test must find the drop, its burst
# bytes within 10% of the bytes before the lowering, its sustained rate
# within 10% of the rate the counter showed after it. Only when the counter
# itself shows no clear drop (before < 2x after) or an unsteady rate is the
# truth unknown: retried once (a miss is retried once too), then a skip naming the foreign I/O measured on
# the disk under the loop file (/proc/diskstats less the loop device's own)
# when it was at least HIGH's rate, else a failure (a quiet disk: the
# product's writes, not the disk, were slow). A report that matches the
# counter passes whatever the curve. Root, losetup, mkfs.ext4 and
# /sys/fs/cgroup/blkio needed; skips cleanly otherwise. Cleans up the mount, the loop device and the
# cgroup on every exit.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BIN=${BIN:-./build/san/vpsbench}
HIGH=40000000 LOW=10000000 TRUTH=$((160 * 1000 * 1000))
# foreign I/O on the disk under the loop file, MB/s over a try, from which
# an unknowable truth is a skip rather than a failure: as much as the group's
# own HIGH rate (another helper's tests here: 6-350 MB/s; stress-ng --hdd 1:
# 450-630 MB/s; a few MB/s does not stop the disk giving 40 MB/s)
FOREIGN_MBPS=$((HIGH / 1000000))
skip() { t_skip "storage burst" "$1"; t_summary smoke_storage_burst; exit 0; }
t_is_root || skip "needs root (loop device, mount, cgroup)"
BLK=/sys/fs/cgroup/blkio
[ -w "$BLK/cgroup.procs" ] && [ -e "$BLK/blkio.throttle.write_bps_device" ] || skip "no cgroup v1 blkio controller"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || skip "no losetup or mkfs.ext4"
t_load_note
B=$(t_tmpdir)
CG=$BLK/vpsbench-burst-$$
LOOP='' VPID=''
cleanup() {
	[ -n "$VPID" ] && kill "$VPID" 2>/dev/null && wait "$VPID" 2>/dev/null
	if [ -d "$CG" ]; then
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do echo "$p" > "$BLK/cgroup.procs"; done
		rmdir "$CG" 2>/dev/null
	fi
	t_umount_below "$B"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$B"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$B/mnt"
fallocate -l 3G "$B/disk" || { t_fail "loop file"; exit 1; }
LOOP=$(losetup -f --show --direct-io=on "$B/disk") || { LOOP=; skip "losetup failed (no free loop device?)"; }
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || { t_fail "mkfs.ext4 $LOOP"; exit 1; }
mount "$LOOP" "$B/mnt" || { t_fail "mount $LOOP"; exit 1; }
DEV=$(cat "/sys/block/$(basename "$LOOP")/dev")
mkdir "$CG" || { t_fail "mkdir $CG"; exit 1; }

# the disk under the loop file: its I/O beyond the loop device's is another
# job's (a bind mount's source reads DEV[/path]; a device diskstats does not
# list, as in a chroot, leaves the figure unknown)
hostdev=$(findmnt -no SOURCE -T "$B" 2>/dev/null); hostdev=$(basename "${hostdev%%\[*}")
# no mount table line for it (a chroot lists no mount above its root): the
# device by its number, as the kernel names it in /sys and /proc/diskstats
if [ -z "$hostdev" ] || ! grep -q " $hostdev " /proc/diskstats; then
	hostdev=$(basename "$(readlink "/sys/dev/block/$(stat -c '%Hd:%Ld' "$B")" 2>/dev/null)")
fi
sect() { awk -v d="$1" '$3 == d { print $6 + $10 }' /proc/diskstats; } # sectors read + written

# try N: one run; its verdict in $B/check.N: exit 0 pass, 1 fail, 2 truth unknown
try() {
	local n=$1 t0 h0 h1 l0 l1 foreign rc
	echo "$DEV $HIGH" > "$CG/blkio.throttle.write_bps_device" || { echo "set the blkio write limit" > "$B/check.$n"; return 1; }
	rm -f "$B/r.json" "$B/samples"
	h0=$(sect "$hostdev") l0=$(sect "$(basename "$LOOP")") t0=$EPOCHREALTIME
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$BIN" --profile storage --only cache --dir "$B/mnt" --storage-sizes 16M,32M --storage-point-time 1s \
		--storage-max-time 50s --storage-write-size 2G --output "$B/r.json" --quiet >"$B/out" 2>"$B/err" &
	VPID=$!
	# the watcher (python: no fork per look, so the counter is read within
	# ms of the file's opening; a bash loop of `ls` read it up to ~0.3 s late
	# under load, the seq test's first MB counted as before it): the
	# sequential test has begun when its (already unlinked) burst file is
	# open. Its name, /.vpsbench-burst-: the wrapper's redirect to this
	# group's cgroup.procs (.../vpsbench-burst-PID/) matched 'vpsbench-burst'
	# before the exec: "burst file seen at counter 0", the limit lowered
	# during the cliff, the sequential test flat at LOW. No time limit while
	# vpsbench lives. Then the group's counter every ~10 ms, the truth.
	python3 - "$VPID" "$CG" "$DEV" "$LOW" "$TRUTH" "$B/samples" <<'PY'
import os, sys, time
pid, cg, dev, low, truth, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
def written():
    for line in open(cg + "/blkio.throttle.io_service_bytes"):
        f = line.split()
        if f[0] == dev and f[1] == "Write":
            return int(f[2])
    return 0
def alive():  # a zombie until the shell waits for it; gone between two looks: not alive
    try:
        return open("/proc/%s/stat" % pid).read().split(") ")[1][0] != "Z"
    except OSError:
        return False
def opened():
    try:
        fds = os.listdir("/proc/%s/fd" % pid)
    except OSError:
        return False
    for fd in fds:
        try:
            if "/.vpsbench-burst-" in os.readlink("/proc/%s/fd/%s" % (pid, fd)):
                return True
        except OSError:
            pass
    return False
while alive() and not opened():
    time.sleep(0.002)
c0, lowered = written(), None
print("# burst file seen at counter %d" % c0)
with open(out, "w") as o:
    while alive():
        c = written() - c0
        o.write("%.4f %d\n" % (time.time(), c))
        if lowered is None and c >= truth:
            with open(cg + "/blkio.throttle.write_bps_device", "w") as w:
                w.write("%s %s\n" % (dev, low))
            lowered = c
            o.write("%.4f lowered %d\n" % (time.time(), c))
        time.sleep(0.01)
print("# limit lowered after %s bytes" % lowered)
PY
	wait "$VPID"; rc=$?
	VPID=
	h1=$(sect "$hostdev") l1=$(sect "$(basename "$LOOP")")
	if [ -n "$h0" ] && [ -n "$h1" ] && [ -n "$l0" ] && [ -n "$l1" ]; then
		foreign=$(echo "$h0 $h1 $l0 $l1 $t0 $EPOCHREALTIME" |
			awk '{ printf "%.1f", ((($2 - $1) - ($4 - $3)) * 512 / 1e6) / ($6 - $5) }')
	else
		foreign="unknown (no /proc/diskstats line for '$hostdev')"
	fi
	echo "# try $n: vpsbench exit $rc; foreign I/O on $hostdev $foreign MB/s; $(head -c 300 "$B/err")"
	[ $rc -eq 0 ] || { echo "vpsbench exit $rc" > "$B/check.$n"; return 1; }
	python3 - "$B/r.json" "$B/samples" "$LOW" "$foreign" "$hostdev" "$FOREIGN_MBPS" "$TRUTH" > "$B/check.$n" <<'PY'
import json, statistics, sys
b = json.load(open(sys.argv[1]))["storage"]["seq_write"]
low, foreign, dev, fmax = float(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6])
pts, tlow, truth = [], None, None
for line in open(sys.argv[2]):
    f = line.split()
    if f[1] == "lowered":
        tlow, truth = float(f[0]), float(f[2])
    else:
        pts.append((float(f[0]), float(f[1])))
print("# report: timeline MB/s %s; found %s at %s s: burst %s MB/s, %s bytes, sustained %s MB/s" % (
    " ".join("%.0f" % (x / 1e6) for x in b["timeline_bytes_per_s"] or []), b["drop_found"], b["change_s"],
    b["burst_mbps"], b["burst_bytes"], b["sustained_mbps"]))
try:
    shared = float(foreign) >= fmax
    why = "foreign I/O %s MB/s on %s during the test" % (foreign, dev)
except ValueError:
    shared, why = False, "foreign I/O unknown (%s)" % foreign

def unknown(what):
    # the truth is the group's own counter: no drop in it is no truth
    print(("%s: no known truth; " % what) + why)
    sys.exit(2 if shared else 1)

if tlow is None:
    unknown("the group never wrote %.0f MB in the sequential test (%.0f MB in %.1f s)" % (
        float(sys.argv[7]) / 1e6, pts[-1][1] / 1e6 if pts else 0, pts[-1][0] - pts[0][0] if pts else 0))
t1 = next(t for t, c in pts if c > 0)           # the first write counted
# the last sample before the counter stopped: the file's removal and the
# report's writing are no part of the rate
tend = next(t for t, c in pts if c == pts[-1][1])
after = [(t, c) for t, c in pts if tlow + 0.5 <= t <= tend]
burst_rate = truth / max(tlow - t1, 1e-3)
sust_rate = (after[-1][1] - after[0][1]) / (after[-1][0] - after[0][0]) if len(after) > 1 and after[-1][0] > after[0][0] else None
def windows(pts):
    """the rate over each whole 1 s window of (t, bytes) samples"""
    win, i = [], 0
    while i < len(pts):
        j = next((k for k in range(i, len(pts)) if pts[k][0] >= pts[i][0] + 1), None)
        if j is None:
            break
        win.append((pts[j][1] - pts[i][1]) / (pts[j][0] - pts[i][0]))
        i = j
    return win
def spread(win):
    return statistics.pstdev(win) / statistics.mean(win) if len(win) >= 2 and statistics.mean(win) > 0 else 0.0
# steady levels before and after the lowering (1 s windows of the counter),
# else another job's I/O shaped the curve, not the limit: no known truth
pre, post = windows([(t, c) for t, c in pts if t1 <= t <= tlow]), windows(after)
print("# truth: %.0f MB in %.2f s before the lowering (%.1f MB/s; 1 s windows %s), then %s MB/s (1 s windows %s)" % (
    truth / 1e6, tlow - t1, burst_rate / 1e6, " ".join("%.1f" % (w / 1e6) for w in pre),
    "%.2f" % (sust_rate / 1e6) if sust_rate else "unknown", " ".join("%.1f" % (w / 1e6) for w in post)))
ok = sust_rate is not None and b["drop_found"] is True and b["burst_bytes"] is not None and b["sustained_mbps"] is not None \
    and abs(b["burst_bytes"] - truth) <= 0.1 * truth \
    and abs(b["sustained_mbps"] * 1e6 - sust_rate) <= 0.1 * sust_rate
miss = "drop found %s, burst %s bytes against %.0f, sustained %s MB/s against %s" % (
    b["drop_found"], b["burst_bytes"], truth, b["sustained_mbps"], "%.2f" % (sust_rate / 1e6) if sust_rate else "unknown")
print("# " + miss)
if ok:
    sys.exit(0)
# a miss: was there a truth to find?
if sust_rate is None or len(post) < 3:
    unknown("fewer than 3 s of writes after the lowering")
if burst_rate < 2 * sust_rate:
    unknown("the group's own writes show no drop (%.1f then %.1f MB/s)" % (burst_rate / 1e6, sust_rate / 1e6))
for what, win in (("before", pre), ("after", post)):
    if spread(win) > 0.25:
        unknown("the group's rate %s the lowering is unsteady (1 s windows %s MB/s, spread %.0f%%)" % (
            what, " ".join("%.1f" % (w / 1e6) for w in win), 100 * spread(win)))
print(miss)
sys.exit(1)
PY
}
name="burst bytes within 10% of the bytes before the lowering, sustained within 10% of the rate after it"
# Up to two tries: a pass ends it. A miss is retried once too (one CI run
# beside load 11 saw a last 1 s sample of 4 MB/s after five of 9-10 that the
# group's counter did not show, sustained 8.8 against 10.18); a product that
# gets it wrong misses both. Then: any miss fails (naming the last one), two
# unknown truths skip.
missed=""
for n in 1 2; do
	try $n; prc=$?
	grep '^#' "$B/check.$n"
	[ $prc -eq 0 ] && break
	[ $prc -eq 2 ] || missed="$(grep -v '^#' "$B/check.$n")"
	echo "# try $n: $(grep -v '^#' "$B/check.$n")"
done
if [ $prc -eq 0 ]; then
	t_ok "$name"
elif [ -n "$missed" ]; then
	t_fail "$name" "$missed"
else
	t_skip "$name" "twice: $(grep -v '^#' "$B/check.$n")"
fi
t_summary smoke_storage_burst
