#!/bin/bash
# vs-fio-storage.sh — one cache-cliff point of the storage profile (qd32 4k
# O_DIRECT random reads over SIZE after a sequential warm pass: --profile
# storage --storage-sizes SIZE --storage-repeats 1) against two fio 3.33
# configurations on a SIZE file in the same directory:
#   fio-default  --ioengine=io_uring --direct=1 --rw=randread --bs=4k
#                --iodepth=32 --numjobs=1 --time_based --runtime=N --size=SIZE
#   fio-like     the same, configured as vpsbench's io_uring engine runs
#                (core/rand_engine_uring.c, modules/cache/cache_io.c):
#                --iodepth_batch_submit=4 --iodepth_batch_complete_max=4
#                (submit what was reaped, reap 1..4 per wait), --fixedbufs
#                --registerfiles (READ_FIXED on registered buffers and file),
#                --norandommap --randrepeat=0 (offsets uniform with
#                replacement, a new seed each run, as databuf_next() % blocks)
# Counterbalanced: pair i runs vpsbench, fio-like, fio-default when i is odd
# and fio-default, fio-like, vpsbench when even (ABBA over two pairs), each
# run after SETTLE seconds; fio's warm pass (one sequential 1 MiB O_DIRECT
# read of its file) runs before each fio run as vpsbench's does before its
# point. Per run: IOPS (fio: read.total_ios / read.runtime from its JSON;
# vpsbench: the point's qd32_iops), the tool's CPU share (fio: usr_cpu +
# sys_cpu; vpsbench: the point's cpu_share when its JSON has it, else the
# busiest RUNTIME-s window of its process's CPU time, marked "win"),
# CPU-bound (>= 0.9) flagged,
# and the load (loadavg, PSI cpu/io some avg10). Per pair: vpsbench/fio-like
# and vpsbench/fio-default; then the medians (target: vpsbench/fio-like
# within ±5%). fio lays its file out once; vpsbench lays out its own (the
# profile creates and unlinks its file), so "the same file" is the same size
# on the same filesystem. A benchmark, not a test: make test does not run
# it. See tests/compare/README.md.
#
#   tests/compare/vs-fio-storage.sh
#   DIR=/srv/tmp SIZE=4G RUNTIME=10 PAIRS=5 tests/compare/vs-fio-storage.sh
#
# Env knobs: DIR (a new directory is made under it and removed; default
# /var/tmp; never a block device), SIZE (working set, 1G), RUNTIME (s per
# measured run, 5), PAIRS (5), SETTLE (s idle before each run, 3),
# VPSBENCH (the repo's ./vpsbench), FIO (fio).
set -u
SIZE=${SIZE:-1G}
RUNTIME=${RUNTIME:-5}
PAIRS=${PAIRS:-5}
SETTLE=${SETTLE:-3}
VPSBENCH=${VPSBENCH:-$(dirname "$0")/../../vpsbench}
FIO=${FIO:-fio}
die() { echo "vs-fio-storage.sh: $*" >&2; exit 1; }
command -v "$FIO" >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
command -v numfmt >/dev/null || die "numfmt not found (coreutils)"
[ -x "$VPSBENCH" ] || die "$VPSBENCH not found or not executable (run make, or set VPSBENCH)"
case "$PAIRS$RUNTIME$SETTLE" in '' | *[!0-9]*) die "PAIRS, RUNTIME and SETTLE must be whole numbers" ;; esac
[ "$PAIRS" -ge 1 ] && [ "$RUNTIME" -ge 1 ] || die "PAIRS and RUNTIME must be at least 1"
BYTES=$(numfmt --from=iec "$SIZE" 2>/dev/null) || die "SIZE $SIZE: not a size (1G, 512M)"
[ $((BYTES % (1 << 20))) -eq 0 ] && [ "$BYTES" -gt 0 ] || die "SIZE $SIZE: not a whole number of MiB"
W=$(mktemp -d "${DIR:-/var/tmp}/vs-fio-storage.XXXXXX") || die "mktemp -d under ${DIR:-/var/tmp} failed"
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
mkdir "$W/d" || die "mkdir $W/d"
avail=$(df -B1 --output=avail "$W" | tail -1)
# fio's file, vpsbench's file, its 64 MiB write tests, and the profile's margin
[ "$avail" -gt $((BYTES * 2 + (1 << 30))) ] || die "less than 2 x $SIZE + 1 GiB free under $W"

FIO_COMMON=(--ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=32 --numjobs=1
	--time_based --runtime="$RUNTIME" --size="$BYTES")
FIO_LIKE=(--iodepth_batch_submit=4 --iodepth_batch_complete_max=4 --fixedbufs --registerfiles
	--norandommap --randrepeat=0)
