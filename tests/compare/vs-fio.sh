#!/bin/bash
# vs-fio.sh — vpsbench against fio 3.33, side by side, alternating runs
# (vpsbench, fio defaults, fio configured like vpsbench; repeated PAIRS
# times) with identical parameters. A benchmark, not a test: make test
# does not run it. See tests/compare/README.md.
#
# Scenarios (SCENARIOS="a b c d"):
#   a  tmpfs (root only; O_DIRECT works on tmpfs since Linux 6.6): 4k
#      randread qd$QD, 1 job — the tool-overhead ceiling
#   b  the disk under $PWD, same parameters
#   c  the disk, yabs.sh's 4k pass: vpsbench --engine auto with a
#      one-pass yabs profile file vs yabs.sh's exact fio command
#   d  peak RSS at jobs=2 qd64 (tmpfs when root, else the disk)
#
# THROTTLE_IOPS=N (root, cgroup v1 blkio): scenario c runs in a blkio
# cgroup that caps the disk at N read and N write IOPS, so the device,
# not either tool's CPU, is the limit: where both reach the cap they
# measure the same thing, and a gap above it is a tool's own ceiling.
#
# Env knobs: RUNTIME (s, 5), RAMP (s, 1), SIZE (256M), PAIRS (3), QD (32),
# BATCH (fio's iodepth_batch for "fio like vpsbench"; default 4),
# YABS_RUNTIME (s, 10), YABS_SIZE (1G), RSS_RUNTIME (s, 3),
# ENGINES ("io_uring libaio"), SCENARIOS ("a b c d"), THROTTLE_IOPS (unset),
# VPSBENCH (the repo's ./vpsbench), FIO (fio).
set -u

RUNTIME=${RUNTIME:-5}
RAMP=${RAMP:-1}
SIZE=${SIZE:-256M}
PAIRS=${PAIRS:-3}
QD=${QD:-32}
# vpsbench submits and reaps in batches of at most 4 (the engines' batch):
# fio's iodepth_batch_submit = iodepth_batch_complete_max = 4.
BATCH=${BATCH:-4}
YABS_RUNTIME=${YABS_RUNTIME:-10}
YABS_SIZE=${YABS_SIZE:-1G}
RSS_RUNTIME=${RSS_RUNTIME:-3}
ENGINES=${ENGINES:-io_uring libaio}
THROTTLE_IOPS=${THROTTLE_IOPS:-}
BLKIO=/sys/fs/cgroup/blkio
CG=""
SCENARIOS=${SCENARIOS:-a b c d}
VPSBENCH=${VPSBENCH:-$(dirname "$0")/../../vpsbench}
FIO=${FIO:-fio}
TIME_BIN=/usr/bin/time

die() { echo "vs-fio.sh: $*" >&2; exit 1; }

command -v "$FIO" >/dev/null || die "fio not found (apt-get install fio)"
command -v python3 >/dev/null || die "python3 not found"
[ -x "$TIME_BIN" ] || die "$TIME_BIN not found (apt-get install time)"
[ -x "$VPSBENCH" ] || die "$VPSBENCH not found or not executable (run make, or set VPSBENCH)"
case "$PAIRS" in ''|*[!0-9]*) die "PAIRS must be a number, not '$PAIRS'" ;; esac
case "$THROTTLE_IOPS" in *[!0-9]*) die "THROTTLE_IOPS must be a number, not '$THROTTLE_IOPS'" ;; esac
if [ -n "$THROTTLE_IOPS" ] && { [ "$(id -u)" -ne 0 ] || [ ! -d "$BLKIO" ]; }; then
	die "THROTTLE_IOPS needs root and the cgroup v1 blkio controller at $BLKIO"
fi
SIZE_B=$(numfmt --from=iec "$SIZE") || die "bad SIZE '$SIZE' (e.g. 256M)"
YABS_SIZE_B=$(numfmt --from=iec "$YABS_SIZE") || die "bad YABS_SIZE '$YABS_SIZE' (e.g. 1G)"

