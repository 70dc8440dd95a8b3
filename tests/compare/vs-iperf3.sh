#!/bin/bash
# vs-iperf3.sh — vpsbench's net module against Debian's iperf3 CLI, and its
# HTTP download test against curl, on a private veth link between two
# network namespaces (198.18.0.0/15), shaped with tc tbf at each RATE,
# alternately (A B A B), PAIRS rounds. Prints the median Mbit/s of each
# side, vpsbench / reference tool and vpsbench / shaped rate per direction
# (targets: ±5% and ±8%), with the machine's load and what the unshaped
# link carries with the CPU there is now. Root only; nothing leaves the
# machine.
#   RATES="200mbit 1gbit" PAIRS=3 TIME=5 BURST=512kb tests/compare/vs-iperf3.sh
# HTTP=0 leaves the HTTP part out (it needs nginx, Debian's nginx-light).
cd "$(dirname "$0")/../.." || exit 1
RATES=${RATES:-"200mbit 1gbit"} PAIRS=${PAIRS:-3} TIME=${TIME:-5} BURST=${BURST:-512kb} HTTP=${HTTP:-1}
VB=${VPSBENCH:-./vpsbench}
[ "$(id -u)" -eq 0 ] || { echo "vs-iperf3: needs root (network namespaces)"; exit 0; }
C=vpsbcmp$$c S=vpsbcmp$$s
TMP=$(mktemp -d)
cleanup() {
	exec 2>/dev/null # bash reports the servers it kills below
	for ns in $C $S; do
		for p in $(ip netns pids $ns 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		ip netns del $ns 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
inc() { ip netns exec $C "$@"; }
ip netns add $C && ip netns add $S &&
ip link add vcc$$ netns $C type veth peer name vcs$$ netns $S &&
ip -n $C link set lo up && ip -n $S link set lo up &&
ip -n $C addr add 198.18.1.1/24 dev vcc$$ && ip -n $S addr add 198.18.1.2/24 dev vcs$$ &&
ip -n $C link set vcc$$ up && ip -n $S link set vcs$$ up || { echo "vs-iperf3: cannot build the link"; exit 0; }
ip netns exec $S iperf3 -s -B 198.18.1.2 -p 5201 >/dev/null 2>&1 &
wait_port() {
	for _ in $(seq 100); do
		ip netns exec $S ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	echo "vs-iperf3: nothing listens on port $1"; exit 0
}
wait_port 5201
# cli [-R]: the iperf3 CLI's receiver figure (bit/s), as vpsbench reads it
cli() { inc iperf3 -c 198.18.1.2 -P 8 -t "$TIME" -J "$@" | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])'; }

# HTTP: nginx serving a sparse file (served from the page cache, larger
# than TIME seconds at the highest rate; the time cap ends each transfer).
if [ "$HTTP" = 1 ] && command -v nginx >/dev/null && command -v curl >/dev/null; then
	tests/helpers/nginx_conf.sh "$TMP" 198.18.1.2:8080
	truncate -s 4G "$TMP/www/f.bin"
	chmod a+r "$TMP/www/f.bin"
	ip netns exec $S nginx -c "$TMP/nginx.conf" -p "$TMP/ngx" &
	wait_port 8080
else
	HTTP=0
fi
U=http://198.18.1.2:8080/f.bin

# The iperf3 CLI's goodput ceiling on a tbf-shaped Ethernet link: tbf
# counts whole frames (1514 B at MTU 1500), TCP carries 1448 B of payload
# in each (20 IP + 32 TCP with timestamps + 14 Ethernet header).
printf 'vs-iperf3: %s CPUs, load average before: %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "TCP goodput ceiling at MTU 1500: 1448/1514 = 0.9564 of a tbf rate"
# What the link carries unshaped: if it is not well above a rate, the CPU
# (veth, softirq, 8 streams on a shared machine) limits that rate's figures,
# not the shaper.
awk -v b="$(cli)" 'BEGIN { printf "unshaped link, iperf3 CLI -P 8 (what this CPU carries now): %.0f Mbit/s\n", b / 1e6 }'
printf '%-8s %-5s %10s %10s %10s %10s\n' rate test vpsbench ref vs-ref vs-rate
for rate in $RATES; do
	inc tc qdisc replace dev vcc$$ root tbf rate "$rate" burst "$BURST" latency 50ms
	ip netns exec $S tc qdisc replace dev vcs$$ root tbf rate "$rate" burst "$BURST" latency 50ms
	: > "$TMP/v"; : > "$TMP/c"; : > "$TMP/hv"; : > "$TMP/hc"
	for i in $(seq "$PAIRS"); do
		inc $VB --only net --net --net-server 198.18.1.2:5201 --net-time "$TIME" \
			--quiet --json > "$TMP/j" 2>/dev/null &&
			python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["net"]["servers"][0]
b = [s[d]["bits_per_second"] for d in ("send", "recv")]
if None in b: sys.exit("! vpsbench: " + "; ".join("%s %s" % (s[d]["status"], s[d]["reason"]) for d in ("send", "recv")))
print(*b)' "$TMP/j" >> "$TMP/v" ||
			echo "! vpsbench round $i failed"
		echo "$(cli) $(cli -R)" >> "$TMP/c"
		[ "$HTTP" = 1 ] || continue
		# one connection each, both cut by the time cap after TIME s
		inc $VB --only net --net --net-url $U --net-conns 1 --net-time "$TIME" --quiet --json > "$TMP/j" 2>/dev/null
		python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["net"]["http"][0]
if h["avg_mbit_s"] is None: sys.exit("! vpsbench http: %s %s" % (h["status"], h["reason"]))
print(h["avg_mbit_s"] * 1e6, h["steady_mbit_s"] * 1e6)' "$TMP/j" >> "$TMP/hv" || echo "! vpsbench http round $i failed"
		inc curl -s -o /dev/null --max-time "$TIME" -H 'Accept-Encoding: identity' -w '%{speed_download}\n' $U >> "$TMP/hc"
	done
	python3 - "$TMP" "$rate" <<'PY'
import os, statistics as st, sys
d, r = sys.argv[1], sys.argv[2]
rate = float(r[:-4]) * (1e9 if r.endswith("gbit") else 1e6)
def rows(name, scale=1.0):
    p = os.path.join(d, name)
    return [[float(x) * scale for x in l.split()] for l in open(p) if l.strip()] if os.path.exists(p) else []
v, c = rows("v"), rows("c")
hv, hc = rows("hv"), rows("hc", 8.0)  # curl's speed_download is bytes/s
# (vpsbench rows, its column, reference rows, their column, label)
tests = [(v, 0, c, 0, "send"), (v, 1, c, 1, "recv")]
if hv or hc:
    tests += [(hv, 0, hc, 0, "http"), (hv, 1, hc, 0, "http~")]
for vs, k, cs, kc, name in tests:
    if not vs or not cs:
        print("%-8s %-5s %10s" % (r, name, "-")); continue
    mv, mc = st.median(x[k] for x in vs), st.median(x[kc] for x in cs)
    print("%-8s %-5s %10.1f %10.1f %10.4f %10.4f   (%d+%d runs)" % (r, name, mv / 1e6, mc / 1e6, mv / mc,
          mv / rate, len(vs), len(cs)))
PY
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "send/recv: iperf3 8 streams, ref = iperf3 CLI (-R for recv), receiver figure (end.sum_received)"
echo "http: 1 connection, whole-transfer average, ref = curl speed_download; http~: vpsbench's steady rate after its warm-up"
exit 0
