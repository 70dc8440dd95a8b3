#!/bin/bash
# run-all: (shared: one short watcher at --every 500ms in its own temp state directory, two probe directories inside it; rounds are counted, not timed)
# smoke_watch_dirs.sh — `vpsbench watch --dir A --dir B`: one randread +
# fsync probe set per directory. The history line keeps the first
# directory's figures where they always were and adds the second's under
# "disks"; /metrics and --prom-file carry both directories' series (label
# dir), each equal to its own directory's figures in the history line of
# the same round (so swapped or shared figures fail); both bodies are
# `promtool check metrics` clean. Each directory holds its own open,
# unlinked probe file while the watcher runs, and nothing after it. A
# --dir given twice (or the same directory under a second name) is refused
# with one line, exit 1, nothing made. --report and --status read the lines.
. tests/lib.sh
tmp=$(t_tmpdir)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
BASE=tests/fixtures/watch/baseline.json
FAST=(--probe-time 100ms --budget 100 --max-load 100000 --max-cpu 100 --max-psi 100)
d1="$tmp/d1"; d2="$tmp/d2"
mkdir -p "$d1" "$d2"

# --- a directory given twice: one line, exit 1, no state directory made ---------
for dup in "$d1" "$d1/."; do
	"$VPSBENCH" watch --state-dir "$tmp/dup" --dir "$d1" --dir "$dup" --baseline $BASE \
		--listen none --rounds 1 "${FAST[@]}" 2>"$tmp/dup.err"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/dup.err")" -eq 1 ] && [ ! -e "$tmp/dup" ] &&
	   [ -z "$(ls -A "$d1")" ]; then
		t_ok "--dir $d1 --dir ${dup#"$tmp/"} refused: $(cat "$tmp/dup.err")"
	else
		t_fail "dup_dir_${dup#"$tmp/"}" "rc=$rc $(head -3 "$tmp/dup.err") made: $(ls -A "$tmp")"
	fi
done

# --- two directories, three rounds --------------------------------------------
listen=(--listen none)
W=
if command -v curl >/dev/null && ! "$VPSBENCH" watch --state-dir "$tmp/probe" --baseline $BASE \
	--listen 127.0.0.1:1 --rounds 1 2>&1 | grep -q 'without libmicrohttpd'; then
	W=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	listen=(--listen "127.0.0.1:$W")
fi
rm -rf "$tmp/probe"
sd="$tmp/sd"
"$VPSBENCH" watch --state-dir "$sd" --dir "$d1" --dir "$d2" --baseline $BASE "${listen[@]}" \
	--prom-file "$tmp/w.prom" --every 500ms --window 2 --rounds 3 "${FAST[@]}" 2>"$tmp/w.err" &
wp=$!; pids+=($wp)
fds1=; fds2=; mrounds=
while kill -0 $wp 2>/dev/null; do
	# the probe files: open, unlinked ("(deleted)"), one in each directory
	l=$(ls -l /proc/$wp/fd 2>/dev/null)
	[ -z "$fds1" ] && fds1=$(echo "$l" | grep -c -- "-> $d1/\.probe-$wp (deleted)")
	[ "$fds1" = 0 ] && fds1=
	[ -z "$fds2" ] && fds2=$(echo "$l" | grep -c -- "-> $d2/\.probe-$wp (deleted)")
	[ "$fds2" = 0 ] && fds2=
	if [ -n "$W" ] && [ -z "$mrounds" ] && curl -sf "http://127.0.0.1:$W/metrics" -o "$tmp/m.tmp"; then
		n=$(awk '$1 == "vpsbench_watch_rounds_total" {print $2}' "$tmp/m.tmp")
		[ "${n:-0}" -ge 1 ] && mrounds=$n && mv "$tmp/m.tmp" "$tmp/m.body"
	fi
	sleep 0.02
done
wait $wp; rc=$?
[ $rc -eq 0 ] && t_ok "watcher with two --dir: 3 rounds, exit 0 (load $(cut -d" " -f1 /proc/loadavg))" || t_fail watcher "rc=$rc $(tail -3 "$tmp/w.err")"
if [ -n "$fds1" ] && [ -n "$fds2" ]; then
	t_ok "each --dir held its own open, unlinked probe file while running ($fds1 and $fds2 fds)"
else
	t_fail probe_files "d1 fds '$fds1' d2 fds '$fds2'"
fi
left=$(ls -A "$d1" "$d2" | grep -v ':$' | grep -v '^$')
[ -z "$left" ] && t_ok "nothing left in either --dir after the exit" || t_fail leftovers "$left"

# the history: three lines, the first directory under probes, the second under disks
hist=$(python3 - "$sd/history.jsonl" "$d2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad = []
for h in lines:
    d = h.get("disks")
    if not isinstance(d, list) or len(d) != 1 or d[0].get("dir") != sys.argv[2]:
        bad.append("seq %s disks %r" % (h["seq"], d))
        continue
    for p in ("randread", "fsync"):
        a, b = h["probes"][p], d[0][p]
        if a["status"] != "ok" or b["status"] != "ok" or a["p99_us"] is None or b["p99_us"] is None:
            bad.append("seq %s %s %s/%s" % (h["seq"], p, a["status"], b["status"]))
    if d[0]["randread"]["iops"] is None:
        bad.append("seq %s iops null" % h["seq"])
print(len(lines), "; ".join(bad) or "-")
PY
)
set -- $hist
if [ "$1" = 3 ] && [ "$2" = - ]; then
	t_ok "3 history lines, each with both directories' randread and fsync figures"
