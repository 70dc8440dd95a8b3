#!/bin/bash
# smoke_net_mt.sh — the net module's data path, a thread per stream, against
# Debian's iperf3 -s on 127.0.0.1: each stream has its own thread while the
# run lasts and none is left between the two directions (the process's
# task count, sampled from /proc every 20 ms); the client's CPU share is
# its CPU time (the kernel's count for the process, both directions, less
# start-up) and, pinned to one CPU, at most one CPU, with cpu_bound set
# exactly when it reached 0.9 of it; Ctrl-C during the run ends the
# process within a second, the direction "interrupted"; 128 streams under
# ASan. Loopback only; no root needed.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
command -v iperf3 >/dev/null || { t_skip net_mt "iperf3 missing (Debian's iperf3)"; t_summary smoke_net_mt; exit 0; }
T=$(t_tmpdir)
SRV=''
cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
iperf3 -s -B 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
SRV=$!
for _ in $(seq 100); do ss -Hltn "sport = :$PORT" | grep -q . && break; sleep 0.1; done

# mon NAME INT_AFTER CMD...: runs CMD (stdout to $T/NAME.json), samples its
# task count every 20 ms, sends SIGINT INT_AFTER s after the stream threads
# first show (0: never); writes
# {"cpu": user+system s, "tasks": [...], "rc": .., "after_int": s} to $T/NAME.mon
cat > "$T/mon.py" <<'PY'
import json, os, signal, sys, time
out, after, cmd = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    fd = os.open(out + ".json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    err = os.open(out + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(err, 2)
    os.execvp(cmd[0], cmd)
t0, tasks, sent, res = None, [], None, None
while res is None:
    try:
        tasks.append(len(os.listdir("/proc/%d/task" % pid)))
    except OSError:
        pass
    if t0 is None and len(tasks) > 1 and tasks[-1] > tasks[0]:
        t0 = time.monotonic()
    if after > 0 and sent is None and t0 is not None and time.monotonic() - t0 >= after:
        os.kill(pid, signal.SIGINT)
        sent = time.monotonic()
    time.sleep(0.02)
    p, st, ru = os.wait4(pid, os.WNOHANG)
    if p == pid:
        res = (st, ru)
st, ru = res
json.dump({"cpu": ru.ru_utime + ru.ru_stime, "tasks": tasks,
           "rc": os.waitstatus_to_exitcode(st),
           "after_int": time.monotonic() - sent if sent else None}, open(out + ".mon", "w"))
PY
vb() { echo "$VPSBENCH" --only net --net --net-server "127.0.0.1:$PORT,Lo,lo" --quiet --json "$@"; }
# the process's CPU before any stream: start-up and the exit (ASan's leak check)
python3 "$T/mon.py" "$T/idle" 0 $VPSBENCH --only net --quiet --json
python3 "$T/mon.py" "$T/int" 1 $(vb --net-time 10) &
P1=$!
python3 "$T/mon.py" "$T/s128" 0 $(vb --net-time 1 --net-streams 128) &
wait $P1 $!
PIN=''
[ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null && PIN='taskset -c 0'
python3 "$T/mon.py" "$T/cpu" 0 $PIN $(vb --net-time 2)

check() { # check NAME FILE-PREFIX EXPR...: d = the report's row, m = the monitor
	local n=$1 f=$2 out
	shift 2
	if out=$(python3 - "$T/$f" "$T/idle.mon" "$PIN" "$@" 2>&1 <<'PY'
import json, sys
f, idle, pin = sys.argv[1:4]
m = json.load(open(f + ".mon"))
m0 = json.load(open(idle))
d = json.load(open(f + ".json"))["net"]["servers"][0]
S, R = d["send"], d["recv"]
def peaks(ts, n):
    """the task counts' runs above the base: a thread per stream, none left between"""
    runs, cur = [], None
    for t in ts:
        if t > ts[0] and cur is None: cur = t
        elif t > ts[0]: cur = max(cur, t)
        elif cur is not None: runs.append(cur); cur = None
    return runs + ([cur] if cur is not None else [])
bad = [e for e in sys.argv[4:] if not eval(e)]
for e in bad: print("false: " + e)
print("send %s %s cpu %s bound %s; recv %s %s cpu %s bound %s; process cpu %.2f s (idle run %.2f s), tasks %s, after SIGINT %s" % (
      S["status"], S["mbit_s"], S["cpu_share"], S["cpu_bound"], R["status"], R["mbit_s"], R["cpu_share"],
      R["cpu_bound"], m["cpu"], m0["cpu"], sorted(set(m["tasks"])), m["after_int"]))
sys.exit(1 if bad else 0)
PY
); then t_ok "$n"; echo "  $out" | tail -1; else t_fail "$n" "$out"; fi
}
check "8 streams: both directions measured, a thread per stream, none left between them" cpu \
	'S["status"] == "ok" and R["status"] == "ok"' 'peaks(m["tasks"], 8) == [m["tasks"][0] + 8] * 2'
check "CPU share: the threads' CPU is the process's (both directions), within 0.1 s over, 20% and 0.2 s under" cpu \
	'S["cpu_share"] * S["sender_seconds"] + R["cpu_share"] * R["seconds"] <= m["cpu"] - m0["cpu"] + 0.1' \
	'S["cpu_share"] * S["sender_seconds"] + R["cpu_share"] * R["seconds"] >= 0.8 * (m["cpu"] - m0["cpu"]) - 0.2'
if [ -n "$PIN" ]; then
	check "pinned to one CPU: at most one CPU, cpu_bound exactly when 0.9 of it" cpu \
		'S["cpu_share"] <= 1.02 and R["cpu_share"] <= 1.02' \
		'S["cpu_bound"] == (S["cpu_share"] >= 0.9) and R["cpu_bound"] == (R["cpu_share"] >= 0.9)'
else
	t_skip "pinned to one CPU" "taskset or a second CPU missing"
fi
check "Ctrl-C during the run: the process ends within 1 s, the send direction interrupted" int \
	'm["rc"] == 130 and m["after_int"] <= 1.0' 'S["status"] == "skipped" and S["reason"] == "interrupted"' \
	'S["bytes_moved"] > 0 and S["cpu_share"] is None and R["status"] == "not_run"'
check "128 streams: both directions, 128 threads at once, none left between" s128 \
	'S["status"] == "ok" and R["status"] == "ok"' 'peaks(m["tasks"], 128) == [m["tasks"][0] + 128] * 2'
for f in cpu int s128; do
	grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer\|ThreadSanitizer' "$T/$f.err" &&
		t_fail "$f: sanitizer report" "$(head -5 "$T/$f.err")"
done
t_schema "reports validate against the schema" "$T/cpu.json" "$T/int.json" "$T/s128.json"
t_summary smoke_net_mt
