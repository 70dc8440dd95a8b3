#!/bin/bash
# run-all: long (see tests/run-all.sh)
# smoke_net_rows.sh — the opt-in net module's rows and refusals, which need
# no quiet machine: bad input (one line naming the option, exit 1, nothing
# sent), a default run that opens no inet socket (strace -f), and on a
# private link shaped to 200 Mbit/s (tests/helpers/net_ns.sh: network
# namespaces, a veth pair addressed from 198.18.0.0/15 and 2001:db8::/32,
# Debian's iperf3 -s and nginx on the far side): a busy server, a closed
# port, a name that does not resolve, a server that never answers, an
# IPv6-only namespace, a link-local-only IPv6 host (no IPv6 test), the
# data-use line, --net-quick/--net-region picks, a policer after a burst
# (the drop flag), HTTP 404 and stall rows. Nothing here reaches any
# address outside this machine. The namespace parts are root only and skip
# cleanly otherwise. The figures against iperf3 and curl: smoke_net.sh.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# Bad input: one line naming the option, exit 1, nothing sent (no root
# needed; strace -f shows no inet socket and no connect when it is there).
have_strace=0; command -v strace >/dev/null && have_strace=1
# inet_sockets TRACE: the socket()/connect() lines of a trace that are not
# AF_UNIX or AF_NETLINK (the only kinds an offline run may open)
inet_sockets() { grep -v 'AF_UNIX\|AF_NETLINK' "$1" | grep 'socket(\|connect('; }
BT=$(t_tmpdir)
# the strace-watched default run (section 1b) starts first, in the background
# beside the bad-input cases: nothing either checks needs a quiet machine
DR=$(t_tmpdir)
if [ $have_strace = 1 ]; then
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$DR/trace" $VPSBENCH --dir "$DR" --quiet --json \
		--cpu-time 100ms --mem-size 1M --seq-runs 1 --seq-size 8M --size 8M --runtime 1s --ramp 0s \
		> "$DR/r.json" 2>"$DR/err" &
	drpid=$!
