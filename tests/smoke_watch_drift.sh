#!/bin/bash
# run-all: alone (see tests/run-all.sh): latencies against a baseline need the machine to itself
# smoke_watch_drift.sh — root, cgroup v1: `vpsbench watch` drift gauges flip
# and flip back. A loop device with ext4 is --dir; the watcher's blkio
# cgroup gets blkio.throttle.read_iops_device on it mid-run, and the
# randread degraded gauge must turn 1 within a few rounds of K, then 0
# after the throttle is removed. A cpu cgroup quota (cpu.cfs_quota_us) with
# a busy loop beside the watcher in it does the same for prime and
# wake-up. The baseline is this machine's own (a short first watch on the
# same device) so load from elsewhere does not decide it. Skips cleanly
# without root, cgroup v1 blkio/cpu, or a loop device.
. tests/lib.sh
tmp=$(t_tmpdir)
cg_blk=; cg_cpu=; loopdev=; mnt=; W=; busy=
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	[ -n "$W" ] && kill "$W" 2>/dev/null
	wait 2>/dev/null
	[ -n "$cg_blk" ] && rmdir "$cg_blk" 2>/dev/null
	[ -n "$cg_cpu" ] && rmdir "$cg_cpu" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! t_is_root; then t_skip watch_drift "needs root"; t_summary smoke_watch_drift; exit 0; fi
