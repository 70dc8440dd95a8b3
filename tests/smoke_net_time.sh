#!/bin/bash
# run-all: (shared: every check is a deadline on the run's own clock; loopback and namespaces of its own, ~15 s)
# smoke_net_time.sh — the net module's time discipline (issue #42):
#  1. a silent resolver (root: inside `unshare -n -m`, a network namespace
#     with only lo and a private mount namespace whose /etc/resolv.conf
#     names 127.0.0.53, where tests/helpers/silent_dns.py reads queries and
#     never answers; /etc/nsswitch.conf there is "hosts: files dns"): a named
#     server with --net-max-time 8s ends within 8 + 2 s with "DNS lookup of
#     NAME timed out after 8 s"; the built-in list ends after the 10 s DNS
#     limit, every name timed out, every name asked of the silent socket
#     only; SIGINT 1 s after the query arrived stops the run within 1 s; a
#     lookup answered (NXDOMAIN) at 11 s, after it was abandoned at 10 s,
#     while the run measures the next row (a fake server in the namespace):
#     its thread frees what it shared, no sanitizer report.
#  2. the cap: the fake server's `stall` (nothing after TEST_RUNNING) with
#     --net-time 1 --net-max-time 5s (a try needs its 1 s and 3 s): the module ends within cap + 0.5 s
#     (the 1 s close drain clamped to the cap), reasons "cut by
#     --net-max-time", "not started".
#  3. a connect that gets no answer (a listener with a full backlog on
#     127.0.0.1 drops SYNs): the reason names the connect and its 5 s, not
#     "server stalled".
#  4. SIGINT during a fake-server test: the fake server's log shows state 12
#     (CLIENT_TERMINATE) received; the run stops within 1 s of the signal.
# "Stops within 1 s": the --output report (written atomically as the run
# ends) exists within 1 s of SIGINT; the exit itself within 2 s (the ASan
# build's leak check at exit took 0.05-0.3 s more at load 11, measured).
# Loopback only outside the namespace; nothing can leave a namespace with only lo.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
command -v python3 >/dev/null || { t_skip net_time "python3 missing"; t_summary smoke_net_time; exit 0; }
T=$(t_tmpdir)
PIDS=''
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
now() { date +%s.%N; }
# le A B: A <= B (floats)
le() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "$1" "$2"; }
sub() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) - float(sys.argv[2])))' "$1" "$2"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_listen() {
	for _ in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}
# sane NAME: no sanitizer report, no crash in $T/NAME.err / $T/NAME.rc (130: stopped by SIGINT)
sane() {
	local rc
	rc=$(cat "$T/$1.rc" 2>/dev/null)
	if grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$T/$1.err"; then
		t_fail "$1: sanitizer report" "$(grep -m3 'Sanitizer\|runtime error\|#[0-9] ' "$T/$1.err" | head -c 600)"
	elif [ -z "$rc" ] || { [ "$rc" -gt 2 ] && [ "$rc" -ne 130 ]; }; then
		t_fail "$1: exit ${rc:-none} (crash?)" "$(tail -3 "$T/$1.err")"
	else
		return 0
	fi
	return 1
}
modsecs() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["modules"]["net"]["seconds"])' "$1"; }

# --- 1. the silent resolver, in namespaces of its own (root) ---
cat > "$T/ns.sh" <<'EOF'
# runs inside unshare -n -m: only lo, and mounts no one else sees
T=$1 V=$2
ip link set lo up || exit 3
# a usable IPv4 for sysinfo (an address and a default route off lo): a veth
# pair with both ends in here, so a packet sent "out" stays in here
ip link add vpsbench-a type veth peer name vpsbench-b && ip link set vpsbench-a up &&
	ip link set vpsbench-b up && ip addr add 198.18.5.1/24 dev vpsbench-a &&
	ip route add default via 198.18.5.2 dev vpsbench-a || exit 3
mount --bind "$T/resolv.conf" /etc/resolv.conf || exit 3
mount --bind "$T/nsswitch.conf" /etc/nsswitch.conf || exit 3
# a running nscd would answer from outside this namespace: hide its socket
for d in /run/nscd /var/run/nscd; do [ -d "$d" ] && { mount -t tmpfs none "$d" || exit 3; }; done
# names starting "late" answered NXDOMAIN after 11 s: after the 10 s DNS limit
python3 tests/helpers/silent_dns.py 127.0.0.53 53 "$T/dns.log" 11 2>"$T/dns.err" & DNS=$!
python3 tests/helpers/fake_iperf3.py 127.0.0.1 5201 ok "$T/nsfake.log" 2>"$T/nsfake.err" & FAKE=$!
trap 'kill $DNS $FAKE 2>/dev/null' EXIT
for _ in $(seq 100); do [ -e "$T/dns.log" ] && ss -Hltn "sport = :5201" | grep -q . && break; sleep 0.1; done
[ -e "$T/dns.log" ] || exit 4
# run NAME ARGS...: one vpsbench run; its start and end times, exit status, JSON
run() {
	local n=$1
	shift
	date +%s.%N > "$T/$n.t0"
	"$V" --only net --net --json --quiet "$@" > "$T/$n.json" 2> "$T/$n.err"
	echo $? > "$T/$n.rc"
	date +%s.%N > "$T/$n.t1"
}
run one --net-server one.example.invalid --net-max-time 8s &
A=$!
run builtin --net-time 25 --net-max-time 30s &
B=$!
# a lookup answered after it was abandoned, while the run goes on with a literal's row
run late --net-server late.example.invalid --net-server 127.0.0.1:5201,Fake,lo --net-time 1 \
	--net-max-time 20s &