# the cliff gets 60% of --storage-max-time: layout, warm and both depths fit
# in it at 100 MB/s; the write tests after the point are capped at 64 MiB
# and 2 s (--storage-write-time, where the build honours it)
MAXT=$(((BYTES * 2 / 100000000 + RUNTIME * 2 + 20) * 10 / 6))
VPS_ARGS=(--profile storage --only cache --dir "$W/d" --storage-sizes "$((BYTES >> 20))M"
	--storage-point-time "${RUNTIME}s" --storage-repeats 1 --storage-warm seq
	--storage-max-time "${MAXT}s" --storage-write-size 64M --storage-write-time 2s)

echo "vs-fio-storage: $("$FIO" --version), $("$VPSBENCH" --version 2>&1 | head -1), $(nproc) CPUs, $W"
echo "size $SIZE ($BYTES B), $RUNTIME s per run, $PAIRS pairs, $SETTLE s settle"
echo "vpsbench ${VPS_ARGS[*]}"
echo "fio-default $FIO --name=r --filename=FILE ${FIO_COMMON[*]}"
echo "fio-like    $FIO --name=r --filename=FILE ${FIO_COMMON[*]} ${FIO_LIKE[*]}"
echo "laying out fio's $SIZE file ..."
"$FIO" --name=layout --filename="$W/fio.dat" --size="$BYTES" --rw=write --bs=1M --direct=1 \
	--refill_buffers --output="$W/layout.json" --output-format=json >/dev/null || die "fio layout failed"

# loadavg 1 min, PSI cpu and io "some" avg10 (- when the kernel has no PSI)
load_now() {
	local l c i
	read -r l _ </proc/loadavg
	c=$(sed -n 's/^some avg10=\([0-9.]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null)
	i=$(sed -n 's/^some avg10=\([0-9.]*\).*/\1/p' /proc/pressure/io 2>/dev/null)
	echo "$l ${c:--} ${i:--}"
}

# each run appends: pair tool iops cpu_share cpu_kind load1 psi_cpu psi_io
RES="$W/results.txt"
: >"$RES"

# Runs vpsbench; prints "iops cpu_share kind". Without the point's
# cpu_share in its JSON, the share is that of the busiest RUNTIME-long
# window of the process's CPU time (/proc/PID/stat every 0.2 s): the qd32
# run is the loop's busiest stretch (qd1, layout and warm pass idle more;
# the 4k random writes after it, at qd32 too, may tie), marked "win".
vps_run() {
	python3 - "$W/v.json" "$BYTES" "$RUNTIME" "$W/v.err" "$VPSBENCH" "${VPS_ARGS[@]}" \
		--output "$W/v.json" --quiet <<'PY'
import json, os, subprocess, sys, time
out, size, runtime, errf = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
tck = os.sysconf("SC_CLK_TCK")
with open(errf, "w") as err:
    p = subprocess.Popen(sys.argv[5:], stdout=subprocess.DEVNULL, stderr=err)
    samples = []
    while p.poll() is None:
        try:
            with open("/proc/%d/stat" % p.pid) as f:
                st = f.read().rsplit(")", 1)[1].split()
            samples.append((time.monotonic(), (int(st[11]) + int(st[12])) / tck))
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.2)
if p.returncode != 0:
    sys.stderr.write(open(errf).read())
    sys.exit("vpsbench exited %d" % p.returncode)
s = json.load(open(out))["storage"]
pt = [x for x in s["cliff"] if x["size"] == size]
if not pt or pt[0]["status"] != "ok":
    sys.exit("vpsbench: no ok cliff point of %d B: %s" % (size, pt and pt[0].get("reason")))
pt = pt[0]
share, kind = pt.get("cpu_share"), "point"
if share is None:
    share = ((pt.get("repeats") or [{}])[0]).get("qd32_cpu_share")
if share is None:
    share, kind, j = 0.0, "win", 0
    for i in range(len(samples)):  # busiest window of at least RUNTIME s
        while j < len(samples) and samples[j][0] - samples[i][0] < runtime:
            j += 1
        if j == len(samples):
            break
        share = max(share, (samples[j][1] - samples[i][1]) / (samples[j][0] - samples[i][0]))
print("%.0f %.3f %s" % (pt["qd32_iops"], share, kind))
PY
}

