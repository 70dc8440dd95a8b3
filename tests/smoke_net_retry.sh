#!/bin/bash
# smoke_net_retry.sh — the iperf3 retry policy and each family's reach
# (issue #42). Against the scripted fake server (tests/helpers/fake_iperf3.py)
# on 127.0.0.1, no root needed: an unexpected close mid-run, a server error
# and an unexpected state byte, each followed by a good test that the retry
# measures (its figure is the fake server's count of that second test, the
# first try's end is named in try_log); a port range of two where only the
# second listens: a direction that drew the first port is refused there and
# measured on the next, one that drew the second is measured at once (the
# draws fixed by VPSBENCH_NET_SEED; the seeds below cover both orders).
# As root, in network namespaces vpsbench-bh-PID (the client: a veth
# addressed from 2001:db8:1::/64 and a default route, so the host's IPv6
# counts as usable) and vpsbench-bhr-PID (its gateway), 7 servers in
# 2001:db8:ffff::/48 that cannot be reached: a blackhole route here
# (connect: EINVAL at once), an unreachable route at the gateway (an ICMPv6
# error back), a blackhole route at the gateway (packets vanish: the
# connects time out, 5 s then 2 s): every IPv6 row ends within 10 s with
# one reason, and no server is connected more than twice in all. A refused
# connect proves the family: blackholed servers after it are each tried.
# Nothing here reaches any address outside this machine.
# RETRY_ONLY=port: the port-range part only (tests/mutants.txt).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
command -v python3 >/dev/null || { t_skip net_retry "python3 missing"; t_summary smoke_net_retry; exit 0; }
T=$(t_tmpdir)
PIDS=''
NS=vpsbench-bh-$$ GW=vpsbench-bhr-$$
cleanup() {
	local p
	for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	ip netns del $NS 2>/dev/null
	ip netns del $GW 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# two ports, LO and LO+1, both free now: "LO HI"
free_pair() {
	python3 -c '
import socket
while True:
    a = socket.socket(); a.bind(("127.0.0.1", 0)); p = a.getsockname()[1]
    b = socket.socket()
    try:
        b.bind(("127.0.0.1", p + 1)); print(p, p + 1); break
    except OSError:
        pass'
}
# fake NAME PORT SCRIPTS: a server for this case on PORT; its log $T/NAME.log
fake() {
	python3 tests/helpers/fake_iperf3.py 127.0.0.1 "$2" "$3" "$T/$1.log" 2>"$T/$1.srv.err" &
	PIDS="$PIDS $!"
	for _ in $(seq 100); do
		ss -Hltn "sport = :$2" | grep -q . && return
		sleep 0.1
	done
}
# run NAME SERVER ARGS...: vpsbench against SERVER; JSON in $T/NAME.json, exit code in $T/NAME.rc
run() {
	local name=$1 srv=$2
	shift 2
	$VPSBENCH --only net --net --net-time 1 --quiet --json --net-server "$srv" "$@" \
		> "$T/$name.json" 2>"$T/$name.err"
	echo $? > "$T/$name.rc"
}
RUNS=''
bgrun() { run "$@" & RUNS="$RUNS $!"; }
sane() { # no sanitizer report, exit 0
	! grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$T/$1.err" && [ "$(cat "$T/$1.rc")" = 0 ]
}

# 1. a first try that ends badly, then a good test: the retry 2 s later measures it
S='(s := j["net"]["servers"][0]) and (L := [json.loads(x) for x in open(sys.argv[1].replace(".json", ".log"))]) is not None'
RETRY='s["send"]["status"] == "ok" and s["send"]["tries"] == 2 and len(s["send"]["try_log"]) == 2'
FIGS='s["send"]["try_log"][1]["end"] is None and s["send"]["bytes"] == sum(L[1]["bytes"]) > 0'
FIGS2='s["send"]["sender_bytes"] == sum(x["bytes"] for x in L[1]["client_results"]["streams"])'
RECV='s["recv"]["status"] == "ok" and s["recv"]["tries"] == 1 and s["recv"]["sender_bytes"] == sum(L[2]["bytes"])'
if [ "${RETRY_ONLY:-}" != port ]; then
	read -r p _ < <(free_pair); fake closemid "$p" closemid,ok
	# 2 s tests: the close at 1 s is in the middle of the run
	bgrun closemid "127.0.0.1:$p,Fake,lo" --net-time 2
	read -r p _ < <(free_pair); fake err2 "$p" err2,ok
	bgrun err2 "127.0.0.1:$p,Fake,lo"
	read -r p _ < <(free_pair); fake badbyte "$p" badbyte,ok
	bgrun badbyte "127.0.0.1:$p,Fake,lo"
	read -r p _ < <(free_pair); fake lie "$p" ids12,ok
	bgrun lie "127.0.0.1:$p,Fake,lo"
fi
# 2. LO refuses (nothing listens), LO+1 answers; one fake and run per seed
SEEDS="1 2 3 4"
for k in $SEEDS; do
	read -r lo hi < <(free_pair)
	fake "port$k" "$hi" ok
	echo "$lo $hi" > "$T/port$k.ports"
	VPSBENCH_NET_SEED=$k bgrun "port$k" "127.0.0.1:$lo-$hi,Range,lo"
done
# shellcheck disable=SC2086
wait $RUNS

if [ "${RETRY_ONLY:-}" != port ]; then
	sane closemid && t_json "$T/closemid.json" "$S" "$RETRY" "$FIGS" "$FIGS2" "$RECV" \
		'L[0]["end"] == "closed mid-run" and L[1]["end"] == "done"' \
		'any(w in s["send"]["try_log"][0]["end"] for w in ("closed", "reset", "Broken pipe"))' \
		'0.9 < s["send"]["try_log"][0]["seconds"] < 2.5 and s["send"]["try_log"][0]["port"] == s["port_min"]' \
		's["send"]["reason"] is None and abs(s["send"]["bits_per_second"] - s["send"]["bytes"] * 8 / s["send"]["seconds"]) < 1e-3' &&
		t_ok "closed mid-run, then ok: retried; the figure is the second test's count; try_log names the close" ||
		t_fail "closemid,ok" "$(tail -3 "$T/closemid.err")"
	sane err2 && t_json "$T/err2.json" "$S" "$RETRY" "$FIGS" "$FIGS2" "$RECV" \
		'"server error 5 (test duration too long)" in s["send"]["try_log"][0]["end"]' \
		'L[0]["end"] == "error, two ints"' &&
		t_ok "server error, then ok: retried; the figure is the second test's count" ||
		t_fail "err2,ok" "$(tail -3 "$T/err2.err")"
	sane badbyte && t_json "$T/badbyte.json" "$S" "$RETRY" "$FIGS" "$FIGS2" "$RECV" \
		'"unexpected state byte 99" in s["send"]["try_log"][0]["end"]' &&
		t_ok "unexpected state byte, then ok: retried; the figure is the second test's count" ||
		t_fail "badbyte,ok" "$(tail -3 "$T/badbyte.err")"
	# a lie is not retried: the good test after it is the receive direction's
	t_json "$T/lie.json" "$S" 's["send"]["status"] == "failed" and s["send"]["tries"] == 1' \
		'len(s["send"]["try_log"]) == 1 and "stream id 2 is not one of" in s["send"]["try_log"][0]["end"]' \
		's["recv"]["status"] == "ok" and s["recv"]["tries"] == 1 and s["recv"]["sender_bytes"] == sum(L[1]["bytes"])' &&
		t_ok "a lie (stream ids 1, 2): not retried" || t_fail "ids12,ok" "$(tail -3 "$T/lie.err")"
fi

# the range: each direction that drew LO was refused there and measured on LO+1
refused_first=0
for k in $SEEDS; do
	read -r lo hi < "$T/port$k.ports"
	sane "port$k" && t_json "$T/port$k.json" "$S" "(lo := $lo) and (hi := $hi) and s['status'] == 'ok'" \
		'all(s[d]["status"] == "ok" and s[d]["port"] == hi for d in ("send", "recv"))' \
		'all((x := s[d]["try_log"])[-1] == {"port": hi, "seconds": x[-1]["seconds"], "end": None} for d in ("send", "recv"))' \
		'all(s[d]["tries"] == 1 if s[d]["try_log"][0]["port"] == hi else s[d]["tries"] == 2 and "connection refused" in s[d]["try_log"][0]["end"].lower() and s[d]["try_log"][0]["port"] == lo for d in ("send", "recv"))' \
		's["send"]["bytes"] == sum(L[0]["bytes"]) and s["recv"]["sender_bytes"] == sum(L[1]["bytes"]) and len(L) == 2' &&
		t_ok "seed $k: range $lo-$hi measured on $hi (a draw of $lo: refused there, then $hi at once)" ||
		t_fail "seed $k: refused port then the next" "$(tail -3 "$T/port$k.err")"
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["net"]["servers"][0]
sys.exit(0 if any(s[d]["try_log"][0]["port"] == int(sys.argv[2]) for d in ("send", "recv")) else 1)' \
		"$T/port$k.json" "$lo" 2>/dev/null && refused_first=$((refused_first + 1))
done
[ $refused_first -ge 1 ] && t_ok "the seeds cover a refused first port ($refused_first of 4 runs)" ||
	t_fail "no seed drew the refusing port first: the refused->next rule was not exercised"
t_schema "retry reports validate against the schema" "$T"/*.json
[ "${RETRY_ONLY:-}" = port ] && { t_summary smoke_net_retry; exit; }

# 3. an unreachable IPv6 family (root: network namespaces)
bh_skip() {
	t_is_root || { echo "not root"; return; }
	command -v ip >/dev/null || { echo "ip missing"; return; }
	ip netns add $NS 2>/dev/null && ip netns add $GW 2>/dev/null || { echo "cannot create namespaces"; return; }
	ip link add vbh$$ netns $NS type veth peer name vbhr$$ netns $GW 2>/dev/null || { echo "no veth"; return; }
}
why=$(bh_skip)
if [ -n "$why" ]; then
	t_skip "unreachable IPv6 family" "$why"
	t_summary smoke_net_retry; exit
fi
cl() { ip netns exec $NS "$@"; }
gw() { ip netns exec $GW "$@"; }
if ! { cl ip link set lo up && gw ip link set lo up &&
	cl ip addr add 2001:db8:1::1/64 dev vbh$$ nodad && gw ip addr add 2001:db8:1::2/64 dev vbhr$$ nodad &&
	cl ip link set vbh$$ up && gw ip link set vbhr$$ up &&
	cl ip -6 route add default via 2001:db8:1::2 dev vbh$$ &&
	gw sysctl -qw net.ipv6.conf.all.forwarding=0 &&
	gw sysctl -qw net.ipv6.icmp.ratelimit=0; } 2>"$T/ns.err"; then
	t_fail "namespaces set-up" "$(head -2 "$T/ns.err")"
	t_summary smoke_net_retry; exit
fi
SRV=()
for i in 1 2 3 4 5 6 7; do SRV+=(--net-server "[2001:db8:ffff::$i]:5201-5210,S$i,bh"); done
# bh NAME [SERVER...]: vpsbench in the client namespace, IPv6 only, the 7
# servers after any given; text on stdout, JSON in $T/NAME.json
bh() {
	local name=$1 t0
	shift
	t0=$(date +%s.%N)
	cl $VPSBENCH --only net --net --net-6 --net-time 1 --output "$T/$name.json" "$@" "${SRV[@]}" \
		> "$T/$name.txt" 2>"$T/$name.err"
	echo "$? $(python3 -c "import time; print('%.1f' % (time.time() - $t0))")" > "$T/$name.rc"
}
# unreach NAME ERR: every row ended within 10 s; the first two tried once
# each (the second with a 2 s connect), the family unreachable naming ERR,
# every other direction not tried and saying so; the text says it once
unreach() {
	local name=$1 err=$2 rc el
	read -r rc el < "$T/$name.rc"
	python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= 10)' "$el" && [ "$rc" = 2 ] &&
		! grep -q 'AddressSanitizer\|runtime error' "$T/$name.err" &&
	t_json "$T/$name.json" "(err := '$err') and (R := j['net']['servers']) and len(R) == 7" \
		'(f := j["net"]["families"]["ipv6"])["reachable"] is False and f["reason"].count(err) == 2' \
		'"2001:db8:ffff::1" in f["reason"] and "2001:db8:ffff::2" in f["reason"]' \
		'(why := "IPv6 unreachable from this host (" + f["reason"] + ")") and True' \
		'R[0]["send"]["tries"] == 1 and err in R[0]["send"]["reason"] and R[0]["recv"]["tries"] == 0 and R[0]["recv"]["reason"] == why' \
		'R[1]["send"]["tries"] == 1 and err in R[1]["send"]["reason"] and R[1]["send"]["try_log"][0]["seconds"] < 2.6' \
		'R[1]["recv"]["tries"] == 0 and R[1]["recv"]["reason"] == why' \
		'all(r[d]["tries"] == 0 and r[d]["reason"] == why and r[d]["try_log"] == [] for r in R[2:] for d in ("send", "recv"))' \
		'all(r["status"] in ("failed", "timeout") and r["bytes_moved"] == 0 for r in R)' \
		'j["net"]["families"]["ipv4"] == {"reachable": None, "reason": None}' &&
	[ "$(grep -c 'IPv6 unreachable from this host' "$T/$name.txt")" = 1 ] &&
	grep -q '^ IPv6 unreachable from this host (.*): 5 servers not tried$' "$T/$name.txt"
}
# (a) a blackhole route on this host: connect says EINVAL at once
cl ip -6 route add blackhole 2001:db8:ffff::/48
bh local
unreach local "Invalid argument" &&
	t_ok "blackhole route here: 7 IPv6 rows in $(cut -d' ' -f2 "$T/local.rc") s, two connects, one reason" ||
	t_fail "blackhole route here" "$(cat "$T/local.rc"; grep -i 'unreach\|fail' "$T/local.txt" | head -5)"
# (a') a refused connect proves the family: the blackholed servers after it are each tried
bh refused --net-server '[2001:db8:1::2]:5299,Closed,gw'
read -r rc el < "$T/refused.rc"
t_json "$T/refused.json" '(R := j["net"]["servers"]) and len(R) == 8 and j["net"]["families"]["ipv6"]["reachable"] is True' \
	'"refused" in R[0]["send"]["reason"].lower() and R[0]["send"]["tries"] == 1' \
	'all(r[d]["tries"] == 1 and "Invalid argument" in r[d]["reason"] for r in R[1:] for d in ("send", "recv"))' &&
	python3 -c 'import sys; sys.exit(float(sys.argv[1]) >= 10)' "$el" &&
	t_ok "a refusal proves IPv6 reaches: each blackholed server is tried (in $el s)" ||
	t_fail "refused first" "$(cat "$T/refused.rc")"
cl ip -6 route del blackhole 2001:db8:ffff::/48
# (b) an unreachable route at the gateway: its ICMPv6 error comes back
gw ip -6 route add unreachable 2001:db8:ffff::/48
bh icmp
err=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["net"]["servers"][0]["send"]["reason"].split(": ")[-1])' "$T/icmp.json" 2>/dev/null)
case $err in
*unreachable* | *"No route"*) unreach icmp "$err" ;;
*) false ;;
esac && t_ok "unreachable at the gateway ($err): 7 IPv6 rows in $(cut -d' ' -f2 "$T/icmp.rc") s, one reason" ||
	t_fail "unreachable at the gateway" "$(cat "$T/icmp.rc"; grep -i 'unreach\|fail' "$T/icmp.txt" | head -5)"
gw ip -6 route del unreachable 2001:db8:ffff::/48
# (c) a blackhole route at the gateway: nothing comes back, connects time out
gw ip -6 route add blackhole 2001:db8:ffff::/48
bh vanish
unreach vanish "connect timed out after" &&
	t_json "$T/vanish.json" '(R := j["net"]["servers"]) and "after 5 s" in R[0]["send"]["reason"] and "after 2 s" in R[1]["send"]["reason"]' &&
	t_ok "packets vanish at the gateway: connects of 5 s and 2 s, 7 IPv6 rows in $(cut -d' ' -f2 "$T/vanish.rc") s, one reason" ||
	t_fail "packets vanish" "$(cat "$T/vanish.rc"; grep -i 'unreach\|fail\|timeout' "$T/vanish.txt" | head -5)"
t_schema "unreachable-family reports validate against the schema" "$T"/local.json "$T"/icmp.json "$T"/vanish.json "$T"/refused.json
t_summary smoke_net_retry
