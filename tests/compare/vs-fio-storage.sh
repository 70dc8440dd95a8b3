#!/bin/bash
# vs-fio-storage.sh — the 4 GiB point of the storage profile's cache cliff
# (--profile storage --storage-sizes 4G: qd32 4k random reads after one
# warm pass) against fio's --rw=randread --bs=4k --iodepth=32 --direct=1
# --ioengine=io_uring on a 4 GiB file in the same directory (fio lays it
# out once; a sequential read pass warms it before each fio run, as
# vpsbench's warm pass does), alternately, PAIRS pairs; prints each pair,
# the medians and their ratio (target: within ±5%). vpsbench lays out its
# own 4 GiB file each run (the profile creates and unlinks its files), so
# "the same file" is the same size on the same filesystem, not the same
# inode. A benchmark, not a test: make test does not run it. See
# tests/compare/README.md.
#
#   cd /some/disk && tests/compare/vs-fio-storage.sh
#   DIR=/srv/tmp PAIRS=3 RUNTIME=10 tests/compare/vs-fio-storage.sh
#
# Env knobs: DIR (a new directory made under it and removed; default $PWD),
# RUNTIME (s per measured run, 10), PAIRS (3), VPSBENCH (the repo's ./vpsbench), FIO (fio).
set -u
RUNTIME=${RUNTIME:-10}
PAIRS=${PAIRS:-3}
VPSBENCH=${VPSBENCH:-$(dirname "$0")/../../vpsbench}
FIO=${FIO:-fio}
die() { echo "vs-fio-storage.sh: $*" >&2; exit 1; }
command -v "$FIO" >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
[ -x "$VPSBENCH" ] || die "$VPSBENCH not found or not executable (run make, or set VPSBENCH)"
case "$PAIRS$RUNTIME" in '' | *[!0-9]*) die "PAIRS and RUNTIME must be numbers" ;; esac
W=$(mktemp -d "${DIR:-$PWD}/vs-fio-storage.XXXXXX") || die "mktemp -d under ${DIR:-$PWD} failed"
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
cp "$VPSBENCH" "$W/vpsbench" || die "cannot copy $VPSBENCH"
mkdir "$W/d" || die "mkdir $W/d"
avail=$(df -B1 --output=avail "$W" | tail -1)
[ "$avail" -gt $((10 * 1024 * 1024 * 1024)) ] || die "less than 10 GiB free under $W (two 4 GiB files)"

echo "laying out fio's 4 GiB file ..."
"$FIO" --name=layout --filename="$W/fio.4g" --size=4G --rw=write --bs=1M --direct=1 \
	--refill_buffers --output="$W/layout.json" --output-format=json >/dev/null || die "fio layout failed"

vps_run() { # prints the 4 GiB point's qd32 IOPS
	"$W/vpsbench" --profile storage --only cache --dir "$W/d" --storage-sizes 4G \
		--storage-point-time "${RUNTIME}s" --storage-max-time $((RUNTIME * 6 + 60))s \
		--output "$W/v.json" --quiet >/dev/null 2>"$W/v.err" || { cat "$W/v.err" >&2; return 1; }
	python3 -c '
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["storage"]["cliff"] if p["size"] == 4 << 30][0]
assert p["status"] == "ok", p
print("%.0f" % p["qd32_iops"])' "$W/v.json"
}
fio_run() { # [extra fio options]
	"$FIO" --name=warm --filename="$W/fio.4g" --size=4G --rw=read --bs=1M --direct=1 \
		--output=/dev/null >/dev/null || return 1
	"$FIO" --name=r --filename="$W/fio.4g" --size=4G --rw=randread --bs=4k --iodepth=32 \
		--direct=1 --ioengine=io_uring --runtime="$RUNTIME" --time_based "$@" \
		--output="$W/f.json" --output-format=json >/dev/null || return 1
	python3 -c '
import json, sys
print("%.0f" % json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$W/f.json"
}
# also, for information, fio submitting and reaping in batches of 4 as
# vpsbench's engines do (on a CPU-starved machine the batching alone moves
# the figure)
vs=() fs=() bs=()
printf '%-6s %14s %14s %8s %16s\n' pair "vpsbench IOPS" "fio IOPS" ratio "fio batch4 IOPS"
for i in $(seq 1 "$PAIRS"); do
	v=$(vps_run) || die "vpsbench run $i failed"
	f=$(fio_run) || die "fio run $i failed"
	b=$(fio_run --iodepth_batch_submit=4 --iodepth_batch_complete_max=4) || die "fio batch run $i failed"
	vs+=("$v") fs+=("$f") bs+=("$b")
	printf '%-6s %14s %14s %8s %16s\n' "$i" "$v" "$f" "$(python3 -c "print('%.3f' % ($v / $f))")" "$b"
done
python3 - "${vs[*]}" "${fs[*]}" <<'PY'
import statistics, sys
v = statistics.median(float(x) for x in sys.argv[1].split())
f = statistics.median(float(x) for x in sys.argv[2].split())
r = v / f
print("%-6s %14.0f %14.0f %8.3f  %s" % ("median", v, f, r, "within ±5%" if abs(r - 1) <= 0.05 else "OUTSIDE ±5%"))
PY