if [ ! -d /sys/fs/cgroup/blkio ] || [ ! -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	t_skip watch_drift "no cgroup v1 blkio and cpu controllers"; t_summary smoke_watch_drift; exit 0
fi
truncate -s 300M "$tmp/img"
if ! loopdev=$(losetup -f --show "$tmp/img" 2>/dev/null); then
	loopdev=; t_skip watch_drift "no loop device"; t_summary smoke_watch_drift; exit 0
fi
mkfs.ext4 -q "$loopdev" && mnt="$tmp/mnt" && mkdir -p "$mnt" && mount "$loopdev" "$mnt" || { t_fail watch_drift_setup mkfs; exit 1; }
majmin=$(lsblk -dno MAJ:MIN "$loopdev" | tr -d ' ')
K=3
COMMON=(--every 300ms --probe-time 200ms --budget 100 --max-load 100000 --max-cpu 100 --max-psi 100
	--listen none --window $K --margin 2 --dir "$mnt")

# this machine's own baseline: the fixture report with the figures of 5 unthrottled rounds
sd0="$tmp/calib"; mkdir -p "$sd0"
"$VPSBENCH" watch --state-dir "$sd0" --baseline tests/fixtures/watch/baseline.json --rounds 5 "${COMMON[@]}" 2>/dev/null
python3 - "$sd0/history.jsonl" tests/fixtures/watch/baseline.json "$tmp/base.json" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda k, f: statistics.median(r["probes"][k][f] for r in rows if r["probes"][k]["status"] == "ok")
b = json.load(open(sys.argv[2]))
b["metrics"]["lat_p99_ms"] = med("randread", "p99_us") / 1000
b["metrics"]["fsync_p99_ms"] = med("fsync", "p99_us") / 1000
b["metrics"]["cpu_single_eps"] = med("prime", "events_per_s")
b["metrics"]["mem_latency_huge_ns"] = med("dram", "ns")
json.dump(b, open(sys.argv[3], "w"))
PY

sd="$tmp/state"; mkdir -p "$sd"
"$VPSBENCH" watch --state-dir "$sd" --baseline "$tmp/base.json" --prom-file "$tmp/w.prom" "${COMMON[@]}" 2>"$tmp/w.err" &
W=$!
gauge() { awk -v m="vpsbench_watch_degraded{metric=\"$1\"}" '$1 == m {print $2}' "$tmp/w.prom" 2>/dev/null; }
rounds() { awk '/^vpsbench_watch_rounds_total/ {print $2}' "$tmp/w.prom" 2>/dev/null; }
# wait_gauge METRIC VALUE MAXROUNDS: true when the gauge reads VALUE within MAXROUNDS rounds
wait_gauge() {
	local r0; r0=$(rounds); r0=${r0:-0}
	while kill -0 $W 2>/dev/null; do
		[ "$(gauge "$1")" = "$2" ] && { echo $(( $(rounds) - r0 )); return 0; }
		[ "$(( $(rounds || echo 0) - r0 ))" -gt "$3" ] && return 1
		sleep 0.2
	done
	return 1
}
for _ in $(seq 100); do [ "$(rounds)" ] && [ "$(rounds)" -ge $((K + 1)) ] && break; sleep 0.2; done
[ "$(gauge randread_p99_us)" = 0 ] && t_ok drift_randread_starts_ok || t_fail drift_randread_starts_ok "gauge=$(gauge randread_p99_us) $(tail -3 "$tmp/w.err")"

cg_blk=/sys/fs/cgroup/blkio/vpsbench-watch-test-$$
mkdir "$cg_blk" && echo $W > "$cg_blk/cgroup.procs"
echo "$majmin 20" > "$cg_blk/blkio.throttle.read_iops_device"
n=$(wait_gauge randread_p99_us 1 $((3 * K))) && t_ok "drift_randread_degraded_under_blkio_throttle (after $n rounds, K=$K)" \
	|| t_fail drift_randread_degraded_under_blkio_throttle "gauge=$(gauge randread_p99_us) $(tail -3 "$tmp/w.err")"
echo "$majmin 0" > "$cg_blk/blkio.throttle.read_iops_device"
n=$(wait_gauge randread_p99_us 0 $((3 * K))) && t_ok "drift_randread_recovers_without_throttle (after $n rounds)" \
	|| t_fail drift_randread_recovers_without_throttle "gauge=$(gauge randread_p99_us)"
echo $W > /sys/fs/cgroup/blkio/cgroup.procs
rmdir "$cg_blk" && cg_blk=

# CPU quota 0.1 CPU, with a busy loop in the same cgroup eating it
for _ in $(seq 100); do [ -n "$(gauge wakeup_p99_us)" ] && break; sleep 0.2; done
cg_cpu=/sys/fs/cgroup/cpu/vpsbench-watch-test-$$
mkdir "$cg_cpu" && echo 100000 > "$cg_cpu/cpu.cfs_period_us" && echo 10000 > "$cg_cpu/cpu.cfs_quota_us"
echo $W > "$cg_cpu/cgroup.procs"
sh -c 'while :; do :; done' & busy=$!
echo $busy > "$cg_cpu/cgroup.procs"
n=$(wait_gauge prime_events_per_s 1 $((3 * K))) && t_ok "drift_prime_degraded_under_cpu_quota (after $n rounds)" \
	|| t_fail drift_prime_degraded_under_cpu_quota "gauge=$(gauge prime_events_per_s)"
n=$(wait_gauge wakeup_p99_us 1 $((3 * K))) && t_ok "drift_wakeup_degraded_under_cpu_quota (after $n rounds)" \
	|| t_fail drift_wakeup_degraded_under_cpu_quota "gauge=$(gauge wakeup_p99_us)"
kill $busy; wait $busy 2>/dev/null; busy=
echo -1 > "$cg_cpu/cpu.cfs_quota_us"
n=$(wait_gauge prime_events_per_s 0 $((3 * K))) && t_ok "drift_prime_recovers (after $n rounds)" \
	|| t_fail drift_prime_recovers "gauge=$(gauge prime_events_per_s)"
n=$(wait_gauge wakeup_p99_us 0 $((3 * K))) && t_ok "drift_wakeup_recovers (after $n rounds)" \
	|| t_fail drift_wakeup_recovers "gauge=$(gauge wakeup_p99_us)"
echo $W > /sys/fs/cgroup/cpu/cgroup.procs
rmdir "$cg_cpu" && cg_cpu=
grep -q 'randread_p99_us degraded' "$tmp/w.err" && grep -q 'randread_p99_us recovered' "$tmp/w.err" \
	&& t_ok drift_logs_state_changes || t_fail drift_logs_state_changes "$(cat "$tmp/w.err")"
kill -TERM $W; wait $W; W=
t_summary smoke_watch_drift
