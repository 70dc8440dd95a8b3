#!/bin/bash
# run-all: alone (see tests/run-all.sh): its checks need the machine to itself
# smoke_cpu_quota.sh — root: the cpu module inside a cgroup with a CPU
# quota of 0.5 CPU (v2 cpu.max "50000 100000", or v1 cfs_quota_us 50000 /
# cfs_period_us 100000). It must report one effective thread (from the
# quota), the quota, and throttling; and its events/s must be about half a
# CPU's worth: half of an unconstrained 1-thread run's events/s. The quota
# alone is no health problem (issue #39): the passes' CPU share is against
# min(threads, quota), so cpu_throttle and cpu_share pass, the CPU figures
# are measured (not disturbed) and said to be the quota's. Those two
# need the machine to give a free thread most of a CPU: when the free run
# got less than 0.8 CPU (a loaded machine) they are skipped, saying so.
. tests/lib.sh
if ! t_is_root; then
	t_skip quota_half_cpu "needs root (cgroups)"
	t_summary smoke_cpu_quota
	exit 0
fi
base=$(t_tmpdir)
cg=""
cleanup() {
	[ -n "$cg" ] && [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$base"
}
trap cleanup EXIT

# where the cpu controller is: cgroup2 with cpu available, else v1 "cpu"
ver=""
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v2" ] && grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null; then
	ver=2
	grep -qw cpu "$v2/cgroup.subtree_control" || echo +cpu > "$v2/cgroup.subtree_control" 2>/dev/null
	cg=$v2/vpsbench-quota-$$
else
	v1=$(awk '{ split($0, a, " - "); split(a[2], b, " "); if (b[1] == "cgroup" && b[3] ~ /(^|,)cpu(,|$)/) { print $5; exit } }' /proc/self/mountinfo)
	[ -n "$v1" ] && { ver=1; cg=$v1/vpsbench-quota-$$; }
fi
if [ -z "$ver" ] || ! mkdir "$cg" 2>/dev/null; then
	cg=""
	t_skip quota_half_cpu "no writable cgroup cpu controller"
	t_summary smoke_cpu_quota
	exit 0
fi
if [ "$ver" = 2 ]; then
	echo "50000 100000" > "$cg/cpu.max"
else
	echo 100000 > "$cg/cpu.cfs_period_us" && echo 50000 > "$cg/cpu.cfs_quota_us"
fi

# run a command (in cgroup $1 if given) and print the children's CPU seconds / wall seconds
share_run() {
	python3 - "$@" <<'PY'
import os, resource, subprocess, sys, time
cg, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
def pre():
    if cg:
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
t0 = time.monotonic()
with open(out, "w") as f:
    subprocess.run(args, stdout=f, stderr=subprocess.DEVNULL, preexec_fn=pre)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % ((ru.ru_utime + ru.ru_stime) / wall))
PY
}

free=$(share_run "" "$base/free.json" "$VPSBENCH" --only cpu --cpu-time 1 --cpu-threads 1 --json --quiet)
quota=$(share_run "$cg" "$base/q.json" "$VPSBENCH" --only cpu --cpu-time 1 --json --quiet)
echo "  cgroup v$ver; CPU share: free run $free, quota run $quota"
C="j['cpu']"
if t_json "$base/q.json" \
	"j['modules']['cpu']['status'] == 'ok'" \
	"${C}['quota_cpus'] == 0.5 and ${C}['threads'] == 1 and ${C}['threads_source'] == 'cgroup quota'" \
	"${C}['prime']['multi']['threads'] == 1 and ${C}['cgroup_version'] == $ver" \
	"${C}['throttled_periods'] is not None and ${C}['nr_periods'] is not None"
then t_ok quota_one_thread; else t_fail quota_one_thread; fi
# 0.7, not 0.5: the kernel overshoots a 0.5 quota (a plain `while :; do :; done`
# in this cgroup measured 0.600 of a CPU by getrusage on 6.18 with cgroup v1);
# 0.7 still tells an enforced quota from a free run (about 1.0).
python3 -c "import sys; sys.exit(not float(sys.argv[1]) <= 0.7)" "$quota" &&
	t_ok quota_enforced || t_fail quota_enforced "the quota run used $quota CPU"

