#!/bin/bash
# run-all: alone (see tests/run-all.sh): its checks need the machine to itself
# smoke_net.sh — the opt-in net module against real servers on a private
# link: two network namespaces joined by a veth pair addressed from
# 198.18.0.0/15 (RFC 2544, benchmarking) and 2001:db8::/32, shaped with tc
# tbf, Debian's iperf3 -s on the far side. Nothing here reaches any address
# outside this machine. Root only; skips cleanly otherwise.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# Bad input: one line naming the option, exit 1, nothing sent (no root
# needed; strace -f shows no inet socket and no connect when it is there).
have_strace=0; command -v strace >/dev/null && have_strace=1
# inet_sockets TRACE: the socket()/connect() lines of a trace that are not
# AF_UNIX or AF_NETLINK (the only kinds an offline run may open)
inet_sockets() { grep -v 'AF_UNIX\|AF_NETLINK' "$1" | grep 'socket(\|connect('; }
BT=$(t_tmpdir)
for a in "--net-server 198.18.0.2:0" "--net-server 198.18.0.2:5210-5200" "--net-server 198.18.0.2:70000" \
	 "--net-server [2001:db8::2" "--net-server 2001:db8::2]" "--net-server [2001:db8::2]x" \
	 "--net-server 2001:db8::2" "--net-streams 0" "--net-streams 129" "--net-streams -1" "--net-streams x" \
	 "--net-time 0" "--net-url ftp://198.18.0.2/x" "--net-url file:///etc/passwd" "--net-url http://" \
	 "--net-conns 33"; do
	opt=${a%% *}
	# shellcheck disable=SC2086
	out=$($VPSBENCH --only net --net $a 2>&1 >/dev/null); rc=$?
	: > "$BT/trace"
	# again under strace (LeakSanitizer cannot run under ptrace)
	# shellcheck disable=SC2086
	[ $have_strace = 1 ] && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$BT/trace" \
		$VPSBENCH --only net --net $a >/dev/null 2>&1
	sent=$(inet_sockets "$BT/trace")
	if [ $rc -eq 1 ] && [ -n "$out" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	   printf '%s' "$out" | grep -q -- "$opt" && [ -z "$sent" ]; then
		t_ok "bad input '$a': one line naming $opt, exit 1, no socket"
	else
		t_fail "bad input '$a'" "rc=$rc out=$out sockets=$sent"
	fi
done
rm -rf "$BT"
out=$($VPSBENCH --only net --net-server 198.18.0.2 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'need --net' && t_ok "--net-server without --net: exit 1" ||
	t_fail "--net-server without --net" "rc=$rc $out"
$VPSBENCH --help | grep -q -- '--net-server' && t_ok "--help lists --net-server" || t_fail "--help"

# The module is opt-in: not in the default run, and a default run (every
# default module, sizes and times cut short) makes no inet socket and no
# connect at all (strace -f sees every process and thread).
if [ $have_strace = 1 ]; then
	d=$(t_tmpdir)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$d/trace" $VPSBENCH --dir "$d" --quiet --json \
		--cpu-time 100ms --mem-size 1M --seq-runs 1 --seq-size 8M --size 8M --runtime 1s --ramp 0s \
		> "$d/r.json" 2>"$d/err"; rc=$?
	sent=$(inet_sockets "$d/trace")
	if [ $rc -eq 0 ] && [ -z "$sent" ]; then
		t_ok "default run (no --net): no inet socket, no connect (strace -f)"
	else
		t_fail "default run: no socket" "rc=$rc $(echo "$sent" | head -3) $(tail -2 "$d/err")"
	fi
	t_json "$d/r.json" '"net" not in j' '"net" not in j["modules"]' \
		'all(m in j["modules"] for m in ("sysinfo", "seq", "rand", "cpu", "mem"))' &&
		t_ok "default run: every default module ran, net did not" || t_fail "default run: net not run"
	# the check can fail: a --net run to a closed port on loopback shows its connects
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$d/trace2" $VPSBENCH --only net --net --net-time 1 \
		--net-server 127.0.0.1:1 --quiet --json > /dev/null 2>&1
	inet_sockets "$d/trace2" | grep -q 'connect(.*127\.0\.0\.1' &&
		t_ok "strace check sees a --net run's connects" || t_fail "strace check sees connects" "$(head -3 "$d/trace2")"
	rm -rf "$d"
else
	t_skip "no socket without --net" "strace missing"
fi

if ! t_is_root; then t_skip "net namespaces" "not root"; t_summary smoke_net; exit; fi
for b in ip tc iperf3 python3; do
	command -v $b >/dev/null || { t_skip "net namespaces" "$b missing"; t_summary smoke_net; exit; }
done
$VPSBENCH --only net --net --net-server 127.0.0.1:1 --quiet --json 2>/dev/null |
	grep -q 'built without libiperf' && { t_skip "net" "built without libiperf"; t_summary smoke_net; exit; }

C=vpsbn$$c S=vpsbn$$s C6=vpsbn$$c6 S6=vpsbn$$s6
TMP=${NET_TMP:-$(t_tmpdir)}
cleanup() {
	exec 2>/dev/null # bash reports the servers it kills below
	for ns in $C $S $C6 $S6; do
		# every process we started in there, then the namespace
		for p in $(ip netns pids $ns 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		ip netns del $ns 2>/dev/null
	done
	[ -n "$NET_TMP" ] || rm -rf "$TMP"
}
trap cleanup EXIT
inc() { ip netns exec $C "$@"; }
ins() { ip netns exec $S "$@"; }
setup() {
	ip netns add $C && ip netns add $S && ip netns add $C6 && ip netns add $S6 || return 1
	ip link add vbc$$ netns $C type veth peer name vbs$$ netns $S || return 1
	inc ip link set lo up && ins ip link set lo up &&
	inc ip addr add 198.18.0.1/24 dev vbc$$ && ins ip addr add 198.18.0.2/24 dev vbs$$ &&
	inc ip link set vbc$$ up && ins ip link set vbs$$ up || return 1
	# IPv6-only pair
	ip link add vb6c$$ netns $C6 type veth peer name vb6s$$ netns $S6 || return 1
	ip netns exec $C6 ip link set lo up && ip netns exec $S6 ip link set lo up &&
	ip netns exec $C6 ip addr add 2001:db8:1::1/64 dev vb6c$$ nodad &&
	ip netns exec $S6 ip addr add 2001:db8:1::2/64 dev vb6s$$ nodad &&
	ip netns exec $C6 ip link set vb6c$$ up && ip netns exec $S6 ip link set vb6s$$ up
}
if ! setup 2>"$TMP/setup.err"; then
	t_skip "net namespaces" "cannot build the veth link: $(head -1 "$TMP/setup.err")"
	t_summary smoke_net; exit
fi
# shape both directions: 200 Mbit/s each way
shape() {
	inc tc qdisc replace dev vbc$$ root tbf rate "$1" burst 256kb latency 50ms &&
	ins tc qdisc replace dev vbs$$ root tbf rate "$1" burst 256kb latency 50ms
}
shape 200mbit || { t_fail "tc tbf"; t_summary smoke_net; exit; }
ins iperf3 -s -B 198.18.0.2 -p 5201 >/dev/null 2>&1 &
ins iperf3 -s -B 198.18.0.2 -p 5202 >/dev/null 2>&1 &
ip netns exec $S6 iperf3 -s -B 2001:db8:1::2 -p 5201 >/dev/null 2>&1 &
# a server that accepts (the kernel's backlog) and never answers
ins python3 -c 'import socket,time; s=socket.socket(); s.bind(("198.18.0.2",5301)); s.listen(8); time.sleep(600)' &
# wait_port NS PORT: until something listens there (a loaded machine starts servers slowly)
wait_port() {
	for _ in $(seq 100); do
		ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}
for p in 5201 5202 5301; do wait_port $S $p || t_fail "server on port $p did not start"; done
wait_port $S6 5201 || t_fail "IPv6 server did not start"

T0=$(date +%s); mark() { echo "  ($1: $(( $(date +%s) - T0 )) s)"; T0=$(date +%s); }
# 1. Accuracy at a shaped 200 Mbit/s: vpsbench's receiver figure against
# the iperf3 CLI run alternately (A B A B), and against the shaped rate.
cli() { inc iperf3 -c 198.18.0.2 -p 5201 -P 8 -t 3 -J $1 | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])'; }
vb() { inc $VPSBENCH --only net --net --net-server 198.18.0.2:5201,Lab,veth --net-time 3 --quiet \
	--json > "$TMP/a$1.json" 2>"$TMP/a$1.err"; }
ok=1
for i in 1 2; do
	vb $i || { ok=0; t_fail "vpsbench run $i" "$(tail -2 "$TMP/a$i.err")"; }
	cs[$i]=$(cli) rs[$i]=$(cli -R)
done
if [ $ok = 1 ]; then
	r=$(python3 - "$TMP" "${cs[1]}" "${cs[2]}" "${rs[1]}" "${rs[2]}" <<'PY'
import json, statistics as st, sys
d = sys.argv[1]
cs = [float(x) for x in sys.argv[2:4]]; rs = [float(x) for x in sys.argv[4:6]]
vs, vr = [], []
for i in (1, 2):
    s = json.load(open("%s/a%d.json" % (d, i)))["net"]["servers"][0]
    vs.append(s["send"]["bits_per_second"]); vr.append(s["recv"]["bits_per_second"])
ms, mr = st.median(vs) / st.median(cs), st.median(vr) / st.median(rs)
shaped = 200e6
print("%.4f %.4f %.4f %.4f %.0f %.0f %.4f %.4f" % (ms, mr, st.median(vs) / shaped, st.median(vr) / shaped,
                                        st.median(vs) / 1e6, st.median(vr) / 1e6,
                                        st.median(cs) / shaped, st.median(rs) / shaped))
PY
)
	set -- $r
	echo "  200 Mbit/s: vpsbench send $5 / recv $6 Mbit/s; vs iperf3 CLI $1 / $2; vs shaped $3 / $4;" \
		"iperf3 CLI vs shaped $7 / $8 (load $(cut -d' ' -f1 /proc/loadavg))"
	python3 -c "import sys; sys.exit(0 if all(abs(float(x)-1) <= 0.05 for x in sys.argv[1:3]) else 1)" $r &&
		t_ok "200 Mbit/s: within 5% of the iperf3 CLI (A B A B medians)" ||
		t_fail "200 Mbit/s vs iperf3 CLI" "$r"
	# Held to the shaped rate when the link carries it now: the iperf3 CLI,
	# run between vpsbench's runs, gets within 8% of it. On a loaded machine
	# (2 shared CPUs, this test under nice) neither tool keeps the link full,
	# and the check against the CLI above is the one that says vpsbench reads
	# its figure right.
	if python3 -c "import sys; sys.exit(0 if all(abs(float(x)-1) <= 0.08 for x in sys.argv[7:9]) else 1)" $r; then
		python3 -c "import sys; sys.exit(0 if all(abs(float(x)-1) <= 0.08 for x in sys.argv[3:5]) else 1)" $r &&
			t_ok "200 Mbit/s: within 8% of the shaped rate" || t_fail "200 Mbit/s vs shaped rate" "$r"
	else
		t_skip "200 Mbit/s vs shaped rate" "the iperf3 CLI itself got $7 / $8 of it (machine loaded: load $(cut -d' ' -f1 /proc/loadavg)); tests/compare/vs-iperf3.sh measures it"
	fi
	t_json "$TMP/a1.json" 'j["modules"]["net"]["status"] == "ok"' \
		'(x := j["net"]["servers"][0])["mode"] == "IPv4" and x["address"] == "198.18.0.2"' \
		'x["send"]["tries"] == 1 and x["recv"]["tries"] == 1' \
		'x["latency_samples"] == 5 and 0 < x["latency_ms"] < 50' \
		'isinstance(x["send"]["retransmits"], int)' \
		'abs(x["send"]["mbit_s"] * 1e6 - x["send"]["bits_per_second"]) < 1' \
		'j["metrics"]["net_send_mbit_s"] == x["send"]["mbit_s"]' \
		'j["metrics"]["net_recv_mbit_s"] == x["recv"]["mbit_s"]' &&
		t_ok "report: figures, latency, metrics consistent" || t_fail "report fields"
fi

mark "2. One busy"
# 2. One busy server (another client holds it), one closed port, one good
# server: busy after 3 tries, "connection refused" in its row, the good one
# measured (sharing the link with the busy server's client), exit 0. A busy
# row never carries a 0.
ip netns exec $C iperf3 -c 198.18.0.2 -p 5202 -t 60 >/dev/null 2>&1 &
hog=$!
sleep 2
inc $VPSBENCH --only net --net --net-time 1 --quiet --json \
	--net-server 198.18.0.2:5202,Busy,veth --net-server 198.18.0.2:5299,Closed,veth \
	--net-server 198.18.0.2:5201,Good,veth > "$TMP/b.json" 2>"$TMP/b.err"; rc=$?
kill $hog 2>/dev/null; wait $hog 2>/dev/null
[ $rc -eq 0 ] && t_ok "busy + closed + good: exit 0" || t_fail "busy + closed + good: exit $rc" "$(tail -2 "$TMP/b.err")"
t_json "$TMP/b.json" '(b := j["net"]["servers"][0])["status"] == "busy"' \
	'b["send"]["status"] == "busy" and b["send"]["tries"] == 3 and b["send"]["bits_per_second"] is None' \
	'b["recv"]["status"] == "busy" and b["recv"]["tries"] == 3' \
	'(c := j["net"]["servers"][1])["status"] == "failed"' \
	'"connection refused" in c["reason"].lower() and c["send"]["tries"] == 1' \
	'c["latency_ms"] is None and "refused" in c["latency_reason"].lower()' \
	'(g := j["net"]["servers"][2])["status"] == "ok" and 40 < g["send"]["mbit_s"] <= 200' \
	'j["metrics"]["net_send_mbit_s"] == g["send"]["mbit_s"]' &&
	t_ok "busy retried 3 times then busy; refused row; others measured" || t_fail "busy/refused rows"
inc $VPSBENCH --only net --net --net-time 1 --quiet --format yabs \
	--net-server 198.18.0.2:5299,Closed,veth --net-server 198.18.0.2:5201,Good,veth > "$TMP/y.json" 2>/dev/null
t_json "$TMP/y.json" 'len(j["iperf"]) == 2' \
	'j["iperf"][0] == {"mode": "IPv4", "provider": "Closed", "loc": "veth", "send": None, "recv": None, "latency": None}' \
	'j["iperf"][1]["send"].endswith(" Mbits/sec") and 100 < float(j["iperf"][1]["send"].split()[0]) <= 200' \
	'j["iperf"][1]["latency"].endswith(" ms")' && t_ok "yabs iperf array: yabs's fields and units" ||
	t_fail "yabs iperf array"
inc $VPSBENCH --only net --net --net-time 1 --quiet --net-server 198.18.0.2:5299 >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] && t_ok "all servers failing: exit 2" || t_fail "all failing: exit $rc"

mark "2b. DNS failure"
# 2b. A name that does not resolve: that row says so, the next server and
# the HTTP download from it are still measured, exit 0. The client's
# resolver is pointed at the namespace's own loopback, where nothing
# listens (a bind mount in the private mount namespace of ip netns exec),
# so the lookup fails at once and nothing leaves the namespace.
echo 'nameserver 127.0.0.1' > "$TMP/resolv.conf"
inc sh -c 'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"' sh "$TMP/resolv.conf" \
	$VPSBENCH --only net --net --net-time 1 --quiet --json \
	--net-server nosuch.vpsbench.invalid:5201,Nowhere,veth --net-server 198.18.0.2:5201,Good,veth \
	--net-url http://nosuch.vpsbench.invalid/f.bin > "$TMP/d.json" 2>"$TMP/d.err"; rc=$?
[ $rc -eq 0 ] && t_ok "DNS failure + good server: exit 0" || t_fail "DNS failure: exit $rc" "$(tail -2 "$TMP/d.err")"
t_json "$TMP/d.json" '(x := j["net"]["servers"][0])["provider"] == "Nowhere" and x["status"] == "failed"' \
	'"DNS lookup of nosuch.vpsbench.invalid failed" in x["reason"]' \
	'x["send"]["bits_per_second"] is None and x["recv"]["bits_per_second"] is None and x["latency_ms"] is None' \
	'(g := j["net"]["servers"][1])["status"] == "ok" and 40 < g["send"]["mbit_s"] <= 200' \
	'(h := j["net"]["http"][0])["status"] == "failed" and "resolve" in h["reason"].lower()' \
	'h["avg_mbit_s"] is None and h["bytes"] is None' &&
	t_ok "DNS failure: its row says so, the other server measured" || t_fail "DNS failure rows"

mark "3. A server th"
# 3. A server that accepts and never answers: cut by the deadline (here
# --net-max-time), the child killed, nothing left running.
start=$(date +%s)
inc $VPSBENCH --only net --net --net-time 1 --net-max-time 5 --quiet --json \
	--net-server 198.18.0.2:5301,Stall,veth > "$TMP/s.json" 2>"$TMP/s.err"; rc=$?
el=$(( $(date +%s) - start ))
left=$(ip netns pids $C | wc -l)
[ $rc -eq 2 ] && [ $el -le 9 ] && [ "$left" -eq 0 ] &&
	t_ok "stalled server: cut after ${el}s, exit 2, no process left" ||
	t_fail "stalled server" "rc=$rc elapsed=${el}s processes left=$left"
t_json "$TMP/s.json" '(x := j["net"]["servers"][0])["send"]["status"] == "timeout"' \
	'"killed" in x["send"]["reason"] and x["send"]["bits_per_second"] is None' \
	'x["recv"]["status"] == "skipped" and j["net"]["max_time_hit"]' &&
	t_ok "stalled server: timeout row, rest skipped by --net-max-time" || t_fail "stalled rows"

mark "4. IPv6-only"
# 4. IPv6-only namespace, bracketed literal.
ip netns exec $C6 $VPSBENCH --only net --net --net-time 1 --quiet --json \
	--net-server '[2001:db8:1::2]:5201,V6,veth' > "$TMP/6.json" 2>"$TMP/6.err"; rc=$?
t_json "$TMP/6.json" '(x := j["net"]["servers"][0])["mode"] == "IPv6" and x["status"] == "ok"' \
	'x["address"] == "2001:db8:1::2" and x["send"]["mbit_s"] > 10 and x["recv"]["mbit_s"] > 10' \
	'len(j["net"]["servers"]) == 1' && [ $rc -eq 0 ] &&
	t_ok "IPv6-only namespace: [2001:db8:1::2] measured" || t_fail "IPv6-only" "rc=$rc $(tail -2 "$TMP/6.err")"
ip netns exec $C6 $VPSBENCH --only net --net --net-4 --net-time 1 --quiet --json \
	--net-server '[2001:db8:1::2]:5201' > "$TMP/64.json" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && t_ok "--net-4 with only an IPv6 server: nothing to test, exit 2" || t_fail "--net-4 v6" "rc=$rc"

mark "schema"
# 5. HTTP downloads from nginx (Debian's nginx-light) serving a generated
# file on the shaped link: one connection against curl's speed_download
# (A B A B), the steady rate against the shaped 200 Mbit/s; the cap ends
# the transfer after data (partial, labelled); a 404 and a server that never
# answers are their own rows.
if command -v nginx >/dev/null && command -v curl >/dev/null; then
	tests/helpers/nginx_conf.sh "$TMP" 198.18.0.2:8080
	head -c 150000000 /dev/urandom > "$TMP/www/f.bin"
	chmod a+r "$TMP/www/f.bin"
	ins nginx -c "$TMP/nginx.conf" -p "$TMP/ngx" &
	wait_port $S 8080 || t_fail "nginx did not start" "$(cat "$TMP/ngx/err.log" 2>/dev/null)"
	U=http://198.18.0.2:8080/f.bin
	for i in 1 2; do
		inc $VPSBENCH --only net --net --net-url $U --net-conns 1 --net-time 4 --quiet --json \
			> "$TMP/h$i.json" 2>"$TMP/h$i.err"
		hc[$i]=$(inc curl -s -o /dev/null --max-time 4 -H 'Accept-Encoding: identity' -w '%{speed_download}' $U)
	done
	# the steady rate is held to the shaped rate as the link delivers it to
	# TCP now (the iperf3 CLI's receive median of section 1, about 95% of
	# the tbf rate on an idle machine, less on a loaded one)
	r=$(python3 - "$TMP" "${hc[1]}" "${hc[2]}" "${rs[1]:-190e6}" "${rs[2]:-190e6}" <<'PY'
import json, statistics as st, sys
d = sys.argv[1]; c = [float(x) * 8 / 1e6 for x in sys.argv[2:4]]
link = st.median(float(x) / 1e6 for x in sys.argv[4:6])
h = [json.load(open("%s/h%d.json" % (d, i)))["net"]["http"][0] for i in (1, 2)]
a = st.median(x["avg_mbit_s"] for x in h); s = st.median(x["steady_mbit_s"] for x in h)
print("%.4f %.4f %.1f %.1f %.1f %.4f" % (a / st.median(c), s / link, a, s, st.median(c), s / 200))
PY
)
	set -- $r
	echo "  HTTP 200 Mbit/s, 1 conn: vpsbench avg $3 steady $4 Mbit/s, curl $5 Mbit/s; avg/curl $1, steady/link $2, steady/tbf rate $6"
	[ -n "$r" ] && python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1])-1) <= 0.05 else 1)" $1 &&
		t_ok "HTTP: average within 5% of curl's speed_download (A B A B medians)" || t_fail "HTTP vs curl" "$r"
	[ -n "$r" ] && python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1])-1) <= 0.08 else 1)" $2 &&
		t_ok "HTTP: steady rate within 8% of the shaped link's TCP rate" || t_fail "HTTP steady vs shaped" "$r"
	t_json "$TMP/h1.json" '(h := j["net"]["http"][0])["status"] == "ok" and h["partial"]' \
		'"cap" in h["reason"] and h["http_code"] == 200 and h["connections"] == 1' \
		'abs(h["avg_mbit_s"] - h["bytes"] * 8 / h["seconds"] / 1e6) < 1e-6' \
		'h["bytes"] < 150000000 and h["tls_ms"] is None and h["ttfb_ms"] > 0' \
		'j["net"]["servers"] == []' && t_ok "HTTP: partial result labelled, figures from their parts" ||
		t_fail "HTTP fields"
	inc $VPSBENCH --only net --net --net-time 2 --quiet --json --net-url $U \
		--net-url http://198.18.0.2:8080/missing --net-url http://198.18.0.2:5301/stall \
		> "$TMP/h3.json" 2>/dev/null; rc=$?
	t_json "$TMP/h3.json" '(h := j["net"]["http"])[0]["status"] == "ok" and h[0]["connections"] == 4' \
		'100 < h[0]["steady_mbit_s"] <= 200' \
		'h[1]["status"] == "failed" and "404" in h[1]["reason"] and h[1]["avg_mbit_s"] is None' \
		'h[2]["status"] == "timeout" and h[2]["bytes"] is None' && [ $rc -eq 0 ] &&
		t_ok "HTTP: 4 connections measured; 404 and stalled server are their own rows" ||
		t_fail "HTTP rows" "rc=$rc"
else
	t_skip "HTTP downloads" "nginx or curl missing"
fi

# schema
if python3 -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	python3 - schema/report.schema.json "$TMP/a1.json" "$TMP/b.json" "$TMP/s.json" "$TMP/6.json" $(ls "$TMP"/h*.json 2>/dev/null) <<'PY' &&
import json, sys
from jsonschema import Draft202012Validator as V
v = V(json.load(open(sys.argv[1])))
bad = [(f, e.message) for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
for b in bad[:5]: print("  ", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	t_ok "net reports validate against the schema" || t_fail "schema"
fi
t_summary smoke_net
