#!/bin/bash
# smoke_net_fake.sh — the iperf3 client against a scripted fake server
# (tests/helpers/fake_iperf3.py) on 127.0.0.1, for what the real iperf3 -s
# does not do on demand: busy then success on the retry, SERVER_ERROR with
# one and with two ints, a 3.12-style result (2^64-1 for "unknown",
# stream ids 1, 3, 4), results with 2^64-1 bytes or ids 1, 2, end of file in
# the middle of the results, a stall after TEST_START, a 10 MB JSON length
# prefix. Each ends its row with a named reason within its deadline,
# nothing crashes under ASan/UBSan, the server sees every connection closed.
# The figures of the good runs are checked against the fake server's own
# counts. Loopback only; no root needed. VPSBENCH=./vpsbench-static runs it
# on the static binary.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
PY=python3 # (Debian's: tests/lib.sh puts it first on PATH)
command -v python3 >/dev/null || { t_skip net_fake "python3 missing"; t_summary smoke_net_fake; exit 0; }
T=$(t_tmpdir)
PIDS=''
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

. tests/helpers/fake_iperf3.sh

# case NAME MAXSECONDS ARGS...: runs vpsbench against the fake NAME; JSON in
# $T/NAME.json, the verdict in $T/NAME.res (said by case_said). Cases run
# side by side, each with its own fake server: nothing here needs a quiet
# machine, and each limit is far above its product deadline.
run_case() {
	local name=$1 max=$2 t0 el rc
	shift 2
	wait_fake "$name"
	t0=$(date +%s.%N)
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} $VPSBENCH --only net --net --net-time 1 --quiet --json \
		--net-server "127.0.0.1:$(cat "$T/$name.port"),Fake,lo" "$@" > "$T/$name.json" 2>"$T/$name.err"
	rc=$?
	el=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
	if grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$T/$name.err"; then
		printf 'fail\n%s\n%s\n' "$name: sanitizer report" "$(head -5 "$T/$name.err")"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
		printf 'fail\n%s\n%s\n' "$name: exit $rc (crash?)" "$(tail -3 "$T/$name.err")"
	elif python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$el" "$max"; then
		printf 'ok\n%s\n' "$name: ended in ${el}s (limit ${max}s), exit $rc, no sanitizer report"
	else
		printf 'fail\n%s\n' "$name: took ${el}s, limit ${max}s"
	fi > "$T/$name.res"
}
case_said() {
	local v n d
	{ read -r v; read -r n; d=$(cat); } < "$T/$1.res" || { v=fail n="$1" d="no verdict"; }
	[ "$v" = ok ] && t_ok "$n" || t_fail "$n" "$d"
}

# every server first, then every case at once (the numbers of the
# sections below); their checks follow in order
fake busy busy,ok,ok
fake err1 err1
fake err2 err2
fake v312 v312
fake bytes64 bytes64
fake ids12 ids12
fake eofjson eofjson
fake bigjson bigjson
fake stall stall
fake prom ok,ok
# the stall case (10 s of it a wait) at once, the others 3 at a time beside it
CASES=''
bg() {
	local p n
	"$@" & CASES="$CASES $!"
	while :; do
		n=0
		for p in $CASES; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done
		[ $n -lt 3 ] && return
		sleep 0.1
	done
}
run_case stall 20 --net-max-time 14 &
stall=$!
bg run_case busy 20
bg run_case err1 16
bg run_case err2 16
bg run_case v312 12 --net-streams 3
bg run_case bytes64 10
bg run_case ids12 10 --net-streams 2
bg run_case eofjson 24
bg run_case bigjson 10
# 7. (below) Prometheus and JSON of one run
prom_run() {
	wait_fake prom
	$VPSBENCH --only net --net --net-time 2 --quiet --format prom --output "$T/prom.json" --html "$T/prom.html" \
		--net-server "127.0.0.1:$(cat "$T/prom.port"),Fake,lo" > "$T/prom.txt" 2>"$T/prom.err"
}
bg prom_run
# shellcheck disable=SC2086
wait $stall $CASES