if python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= 0.8)" "$free"; then
	t_json "$base/q.json" "${C}['throttled_periods'] > 0 and ${C}['throttled_s'] > 0" &&
		t_ok quota_throttling_seen || t_fail quota_throttling_seen
	# the quota alone: no health problem from it, the CPU figures measured and the quota's
	H="[p['check'] for p in j['health']['problems']]"
	if t_json "$base/q.json" \
		"'cpu_throttle' not in $H and 'cpu_share' not in $H" \
		"not ${C}['prime']['single']['disturbed'] and not ${C}['prime']['multi']['disturbed']" \
		"${C}['prime']['single']['cpu_share'] >= 0.9" \
		"j['metrics']['cpu_single_eps'] == ${C}['prime']['single']['events_per_s']" \
		"${C}['quota_note'] is not None and '0.5 CPU' in ${C}['quota_note']"
	then t_ok quota_not_a_problem; else t_fail quota_not_a_problem; fi
	ratio=$(python3 -c '
import json, sys
q = json.load(open(sys.argv[1]))["cpu"]["prime"]["multi"]["events_per_s"]
f = json.load(open(sys.argv[2]))["cpu"]["prime"]["single"]["events_per_s"]
print("%.3f" % (q / f))' "$base/q.json" "$base/free.json")
	echo "  events/s under the quota / free 1-thread events/s = $ratio"
	python3 -c "import sys; sys.exit(not 0.35 <= float(sys.argv[1]) <= 0.65)" "$ratio" &&
		t_ok quota_half_cpu || t_fail quota_half_cpu "ratio $ratio"
else
	t_skip quota_throttling_seen "machine loaded: a free thread got only $free CPU"
	t_skip quota_not_a_problem "machine loaded: a free thread got only $free CPU"
	t_skip quota_half_cpu "machine loaded: a free thread got only $free CPU"
fi
# A competitor on the same CPU: stress-ng --cpu 1 pinned to CPU 0 next to a
# 1-thread run pinned there too. The module must show the loss it causes:
# the pass got about half a CPU (cpu_seconds / seconds), its events/s fall
# to about half of an uncontended run on the same CPU, and the report warns.
if ! command -v stress-ng >/dev/null || ! command -v taskset >/dev/null; then
	if [ -n "${CI:-}" ]; then t_fail competitor_loss "stress-ng or taskset missing"
	else t_skip competitor_loss "needs stress-ng and taskset"; fi
else
	cpu0=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
	taskset -c "$cpu0" "$VPSBENCH" --only cpu --cpu-time 1 --cpu-threads 1 --json --quiet \
		> "$base/alone.json" 2>/dev/null
	stress-ng --cpu 1 --taskset "$cpu0" --timeout 30s --quiet >/dev/null 2>&1 &
	sng=$!
	sleep 0.5
	taskset -c "$cpu0" "$VPSBENCH" --only cpu --cpu-time 1 --cpu-threads 1 --json --quiet \
		> "$base/busy.json" 2>/dev/null
	kill "$sng" 2>/dev/null; wait "$sng" 2>/dev/null
	pkill -P "$sng" 2>/dev/null
	read -r alone_share busy_share eps_ratio warned < <(python3 -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sa, sb = a["cpu"]["prime"]["single"], b["cpu"]["prime"]["single"]
w = any("got only" in x for x in b.get("warnings", []))
print("%.3f %.3f %.3f %d" % (sa["cpu_seconds"] / sa["seconds"], sb["cpu_seconds"] / sb["seconds"],
      sb["events_per_s"] / sa["events_per_s"], w))' "$base/alone.json" "$base/busy.json")
	echo "  CPU $cpu0: alone share $alone_share; with stress-ng share $busy_share, events/s ratio $eps_ratio, warned $warned"
	if python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= 0.8)" "$alone_share"; then
		python3 -c "import sys; s, r = map(float, sys.argv[1:]); sys.exit(not (0.35 <= s <= 0.65 and 0.35 <= r <= 0.65))" \
			"$busy_share" "$eps_ratio" && [ "$warned" = 1 ] &&
			t_ok competitor_loss || t_fail competitor_loss "share $busy_share, ratio $eps_ratio, warned $warned"
	else
		t_skip competitor_loss "machine loaded: CPU $cpu0 gave an uncontended run only $alone_share"
	fi
fi
t_summary smoke_cpu_quota
