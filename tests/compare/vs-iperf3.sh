#!/bin/bash
# vs-iperf3.sh — vpsbench's net module against Debian's iperf3 CLI, and its
# HTTP download test against curl, on a private veth link between two
# network namespaces (198.18.0.0/15), shaped with tc tbf at each RATE,
# alternately (A B A B), PAIRS rounds. Prints the median Mbit/s of each
# side, vpsbench / reference tool and vpsbench / shaped rate per direction
# (targets: ±5% and ±8%), with the machine's load and what the unshaped
# link carries with the CPU there is now. Root only; nothing leaves the
# machine. IPv4 (198.18.1.0/24) and IPv6 (2001:db8:2::/64) over the same
# link, each binary of BINS (the dynamic and the static build by default).
# UNSHAPED=1 adds the CPU-bound case: the unshaped link, -P 8, throughput
# and CPU seconds (user + system of the client process) per GB received,
# both directions together, vpsbench against the CLI.
# IPERF3_NEW=/path/to/iperf3 (>= 3.16, multi-threaded, built from upstream
# source for this comparison only: never part of the build) adds the
# unshaped veth case against it: its own server, -P 8, both directions,
# NEW_PAIRS pairs in counterbalanced order (A B, B A, ...), each binary of
# NEW_BINS (default BINS); the table has each pair's vpsbench / iperf3-new
# ratio and their median (target >= 0.95), and vpsbench's own CPU share.
# Without it that case is skipped, saying so.
#   RATES="200mbit 1gbit" PAIRS=3 TIME=5 BURST=512kb FAMS="4 6" tests/compare/vs-iperf3.sh
#   RATES="" UNSHAPED=0 HTTP=0 IPERF3_NEW=/tmp/iperf3-new/inst/bin/iperf3 tests/compare/vs-iperf3.sh
# RATES="" (set and empty) runs no shaped link: only the unshaped case.
# HTTP=0 leaves the HTTP part out (it needs nginx, Debian's nginx-light).
cd "$(dirname "$0")/../.." || exit 1
RATES=${RATES-"200mbit 1gbit"} PAIRS=${PAIRS:-3} TIME=${TIME:-5} BURST=${BURST:-512kb} HTTP=${HTTP:-1}
FAMS=${FAMS:-"4 6"} UNSHAPED=${UNSHAPED:-1} NEW_PAIRS=${NEW_PAIRS:-4} IPERF3_NEW=${IPERF3_NEW:-}
BINS=${BINS:-"${VPSBENCH:-./vpsbench} $([ -x ./vpsbench-static ] && echo ./vpsbench-static)"}
NEW_BINS=${NEW_BINS:-$BINS}
[ "$(id -u)" -eq 0 ] || { echo "vs-iperf3: needs root (network namespaces)"; exit 0; }
C=vpsbench-cmp$$c S=vpsbench-cmp$$s
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
ip -n $C addr add 2001:db8:2::1/64 dev vcc$$ nodad && ip -n $S addr add 2001:db8:2::2/64 dev vcs$$ nodad &&
ip -n $C link set vcc$$ up && ip -n $S link set vcs$$ up &&
ip -n $C route add default via 198.18.1.2 && ip -n $C -6 route add default via 2001:db8:2::2 ||
	{ echo "vs-iperf3: cannot build the link"; exit 0; }
# one server per family, as on a dual-stack host with yabs's servers
ip netns exec $S iperf3 -s -B 198.18.1.2 -p 5201 >/dev/null 2>&1 &
ip netns exec $S iperf3 -s -B 2001:db8:2::2 -p 5202 >/dev/null 2>&1 &
wait_port() {
	for _ in $(seq 100); do
		ip netns exec $S ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	echo "vs-iperf3: nothing listens on port $1"; exit 0
}
wait_port 5201
wait_port 5202
if [ -n "$IPERF3_NEW" ] && [ -x "$IPERF3_NEW" ]; then
	ip netns exec $S "$IPERF3_NEW" -s -B 198.18.1.2 -p 5203 >/dev/null 2>&1 &
	wait_port 5203
fi
ADDR4=198.18.1.2 ADDR6=2001:db8:2::2
# cli [-R]: the iperf3 CLI's receiver figure (bit/s), as vpsbench reads it ($FAM: 4 or 6)
cli() {
	local a=$ADDR4 p=5201
	[ "${FAM:-4}" = 6 ] && a=$ADDR6 p=5202
	inc iperf3 -c $a -p $p -P 8 -t "$TIME" -J "$@" | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])'; }
