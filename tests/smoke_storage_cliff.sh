#!/bin/bash
# smoke_storage_cliff.sh — a real knee (issue #30): a simulated device
# with a cache of known size N, tests/helpers/slow_tail_fs.c, a FUSE
# filesystem over a backing directory in the test's temporary directory:
# a read below N MiB of its file is served at once, one at or beyond N
# after 1 ms, one such read at a time (a slow disk behind a cache of N
# MiB). Its files are opened direct_io, and it accepts vpsbench's O_DIRECT
# opens (the report says O_DIRECT, not buffered: no page cache on the
# way). Each size is measured 3 times (the default --storage-repeats); the
# cliff's knee must be found within one size step of N, for two N, the
# figure that showed it named; the HTML page's knee marker stands on that
# size. Root, /dev/fuse,
# fusermount3 and libfuse3-dev (pkg-config fuse3) needed; skips cleanly
# without them.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BIN=${BIN:-./build/san/vpsbench}
skip() { t_skip "storage cliff" "$1"; t_summary smoke_storage_cliff; exit 0; }
t_is_root || skip "needs root (FUSE mount)"
[ -c /dev/fuse ] || skip "no /dev/fuse"
command -v fusermount3 >/dev/null || skip "no fusermount3 (apt-get install fuse3)"
pkg-config --exists fuse3 2>/dev/null || skip "no libfuse3-dev (pkg-config fuse3)"
B=$(t_tmpdir)
unmount() { # N: the simulated device of N, and its daemon
	if mountpoint -q "$B/mnt$1" 2>/dev/null; then
		fusermount3 -u "$B/mnt$1" 2>/dev/null || umount -l "$B/mnt$1" 2>/dev/null
	fi
	if [ -s "$B/fpid$1" ]; then
		kill "$(cat "$B/fpid$1")" 2>/dev/null
		# (not this shell's child when run_n ran in the background: wait for it by pid)
		for _ in $(seq 50); do kill -0 "$(cat "$B/fpid$1")" 2>/dev/null || break; sleep 0.1; done
		rm -f "$B/fpid$1"
	fi
}
cleanup() {
	unmount 16; unmount 32
	rm -rf "$B"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# shellcheck disable=SC2046
if ! cc -O2 -std=gnu11 -Wall -Wextra -Werror tests/helpers/slow_tail_fs.c \
	$(pkg-config --cflags --libs fuse3) -o "$B/slow_tail_fs" 2>"$B/cc.err"; then
	t_fail "build slow_tail_fs" "$(head -c 400 "$B/cc.err")"
	t_summary smoke_storage_cliff
	exit 1
fi
SIZES=8M,16M,32M,64M

run_n() { # N_MiB: the knee is expected at the last step <= N
	local n=$1 m="$B/mnt$1"
	mkdir -p "$B/back$n" "$m"
	"$B/slow_tail_fs" --backing "$B/back$n" --fast-mib "$n" --delay-us 1000 "$m" -f \
		2>"$B/fs$n.err" &
	echo $! > "$B/fpid$n"
	for _ in $(seq 1 100); do
		mountpoint -q "$m" && break
		sleep 0.1
	done
	mountpoint -q "$m" || { echo "# slow_tail_fs did not mount: $(head -c 300 "$B/fs$n.err")"; return 1; }
	$BIN --profile storage --only cache --dir "$m" --storage-sizes $SIZES \
		--storage-point-time 500ms --storage-max-time 60s --storage-write-size 32M \
		--output "$B/r$n.json" --html "$B/r$n.html" --quiet >"$B/o$n" 2>"$B/e$n"
	echo "# vpsbench exit $?; $(head -c 300 "$B/e$n")"
	[ -z "$(ls -A "$B/back$n")" ] || { echo "# test files left: $(ls -A "$B/back$n")"; return 1; }
	python3 - "$B/r$n.json" "$n" "$B/r$n.html" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["storage"]; n = int(sys.argv[2]) << 20
page = open(sys.argv[3]).read()
for p in r["cliff"]:
    print("# %dM %s %.0f IOPS (%.0f-%.0f) p50 %.0f us p99 %.0f us, %d runs" % (p["size"] >> 20, p["status"],
          p["qd32_iops"] or 0, p["qd32_iops_min"] or 0, p["qd32_iops_max"] or 0, (p["qd1_p50_ns"] or 0) / 1e3,
          (p["qd1_p99_ns"] or 0) / 1e3, len(p["repeats"])))
sizes = [p["size"] for p in r["cliff"] if p["status"] == "ok"]
truth = max(i for i, s in enumerate(sizes) if s <= n)
k = r["knee_size"]
print("# N %dM: knee %s by %s, truth %dM; %s repeats, warm %s" % (n >> 20, k and k >> 20, r["knee_by"],
      sizes[truth] >> 20, r["repeats"], r["warm"]))
ok = k is not None and abs(sizes.index(k) - truth) <= 1
# every size measured as often as asked (3 by default), and the figure that showed the knee named
# (the size after the cache is half served by it: its qd1 p50 can sit on either side, so which
# figure shows the knee first may vary; that one does is the check)
if r["repeats"] != 3 or len(sizes) != 4 or any(len(p["repeats"]) != 3 for p in r["cliff"]):
    print("# repeats: %s asked, %s done" % (r["repeats"], [len(p["repeats"]) for p in r["cliff"]])); ok = False
if r["knee_by"] not in ("iops", "latency", "both"):
    print("# knee_by %s" % r["knee_by"]); ok = False
# the HTML marker carries the knee's size
m = re.search(r'class="avg knee" data-size="(\d+)"', page)
if not m or int(m.group(1)) != k:
    print("# html knee marker %s, JSON knee %s" % (m and m.group(1), k)); ok = False
sys.exit(0 if ok else 1)
PY
}
# the two devices side by side: a delayed read is 1 ms against a fast one's
# microseconds, a contrast a busy machine does not blur
for n in 16 32; do
	{ run_n $n > "$B/log$n" 2>&1; echo $? > "$B/rc$n"; unmount $n; } &
done
wait
for n in 16 32; do
	cat "$B/log$n"
	t_check "knee within one step of N=${n}M" [ "$(cat "$B/rc$n")" = 0 ]
done
t_summary smoke_storage_cliff