# the good runs' figures against the fake server's own counts: JSON line k of the log
FIG='(s := j["net"]["servers"][0]) and True'
# 1. busy, then success on the retry (2 s later); the receive test right after
case_said busy
t_json "$T/busy.json" "$FIG" 's["status"] == "ok" and s["send"]["status"] == "ok" and s["send"]["tries"] == 2' \
	's["recv"]["status"] == "ok" and s["recv"]["tries"] == 1' \
	'(L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) and len(L) == 3' \
	'L[0]["end"] == "denied" and L[1]["end"] == "done" and L[2]["end"] == "done"' \
	's["send"]["bytes"] == sum(L[1]["bytes"]) and s["send"]["bytes"] < s["send"]["sender_bytes"]' \
	's["send"]["sender_bytes"] == sum(x["bytes"] for x in L[1]["client_results"]["streams"])' \
	's["send"]["bytes_moved"] == s["send"]["sender_bytes"]' \
	'abs(s["send"]["bits_per_second"] - s["send"]["bytes"] * 8 / s["send"]["seconds"]) < 1e-3' \
	'abs(s["send"]["sender_bits_per_second"] - s["send"]["sender_bytes"] * 8 / s["send"]["sender_seconds"]) < 1e-3' \
	'abs(s["send"]["seconds"] - L[1]["seconds"]) < 1e-6 and 0.95 < s["send"]["sender_seconds"] < 1.5' \
	's["recv"]["sender_bytes"] == sum(L[2]["bytes"]) and s["recv"]["bytes"] <= s["recv"]["sender_bytes"]' \
	's["recv"]["bytes"] == sum(x["bytes"] for x in L[2]["client_results"]["streams"])' \
	'abs(s["recv"]["bits_per_second"] - s["recv"]["bytes"] * 8 / s["recv"]["seconds"]) < 1e-3' \
	'L[2]["params"].get("reverse") is True and "reverse" not in L[1]["params"] and L[1]["params"]["parallel"] == 8' \
	's["recv"]["retransmits"] == 0 and isinstance(s["send"]["retransmits"], int)' \
	'[x["id"] for x in L[1]["client_results"]["streams"]] == [1] + list(range(3, 10))' &&
	t_ok "busy then ok: retried after ACCESS_DENIED; figures are the fake server's counts, each side its own" ||
	t_fail "busy then ok figures"

# 2. SERVER_ERROR with one int (3.0-3.18 authentication) and with two;
# retried as yabs does (3 tries, 2 s apart), each try's end kept
case_said err1
t_json "$T/err1.json" "$FIG" 's["send"]["status"] == "failed" and s["send"]["tries"] == 3' \
	'"server error 142 (test authorization failed)" in s["send"]["reason"]' \
	'[x["end"] for x in s["send"]["try_log"]] == ["server error 142 (test authorization failed) after the parameters"] * 3' \
	's["send"]["bits_per_second"] is None and s["send"]["bytes"] is None' &&
	t_ok "SERVER_ERROR + one int: named, retried 3 times" || t_fail "SERVER_ERROR one int"
case_said err2
t_json "$T/err2.json" "$FIG" 's["send"]["status"] == "failed"' \
	'"server error 5 (test duration too long)" in s["send"]["reason"] and "Invalid argument" in s["send"]["reason"]' \
	's["recv"]["status"] == "failed" and s["recv"]["bits_per_second"] is None' &&
	t_ok "SERVER_ERROR + code + errno: named with both" || t_fail "SERVER_ERROR two ints"

# 3. a 3.12 server: 2^64-1 for "unknown" retransmits, ids 1, 3, 4 (3 streams)
case_said v312
t_json "$T/v312.json" "$FIG" 's["status"] == "ok" and s["send"]["status"] == "ok" and s["recv"]["status"] == "ok"' \
	's["recv"]["retransmits"] is None and isinstance(s["send"]["retransmits"], int)' \
	'(L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) and len(L) == 2' \
	'[x["id"] for x in L[0]["client_results"]["streams"]] == [1, 3, 4]' \
	's["send"]["bytes"] == sum(L[0]["bytes"]) and s["recv"]["sender_bytes"] == sum(L[1]["bytes"])' &&
	t_ok "3.12-style results: 2^64-1 retransmits read as unknown, ids 1, 3, 4" || t_fail "3.12 results"

# 4. lying results: bytes 2^64-1; ids 1, 2
case_said bytes64
t_json "$T/bytes64.json" "$FIG" 's["send"]["status"] == "failed" and "is not a byte count" in s["send"]["reason"]' \
	's["send"]["bits_per_second"] is None and s["send"]["tries"] == 1' &&
	t_ok "results with 2^64-1 bytes: failed, named" || t_fail "2^64-1 bytes"
case_said ids12
t_json "$T/ids12.json" "$FIG" 's["send"]["status"] == "failed" and "stream id 2 is not one of" in s["send"]["reason"]' \
	's["recv"]["status"] == "failed" and s["recv"]["bits_per_second"] is None' &&
	t_ok "results with ids 1, 2: failed, named" || t_fail "ids 1, 2"

# 5. end of file in the middle of the results; a 10 MB length prefix
case_said eofjson
t_json "$T/eofjson.json" "$FIG" 's["send"]["status"] == "failed"' \
	'"closed the connection in the middle of the server" in s["send"]["reason"]' &&
	t_ok "EOF in the middle of the results JSON: failed, named" || t_fail "EOF in JSON"
case_said bigjson
t_json "$T/bigjson.json" "$FIG" 's["send"]["status"] == "failed"' \
	'"JSON length of 10000000 bytes" in s["send"]["reason"]' &&
	t_ok "10 MB JSON length prefix: refused, named" || t_fail "10 MB JSON"

