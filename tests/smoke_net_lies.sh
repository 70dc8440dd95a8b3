#!/bin/bash
# smoke_net_lies.sh — figures checked before they are used (issue #42): the
# iperf3 client against a fake server (tests/helpers/fake_iperf3.py, on
# 127.0.0.1) that lies about its duration (end_time 1e-9 s, 80000 s: this
# side's seconds are used and the note says so; the figure is the server's
# own count over this side's seconds), that claims a duration inside the
# window but faster than this host sent (0.55x: implausible, shown with its
# flag, never graded), that fails every test or one direction (yabs format:
# "busy ", as yabs.sh writes it; the outcome counted in directions), with an
# HTTP download beside (the data estimate names it). Loopback only; no root;
# ~15 s.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
VPSBENCH=${VPSBENCH:-./build/san/vpsbench}
command -v python3 >/dev/null || { t_skip net_lies "python3 missing"; t_summary smoke_net_lies; exit 0; }
T=$(t_tmpdir)
PIDS=''
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	[ -n "$KEEP" ] && echo "kept $T" >&2 || rm -rf "$T"
}
trap cleanup EXIT

. tests/helpers/fake_iperf3.sh
# run NAME FORMAT [ARGS]: FORMAT on stdout in $T/NAME.out, the JSON report in
# $T/NAME.json, the HTML in $T/NAME.html
run() {
	local name=$1 fmt=$2
	shift 2
	wait_fake "$name"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} $VPSBENCH --only net --net --net-time 1 \
		--format "$fmt" --output "$T/$name.json" --html "$T/$name.html" "${@:---quiet}" \
		--net-server "127.0.0.1:$(cat "$T/$name.port"),Fake,lo" > "$T/$name.out" 2>"$T/$name.err"
	echo $? > "$T/$name.rc"
}
# sane NAME [RC]: exit 0 or 2 (or RC), no sanitizer report
sane() {
	local rc
	rc=$(cat "$T/$1.rc")
	if grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$T/$1.err"; then
		t_fail "$1: sanitizer report" "$(head -5 "$T/$1.err")"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && [ "$rc" != "${2:-0}" ]; then
		t_fail "$1: exit $rc" "$(tail -3 "$T/$1.err")"
	else
		t_ok "$1: exit $rc, no sanitizer report"
	fi
}

fake dur9 dur1e-9
fake dur8 dur80000
fake short dur0.55
fake short2 dur0.55
fake short3 dur0.55
fake fail err1
fake half ok,err1
# a local HTTP file for the half case's download (the data estimate names it)
mkdir "$T/www" && head -c 100000 /dev/zero > "$T/www/f.bin"
hport=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$hport" >/dev/null 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 100); do ss -Hltn "sport = :$hport" | grep -q . && break; sleep 0.1; done
run dur9 text & a=$!
run dur8 text & b=$!
run short prom --quiet --net-streams 1 --require 'net_send_mbit_s>=1' & c=$!
run short2 text --quiet --net-streams 1 & e=$!
run fail yabs & d=$!
wait $a $b $c $d $e
run short3 yabs --quiet --net-streams 1 & a=$!
run half yabs --net-url "http://127.0.0.1:$hport/f.bin" & b=$!
wait $a $b