L=$!
# SIGINT 1 s after the lookup reached the silent resolver
date +%s.%N > "$T/int.t0"
"$V" --only net --net --quiet --output "$T/int.json" --net-server int.example.invalid \
	--net-max-time 8s > /dev/null 2> "$T/int.err" &
C=$!
for _ in $(seq 100); do grep -qx int.example.invalid "$T/dns.log" && break; sleep 0.05; done
sleep 1
python3 tests/helpers/sigint_report.py $C "$T/int.json" > "$T/int.sig"
wait $C
echo $? > "$T/int.rc"
date +%s.%N > "$T/int.t1"
wait $A $B $L
EOF
ns_ok=0
if ! t_is_root; then
	t_skip "silent resolver" "needs root (unshare -n -m)"
elif ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
	t_skip "silent resolver" "unshare or ip missing"
else
	printf 'nameserver 127.0.0.53\noptions timeout:30 attempts:1\n' > "$T/resolv.conf"
	printf 'hosts: files dns\n' > "$T/nsswitch.conf"
	timeout -s KILL 50 unshare -n -m --propagation private --kill-child \
		bash "$T/ns.sh" "$T" "$VPSBENCH" > "$T/ns.out" 2>&1 &
	NS=$!
	PIDS="$PIDS $NS"
	ns_ok=1
fi

# --- 2-4. loopback: fake servers and a listener that never accepts ---
fake() {
	local port
	port=$(free_port)
	python3 tests/helpers/fake_iperf3.py 127.0.0.1 "$port" "$2" "$T/$1.log" 2>"$T/$1.srv.err" &
	PIDS="$PIDS $!"
	echo "$port" > "$T/$1.port"
}
fake stall stall
fake term ok
# a listener with a backlog of 0 and one connection queued: a SYN gets no answer
cport=$(free_port)
python3 -c '
import socket, sys, time
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", int(sys.argv[1]))); l.listen(0)
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
time.sleep(60)' "$cport" 2>"$T/full.srv.err" &
PIDS="$PIDS $!"
lrun() {
	local n=$1 port=$2
	shift 2
	date +%s.%N > "$T/$n.t0"
	$VPSBENCH --only net --net --json --quiet --net-server "127.0.0.1:$port,Fake,lo" "$@" \
		> "$T/$n.json" 2> "$T/$n.err"
	echo $? > "$T/$n.rc"
	date +%s.%N > "$T/$n.t1"
}
wait_listen "$(cat "$T/stall.port")"
lrun stall "$(cat "$T/stall.port")" --net-time 1 --net-max-time 5s &
S=$!
wait_listen "$cport"
# the queued connection is in place before the run's first SYN
sleep 0.3
lrun conn "$cport" --net-time 1 --net-max-time 8s &
CN=$!
wait_listen "$(cat "$T/term.port")"
date +%s.%N > "$T/term.t0"
$VPSBENCH --only net --net --quiet --output "$T/term.json" --net-time 10 --net-streams 2 \
	--net-server "127.0.0.1:$(cat "$T/term.port"),Fake,lo" > /dev/null 2> "$T/term.err" &
TP=$!
sleep 2.5
python3 tests/helpers/sigint_report.py $TP "$T/term.json" > "$T/term.sig"
wait $TP
echo $? > "$T/term.rc"
date +%s.%N > "$T/term.t1"
wait $S $CN

# 2. the cap
if sane stall; then
	el=$(modsecs "$T/stall.json")
	t_json "$T/stall.json" '(s := j["net"]["servers"][0]) and True' \
		'"cut by --net-max-time" in s["send"]["reason"] and s["send"]["status"] == "skipped"' \
		's["send"]["bytes_moved"] > 0 and s["send"]["bits_per_second"] is None' \
		'"not started" in s["recv"]["reason"] and j["net"]["max_time_hit"]' &&
		le "$el" 5.5 && t_ok "cap: stall with --net-max-time 5s: the module took ${el} s (<= cap + 0.5), cut and not started named" ||
		t_fail "cap: stall" "module ${el} s against 5 s; $(head -c 300 "$T/stall.err")"