# vb BIN: vpsbench's send and receive receiver figures (bit/s) on one line ($FAM)
vb() {
	local spec=198.18.1.2:5201
	[ "${FAM:-4}" = 6 ] && spec='[2001:db8:2::2]:5202'
	inc "$1" --only net --net --net-server "$spec" --net-time "$TIME" --quiet --json > "$TMP/j" 2>/dev/null &&
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["net"]["servers"][0]
b = [s[d]["bits_per_second"] for d in ("send", "recv")]
if None in b: sys.exit("! vpsbench: " + "; ".join("%s %s" % (s[d]["status"], s[d]["reason"]) for d in ("send", "recv")))
print(*b)' "$TMP/j"
}
# cpu CMD...: runs CMD (output to $TMP/cpu.out), prints its children's user + system CPU seconds
cpu() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN); print("%.3f" % (r.ru_utime + r.ru_stime))' "$TMP/cpu.out" "$@"; }

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
if [ "$UNSHAPED" = 1 ]; then
	# CPU-bound: what each client process costs per GB received, both directions
	printf '%-10s %-18s %12s %12s %10s\n' unshaped binary Mbit/s cpu-s/GB "(IPv4, -P 8, send+recv)"
	for bin in $BINS; do
		: > "$TMP/u"
		for i in $(seq "$PAIRS"); do
			FAM=4
			cv=$(cpu ip netns exec $C "$bin" --only net --net --net-server 198.18.1.2:5201 --net-time "$TIME" --quiet --json)
			python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["net"]["servers"][0]
print("v", s["send"]["bytes"] + s["recv"]["bytes"], s["send"]["seconds"] + s["recv"]["seconds"], sys.argv[2])' "$TMP/cpu.out" "$cv" >> "$TMP/u" || echo "! vpsbench unshaped round $i failed"
			for r in "" -R; do
				cc=$(cpu ip netns exec $C iperf3 -c 198.18.1.2 -p 5201 -P 8 -t "$TIME" -J $r)
				python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]["sum_received"]
print("c", e["bytes"], e["seconds"], sys.argv[2])' "$TMP/cpu.out" "$cc" >> "$TMP/u"
			done
		done
		python3 - "$TMP/u" "$bin" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
def agg(tag, per):
    xs = [[float(v) for v in r[1:]] for r in rows if r[0] == tag]
    # per run: bytes, seconds, cpu; the CLI's two directions make one run
    xs = [[sum(c) for c in zip(*xs[i:i + per])] for i in range(0, len(xs), per)]
    return st.median(b * 8 / s / 1e6 for b, s, c in xs), st.median(c / (b / 1e9) for b, s, c in xs)
vm, vc = agg("v", 1)
cm, cc = agg("c", 2)
print("%-10s %-18s %12.0f %12.3f" % ("", sys.argv[2], vm, vc))
print("%-10s %-18s %12.0f %12.3f" % ("", "iperf3 3.12 CLI", cm, cc))
print("%-10s %-18s %12.4f %12.4f   (targets: >= 0.95, <= 1)" % ("", "vpsbench/CLI", vm / cm, vc / cc))
PY
	done
fi
# The unshaped veth link against iperf3 >= 3.16 (a thread per stream), both
# clients against that iperf3's own server: what a 10G-class port would
# show when the client's CPU is the limit. A pair runs vpsbench (send and
# -R) and the CLI (normal and -R) once each, in the order A B on odd pairs
# and B A on even ones, so a drift of the machine's load cancels out.
if [ -z "$IPERF3_NEW" ] || [ ! -x "$IPERF3_NEW" ]; then
	echo "unshaped veth vs iperf3 >= 3.16: skipped (IPERF3_NEW=${IPERF3_NEW:-unset} is not an executable)"
else
	NEWV=$("$IPERF3_NEW" --version | sed -n '1s/^iperf \([^ ]*\).*/\1/p')
	printf 'unshaped veth, IPv4, -P 8, %s s, server and reference client: iperf3 %s (%s)\n' "$TIME" "$NEWV" "$IPERF3_NEW"
	new_cli() { inc "$IPERF3_NEW" -c 198.18.1.2 -p 5203 -P 8 -t "$TIME" -J "$@" | python3 -c \
		'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])'; }
	new_vb() {
		inc "$1" --only net --net --net-server 198.18.1.2:5203 --net-time "$TIME" --quiet --json > "$TMP/j" 2>/dev/null &&
		python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["net"]["servers"][0]
b = [s[d].get(k) for k in ("bits_per_second", "cpu_share", "cpu_bound") for d in ("send", "recv")]
if None in b[:2]: sys.exit("! vpsbench: " + "; ".join("%s %s" % (s[d]["status"], s[d]["reason"]) for d in ("send", "recv")))
print(*b)' "$TMP/j"
	}
	for bin in $NEW_BINS; do
		: > "$TMP/n"
		for i in $(seq "$NEW_PAIRS"); do
			v='' c=''
			if [ $((i % 2)) = 1 ]; then
				v=$(new_vb "$bin") c="$(new_cli) $(new_cli -R)"
			else
				c="$(new_cli) $(new_cli -R)" v=$(new_vb "$bin")
			fi
			[ -n "$v" ] && [ -n "$c" ] && echo "$i $v $c" >> "$TMP/n" || echo "! pair $i failed: vpsbench '$v', iperf3 '$c'"
		done
		python3 - "$TMP/n" "$bin" "$NEWV" <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print("%-26s %4s %5s %9s %9s %7s %9s %9s %7s %11s" % ("binary", "pair", "order", "vb-send", "new-send",
      "send", "vb-recv", "new-recv", "recv", "cpu s/r"))
