#!/bin/bash
# run-all: (shared: two short watchers at --every 200ms in their own temp state directories; rounds are counted, not timed)
# smoke_watch_status.sh — `vpsbench watch --status` (README, "vpsbench
# watch") on the state directory of a real watcher: after a short run its
# facts match the history's newest line (seq, rounds, each probe's figure),
# the directory is left byte for byte and time for time as it was, --json
# says the same, a later "now" makes every probe stale; while a watcher
# runs it says running (the watcher's own lock when it takes one, and a
# lock held by flock(1) from another process either way); bad input: one
# line, exit 1. Prints the machine's load at its start (it is meant to
# hold beside stress-ng --cpu 2).
. tests/lib.sh
t_load_note
tmp=$(t_tmpdir)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
BASE=tests/fixtures/watch/baseline.json
# short probes, no gate, no budget: the rounds run back to back
FAST=(--probe-time 100ms --budget 100 --max-load 100000 --max-cpu 100 --max-psi 100)
read -r l1 _ < /proc/loadavg
ns=$(pgrep -c stress-ng 2>/dev/null)
echo "note: load ${l1} at start, ${ns:-0} stress-ng processes beside"

# one_line_exit1 NAME WANT ARGS...: exit 1, one line on stderr containing WANT, nothing on stdout
one_line_exit1() {
	local n=$1 want=$2 rc; shift 2
	"$VPSBENCH" watch "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && grep -qF -- "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; then
		t_ok "$n"
	else
		t_fail "$n" "rc=$rc stderr: $(head -c 300 "$tmp/e")"
	fi
}
mkdir "$tmp/empty"
one_line_exit1 bad_no_history "$tmp/empty/history.jsonl: No such file or directory" --status --state-dir "$tmp/empty"
one_line_exit1 bad_missing_dir "$tmp/nope: No such file or directory" --status --state-dir "$tmp/nope"
[ ! -e "$tmp/nope" ] && [ -z "$(ls -A "$tmp/empty")" ] && t_ok bad_nothing_created || t_fail bad_nothing_created
one_line_exit1 bad_json_alone "--json goes with --status" --json --state-dir "$tmp/empty"
one_line_exit1 bad_with_report "--status and --report" --status --report --state-dir "$tmp/empty"
one_line_exit1 bad_daemon_option "--every does not go with --status" --status --every 1s --state-dir "$tmp/empty"
one_line_exit1 bad_rebaseline_option "--rebaseline does not go with --status" --status --rebaseline --state-dir "$tmp/empty"

# the recorded history at a fixed now (VPSBENCH_WATCH_NOW): the unit test's goldens, through the CLI
for fmt in txt json; do
	VPSBENCH_WATCH_NOW=1796190420.125 "$VPSBENCH" watch --status $([ $fmt = json ] && echo --json) \
		--state-dir tests/fixtures/watch/status 2>"$tmp/g.err" | sed 's|tests/fixtures/watch/status|/var/lib/vpsbench|g' > "$tmp/g.$fmt"
	diff -u tests/golden/watch-status.$fmt "$tmp/g.$fmt" > "$tmp/g.diff" && [ ! -s "$tmp/g.err" ] && t_ok cli_golden_$fmt ||
		t_fail cli_golden_$fmt "$(head -c 400 "$tmp/g.diff") $(cat "$tmp/g.err")"
done

# a short run, then its status
sd=$tmp/run
"$VPSBENCH" watch --state-dir "$sd" --baseline $BASE --every 200ms --rounds 5 --listen none "${FAST[@]}" \
	2>"$tmp/run.err"; rc=$?
if [ $rc -ne 0 ] || [ "$(wc -l < "$sd/history.jsonl")" -ne 5 ]; then
	t_fail watcher_ran "rc=$rc $(head -c 300 "$tmp/run.err")"
else
	t_ok watcher_ran
