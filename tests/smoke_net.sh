#!/bin/bash
# run-all: alone (see tests/run-all.sh): its checks need the machine to itself
# smoke_net.sh — the opt-in net module's figures against the reference
# tools on a private link shaped to 200 Mbit/s (tests/helpers/net_ns.sh:
# network namespaces, a veth pair addressed from 198.18.0.0/15 and
# 2001:db8::/32, Debian's iperf3 -s on the far side): iperf3's CLI and
# curl run alternately with vpsbench (A B A B). Nothing here reaches any
# address outside this machine. Root only; skips cleanly otherwise. The
# rows that need no quiet machine (busy, refused, DNS failure, stalled
# server, IPv6-only, HTTP errors), bad input and the default run's silence
# are in smoke_net_rows.sh, which runs beside other scripts.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
. tests/helpers/net_ns.sh
net_ns_start smoke_net 200mbit

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
		'x["latency_samples"] == 2 and 0 < x["latency_ms"] < 50' \
		'isinstance(x["send"]["retransmits"], int)' \
		'all(abs(x[k]["bits_per_second"] - x[k]["bytes"] * 8 / x[k]["seconds"]) < 1e-3 for k in ("send", "recv"))' \
		'all(abs(x[k]["sender_bits_per_second"] - x[k]["sender_bytes"] * 8 / x[k]["sender_seconds"]) < 1e-3 for k in ("send", "recv"))' \
		'x["send"]["bytes"] <= x["send"]["sender_bytes"] == x["send"]["bytes_moved"]' \
		'x["recv"]["bytes"] <= x["recv"]["sender_bytes"] and x["recv"]["bytes"] <= x["recv"]["bytes_moved"]' \
		'all(len(x[k]["timeline_bits_per_second"]) == 3 for k in ("send", "recv"))' \
		'sum(x["send"]["timeline_bits_per_second"]) / 8 <= x["send"]["sender_bytes"]' \
		'sum(x["recv"]["timeline_bits_per_second"]) / 8 <= x["recv"]["bytes"]' \
		'all(t <= 200e6 * 1.15 for k in ("send", "recv") for t in x[k]["timeline_bits_per_second"][1:])' \
		'j["net"]["bytes_moved"] == x["bytes_moved"] == x["send"]["bytes_moved"] + x["recv"]["bytes_moved"]' \
		'abs(x["send"]["mbit_s"] * 1e6 - x["send"]["bits_per_second"]) < 1' \
		'j["metrics"]["net_send_mbit_s"] == x["send"]["mbit_s"]' \
		'j["metrics"]["net_recv_mbit_s"] == x["recv"]["mbit_s"]' &&
		t_ok "report: figures, latency, metrics consistent" || t_fail "report fields"
fi

# 5. HTTP downloads from nginx (Debian's nginx-light) serving a generated
# file on the shaped link: one connection against curl's speed_download
# (A B A B), the steady rate against the shaped 200 Mbit/s; the cap ends
# the transfer after data (partial, labelled).
if command -v curl >/dev/null && net_ns_nginx; then
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
else
	t_skip "HTTP downloads" "nginx or curl missing, or nginx did not start: $(cat "$TMP/ngx/err.log" 2>/dev/null)"
fi

# schema
t_schema "net reports validate against the schema" "$TMP/a1.json" $(ls "$TMP"/h[12].json 2>/dev/null)
t_summary smoke_net