rs, rr = [], []
def cpu(share, bound):  # "*": vpsbench said it was CPU-bound itself
    return "-" if share == "None" else "%.2f%s" % (float(share), "*" if bound == "True" else "")
for r in rows:
    i, vs, vr, cs, cr, bs, br, cs_, cr_ = r[0], float(r[1]), float(r[2]), r[3], r[4], r[5], r[6], float(r[7]), float(r[8])
    rs.append(vs / cs_); rr.append(vr / cr_)
    print("%-26s %4s %5s %9.0f %9.0f %7.3f %9.0f %9.0f %7.3f %5s/%-5s" % (sys.argv[2][-26:], i,
          "A B" if int(i) % 2 else "B A", vs / 1e6, cs_ / 1e6, rs[-1], vr / 1e6, cr_ / 1e6, rr[-1],
          cpu(cs, bs), cpu(cr, br)))
if rows:
    print("%-26s %4s %5s %9s %9s %7.3f %9s %9s %7.3f   (median of %d pairs; target >= 0.95)" % (
          sys.argv[2][-26:], "med", "", "", "", st.median(rs), "", "", st.median(rr), len(rows)))
print("  Mbit/s = receiver figure; ratio = vpsbench / iperf3 %s; cpu s/r = vpsbench's own CPU share "
      "(send/recv, 1 = one CPU; * = cpu_bound)" % sys.argv[3])
PY
	done
fi
printf '%-8s %-4s %-18s %-5s %10s %10s %10s %10s\n' rate fam binary test vpsbench ref vs-ref vs-rate
for rate in $RATES; do
	inc tc qdisc replace dev vcc$$ root tbf rate "$rate" burst "$BURST" latency 50ms
	ip netns exec $S tc qdisc replace dev vcs$$ root tbf rate "$rate" burst "$BURST" latency 50ms
	for FAM in $FAMS; do
	for bin in $BINS; do
	: > "$TMP/v"; : > "$TMP/c"; : > "$TMP/hv"; : > "$TMP/hc"
	for i in $(seq "$PAIRS"); do
		vb "$bin" >> "$TMP/v" || echo "! vpsbench round $i failed"
		echo "$(cli) $(cli -R)" >> "$TMP/c"
		[ "$HTTP" = 1 ] && [ "$FAM" = 4 ] || continue
		# one connection each, both cut by the time cap after TIME s
		inc "$bin" --only net --net --net-url $U --net-conns 1 --net-time "$TIME" --quiet --json > "$TMP/j" 2>/dev/null
		python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["net"]["http"][0]
if h["avg_mbit_s"] is None: sys.exit("! vpsbench http: %s %s" % (h["status"], h["reason"]))
print(h["avg_mbit_s"] * 1e6, h["steady_mbit_s"] * 1e6)' "$TMP/j" >> "$TMP/hv" || echo "! vpsbench http round $i failed"
		inc curl -s -o /dev/null --max-time "$TIME" -H 'Accept-Encoding: identity' -w '%{speed_download}\n' $U >> "$TMP/hc"
	done
	python3 - "$TMP" "$rate" "IPv$FAM" "$bin" <<'PY'
import os, statistics as st, sys
d, r, fam, b = sys.argv[1:5]
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
        print("%-8s %-4s %-18s %-5s %10s" % (r, fam, b, name, "-")); continue
    mv, mc = st.median(x[k] for x in vs), st.median(x[kc] for x in cs)
    print("%-8s %-4s %-18s %-5s %10.1f %10.1f %10.4f %10.4f   (%d+%d runs)" % (r, fam, b, name, mv / 1e6,
          mc / 1e6, mv / mc, mv / rate, len(vs), len(cs)))
PY
	done
	done
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "send/recv: iperf3 8 streams, ref = iperf3 CLI (-R for recv), receiver figure (end.sum_received); vpsbench's own client"
echo "http: 1 connection, whole-transfer average, ref = curl speed_download; http~: vpsbench's steady rate after its warm-up"
exit 0