LOG=$(mktemp -d "${TMPDIR:-/tmp}/vs-fio-log.XXXXXX") || die "mktemp -d failed"
# A private copy: other people's rebuilds must not swap the binary mid-run.
cp "$VPSBENCH" "$LOG/vpsbench" || die "cannot copy $VPSBENCH to $LOG"
VPSBENCH=$LOG/vpsbench
TMPFS=""
TMPFS_MOUNTED=0
DISK=""

# This shell (and so every tool it starts) into a blkio cgroup capping the
# whole disk under $1 at $THROTTLE_IOPS read and write IOPS.
throttle_on() {
	local src parent majmin
	src=$(findmnt -no SOURCE -T "$1") || die "findmnt $1 failed"
	parent=$(lsblk -no PKNAME "$src" 2>/dev/null | head -n 1)
	[ -n "$parent" ] && src=/dev/$parent
	majmin=$(lsblk -dno MAJ:MIN "$src" 2>/dev/null | tr -d ' ')
	[ -n "$majmin" ] || die "THROTTLE_IOPS: $1 is on $src, not a block device blkio can throttle"
	CG=$BLKIO/vs-fio.$$
	mkdir "$CG" || die "mkdir $CG failed"
	if ! { echo "$majmin $THROTTLE_IOPS" >"$CG/blkio.throttle.read_iops_device" &&
	       echo "$majmin $THROTTLE_IOPS" >"$CG/blkio.throttle.write_iops_device" &&
	       echo $$ >"$CG/cgroup.procs"; }; then
		die "cannot throttle $majmin in $CG"
	fi
	echo "    throttled: blkio cgroup $CG, device $majmin ($src), $THROTTLE_IOPS read + $THROTTLE_IOPS write IOPS"
}

throttle_off() {
	[ -n "$CG" ] || return 0
	echo $$ >"$BLKIO/cgroup.procs"
	rmdir "$CG" || echo "vs-fio.sh: rmdir $CG failed; left behind" >&2
	CG=""
}

cleanup() {
	local i
	throttle_off
	if [ "$TMPFS_MOUNTED" = 1 ]; then
		# io_uring drops its file references asynchronously: retry briefly.
		for i in 1 2 3 4 5; do
			umount "$TMPFS" 2>/dev/null && { TMPFS_MOUNTED=0; break; }
			sleep 1
		done
		[ "$TMPFS_MOUNTED" = 0 ] || echo "vs-fio.sh: umount $TMPFS failed; left mounted" >&2
	fi
	[ "$TMPFS_MOUNTED" = 0 ] || TMPFS=""
	[ -n "$TMPFS" ] && rm -rf "$TMPFS"
	[ -n "$DISK" ] && rm -rf "$DISK"
	rm -rf "$LOG"
}
trap cleanup EXIT
trap 'echo "vs-fio.sh: interrupted" >&2; exit 130' INT TERM HUP

RES=$LOG/results.tsv
: >"$RES"

# --- the parser: python3 stdlib only ---
cat >"$LOG/vsfio.py" <<'PYEOF'
import json, statistics, sys

NA = "NA"

def num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None

def load(path):
    try:
        with open(path) as f:
            txt = f.read()
    except OSError:
        return None
    # fio may print notes before the JSON object.
    i = txt.find("{")
    if i < 0:
        return None
    try:
        return json.loads(txt[i:])
    except ValueError:
        return None

def pct(d, key):
    p = (d or {}).get("clat_ns", {}) or {}
    p = p.get("percentile") or {}
    return num(p.get(key))

def out(fields):
    print("\t".join(NA if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))
                    for v in fields))

def fio_json(path):
    j = load(path)
    try:
        job = j["jobs"][0]
    except (TypeError, KeyError, IndexError):
        out([None] * 6); return
    rd, wr = job.get("read", {}), job.get("write", {})
    iops = (num(rd.get("iops")) or 0) + (num(wr.get("iops")) or 0)
    ios = (num(rd.get("total_ios")) or 0) + (num(wr.get("total_ios")) or 0)
    rt = num(job.get("job_runtime"))
    usr, sys_ = num(job.get("usr_cpu")), num(job.get("sys_cpu"))
    cpu = (usr + sys_) / 100.0 * rt / 1000.0 if None not in (usr, sys_, rt) else None
    # Reads are the latency figure (randread); randrw would need both.
    out([iops or None, pct(rd, "50.000000"), pct(rd, "99.000000"), cpu, ios or None, "fio"])