fi
# the directory as it was: names, sizes, contents and modification times
snap() { (cd "$1" && find . -printf '%p %s %T@ %m\n' | sort && find . -type f -exec sha256sum {} + | sort); }
snap "$sd" > "$tmp/before"
"$VPSBENCH" watch --status --state-dir "$sd" >"$tmp/st.txt" 2>"$tmp/st.err"; rc=$?
"$VPSBENCH" watch --status --json --state-dir "$sd" >"$tmp/st.json" 2>>"$tmp/st.err"; rc2=$?
snap "$sd" > "$tmp/after"
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s "$tmp/st.err" ] && t_ok status_exit0 ||
	t_fail status_exit0 "rc=$rc/$rc2 $(head -c 300 "$tmp/st.err")"
cmp -s "$tmp/before" "$tmp/after" && t_ok status_touches_nothing ||
	t_fail status_touches_nothing "$(diff "$tmp/before" "$tmp/after" | head -5 | tr '\n' ' ')"
# the text's facts against the history's newest line
out=$(python3 - "$sd/history.jsonl" "$tmp/st.txt" "$tmp/st.json" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
last = lines[-1]
txt = open(sys.argv[2]).read()
js = json.load(open(sys.argv[3]))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
need("(seq %d; %d rounds in the history)" % (last["seq"], len(lines)) in txt, "seq/rounds line")
need(js["rounds"]["last_seq"] == last["seq"] and js["rounds"]["count"] == len(lines), "json seq/count")
need(abs(js["rounds"]["last_unix"] - last["unix"]) < 1e-3, "json last_unix")
fig = {"randread": "p99_us", "fsync": "p99_us", "prime": "events_per_s", "dram": "ns"}
for p, k in fig.items():
    st = last["probes"][p]["status"]
    pj = js["probes"][p]
    need(pj["latest"] == st, "%s latest %s != %s" % (p, pj["latest"], st))
    if st == "ok":
        v = last["probes"][p][k]
        need(pj["value"] == v, "%s value %s != %s" % (p, pj["value"], v))
        need(pj["state"] == "ok", "%s state %s" % (p, pj["state"]))
        row = [l for l in txt.splitlines() if l.startswith(p + " ")]
        need(row and row[0].split()[1] == "ok" and ("%.1f" % v if v < 10000 else "%.0f" % v) in row[0],
             "%s text row %r" % (p, row))
# the watcher keeps its drift baselines in drift_baseline.json: --status reads them from there
import os
dbp = os.path.join(os.path.dirname(sys.argv[1]), "drift_baseline.json")
rb = js["metrics"]["randread_p99_us"]["baseline"]
if os.path.exists(dbp):
    db = json.load(open(dbp))["metrics"]["randread_p99_us"]
    need(rb["from"] == "drift_baseline.json" and rb["source"] == db["source"] and
         rb["value"] == db["value"], "randread baseline %r != drift_baseline.json %r" % (rb, db))
else:
    need(rb["from"] == "baseline.json", "randread baseline from %r" % rb)
need(js["last_24h"]["rounds"] == len(lines), "24 h rounds")
print("; ".join(bad) if bad else "ok")
EOF
)
[ "$out" = ok ] && t_ok status_matches_history || t_fail status_matches_history "$out"
# a watcher that ran and stopped: its lock free, or no lock file at all
if [ -e "$sd/lock" ]; then
	grep -q '^Watcher   : not running' "$tmp/st.txt" && t_ok stopped_watcher_not_running ||
		t_fail stopped_watcher_not_running "$(grep '^Watcher' "$tmp/st.txt")"
else
	grep -q '^Watcher   : unknown (no lock file' "$tmp/st.txt" && t_ok no_lock_file_unknown ||
		t_fail no_lock_file_unknown "$(grep '^Watcher' "$tmp/st.txt")"
fi
# an hour later nothing is fresh: every probe stale, the newest outcome kept
now=$(date +%s)
VPSBENCH_WATCH_NOW=$((now + 3600)) "$VPSBENCH" watch --status --state-dir "$sd" > "$tmp/late.txt" 2>&1
[ "$(grep -cE '^(randread|fsync|prime|dram) +stale ' "$tmp/late.txt")" -eq 4 ] && t_ok later_all_stale ||
	t_fail later_all_stale "$(grep -E '^(randread|fsync|prime|dram) ' "$tmp/late.txt" | tr '\n' '|')"
