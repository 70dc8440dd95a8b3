#!/bin/bash
# vs-stream.sh — benchmark (not part of make test): vpsbench's mem module
# against Debian's likwid-bench (package likwid) and sysbench memory.
#
# What each side counts per element (so the ratio compares like with like):
#   vpsbench (STREAM's rule)  Copy c=a 2 words = 16 B; Triad a=b+s*c 3 words = 24 B
#                             decimal MB/s; "best" = STREAM's best of 10 reps
#                             after a first one (the reported figure), "mean" =
#                             bytes / the mean time of the same 10 reps
#   likwid-bench              "MByte/s" from its data volume: copy 16 B/element
#                             (1 load + 1 store), stream 24 B/element (2 loads +
#                             1 store); no write-allocate traffic, like STREAM.
#                             Kernels: stream, stream_sse, stream_avx = STREAM's
#                             triad (A = B*s + C); copy, copy_avx = copy. Compared
#                             with the best of them (the highest median figure).
#                             -w N:SIZE:T takes the working set of all streams:
#                             3 x array for triad, 2 x array for copy, so each
#                             array is as long as vpsbench's. Its figure is the
#                             volume of all its iterations (it runs >= 1 s) over
#                             their total time: a mean, so "mean" is the like-
#                             for-like ratio and "best" shows what STREAM's rule
#                             adds on this host.
#   sysbench memory           MiB/s = events x 1 MiB / 2^20 / s, one 1 MiB block
#                             (global scope) passed over with 8-byte loads/stores,
#                             --threads=1 as ecs/LemonBench run it; vpsbench's
#                             "sysbench-style" figure does the same.
#
# Order: this host's memory bandwidth drifts by 10-40% over tens of seconds,
# more than the targets allow, so the runs are short and tightly interleaved:
# vpsbench runs only the part compared (--mem-tests stream / sysbench), and
# every peer run sits between two vpsbench runs, V P V P V ...; each peer
# figure is divided by the mean of the vpsbench runs just before and after it
# (a linear drift cancels). Every round goes through all peer kernels (the
# order reversed every other round); the tables give per-kernel medians.
# Like with like: every 1-thread figure of both sides runs on the same CPU,
# vpsbench's single_cpu; N-thread runs take the first N CPUs on both sides.
# Then the latency targets: 3 runs of --mem-tests latency, the DRAM plateau
# (past 4x LLC, huge pages) of each, spread around their median (target
# +-10%) and DRAM / L1 (target >= 3).
#
# Usage: tests/compare/vs-stream.sh; PAIRS=N rounds (default 5), SB_PAIRS
# (sysbench pairs, default 10), MEM_SIZE (per array, default: what vpsbench
# picks, 4x LLC), THREADS (default: usable CPUs). Targets: 0.95-1.05.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
[ "${PAIRS:-5}" -ge 3 ] 2>/dev/null || { echo "vs-stream: PAIRS must be >= 3" >&2; exit 1; }
[ -x "$VPSBENCH" ] || { echo "vs-stream: $VPSBENCH not built (run make)" >&2; exit 1; }
for t in likwid-bench sysbench taskset python3; do
	command -v $t >/dev/null || { echo "vs-stream: needs $t (apt-get install likwid sysbench python3)" >&2; exit 1; }
done
echo "vs-stream: $("$VPSBENCH" --version | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
exec python3 - "$VPSBENCH" "${PAIRS:-5}" "${SB_PAIRS:-10}" "${THREADS:-$(nproc)}" "${MEM_SIZE:-}" <<'EOF'
import json, os, re, statistics, subprocess, sys

vps, pairs, sb_pairs, threads, mem_size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
size_opt = ["--mem-size", mem_size] if mem_size else []

def load():
    return open("/proc/loadavg").read().split()[0]