fi
# 3. a connect timeout is named as one
if sane conn; then
	t_json "$T/conn.json" '(s := j["net"]["servers"][0]) and True' \
		'"connect" in s["send"]["reason"] and "5 s" in s["send"]["reason"]' \
		'"stalled" not in s["send"]["reason"] and s["send"]["status"] == "timeout"' &&
		t_ok "connect with no answer: '$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["net"]["servers"][0]["send"]["reason"])' "$T/conn.json")' (module $(modsecs "$T/conn.json") s against 8 s)" ||
		t_fail "connect timeout named"
fi
# 4. CLIENT_TERMINATE on SIGINT
if sane term; then
	read -r tsig stop < "$T/term.sig"
	ex=$(sub "$(cat "$T/term.t1")" "$tsig")
	for _ in $(seq 30); do [ -s "$T/term.log" ] && break; sleep 0.1; done
	t_json "$T/term.json" '(s := j["net"]["servers"][0]) and True' \
		'(L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) and len(L) == 1' \
		'L[0]["state"] == 12 and L[0]["end"] == "client terminated"' \
		's["send"]["reason"] == "interrupted" and j["modules"]["net"]["status"] == "incomplete"' &&
		le 0 "$stop" && le "$stop" 1.0 && le "$ex" 2.0 &&
		t_ok "SIGINT during a test: CLIENT_TERMINATE (12) received by the server, report written ${stop} s after the signal, exit ${ex} s" ||
		t_fail "CLIENT_TERMINATE" "report ${stop} s (-1: none), exit ${ex} s after SIGINT; log: $(head -c 300 "$T/term.log")"
fi

# 1. the silent resolver's checks
if [ $ns_ok = 1 ]; then
	wait "$NS"
	nrc=$?
	if [ $nrc -ne 0 ]; then
		t_fail "silent resolver namespace" "exit $nrc: $(head -c 400 "$T/ns.out")"
	else
		if sane one; then
			el=$(modsecs "$T/one.json")
			t_json "$T/one.json" '(s := j["net"]["servers"][0]) and True' \
				'"DNS lookup of one.example.invalid timed out after 8 s" in s["reason"]' \
				'len(j["net"]["servers"]) == 1' &&
				grep -qx one.example.invalid "$T/dns.log" && le "$el" 10 &&
				t_ok "silent resolver, --net-max-time 8s: module ${el} s (<= 8 + 2), the query reached the silent socket, timed out named" ||
				t_fail "silent resolver, one name" "module ${el} s; $(head -c 300 "$T/one.err")"
		fi
		if sane builtin; then
			el=$(modsecs "$T/builtin.json")
			python3 - "$T/builtin.json" "$T/dns.log" <<'PY' && le "$el" 11 &&
import json, sys
j = json.load(open(sys.argv[1]))
asked = set(open(sys.argv[2]).read().split())
rows = j["net"]["servers"]
bad = [r["host"] for r in rows if "DNS lookup of %s timed out after 10 s" % r["host"] not in r["reason"]
       or r["host"] not in asked]
if len(rows) != 7 or bad:
    print("  rows %d, not timed out or not asked of the silent socket: %s" % (len(rows), bad), file=sys.stderr)
    sys.exit(1)
PY
				t_ok "silent resolver, built-in list: module ${el} s (the 10 s DNS limit, <= 11), all 7 names asked of the silent socket only, each timed out after 10 s" ||
				t_fail "silent resolver, built-in list" "module ${el} s"
		fi
		if sane late; then
			el=$(modsecs "$T/late.json")
			t_json "$T/late.json" '(s := j["net"]["servers"]) and len(s) == 2' \
				'"DNS lookup of late.example.invalid timed out after 10 s" in s[0]["reason"]' \
				's[1]["status"] == "ok" and s[1]["send"]["status"] == "ok" and s[1]["recv"]["status"] == "ok"' &&
				grep -q '^answered late.example.invalid' "$T/dns.log" &&
				le "$(awk '/^answered late/ { print $3; exit }' "$T/dns.log")" "$(cat "$T/late.t1")" &&
				t_ok "a lookup answered after it was abandoned (11 s) while the run went on (module ${el} s): the next row measured, no sanitizer report" ||
				t_fail "late answer" "$(grep answered "$T/dns.log"); ended $(cat "$T/late.t1")"
		fi
		if sane int; then
			read -r tsig stop < "$T/int.sig"
			ex=$(sub "$(cat "$T/int.t1")" "$tsig")
			t_json "$T/int.json" '(s := j["net"]["servers"][0]) and True' \
				'"DNS lookup of int.example.invalid interrupted" in s["reason"]' \
				'j["modules"]["net"]["status"] == "incomplete"' &&
				le 0 "$stop" && le "$stop" 1.0 && le "$ex" 2.0 &&
				t_ok "silent resolver, SIGINT 1 s into the lookup: report written ${stop} s after the signal, exit ${ex} s (module $(modsecs "$T/int.json") s)" ||
				t_fail "silent resolver, SIGINT" "report ${stop} s (-1: none), exit ${ex} s after the signal"
		fi
	fi
fi
t_schema "reports validate against the schema" "$T"/*.json
t_summary smoke_net_time