def fio_terse(path):
    # yabs.sh: awk -F';' '{print $8}' (read IOPS) and $49 (write IOPS).
    try:
        with open(path) as f:
            line = [l for l in f if l.count(";") > 50][-1]
        fl = line.strip().split(";")
        r, w = float(fl[7]), float(fl[48])
        out([r + w, None, None, None, None, "fio"])
    except (OSError, IndexError, ValueError):
        out([None] * 6)

def vps_json(path):
    j = load(path) or {}
    rand = j.get("rand") or (j.get("modules") or {}).get("rand") or {}
    try:
        p = rand["passes"][0]
        rd = p["read"]
    except (TypeError, KeyError, IndexError):
        why = "no JSON report"
        if isinstance(rand, dict) and rand.get("status"):
            why = f"{rand.get('status')}: {rand.get('reason', '')}"
        out([None] * 5 + [why.replace("\t", " ")])
        return
    wr = p.get("write") or {}
    iops = (num((rd or {}).get("iops")) or 0) + (num(wr.get("iops")) or 0)
    ios = (num((rd or {}).get("total_ios")) or 0) + (num(wr.get("total_ios")) or 0)
    rt = num(p.get("runtime_ms"))
    if not ios and iops and rt:
        ios = iops * rt / 1000.0
    c = p.get("cpu") or {}
    usr, sys_ = num(c.get("usr_pct")), num(c.get("sys_pct"))
    # vpsbench's % is per job thread (as fio's) over one runtime; fio's
    # group_reporting job_runtime is already the sum over jobs.
    jobs = num(p.get("jobs")) or 1
    cpu = ((usr + sys_) / 100.0 * rt / 1000.0 * jobs
           if None not in (usr, sys_, rt) else None)
    eng = p.get("engine") or rand.get("engine") or "?"
    if len(rand["passes"]) != 1:  # process CPU / RSS would cover other passes too
        eng += f" ({len(rand['passes'])} passes!)"
    out([iops or None, pct(rd, "50.000000"), pct(rd, "99.000000"), cpu, ios or None, eng])

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def f(x, scale=1.0, nd=1):
    return "-" if x is None else f"{x / scale:.{nd}f}"

def r(x):
    return "-" if x is None else f"{x:.3f}"

def report(path):
    rows = []
    with open(path) as fh:
        for line in fh:
            c = line.rstrip("\n").split("\t")
            if len(c) < 13:
                continue
            vals = [None if v == NA else float(v) for v in c[4:11]]
            rows.append(dict(sc=c[0], eng=c[1], tool=c[2], pair=int(c[3]),
                             iops=vals[0], p50=vals[1], p99=vals[2], cpu=vals[3],
                             ios=vals[4], rss=vals[5], pcpu=vals[6], note=c[11], used=c[12]))
    for r_ in rows:
        if r_["iops"] is None:  # a failed run: its RSS or CPU compares nothing
            for k in ("p50", "p99", "cpu", "ios", "rss", "pcpu"):
                r_[k] = None
        r_["cpum"] = (r_["cpu"] / r_["ios"] * 1e6
                      if r_["cpu"] is not None and r_["ios"] else None)
    metrics = [("IOPS", "iops", 1.0, 0), ("clat p50 (us)", "p50", 1e3, 1),
               ("clat p99 (us)", "p99", 1e3, 1), ("CPU s / M I/O", "cpum", 1.0, 2),
               ("process CPU s", "pcpu", 1.0, 2), ("peak RSS (MiB)", "rss", 1024.0, 1)]
    groups = []
    for r_ in rows:
        k = (r_["sc"], r_["eng"])
        if k not in groups:
            groups.append(k)
    for sc, eng in groups:
        g = [x for x in rows if x["sc"] == sc and x["eng"] == eng]
        tools = []
        for x in g:
            if x["tool"] not in tools:
                tools.append(x["tool"])
        others = [t for t in tools if t != "vpsbench"]
        used = sorted({x["used"] for x in g if x["tool"] == "vpsbench"})
        print(f"\n[{sc}] engine {eng}" + (f" (vpsbench used: {', '.join(used)})" if used else "")
              + f", {len(set(x['pair'] for x in g))} rounds")
        hdr = f"  {'metric':<16}" + "".join(f"{t:>13}" for t in tools)
        hdr += "".join(f"{'vps/' + t[4:] if t.startswith('fio-') else t:>13}" for t in others)
        print(hdr)
        for label, key, scale, nd in metrics:
            by = {t: {x["pair"]: x[key] for x in g if x["tool"] == t} for t in tools}
            if all(v is None for t in tools for v in by[t].values()):
                continue
            line = f"  {label:<16}" + "".join(f"{f(med(by[t].values()), scale, nd):>13}" for t in tools)
            for t in others:
                # Median of per-round ratios: each round ran back to back.
                rat = [by["vpsbench"].get(p) / v for p, v in by[t].items()
                       if v and by.get("vpsbench", {}).get(p) is not None]
                line += f"{r(med(rat)):>13}"
            print(line)
        bad = [x for x in g if x["iops"] is None]
        for x in bad:
            print(f"  ! {x['tool']} round {x['pair']}: no result ({x['note']}; {x['used']})")