def vpsbench(tests, extra=()):
    out = subprocess.run([vps, "--only", "mem", "--mem-tests", tests, "--mem-threads", str(threads),
                          "--json", "--quiet", *size_opt, *extra],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("vs-stream: vpsbench failed: " + out.stderr.strip()[:300])
    return json.loads(out.stdout)["mem"]

def stream_figs(m):
    """{(op, threads): (best MB/s, mean MB/s)} of one vpsbench run"""
    f = {}
    for r in m["stream"]:
        for op in ("triad", "copy"):
            k = r["kernels"][op]
            f[(op, r["threads"])] = (k["mbps"], k["mbps"] * k["min_s"] / k["avg_s"])
    return f

def likwid(kernel, nbytes, t, cpu1):
    pin = ["taskset", "-c", str(cpu1)] if t == 1 else []
    out = subprocess.run([*pin, "likwid-bench", "-t", kernel, "-w", "N:%dB:%d" % (nbytes, t)],
                         capture_output=True, text=True).stdout
    m = re.search(r"^MByte/s:\s*([0-9.]+)", out, re.M)
    return float(m.group(1)) if m else None

def sysbench(op, cpu1):
    out = subprocess.run(["taskset", "-c", str(cpu1), "sysbench", "memory", "--memory-block-size=1M",
                          "--memory-total-size=100000G", "--memory-oper=" + op, "--memory-access-mode=seq",
                          "--threads=1", "--time=1", "run"], capture_output=True, text=True).stdout
    m = re.search(r"MiB transferred \(([0-9.]+) MiB/sec\)", out)
    return float(m.group(1)) if m else None

med = statistics.median

# --- STREAM: V P V P ... through every likwid kernel at N and 1 thread
v = vpsbench("stream")
arr, cpu1 = v["array_bytes"], v["single_cpu"]
if cpu1 is None:
    cpu1 = min(os.sched_getaffinity(0))
ths = sorted({1, threads})
cfgs = [(op, t, k) for t in reversed(ths) for op, ks in
        (("triad", ("stream", "stream_sse", "stream_avx")), ("copy", ("copy", "copy_avx")))
        for k in ks]
print("STREAM: %d rounds, arrays %d MiB, %s threads, 1-thread runs on CPU %d; each peer run between two vpsbench runs"
      % (pairs, arr >> 20, threads, cpu1))
peer, rbest, rmean = {c: [] for c in cfgs}, {c: [] for c in cfgs}, {c: [] for c in cfgs}
prev = stream_figs(v)
for rnd in range(pairs):
    order = cfgs if rnd % 2 == 0 else list(reversed(cfgs))
    for c in order:
        op, t, k = c
        p = likwid(k, (3 if op == "triad" else 2) * arr, t, cpu1)
        nxt = stream_figs(vpsbench("stream"))
        if p:
            b = (prev[(op, t)][0] + nxt[(op, t)][0]) / 2
            m = (prev[(op, t)][1] + nxt[(op, t)][1]) / 2
            peer[c].append(p); rbest[c].append(b / p); rmean[c].append(m / p)
        prev = nxt
    print("  round %d done (load %s): %s" % (rnd + 1, load(), "  ".join(
        "%s%d/%s %.3f" % (op[0], t, k, rmean[(op, t, k)][-1]) for op, t, k in cfgs if rmean[(op, t, k)])))

print("\nper likwid-bench kernel: its median MB/s, and median ratios vpsbench/likwid (best = reported, mean = like for like)")
head = {}
for op, t, k in cfgs:
    c = (op, t, k)
    if not peer[c]:
        print("  %-5s %d thr %-10s  no figure" % (op, t, k)); continue
    print("  %-5s %d thr %-10s  %8.0f MB/s   best %.3f  mean %.3f   (mean per round: %s)"
          % (op, t, k, med(peer[c]), med(rbest[c]), med(rmean[c]), " ".join("%.3f" % x for x in rmean[c])))
    if (op, t) not in head or med(peer[c]) > med(peer[head[(op, t)]]):
        head[(op, t)] = c
print("\nmedian ratios vpsbench / likwid-bench's best kernel (target 0.95-1.05), and over all its kernels of the op:")
for (op, t), c in sorted(head.items(), key=lambda x: (-x[0][1], x[0][0] != "triad")):
    pool = [c2 for c2 in cfgs if c2[:2] == (op, t) and peer[c2]]
    print("  %-5s %d thread%s vs %-10s  mean %.3f   best %.3f    all kernels: mean %.3f  best %.3f"
          % (op, t, "s" if t > 1 else " ", c[2], med(rmean[c]), med(rbest[c]),
             med([x for c2 in pool for x in rmean[c2]]), med([x for c2 in pool for x in rbest[c2]])))
# Past 4x LLC every kernel of an op moves the same bytes through the same
# memory, so how far likwid-bench's own kernels' medians lie apart is this
# host's noise floor for these ratios.
print("\nnoise floor: likwid-bench's fastest kernel of an op over its slowest (medians; at DRAM sizes they move the same bytes):")
for (op, t) in sorted(head, key=lambda x: (-x[1], x[0] != "triad")):
    m = [med(peer[c2]) for c2 in cfgs if c2[:2] == (op, t) and peer[c2]]
    print("  %-5s %d thread%s  %.3f" % (op, t, "s" if t > 1 else " ", max(m) / min(m)))

# --- sysbench-style: V S V S ..., read and write in each
print("\nsysbench-style: %d pairs, 1 thread on CPU %d (vpsbench 0.5 s per op, sysbench 1 s)" % (sb_pairs, cpu1))
def sbv():
    s = vpsbench("sysbench")["sysbench"]
    return s["read_mibps"], s["write_mibps"]
rr, rw, pr, pw = [], [], [], []
prev = sbv()
for i in range(sb_pairs):
    sr, sw = sysbench("read", cpu1), sysbench("write", cpu1)
    nxt = sbv()
    if sr and sw:
        pr.append(sr); pw.append(sw)
        rr.append((prev[0] + nxt[0]) / 2 / sr); rw.append((prev[1] + nxt[1]) / 2 / sw)
    prev = nxt
print("  sysbench memory: read %.0f write %.0f MiB/s (medians)" % (med(pr), med(pw)))
print("  read  vs sysbench: %.3f   (per pair: %s)" % (med(rr), " ".join("%.3f" % x for x in rr)))
print("  write vs sysbench: %.3f   (per pair: %s)" % (med(rw), " ".join("%.3f" % x for x in rw)))

# --- latency: 3 runs, the DRAM plateau on huge pages (the 4 KiB points are page walks)
print("\nlatency: DRAM plateau (huge pages) of 3 runs:")
d, l1 = [], []
for i in range(3):
    c = [x for x in vpsbench("latency")["latency"] if x["pages"] == "huge"][0]["levels_ns"]
    d.append(c["DRAM"]); l1.append(c["L1"])
print("  DRAM ns:", ", ".join("%.1f" % x if x else "-" for x in d), "  L1 ns:", ", ".join("%.2f" % x if x else "-" for x in l1))
dv = [x for x in d if x]
if len(dv) == 3:
    m = med(dv)
    print("  spread around the median: %+.1f%% .. %+.1f%% (target within +-10%%)" % ((min(dv) / m - 1) * 100, (max(dv) / m - 1) * 100))
    lv = [x for x in l1 if x]
    if lv:
        print("  DRAM / L1: %.1f (target >= 3)" % (m / med(lv)))
else:
    print("  ! a run had no DRAM plateau (arrays capped below 4x LLC?)")
print("load at the end: %s" % load())
EOF