fio_run() { # extra fio options
	"$FIO" --name=warm --filename="$W/fio.dat" --size="$BYTES" --rw=read --bs=1M --direct=1 \
		--output=/dev/null >/dev/null || return 1
	"$FIO" --name=r --filename="$W/fio.dat" "${FIO_COMMON[@]}" "$@" \
		--output="$W/f.json" --output-format=json >/dev/null || return 1
	python3 - "$W/f.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r = j["read"]
print("%.0f %.3f job" % (r["total_ios"] / (r["runtime"] / 1000.0), (j["usr_cpu"] + j["sys_cpu"]) / 100.0))
PY
}

one() { # pair tool
	local out l
	sleep "$SETTLE"
	l=$(load_now)
	case $2 in
	vpsbench) out=$(vps_run) ;;
	fio-like) out=$(fio_run "${FIO_LIKE[@]}") ;;
	fio-default) out=$(fio_run) ;;
	esac || {
		# the table still prints: the pair shows "-" for what failed
		printf '%-4s %-12s %10s  ! failed (its error above)\n' "$1" "$2" -
		return 0
	}
	echo "$1 $2 $out $l" >>"$RES"
	set -- "$1" "$2" $out $l
	printf '%-4s %-12s %10s IOPS  cpu %5s (%s)%s  load %s psi cpu %s io %s\n' "$1" "$2" "$3" "$4" "$5" \
		"$(python3 -c "import sys; print('  CPU-BOUND' if float(sys.argv[1]) >= 0.9 else '')" "$4")" \
		"$6" "$7" "$8"
}

for i in $(seq 1 "$PAIRS"); do
	if [ $((i % 2)) -eq 1 ]; then order="vpsbench fio-like fio-default"; else order="fio-default fio-like vpsbench"; fi
	for t in $order; do one "$i" "$t"; done
done
# the fio command vpsbench says its figure equals, against fio-like's options
if [ -s "$W/v.json" ]; then
	python3 - "$W/v.json" "${FIO_COMMON[*]} ${FIO_LIKE[*]}" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["storage"].get("fio_equivalent")
print("vpsbench says its qd32 figure equals: %s" % (e or "(no fio_equivalent in this build's JSON)"))
if e:
    skip = ("--name=", "--filename=", "--size=", "--runtime=")
    opts = lambda s: {t for t in s.split() if t.startswith("--") and not t.startswith(skip)}
    a, b = opts(e.split(";")[0].split(" (")[0]), opts(sys.argv[2])
    print("  = fio-like's options" if a == b else "  differs from fio-like: vpsbench %s, fio-like %s" % (
        sorted(a - b), sorted(b - a)))
PY
fi

python3 - "$RES" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    runs.setdefault(int(f[0]), {})[f[1]] = (float(f[2]), float(f[3]), f[4], float(f[5]), f[6])
print("\n%-6s %10s %10s %10s %8s %8s  %-26s %s" % ("pair", "vpsbench", "fio-like", "fio-def", "v/like",
                                                  "v/def", "cpu share v / like / def", "load1, psi cpu (max)"))
rl, rd = [], []
for i in sorted(runs):
    if len(runs[i]) < 3:
        print("%-6d %s" % (i, "- (a run failed: %s only)" % ", ".join(sorted(runs[i]))))
        continue
    v, l, d = runs[i]["vpsbench"], runs[i]["fio-like"], runs[i]["fio-default"]
    rl.append(v[0] / l[0]); rd.append(v[0] / d[0])
    flag = " CPU-BOUND" if max(v[1], l[1], d[1]) >= 0.9 else ""
    psi = [float(x[4]) for x in (v, l, d) if x[4] != "-"]
    share = "%.2f%s / %.2f / %.2f%s" % (v[1], "" if v[2] == "point" else "(%s)" % v[2], l[1], d[1], flag)
    print("%-6d %10.0f %10.0f %10.0f %8.3f %8.3f  %-26s %.2f, %s" % (
        i, v[0], l[0], d[0], rl[-1], rd[-1], share, max(v[3], l[3], d[3]),
        "%.0f%%" % max(psi) if psi else "-"))
if not rl:
    sys.exit("no complete pair")
full = [i for i in runs if len(runs[i]) == 3]
med = lambda k, j: statistics.median(runs[i][k][j] for i in full)
ml = statistics.median(rl)
print("%-6s %10.0f %10.0f %10.0f %8.3f %8.3f  %.2f / %.2f / %.2f" % (
    "median", med("vpsbench", 0), med("fio-like", 0), med("fio-default", 0), ml, statistics.median(rd),
    med("vpsbench", 1), med("fio-like", 1), med("fio-default", 1)))
print("vpsbench / fio-like: median of the pair ratios %.3f, %s (target ±5%%); range %.3f-%.3f" % (
    ml, "within ±5%" if abs(ml - 1) <= 0.05 else "OUTSIDE ±5%", min(rl), max(rl)))
PY
