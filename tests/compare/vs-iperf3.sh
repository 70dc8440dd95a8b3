#!/bin/bash
# vs-iperf3.sh — vpsbench's net module against Debian's iperf3 CLI on a
# private veth link between two network namespaces (198.18.0.0/15), shaped
# with tc tbf at each RATE, alternately (A B A B), PAIRS rounds. Prints
# the median Mbit/s of each side, vpsbench / iperf3 and vpsbench / shaped
# rate per direction. Root only; nothing leaves the machine.
#   RATES="200mbit 1gbit" PAIRS=3 TIME=5 tests/compare/vs-iperf3.sh
cd "$(dirname "$0")/../.." || exit 1
RATES=${RATES:-"200mbit 1gbit"} PAIRS=${PAIRS:-3} TIME=${TIME:-5}
VB=${VPSBENCH:-./vpsbench}
[ "$(id -u)" -eq 0 ] || { echo "vs-iperf3: needs root (network namespaces)"; exit 0; }
C=vpsbcmp$$c S=vpsbcmp$$s
TMP=$(mktemp -d)
cleanup() {
	for ns in $C $S; do
		for p in $(ip netns pids $ns 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
		ip netns del $ns 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add $C && ip netns add $S &&
ip link add vcc$$ netns $C type veth peer name vcs$$ netns $S &&
ip -n $C link set lo up && ip -n $S link set lo up &&
ip -n $C addr add 198.18.1.1/24 dev vcc$$ && ip -n $S addr add 198.18.1.2/24 dev vcs$$ &&
ip -n $C link set vcc$$ up && ip -n $S link set vcs$$ up || { echo "vs-iperf3: cannot build the link"; exit 0; }
ip netns exec $S iperf3 -s -B 198.18.1.2 -p 5201 >/dev/null 2>&1 &
sleep 1
printf '%-8s %-4s %10s %10s %10s %10s\n' rate dir vpsbench iperf3 ratio vs-rate
for rate in $RATES; do
	ip -n $C link set vcc$$ up
	tc -n $C qdisc replace dev vcc$$ root tbf rate "$rate" burst 512kb latency 50ms
	tc -n $S qdisc replace dev vcs$$ root tbf rate "$rate" burst 512kb latency 50ms
	: > "$TMP/v"; : > "$TMP/c"
	for i in $(seq "$PAIRS"); do
		ip netns exec $C $VB --only net --net --net-server 198.18.1.2:5201 --net-time "$TIME" \
			--quiet --json > "$TMP/j" 2>/dev/null &&
			python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["net"]["servers"][0]
b = [s[d]["bits_per_second"] for d in ("send", "recv")]
if None in b: sys.exit("! vpsbench: " + "; ".join("%s %s" % (s[d]["status"], s[d]["reason"]) for d in ("send", "recv")))
print(*b)' "$TMP/j" >> "$TMP/v" ||
			echo "! vpsbench round $i failed"
		a=$(ip netns exec $C iperf3 -c 198.18.1.2 -P 8 -t "$TIME" -J | python3 -c \
			'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])')
		b=$(ip netns exec $C iperf3 -c 198.18.1.2 -P 8 -t "$TIME" -R -J | python3 -c \
			'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])')
		echo "$a $b" >> "$TMP/c"
	done
	python3 - "$TMP/v" "$TMP/c" "$rate" <<'PY'
import statistics as st, sys
v = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
c0 = [l for l in open(sys.argv[2]) if l.strip()]
c = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
r = sys.argv[3]; rate = float(r[:-4]) * (1e9 if r.endswith("gbit") else 1e6)
for k, name in ((0, "send"), (1, "recv")):
    if not v or not c:
        print("%-8s %-4s %10s" % (r, name, "-")); continue
    mv, mc = st.median(x[k] for x in v), st.median(x[k] for x in c)
    print("%-8s %-4s %10.1f %10.1f %10.4f %10.4f" % (r, name, mv / 1e6, mc / 1e6, mv / mc, mv / rate))
PY
done
exit 0