VPSBENCH_WATCH_NOW=soon "$VPSBENCH" watch --status --state-dir "$sd" >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 1 ] && grep -q "VPSBENCH_WATCH_NOW 'soon'" "$tmp/e" && t_ok bad_now_refused || t_fail bad_now_refused "rc=$rc"

# a lock held by another process, as a running watcher holds it
if command -v flock >/dev/null; then # flock(1) for the check that the holder keeps it
	mkdir "$tmp/held" && cp "$sd/history.jsonl" "$tmp/held/"
	# the holder takes the lock itself and keeps it until killed
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(30)' "$tmp/held/lock" & pids+=($!)
	for _ in $(seq 200); do
		"$VPSBENCH" watch --status --state-dir "$tmp/held" > "$tmp/held.txt" 2>&1
		grep -q '^Watcher   : running' "$tmp/held.txt" && break
		sleep 0.1
	done
	grep -q '^Watcher   : running' "$tmp/held.txt" && t_ok flock_held_running ||
		t_fail flock_held_running "$(grep '^Watcher' "$tmp/held.txt")"
	# the holder named (/proc/locks)
	grep -q "^Watcher   : running (pid ${pids[-1]} holds " "$tmp/held.txt" && t_ok holder_pid_named ||
		t_fail holder_pid_named "want pid ${pids[-1]}: $(grep '^Watcher' "$tmp/held.txt")"
	# the look took nothing from the holder: a second exclusive try still fails
	flock -x -n "$tmp/held/lock" true && t_fail lock_still_held || t_ok lock_still_held
	# a running watcher before its first round: still exit 1, and the line says it runs
	mv "$tmp/held/history.jsonl" "$tmp/held/h.saved"
	"$VPSBENCH" watch --status --state-dir "$tmp/held" >"$tmp/o" 2>"$tmp/e"; rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && grep -q 'history.jsonl: No such file.*a watcher holds the lock there' "$tmp/e" &&
		t_ok no_round_yet_said_running || t_fail no_round_yet_said_running "rc=$rc $(cat "$tmp/e")"
	mv "$tmp/held/h.saved" "$tmp/held/history.jsonl"
	kill "${pids[-1]}" 2>/dev/null; wait "${pids[-1]}" 2>/dev/null
	"$VPSBENCH" watch --status --json --state-dir "$tmp/held" > "$tmp/held.json" 2>&1
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["watcher"]["running"] is not False)' \
		"$tmp/held.json" && t_ok flock_freed_not_running || t_fail flock_freed_not_running
else
	t_skip flock_held_running "no flock(1)"
fi

# a running watcher
sd2=$tmp/live
"$VPSBENCH" watch --state-dir "$sd2" --baseline $BASE --every 200ms --listen none "${FAST[@]}" \
	2>"$tmp/live.err" & wpid=$!; pids+=($wpid)
# two rounds written (at most 60 s on a busy machine)
for _ in $(seq 600); do
	[ -s "$sd2/history.jsonl" ] && [ "$(wc -l < "$sd2/history.jsonl")" -ge 2 ] && break
	kill -0 $wpid 2>/dev/null || break
	sleep 0.1
done
"$VPSBENCH" watch --status --state-dir "$sd2" > "$tmp/live.txt" 2>&1; rc=$?
if [ $rc -ne 0 ]; then
	t_fail live_status "rc=$rc $(head -c 300 "$tmp/live.txt") $(head -c 300 "$tmp/live.err")"
elif [ -e "$sd2/lock" ]; then
	grep -q '^Watcher   : running' "$tmp/live.txt" && t_ok live_watcher_running ||
		t_fail live_watcher_running "$(grep '^Watcher' "$tmp/live.txt")"
else
	t_skip live_watcher_running "this watcher takes no lock on its state directory (the lock is another part of issue #40)"
fi
grep -qE '^Last round: .*, [0-9.]+ s ago' "$tmp/live.txt" && t_ok live_last_round_fresh ||
	t_fail live_last_round_fresh "$(grep '^Last round' "$tmp/live.txt")"
kill -TERM $wpid 2>/dev/null; wait $wpid 2>/dev/null
t_summary smoke_watch_status