if __name__ == "__main__":
    {"fio-json": fio_json, "fio-terse": fio_terse, "vps-json": vps_json,
     "report": report}[sys.argv[1]](sys.argv[2])
PYEOF

# run_one SCENARIO ENGINE TOOL PAIR PARSER CMD... : runs CMD under
# /usr/bin/time, parses its stdout and appends one row to $RES.
run_one() {
	local sc=$1 eng=$2 tool=$3 pair=$4 parser=$5 tag rc rss usr sys_ pcpu parsed note
	shift 5
	tag="$LOG/$sc-$eng-$tool-$pair"
	"$TIME_BIN" -f '%M %U %S' -o "$tag.time" "$@" >"$tag.out" 2>"$tag.err"
	rc=$?
	read -r rss usr sys_ < <(tail -n 1 "$tag.time" 2>/dev/null)
	case "${rss:-}" in ''|*[!0-9]*) rss=NA ;; esac
	pcpu=$(awk -v u="${usr:-x}" -v s="${sys_:-x}" 'BEGIN {
		if (u ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/) printf "%.2f", u + s; else print "NA" }')
	parsed=$(python3 "$LOG/vsfio.py" "$parser" "$tag.out")
	note="rc=$rc"
	if [ "$rc" -ne 0 ]; then
		note="rc=$rc: $(grep -v '^$' "$tag.err" | head -n 1 | tr '\t' ' ' | cut -c1-100)"
	fi
	# columns: sc eng tool pair iops p50 p99 cpu ios rss pcpu note used
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sc" "$eng" "$tool" "$pair" \
		"$(cut -f1-5 <<<"$parsed")" "$rss" "$pcpu" "$note" "$(cut -f6 <<<"$parsed")" >>"$RES"
	printf '  %-4s %-9s %-14s round %s: %s\n' "$sc" "$eng" "$tool" "$pair" \
		"$(cut -f1 <<<"$parsed") IOPS, RSS ${rss} KiB, $note" >&2
}

# layout DIR BYTES: the file fio reads, written once with random data.
layout() {
	dd if=/dev/urandom of="$1/fio.dat" bs=1M count=$(( $2 >> 20 )) conv=fsync status=none ||
		die "dd layout of $1/fio.dat failed"
}

fstype() { stat -f -c %T "$1"; }