fi
# bad_case N ARGS: one bad-input case, its verdict in $BT/N.res (line 1 ok|fail, line 2 name, 3 detail)
bad_case() {
	local i=$1 a=$2 opt out rc sent
	opt=${a%% *}
	# shellcheck disable=SC2086
	out=$($VPSBENCH --only net --net $a 2>&1 >/dev/null); rc=$?
	: > "$BT/$i.trace"
	# again under strace (LeakSanitizer cannot run under ptrace)
	# shellcheck disable=SC2086
	[ $have_strace = 1 ] && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$BT/$i.trace" \
		$VPSBENCH --only net --net $a >/dev/null 2>&1
	sent=$(inet_sockets "$BT/$i.trace")
	if [ $rc -eq 1 ] && [ -n "$out" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	   printf '%s' "$out" | grep -q -- "$opt" && [ -z "$sent" ]; then
		printf 'ok\n%s\n' "bad input '$a': one line naming $opt, exit 1, no socket" > "$BT/$i.res"
	else
		printf 'fail\n%s\n%s\n' "bad input '$a'" "rc=$rc out=$out sockets=$sent" > "$BT/$i.res"
	fi
}
bad=("--net-server 198.18.0.2:0" "--net-server 198.18.0.2:5210-5200" "--net-server 198.18.0.2:70000" \
	 "--net-server [2001:db8::2" "--net-server 2001:db8::2]" "--net-server [2001:db8::2]x" \
	 "--net-server 2001:db8::2" "--net-streams 0" "--net-streams 129" "--net-streams -1" "--net-streams x" \
	 "--net-time 0" "--net-url ftp://198.18.0.2/x" "--net-url file:///etc/passwd" "--net-url http://" \
	 "--net-conns 33" "--net-time 500ms" "--net-time 1.5s" "--net-time abc" "--net-region XX" \
	 "--net-region U" "--net-server ,Name" "--net-server 198.18.0.2:5201;x")
# In the background, 4 at a time (each is two short runs), beside the
# namespaces' set-up and busy server below; their verdicts are said there
# (report_a), or before the summary when the namespaces cannot be used.
(
	bpids=()
	for i in "${!bad[@]}"; do
		bad_case "$i" "${bad[$i]}" &
		bpids+=($!)
		[ ${#bpids[@]} -ge 4 ] && { wait "${bpids[0]}"; bpids=("${bpids[@]:1}"); }
	done
	# the check below can fail: a --net run to a closed port on loopback shows its connects
	[ $have_strace = 1 ] && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$DR/trace2" \
		$VPSBENCH --only net --net --net-time 1 --net-server 127.0.0.1:1 --quiet --json > /dev/null 2>&1
	wait "${bpids[@]}"
) &
apid=$!
report_a() {
	[ -n "${a_done:-}" ] && return
	a_done=1
	wait $apid
	for i in "${!bad[@]}"; do
		{ read -r v; read -r n; d=$(cat); } < "$BT/$i.res" 2>/dev/null || { v=fail n="bad input '${bad[$i]}'" d="no verdict"; }
		[ "$v" = ok ] && t_ok "$n" || t_fail "$n" "$d"
	done
	rm -rf "$BT"
	out=$($VPSBENCH --only net --net --net-region Mars 2>&1 >/dev/null)
	[ "$out" = "vpsbench: --net-region 'Mars': not a region of the built-in list (valid: UK, NL, UZ, SG, US, BR)" ] &&
		t_ok "bad --net-region: one line listing the valid regions" || t_fail "bad --net-region" "$out"
	out=$($VPSBENCH --only net --net-server 198.18.0.2 2>&1 >/dev/null); rc=$?
	[ $rc -eq 1 ] && echo "$out" | grep -q 'need --net' && t_ok "--net-server without --net: exit 1" ||
		t_fail "--net-server without --net" "rc=$rc $out"
	$VPSBENCH --help | grep -q -- '--net-server' && t_ok "--help lists --net-server" || t_fail "--help"

	# 1b. The module is opt-in: not in the default run, and a default run (every
	# default module, sizes and times cut short; started above) makes no inet
	# socket and no connect at all (strace -f sees every process and thread).
	if [ $have_strace = 1 ]; then
		d=$DR
		inet_sockets "$d/trace2" | grep -q 'connect(.*127\.0\.0\.1' &&
			t_ok "strace check sees a --net run's connects" || t_fail "strace check sees connects" "$(head -3 "$d/trace2")"
		wait $drpid; rc=$?
		sent=$(inet_sockets "$d/trace")
		if [ $rc -eq 0 ] && [ -z "$sent" ]; then
			t_ok "default run (no --net): no inet socket, no connect (strace -f)"
		else
			t_fail "default run: no socket" "rc=$rc $(echo "$sent" | head -3) $(tail -2 "$d/err")"
		fi
		t_json "$d/r.json" '"net" not in j' '"net" not in j["modules"]' \
			'all(m in j["modules"] for m in ("sysinfo", "seq", "rand", "cpu", "mem"))' &&
			t_ok "default run: every default module ran, net did not" || t_fail "default run: net not run"
	else
		t_skip "no socket without --net" "strace missing"
	fi
	rm -rf "$DR"
}
net_ns_on_end() { report_a; }

. tests/helpers/net_ns.sh
net_ns_start smoke_net_rows 200mbit

# What moves (next to) nothing over the shaped IPv4 link runs in the
# background beside the link's own cases, which run one at a time (their
# figures are held to the link's rate): nginx's start, the all-failing
# run, the --net-quick/--net-region picks, the stalled server (section 3)
# and the IPv6-only pair (section 4, its own link). Their checks follow
# below, after `wait`.
( net_ns_nginx; echo $? > "$TMP/ngx.rc" ) 2>/dev/null &
ngx=$!
# nothing listens there: glibc hears the port unreachable at once, musl (the
# static binary) does not and waits out its timeout, 1 s here, not 5 s x 2
printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' > "$TMP/resolv.conf"
quick=("--net-quick" "--net-region US" "--net-region uk --net-quick")
(
	inc $VPSBENCH --only net --net --net-time 1 --quiet --net-server 198.18.0.2:5299 >/dev/null 2>&1
	echo $? > "$TMP/all_fail.rc"
	# 3. (below) the stalled server; the run carries a mark in its
	# environment, which any process it left behind would still carry
	t0=$(date +%s.%N)
	inc env NET_ROWS_RUN=stall-$$ $VPSBENCH --only net --net --net-time 1 --net-max-time 5 --quiet --json \
		--net-server 198.18.0.2:5301,Stall,veth > "$TMP/s.json" 2>"$TMP/s.err"
	echo "$? $(python3 -c "import time; print('%.1f' % (time.time() - $t0))")" > "$TMP/s.rc"
	for k in "${!quick[@]}"; do
		# shellcheck disable=SC2086
		inc sh -c 'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"' sh "$TMP/resolv.conf" \
			$VPSBENCH --only net --net --net-time 1 --quiet --json --net-4 ${quick[$k]} > "$TMP/q$k.json" 2>"$TMP/q$k.err"
	done
	ip netns exec $C6 $VPSBENCH --only net --net --net-time 1 --quiet --json \
		--net-server '[2001:db8:1::2]:5201,V6,veth' > "$TMP/6.json" 2>"$TMP/6.err"
	echo $? > "$TMP/6.rc"
	ip netns exec $C6 $VPSBENCH --only net --net --net-4 --net-time 1 --quiet --json \
		--net-server '[2001:db8:1::2]:5201' > "$TMP/64.json" 2>/dev/null
	echo $? > "$TMP/64.rc"
) &
side=$!

# 2. One busy server (another client holds it), one closed port, one good
# server: busy after 3 tries, "connection refused" in its row, the good one
# measured (sharing the link with the busy server's client, held to 20
# Mbit/s so that 2b below fit beside it), exit 0. A busy row never carries a 0.
ip netns exec $C iperf3 -c 198.18.0.2 -p 5202 -t 60 -b 20M >/dev/null 2>&1 &
hog=$!
# busy once its test runs: the control and the data connection are up
for _ in $(seq 100); do
	[ "$(ins ss -Htn state established "sport = :5202" | wc -l)" -ge 2 ] && break
	sleep 0.1
done
sleep 0.2
# 2b. A name that does not resolve: that row says so, the next server and
# the HTTP download from it are still measured, exit 0. The client's
# resolver is pointed at the namespace's own loopback, where nothing
# listens (a bind mount in the private mount namespace of ip netns exec),
# so the lookup fails (at once with glibc; musl waits out the cap: curl says
# "Resolving timed out") and nothing leaves the namespace.
# 2b'. (both at once, beside the busy server's retries below: each is
# held to no more than 40 Mbit/s of the 200)
# A name with both an A and an AAAA record (/etc/hosts, bind-mounted
# in the client namespace) from a host whose IPv6 is link-local only (the
# veth's fe80::) and whose IPv4 has a default route: only the IPv4 row runs;
# the IPv6 row says why and sends nothing. Before the first test, one line
# says how many tests of how long will run.
printf '198.18.0.2 dual.vpsbench.test\n2001:db8:1::2 dual.vpsbench.test\n' > "$TMP/hosts"
inc sh -c 'mount --bind "$1" /etc/resolv.conf && mount --bind "$2" /etc/hosts && shift 2 && exec "$@"' sh \
	"$TMP/resolv.conf" "$TMP/hosts" $VPSBENCH --only net --net --net-time 1 --json --output "$TMP/f.json" \
	--net-server dual.vpsbench.test:5201,Dual,veth > /dev/null 2>"$TMP/f.err" &
dual=$!
inc sh -c 'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"' sh "$TMP/resolv.conf" \
	$VPSBENCH --only net --net --net-time 1 --quiet --json \
	--net-server nosuch.vpsbench.invalid:5201,Nowhere,veth --net-server 198.18.0.2:5201,Good,veth \
	--net-url http://nosuch.vpsbench.invalid/f.bin > "$TMP/d.json" 2>"$TMP/d.err" &
dns=$!
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
report_a

# 2b. / 2b'. (their checks)
wait $dns; rc=$?
[ $rc -eq 0 ] && t_ok "DNS failure + good server: exit 0" || t_fail "DNS failure: exit $rc" "$(tail -2 "$TMP/d.err")"
t_json "$TMP/d.json" '(x := j["net"]["servers"][0])["provider"] == "Nowhere" and x["status"] == "failed"' \
	'"DNS lookup of nosuch.vpsbench.invalid failed" in x["reason"]' \
	'x["send"]["bits_per_second"] is None and x["recv"]["bits_per_second"] is None and x["latency_ms"] is None' \
	'(g := j["net"]["servers"][1])["status"] == "ok" and 40 < g["send"]["mbit_s"] <= 200' \
	'(h := j["net"]["http"][0])["status"] in ("failed", "timeout") and "resolv" in h["reason"].lower()' \
	'h["avg_mbit_s"] is None and h["bytes"] is None' &&
	t_ok "DNS failure: its row says so, the other server measured" ||
	t_fail "DNS failure rows" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["net"]["http"])' "$TMP/d.json" 2>&1 | head -c 400)"
wait $dual; rc=$?
t_json "$TMP/f.json" 'len(j["net"]["servers"]) == 2' \
	'(a := j["net"]["servers"][0])["mode"] == "IPv4" and a["status"] == "ok" and a["address"] == "198.18.0.2"' \
	'(b := j["net"]["servers"][1])["mode"] == "IPv6" and b["status"] == "failed" and b["send"]["tries"] == 0' \
	'"this host has no usable IPv6" in b["reason"] and b["bytes_moved"] == 0 and b["address"] is None' \
	'j["net"]["planned_tests"] == 2 and j["net"]["bytes_moved"] == a["bytes_moved"] > 0' &&
	[ $rc -eq 0 ] && t_ok "link-local-only IPv6: no IPv6 test, the row says why" || t_fail "family planning" "rc=$rc $(tail -2 "$TMP/f.err")"
first=$(grep -n 'vpsbench: net: ' "$TMP/f.err" | head -1)
case $first in
*"net: iperf3 with 1 server (per family) x 2 directions x 1 s = 2 s at full speed, 8 streams"*)
	t_ok "data use: one line before the first test" ;;
*) t_fail "data-use line" "$first" ;;
esac

