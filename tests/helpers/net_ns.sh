# net_ns.sh — sourced by tests/smoke_net.sh and tests/smoke_net_rows.sh:
# two network namespaces joined by a veth pair addressed from 198.18.0.0/15
# (RFC 2544, benchmarking) and an IPv6-only pair from 2001:db8::/32, both
# directions shaped with tc tbf, Debian's iperf3 -s on the far side (ports
# 5201 and 5202, and 5201 on [2001:db8:1::2]), and a server on 5301 that
# accepts and never answers. Nothing here reaches any address outside this
# machine. Namespace and link names carry the caller's PID, so two scripts
# can each have their own at once.
#
# net_ns_start SUMMARY RATE: builds it all, shaped to RATE, in $TMP (set
#   here: $NET_TMP when given, else a new temp dir) and arms an EXIT trap
#   that removes it. When it cannot (not root, a tool missing, vpsbench
#   built without cJSON, a kernel that cannot build the link) it skips;
#   when a shaper or a server fails it fails; either way it prints the
#   caller's summary line (t_summary SUMMARY) and ends the script, after
#   the caller's net_ns_on_end when it has defined one (to say the
#   verdicts of work it left running in the background).
# inc / ins CMD...: run CMD in the client / server namespace ($C / $S);
#   $C6 / $S6 are the IPv6-only pair.
# net_ns_nginx: nginx (Debian's nginx-light) serving $TMP/www/f.bin, 150 MB
#   of random bytes, on 198.18.0.2:8080; returns 1 when it did not start.
# wait_port NS PORT: until something listens there.

# why the namespaces cannot be used here; nothing when they can
net_ns_skip_reason() {
	t_is_root || { echo "not root"; return; }
	local b
	for b in ip tc iperf3 python3; do
		command -v $b >/dev/null || { echo "$b missing"; return; }
	done
	$VPSBENCH --only net --net --net-server 127.0.0.1:1 --quiet --json 2>/dev/null |
		grep -q 'built without cJSON' && echo "built without cJSON"
}

C=vpsbn$$c S=vpsbn$$s C6=vpsbn$$c6 S6=vpsbn$$s6
net_ns_cleanup() {
	exec 2>/dev/null # bash reports the servers it kills below
	local ns p
	for ns in $C $S $C6 $S6; do
		# every process we started in there, then the namespace
		for p in $(ip netns pids $ns 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		ip netns del $ns 2>/dev/null
	done
	[ -n "${NET_TMP:-}" ] || rm -rf "$TMP"
}
inc() { ip netns exec $C "$@"; }
ins() { ip netns exec $S "$@"; }

wait_port() { # a loaded machine starts servers slowly
	for _ in $(seq 100); do
		ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

net_ns_links() {
	ip netns add $C && ip netns add $S && ip netns add $C6 && ip netns add $S6 || return 1
	ip link add vbc$$ netns $C type veth peer name vbs$$ netns $S || return 1
	inc ip link set lo up && ins ip link set lo up &&
	inc ip addr add 198.18.0.1/24 dev vbc$$ && ins ip addr add 198.18.0.2/24 dev vbs$$ &&
	inc ip link set vbc$$ up && ins ip link set vbs$$ up || return 1
	# a default route, as a VPS has (net plans a family only with one); the
	# client's IPv6 is link-local only: no IPv6 rows there
	inc ip route add default via 198.18.0.2 || return 1
	# IPv6-only pair
	ip link add vb6c$$ netns $C6 type veth peer name vb6s$$ netns $S6 || return 1
	ip netns exec $C6 ip link set lo up && ip netns exec $S6 ip link set lo up &&
	ip netns exec $C6 ip addr add 2001:db8:1::1/64 dev vb6c$$ nodad &&
	ip netns exec $S6 ip addr add 2001:db8:1::2/64 dev vb6s$$ nodad &&
	ip netns exec $C6 ip link set vb6c$$ up && ip netns exec $S6 ip link set vb6s$$ up &&
	ip netns exec $C6 ip -6 route add default via 2001:db8:1::2 dev vb6c$$
}

# net_ns_up RATE: 2 when the kernel cannot build the link, 1 when a shaper
# or a server failed; the reason in $TMP/setup.err
net_ns_up() {
	local rate=$1 p
	net_ns_links 2>"$TMP/setup.err" || return 2
	# shape both directions
	{ inc tc qdisc replace dev vbc$$ root tbf rate "$rate" burst 256kb latency 50ms &&
	  ins tc qdisc replace dev vbs$$ root tbf rate "$rate" burst 256kb latency 50ms; } 2>"$TMP/setup.err" || return 1
	ins iperf3 -s -B 198.18.0.2 -p 5201 >/dev/null 2>&1 &
	ins iperf3 -s -B 198.18.0.2 -p 5202 >/dev/null 2>&1 &
	ip netns exec $S6 iperf3 -s -B 2001:db8:1::2 -p 5201 >/dev/null 2>&1 &
	# a server that accepts (the kernel's backlog) and never answers
	ins python3 -c 'import socket,time; s=socket.socket(); s.bind(("198.18.0.2",5301)); s.listen(8); time.sleep(600)' &
	for p in 5201 5202 5301; do
		wait_port $S $p || { echo "server on port $p did not start" > "$TMP/setup.err"; return 1; }
	done
	wait_port $S6 5201 || { echo "IPv6 server did not start" > "$TMP/setup.err"; return 1; }
}

net_ns_start() {
	local summary=$1 rate=$2 why rc
	why=$(net_ns_skip_reason)
	if [ -n "$why" ]; then
		t_skip "net namespaces" "$why"
		! declare -F net_ns_on_end >/dev/null || net_ns_on_end
		t_summary "$summary"; exit
	fi
	TMP=${NET_TMP:-$(t_tmpdir)}
	trap net_ns_cleanup EXIT
	net_ns_up "$rate"; rc=$?
	[ $rc -eq 0 ] && return 0
	if [ $rc -eq 2 ]; then
		t_skip "net namespaces" "cannot build the veth link: $(head -1 "$TMP/setup.err")"
	else
		t_fail "net namespaces" "$(head -3 "$TMP/setup.err")"
	fi
	! declare -F net_ns_on_end >/dev/null || net_ns_on_end
	t_summary "$summary"; exit
}

net_ns_nginx() {
	command -v nginx >/dev/null || return 1
	tests/helpers/nginx_conf.sh "$TMP" 198.18.0.2:8080 || return 1
	head -c 150000000 /dev/urandom > "$TMP/www/f.bin"
	chmod a+r "$TMP/www/f.bin"
	ins nginx -c "$TMP/nginx.conf" -p "$TMP/ngx" &
	wait_port $S 8080
}