# randread scenario: DIR SCENARIO JOBS QD RUNTIME
randread_rounds() {
	local dir=$1 sc=$2 jobs=$3 qd=$4 rt=$5 eng p like batch prof
	local common=(--name=vsfio --filename="$dir/fio.dat" --size="$SIZE_B" --rw=randread --bs=4k
		--iodepth="$qd" --numjobs="$jobs" --norandommap --randrepeat=0 --time_based
		--runtime="$rt" --ramp_time="$RAMP" --direct=1 --invalidate=1 --group_reporting
		--output-format=json)
	# One process like vpsbench when jobs > 1, so peak RSS compares.
	[ "$jobs" -gt 1 ] && common+=(--thread)
	batch=$BATCH
	[ "$sc" = d ] && batch=$qd # RSS only: the batch does not matter
	# One pass: the built-in profiles have two, and the flags override both.
	prof=$LOG/one-pass-$sc.ini
	cat >"$prof" <<-EOF
	[pass randread-4k-qd$qd]
	rw = randread
	bs = 4k
	iodepth = $qd
	jobs = $jobs
	size = $SIZE_B
	runtime = ${rt}s
	ramp = ${RAMP}s
	EOF
	for eng in $ENGINES; do
		like=(--iodepth_batch_submit="$batch" --iodepth_batch_complete_max="$batch")
		[ "$eng" = io_uring ] && like+=(--fixedbufs --registerfiles)
		for p in $(seq 1 "$PAIRS"); do
			run_one "$sc" "$eng" vpsbench "$p" vps-json "$VPSBENCH" --only rand \
				--profile "$prof" --rw randread \
				--bs 4k --iodepth "$qd" --jobs "$jobs" --engine "$eng" --size "$SIZE_B" \
				--runtime "${rt}s" --ramp "${RAMP}s" --dir "$dir" --json --quiet
			run_one "$sc" "$eng" fio-default "$p" fio-json "$FIO" --ioengine="$eng" "${common[@]}"
			run_one "$sc" "$eng" fio-like "$p" fio-json "$FIO" --ioengine="$eng" "${common[@]}" "${like[@]}"
		done
	done
}

yabs_rounds() {
	local dir=$1 p prof=$LOG/yabs-4k.ini
	# yabs's rand_rw_4k pass alone; vpsbench's file profile syntax.
	cat >"$prof" <<-EOF
	[pass rand_rw_4k]
	rw = randrw
	rwmixread = 50
	bs = 4k
	iodepth = 64
	jobs = 2
	size = $YABS_SIZE_B
	runtime = ${YABS_RUNTIME}s
	ramp = 0
	EOF
	# yabs.sh's exact command (peers.md), with size/runtime from the env.
	local yabs=(--name=rand_rw_4k --ioengine=libaio --rw=randrw --rwmixread=50 --bs=4k
		--iodepth=64 --numjobs=2 --size="$YABS_SIZE_B" --runtime="$YABS_RUNTIME" --gtod_reduce=1
		--direct=1 --filename="$dir/fio.dat" --group_reporting --minimal)
	local like=(--ioengine=io_uring --iodepth_batch_submit="$BATCH" --iodepth_batch_complete_max="$BATCH"
		--fixedbufs --registerfiles)
	for p in $(seq 1 "$PAIRS"); do
		run_one c auto vpsbench "$p" vps-json "$VPSBENCH" --only rand --engine auto \
			--profile "$prof" --dir "$dir" --json --quiet
		run_one c auto fio-yabs "$p" fio-terse "$FIO" "${yabs[@]}"
		run_one c auto fio-like "$p" fio-terse "$FIO" "${yabs[@]}" "${like[@]}"
	done
}

echo "vs-fio.sh: vpsbench $("$VPSBENCH" --version 2>/dev/null | head -n 1) vs $("$FIO" --version)"
echo "kernel $(uname -r), $(nproc) CPUs; RUNTIME=${RUNTIME}s RAMP=${RAMP}s SIZE=$SIZE PAIRS=$PAIRS QD=$QD BATCH=$BATCH"
echo "Rounds run vpsbench, fio with defaults, fio configured like vpsbench, back to back."
echo "fio reads a file laid out once with dd from /dev/urandom; vpsbench lays out its own test"
echo "file of the same size in the same directory (same filesystem). Ratios are vpsbench/fio,"
echo "the median of per-round ratios; figures are medians. CPU s/M I/O = (usr+sys)% x runtime"
echo "as each tool reports it, per million I/Os. They differ in scope: fio's is RUSAGE_THREAD of"
echo "its job threads, which leaves out io_uring's io-wq workers; vpsbench's is RUSAGE_SELF over the"
echo "pass, which counts them (on tmpfs they do the copying), so on io_uring this ratio is high"
echo "by design: compare process CPU s. Process CPU s and peak RSS: /usr/bin/time %U+%S and %M"
echo "of the whole run (ramp and setup included; vpsbench's includes laying out its file;"
echo "fio's RSS is its largest process)."
echo "fio-like: --iodepth_batch_submit=N --iodepth_batch_complete_max=N (+ --fixedbufs"
echo "--registerfiles on io_uring)."