# 1, 2. a lying duration: both directions keep a figure, each side's count over
# this side's seconds, the note says the server's was not used; the metric
# (net_*_mbit_s, what grades and --require read) is that figure
for c in dur9 dur8; do
	sane $c
	said=$([ $c = dur9 ] && echo '1e-09' || echo '8e+04')
	t_json "$T/$c.json" '(s := j["net"]["servers"][0]) and True' \
		'(L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) and len(L) == 2' \
		'L[0]["end"] == "done" and L[1]["end"] == "done"' \
		's["send"]["status"] == "ok" and s["recv"]["status"] == "ok" and not s["send"]["implausible"] and not s["recv"]["implausible"]' \
		's["send"]["bytes"] == sum(L[0]["bytes"]) and s["send"]["seconds"] == s["send"]["sender_seconds"]' \
		'0.95 < s["send"]["sender_seconds"] < 1.5' \
		'abs(s["send"]["bits_per_second"] - sum(L[0]["bytes"]) * 8 / s["send"]["sender_seconds"]) < 1e-3' \
		's["recv"]["sender_bytes"] == sum(L[1]["bytes"]) and s["recv"]["sender_seconds"] == s["recv"]["seconds"]' \
		'abs(s["recv"]["sender_bits_per_second"] - sum(L[1]["bytes"]) * 8 / s["recv"]["seconds"]) < 1e-3' \
		'abs(s["recv"]["bits_per_second"] - s["recv"]["bytes"] * 8 / s["recv"]["seconds"]) < 1e-3' \
		"all(s[k]['note'].startswith(\"the server's duration $said s is not near this side's \") and s[k]['note'].endswith(\" s: this side's used\") for k in ('send', 'recv'))" \
		'(m := j["metrics_detail"]["net_send_mbit_s"])["measured"] and abs(m["value"] - s["send"]["mbit_s"]) < 1e-6' \
		'(r := j["metrics_detail"]["net_recv_mbit_s"])["measured"] and abs(r["value"] - s["recv"]["mbit_s"]) < 1e-6' \
		'm["value"] < 1e6 and "implausible" not in m["why"] + r["why"]' \
		'j["modules"]["net"]["status"] == "ok"' &&
		t_ok "$c: the server's duration ($said s) not used; figures = its counts over this side's seconds, noted, the metric sane" ||
		t_fail "$c figures"
	# text: the figures in a unit with at most 3 digits, the note under the row
	if grep -Eq '^ Fake +\| lo +\| [0-9]{1,3}(\.[0-9]+)? [KMG]bits/sec +\| [0-9]{1,3}(\.[0-9]+)? [KMG]bits/sec ' "$T/$c.out" &&
		grep -q "^   send: the server's duration $said s is not near this side's" "$T/$c.out" &&
		grep -q "^   receive: the server's duration $said s is not near" "$T/$c.out" &&
		! grep -q 'Tbits\|e+[0-9]* bits' "$T/$c.out"; then
		t_ok "$c: text in sane units, the note under the row"
	else
		t_fail "$c text" "$(grep -A3 '^ Fake' "$T/$c.out" | head -4)"
	fi
done

# 3. a duration inside the window but faster than this host sent: kept, flagged, not graded
# (one stream: what sits in socket buffers at the end, sent but not counted by
# the server, stays small beside the bytes moved even on a loaded machine)
sane short 3
t_json "$T/short.json" '(s := j["net"]["servers"][0]) and True' \
	'(L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) and len(L) == 2' \
	's["send"]["status"] == "ok" and s["send"]["implausible"] is True and s["recv"]["implausible"] is False' \
	'abs(s["send"]["seconds"] - 0.55 * L[0]["seconds"]) < 1e-6 and s["send"]["bytes"] == sum(L[0]["bytes"])' \
	's["send"]["bits_per_second"] > 1.25 * s["send"]["sender_bits_per_second"]' \
	'"implausible, not graded" in s["send"]["note"]' \
	'(m := j["metrics_detail"]["net_send_mbit_s"])["measured"] is False and m["graded"] is False and "implausible" in m["why"]' \
	'j["metrics_detail"]["net_recv_mbit_s"]["measured"] is True' \
	'not any(g["metric"] == "net_send_mbit_s" for g in j["grades"])' \
	'(q := j["requirements"][0])["passed"] is False and q["value"] is None and "implausible" in q["reason"]' \
	'all(w.get("metric") != "net_send_mbit_s" for w in j["verdict"]["weak"])' &&
	[ "$(cat "$T/short.rc")" = 3 ] &&
	t_ok "short: a rate above 1.25x this side's own is flagged implausible, kept, not graded, --require fails as not measured (why said)" ||
	t_fail "implausible figure"