# 6. a stall after TEST_START: the run ends on time, the wait for
# EXCHANGE_RESULTS after TEST_END runs out (10 s), --net-max-time 14 leaves
# no room for a second try, the receive test is not started
case_said stall
t_json "$T/stall.json" "$FIG" 's["send"]["status"] == "timeout" and s["send"]["tries"] == 1' \
	'"nothing within 10 s after TEST_END (server stalled)" in s["send"]["reason"]' \
	's["send"]["bits_per_second"] is None and s["send"]["bytes_moved"] > 0' \
	's["recv"]["status"] == "skipped" and "not started" in s["recv"]["reason"]' \
	'j["net"]["max_time_hit"] and j["modules"]["net"]["status"] == "failed"' &&
	t_ok "stall after TEST_START: timeout named, the rest not started" || t_fail "stall"

# 7. Prometheus and JSON of one run (--format prom --output JSON), each
# against the fake server's own count and clock: throughput in bytes per
# second as the metric's unit says, the bytes moved, the timeline per second
python3 - "$T/prom.txt" "$T/prom.json" "$T/prom.log" <<'PY' && t_ok "prom: throughput in bytes/s = the server's bytes / its seconds; bytes moved = JSON's" || t_fail "prom net figures" "$(head -c 300 "$T/prom.err")"
import json, re, sys
prom = {}
for line in open(sys.argv[1]):
    m = re.match(r'(vpsbench_net_[a-z_]+)(\{[^}]*\})? (\S+)$', line.strip())
    if m:
        d = re.search(r'direction="(\w+)"', m.group(2) or "")
        prom[(m.group(1), d.group(1) if d else None)] = float(m.group(3))
j = json.load(open(sys.argv[2]))
L = [json.loads(x) for x in open(sys.argv[3])]
s = j["net"]["servers"][0]
bad = []
def chk(ok, what):
    if not ok: bad.append(what)
# send: the server received L[0]["bytes"] in L[0]["seconds"]; recv: this host received, the server sent L[1]
tp = prom[("vpsbench_net_throughput_bytes_per_second", "send")]
chk(abs(tp - sum(L[0]["bytes"]) / L[0]["seconds"]) <= 1e-6 * tp, "send throughput %g vs server %g" % (tp, sum(L[0]["bytes"]) / L[0]["seconds"]))
chk(abs(tp * 8 - s["send"]["bits_per_second"]) <= 1e-6 * tp, "send prom vs JSON")
tr = prom[("vpsbench_net_throughput_bytes_per_second", "recv")]
chk(abs(tr * 8 - s["recv"]["bits_per_second"]) <= 1e-6 * tr, "recv prom vs JSON")
chk(tr * s["recv"]["seconds"] <= sum(L[1]["bytes"]) * (1 + 1e-9), "recv: more received than the server sent")
chk(prom[("vpsbench_net_moved_bytes", "send")] == s["send"]["sender_bytes"] == s["send"]["bytes_moved"], "moved send")
chk(prom[("vpsbench_net_moved_bytes_total", None)] == j["net"]["bytes_moved"] ==
    s["send"]["bytes_moved"] + s["recv"]["bytes_moved"] == s["bytes_moved"], "moved total")
chk(prom[("vpsbench_net_moved_bytes", "recv")] >= s["recv"]["bytes"], "moved recv")
# timeline: whole seconds of this host's side, bits per second, adding up to no more than that side's bytes
for k, side in (("send", "sender_bytes"), ("recv", "bytes")):
    tl = s[k]["timeline_bits_per_second"]
    chk(len(tl) == 2, "%s timeline has %d seconds" % (k, len(tl)))
    chk(0.3 * s[k][side] <= sum(tl) / 8 <= s[k][side], "%s timeline sum %g vs %s %g" % (k, sum(tl) / 8, side, s[k][side]))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# the HTML chart draws the JSON's timeline, one point a second, with its drop flag
python3 - "$T/prom.html" "$T/prom.json" <<'PY' && t_ok "HTML: per-second timeline of each direction, drop flag as in JSON" || t_fail "HTML net timeline"
import json, re, sys
h = open(sys.argv[1]).read()
s = json.load(open(sys.argv[2]))["net"]["servers"][0]
ok = True
for k in ("send", "recv"):
    m = re.search(r'<polyline class="\w+ tl-%s" data-n="(\d+)" data-drop="(\w+)" points="([^"]*)"' % k, h)
    d = s[k]["drop"]
    if not m or int(m.group(1)) != len(s[k]["timeline_bits_per_second"]) or \
       len(m.group(3).split()) != len(s[k]["timeline_bits_per_second"]) or \
       m.group(2) != ("unknown" if d is None else str(d).lower()):
        print("  %s: %s" % (k, m.groups() if m else "no polyline"), file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
PY

# every connection the client made was closed (the fake server logged its end)
ok=1
for c in busy err1 err2 v312 bytes64 ids12 eofjson prom; do
	n=$(wc -l < "$T/$c.log")
	[ "$n" -ge 2 ] || { ok=0; echo "  $c: $n connections ended"; }
done
[ $ok = 1 ] && t_ok "the fake server saw every control connection end" || t_fail "connections left open"
t_schema "fake-server reports validate against the schema" "$T"/*.json
t_summary smoke_net_fake