# yabs's rendering, on the link alone again (held to more than 100 Mbit/s)
inc $VPSBENCH --only net --net --net-time 1 --quiet --format yabs \
	--net-server 198.18.0.2:5299,Closed,veth --net-server 198.18.0.2:5201,Good,veth > "$TMP/y.json" 2>/dev/null
t_json "$TMP/y.json" 'len(j["iperf"]) == 2' \
	'j["iperf"][0] == {"mode": "IPv4", "provider": "Closed", "loc": "veth", "send": "busy ", "recv": "busy ", "latency": "--"}' \
	'j["iperf"][1]["send"].endswith(" Mbits/sec") and 100 < float(j["iperf"][1]["send"].split()[0]) <= 200' \
	'j["iperf"][1]["latency"].endswith(" ms")' && t_ok "yabs iperf array: yabs's fields and units" ||
	t_fail "yabs iperf array"

# the background runs' checks
wait $side
rc=$(cat "$TMP/all_fail.rc" 2>/dev/null)
[ "$rc" = 2 ] && t_ok "all servers failing: exit 2" || t_fail "all failing: exit $rc"

# 2c. --net-quick and --net-region pick from the built-in list. Its names do
# not resolve here (the resolver is the namespace's own loopback, where
# nothing listens), so every row fails at DNS and nothing is sent: the
# rows show what was planned.
for k in "${!quick[@]}"; do
	a=${quick[$k]}
	case $a in
	--net-quick) want='["Clouvider", "Leaseweb", "Leaseweb"]' ;;
	"--net-region US") want='["Clouvider", "Leaseweb"]' ;;
	*) want='["Clouvider"]' ;;
	esac
	t_json "$TMP/q$k.json" "[x[\"provider\"] for x in j[\"net\"][\"servers\"]] == $want" \
		'all("DNS lookup" in x["reason"] and x["send"]["tries"] == 0 for x in j["net"]["servers"])' \
		'j["net"]["default_servers"] and j["net"]["bytes_moved"] == 0' &&
		t_ok "$a: the built-in servers it names, nothing sent" || t_fail "$a" "$(tail -2 "$TMP/q$k.err")"