if [ "$(id -u)" -eq 0 ]; then
	TMPFS=$(mktemp -d "${TMPDIR:-/tmp}/vs-fio-tmpfs.XXXXXX") || die "mktemp -d failed"
	if mount -t tmpfs -o size=1G tmpfs "$TMPFS"; then
		TMPFS_MOUNTED=1
	else
		echo "vs-fio.sh: mount -t tmpfs on $TMPFS failed; tmpfs scenarios skipped" >&2
	fi
fi
DISK=$(mktemp -d "$PWD/vs-fio.XXXXXX") || die "mktemp -d in $PWD failed"

for sc in $SCENARIOS; do
	case $sc in
	a)
		if [ "$TMPFS_MOUNTED" != 1 ]; then
			echo "[a] skipped: needs root to mount tmpfs"
			continue
		fi
		[ $(( SIZE_B * 2 )) -lt $(( 1000 << 20 )) ] || { echo "[a] skipped: SIZE too big for a 1G tmpfs"; continue; }
		echo "[a] tmpfs $TMPFS ($(fstype "$TMPFS")): 4k randread qd$QD, 1 job, ${RUNTIME}s + ${RAMP}s ramp"
		layout "$TMPFS" "$SIZE_B"
		randread_rounds "$TMPFS" a 1 "$QD" "$RUNTIME"
		rm -f "$TMPFS/fio.dat"
		;;
	b)
		echo "[b] disk $DISK ($(fstype "$DISK"), $(df --output=source "$DISK" | tail -n 1)): 4k randread qd$QD, 1 job, ${RUNTIME}s + ${RAMP}s ramp"
		layout "$DISK" "$SIZE_B"
		randread_rounds "$DISK" b 1 "$QD" "$RUNTIME"
		rm -f "$DISK/fio.dat"
		;;
	c)
		echo "[c] disk $DISK: yabs 4k pass, randrw 50/50 qd64 2 jobs, size $YABS_SIZE, ${YABS_RUNTIME}s, no ramp;"
		echo "    fio-yabs is yabs.sh's command (libaio, --gtod_reduce=1, not time_based: a job may end"
		echo "    early after SIZE bytes), IOPS = terse fields 8 + 49; vpsbench --engine auto; fio-like adds"
		echo "    --ioengine=io_uring --iodepth_batch_submit=$BATCH --iodepth_batch_complete_max=$BATCH --fixedbufs --registerfiles"
		layout "$DISK" "$YABS_SIZE_B"
		[ -n "$THROTTLE_IOPS" ] && throttle_on "$DISK"
		yabs_rounds "$DISK"
		throttle_off
		rm -f "$DISK/fio.dat"
		;;
	d)
		dir=$DISK
		[ "$TMPFS_MOUNTED" = 1 ] && [ $(( SIZE_B * 2 )) -lt $(( 1000 << 20 )) ] && dir=$TMPFS
		echo "[d] peak RSS: 4k randread qd64, 2 jobs (fio --thread), ${RSS_RUNTIME}s, in $dir ($(fstype "$dir"))"
		layout "$dir" "$SIZE_B"
		randread_rounds "$dir" d 2 64 "$RSS_RUNTIME"
		rm -f "$dir/fio.dat"
		;;
	*)
		echo "vs-fio.sh: unknown scenario '$sc' (a b c d)" >&2
		;;
	esac
done

echo
echo "=== results (medians; ratios vpsbench/fio, per round) ==="
python3 "$LOG/vsfio.py" report "$RES"
exit 0