grep -Eq '^vpsbench_net_implausible\{.*direction="send".*\} 1$' "$T/short.out" &&
	grep -Eq '^vpsbench_net_implausible\{.*direction="recv".*\} 0$' "$T/short.out" &&
	t_ok "prom: vpsbench_net_implausible 1 for send, 0 for recv" || t_fail "prom implausible" "$(grep implausible "$T/short.out")"
sane short2
grep -Eq '^ Fake +\| lo +\| [0-9.]+ [KMG]bits/sec! +\| [0-9.]+ [KMG]bits/sec +\|' "$T/short2.out" &&
	grep -q "^   send (!): .* is above 1.25x this side's own .*: implausible, not graded" "$T/short2.out" &&
	grep -Eq '^ net_send_mbit_s +not graded +every server.s send figure was implausible' "$T/short2.out" &&
	t_ok "text: the implausible figure with its \"!\", the reason under the row, not graded" ||
	t_fail "text implausible" "$(grep -A3 '^ Fake' "$T/short2.out" | head -4)"

# 4. every test failed: yabs's "busy " (value "busy", empty unit) in both directions
sane fail
t_json "$T/fail.out" '(y := j["iperf"][0]) and True' \
	'y["send"] == "busy " and y["recv"] == "busy "' \
	'isinstance(y["latency"], str) and (y["latency"] == "--" or y["latency"].endswith(" ms"))' \
	'set(y) == {"mode", "provider", "loc", "send", "recv", "latency"}' &&
	t_ok "yabs: a failed direction is \"busy \" as yabs.sh writes it, never null" || t_fail "yabs busy"
t_json "$T/fail.json" 'j["modules"]["net"]["status"] == "failed" and "of 2 iperf3 directions busy" in j["modules"]["net"]["reason"]' &&
	t_ok "outcome counted in directions" || t_fail "outcome in directions" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["modules"]["net"])' "$T/fail.json")"
grep -q '(implausible, not graded)' "$T/short2.html" && t_ok "HTML: the implausible figure says so" ||
	t_fail "HTML implausible"
sane short3
t_json "$T/short3.out" '(y := j["iperf"][0]) and True' \
	'y["send"].endswith("bits/sec") and y["send_implausible"] is True and "recv_implausible" not in y' &&
	t_ok "yabs: an implausible figure kept, with send_implausible" || t_fail "yabs implausible" "$(head -c 400 "$T/short3.out")"

# 5. one direction measured, the other failed every try; an HTTP download beside
sane half
t_json "$T/half.out" '(y := j["iperf"][0]) and True' \
	'y["send"].endswith("bits/sec") and y["send"] != "busy " and y["recv"] == "busy "' &&
	t_ok "yabs: the measured direction's figure, the failed one \"busy \"" || t_fail "yabs half" "$(head -c 400 "$T/half.out")"
t_json "$T/half.json" '(n := j["modules"]["net"])["status"] == "ok"' \
	'n["reason"] == "1 of 2 directions not measured"' \
	'j["net"]["http"][0]["status"] == "ok"' &&
	t_ok "outcome: 1 of 2 directions not measured (counted per direction, the download measured)" ||
	t_fail "outcome per direction" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["modules"]["net"])' "$T/half.json")"
grep -q "net: iperf3 with 1 server (per family) x 2 directions x 1 s = 2 s at full speed, 8 streams; 1 HTTP download x up to 1 s, 4 connections each (at 1 Gbit/s, an assumed port speed, about 375 MB)" "$T/half.err" &&
	t_ok "data estimate before the run: the iperf3 tests and the HTTP download, at an assumed 1 Gbit/s" ||
	t_fail "data estimate" "$(grep 'net: ' "$T/half.err" | head -2)"
t_schema "lying-server reports validate against the schema" "$T"/dur9.json "$T"/dur8.json "$T"/short.json "$T"/short2.json "$T"/short3.json "$T"/fail.json "$T"/half.json
t_summary smoke_net_lies