done

# 3. A server that accepts and never answers: the wait for its first state
# byte is cut by --net-max-time, which the row says (not "server stalled"),
# and nothing is left running (no process with the run's mark; and at the
# end, none in the client namespace).
read -r rc el < "$TMP/s.rc"
left=$(grep -lxzF "NET_ROWS_RUN=stall-$$" /proc/[0-9]*/environ 2>/dev/null | wc -l)
[ "$rc" = 2 ] && python3 -c 'import sys; sys.exit(float(sys.argv[1]) > 8)' "$el" && [ "$left" -eq 0 ] &&
	t_ok "stalled server: cut after ${el}s (--net-max-time 5: 1 s and the 3 s slack fit), exit 2, no process left" ||
	t_fail "stalled server" "rc=$rc elapsed=${el}s processes left=$left"
t_json "$TMP/s.json" '(x := j["net"]["servers"][0])["send"]["status"] == "skipped"' \
	'"cut by --net-max-time before the parameter exchange" in x["send"]["reason"]' \
	'x["send"]["bits_per_second"] is None and x["send"]["tries"] == 1' \
	'x["recv"]["status"] == "skipped" and "not started" in x["recv"]["reason"] and j["net"]["max_time_hit"]' &&
	t_ok "stalled server: cut by --net-max-time, said so; receive not started" || t_fail "stalled rows"