else
	t_fail history "$hist"
fi

# a body against the history line of its round: every disk figure of each directory
check_body() { # NAME BODY
	local out
	out=$(python3 - "$2" "$sd/history.jsonl" "$d1" "$d2" <<'PY'
import json, re, sys
body = open(sys.argv[1]).read()
lines = {}
for l in open(sys.argv[2]):
    if l.strip():
        h = json.loads(l)
        lines[h["seq"]] = h
d1, d2 = sys.argv[3], sys.argv[4]
m = {}
for l in body.splitlines():
    if l and not l.startswith("#"):
        k, v = l.rsplit(" ", 1)
        m[k] = float(v)
n = int(m["vpsbench_watch_rounds_total"])
h = lines[n]
want = []
for d, src in ((d1, h["probes"]), (d2, h["disks"][0])):
    rr, fs = src["randread"], src["fsync"]
    want += [
        ('vpsbench_watch_randread_latency_p50_seconds{dir="%s"}' % d, rr["p50_us"] * 1e-6, 0.051e-6),
        ('vpsbench_watch_randread_latency_p99_seconds{dir="%s"}' % d, rr["p99_us"] * 1e-6, 0.051e-6),
        ('vpsbench_watch_randread_iops{dir="%s"}' % d, rr["iops"], 0.051),
        ('vpsbench_watch_fsync_latency_p50_seconds{dir="%s"}' % d, fs["p50_us"] * 1e-6, 0.051e-6),
        ('vpsbench_watch_fsync_latency_p99_seconds{dir="%s"}' % d, fs["p99_us"] * 1e-6, 0.051e-6),
        ('vpsbench_watch_probe_runs_total{probe="randread",dir="%s",result="ok"}' % d, n, 0),
        ('vpsbench_watch_probe_runs_total{probe="fsync",dir="%s",result="ok"}' % d, n, 0),
        ('vpsbench_watch_probe_skipped_total{probe="fsync",dir="%s",reason="hung"}' % d, 0, 0),
        ('vpsbench_watch_probe_last_success_timestamp_seconds{probe="randread",dir="%s"}' % d, h["unix"], 0.0011),
        ('vpsbench_watch_probe_duration_seconds{probe="fsync",dir="%s"}' % d, fs["duration_s"], 0.00051),
        ('vpsbench_watch_probe_stale{probe="randread",dir="%s"}' % d, 0, 0),
    ]
bad = []
for k, v, tol in want:
    if k not in m:
        bad.append("missing " + k)
    elif abs(m[k] - v) > tol:
        bad.append("%s %r != %r" % (k, m[k], v))
# drift: the first directory only
for k in m:
    if k.startswith(("vpsbench_watch_drift_ratio", "vpsbench_watch_degraded", "vpsbench_watch_baseline")) and d2 in k:
        bad.append("drift series for the second dir: " + k)
print("round %d: %d series checked; %s" % (n, len(want), "; ".join(bad) or "ok"))
PY
)
	case "$out" in *"; ok") t_ok "$1: $out" ;; *) t_fail "$1" "$out" ;; esac
}
check_body "prom-file: both dirs' figures equal their own history figures" "$tmp/w.prom"
t_promtool_metrics prom_file_promtool_clean "$tmp/w.prom"
if [ -n "$W" ]; then
	if [ -n "$mrounds" ]; then
		check_body "/metrics: both dirs' figures equal their own history figures" "$tmp/m.body"
		t_promtool_metrics metrics_body_promtool_clean "$tmp/m.body"
	else
		t_fail metrics "no /metrics body with a round fetched"
	fi
else
	t_skip metrics "needs curl and libmicrohttpd"
fi

# a restart reads the lines with "disks" back (drift state, seq) and goes on
"$VPSBENCH" watch --state-dir "$sd" --dir "$d1" --dir "$d2" --baseline $BASE --listen none \
	--every 200ms --window 2 --rounds 1 "${FAST[@]}" 2>"$tmp/w2.err"; rc=$?
seq4=$(tail -n 1 "$sd/history.jsonl" | python3 -c 'import json,sys; h=json.load(sys.stdin); print(h["seq"], len(h["disks"]))' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$seq4" = "4 1" ] && grep -q "drift state restored" "$tmp/w2.err"; then
	t_ok "a restart restores the drift state from lines with disks and writes seq 4 with both dirs"
else
	t_fail restart "rc=$rc last line seq/disks '$seq4' $(tail -3 "$tmp/w2.err")"
fi

# the readers take lines with "disks"
"$VPSBENCH" watch --report --state-dir "$sd" >"$tmp/rep.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q randread "$tmp/rep.out" && t_ok "--report reads the history with disks" ||
	t_fail report "rc=$rc $(head -3 "$tmp/rep.out")"
"$VPSBENCH" watch --status --json --state-dir "$sd" >"$tmp/st.out" 2>&1; rc=$?
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/st.out" &&
	t_ok "--status reads the history with disks" || t_fail status "rc=$rc $(head -3 "$tmp/st.out")"
t_summary watch_dirs