# 4. IPv6-only namespace, bracketed literal.
rc=$(cat "$TMP/6.rc" 2>/dev/null)
t_json "$TMP/6.json" '(x := j["net"]["servers"][0])["mode"] == "IPv6" and x["status"] == "ok"' \
	'x["address"] == "2001:db8:1::2" and x["send"]["mbit_s"] > 10 and x["recv"]["mbit_s"] > 10' \
	'len(j["net"]["servers"]) == 1' && [ "$rc" = 0 ] &&
	t_ok "IPv6-only namespace: [2001:db8:1::2] measured" || t_fail "IPv6-only" "rc=$rc $(tail -2 "$TMP/6.err")"
rc=$(cat "$TMP/64.rc" 2>/dev/null)
[ "$rc" = 2 ] && t_ok "--net-4 with only an IPv6 server: nothing to test, exit 2" || t_fail "--net-4 v6" "rc=$rc"

# 5. HTTP rows from nginx (Debian's nginx-light): 4 connections measured on
# the shaped link; a 404 and a server that never answers are their own rows.
wait $ngx
if command -v nginx >/dev/null; then
	[ "$(cat "$TMP/ngx.rc" 2>/dev/null)" = 0 ] || t_fail "nginx did not start" "$(cat "$TMP/ngx/err.log" 2>/dev/null)"
	U=http://198.18.0.2:8080/f.bin
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
	t_skip "HTTP rows" "nginx missing"
fi

# 6. A policer after a burst: this host's egress lets a 40 MB burst through
# at veth speed, then 50 Mbit/s. The send timeline shows the drop (the
# rand passes' rule: last third under 0.7 of the first); the receive
# direction, still shaped at 200 Mbit/s without the burst, does not.
inc tc qdisc replace dev vbc$$ root tbf rate 50mbit burst 40mb latency 50ms
inc $VPSBENCH --only net --net --net-time 3 --quiet --json \
	--net-server 198.18.0.2:5201,Burst,veth > "$TMP/p.json" 2>"$TMP/p.err"
t_json "$TMP/p.json" '(x := j["net"]["servers"][0])["send"]["drop"] is True' \
	'x["send"]["tail_ratio"] < 0.7 and len(x["send"]["timeline_bits_per_second"]) == 3' \
	'(t := x["send"]["timeline_bits_per_second"]) and abs(x["send"]["tail_ratio"] - t[2] / t[0]) < 1e-9' \
	'x["recv"]["drop"] is False and x["recv"]["tail_ratio"] >= 0.7' &&
	t_ok "policer after a burst: send timeline flagged as a drop, receive not" || t_fail "drop flag" "$(tail -2 "$TMP/p.err")"
left=$(ip netns pids $C | wc -l)
[ "$left" -eq 0 ] && t_ok "no process left in the client namespace" ||
	t_fail "processes left in the client namespace" "$(ip netns pids $C | xargs -r ps -o pid=,args= -p)"

# schema
t_schema "net reports validate against the schema" "$TMP/b.json" "$TMP/s.json" "$TMP/6.json" "$TMP/f.json" "$TMP/p.json" $(ls "$TMP"/h3.json 2>/dev/null)
t_summary smoke_net_rows

