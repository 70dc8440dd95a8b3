# run-all: last (see tests/run-all.sh): CI links the static binary just before
# smoke_static_aarch64.sh — the cross-built aarch64 static binary (make
# static-aarch64) under qemu-user: `file` says ARM aarch64 and statically
# linked, scripts/static-check.sh passes, and run with qemu-aarch64-static
# it prints its version, reports sysinfo as JSON with os.arch aarch64, and
# a short seq+rand run in a temporary directory works with --engine auto,
# and --net measures both directions against Debian's iperf3 -s on
# 127.0.0.1 and a scripted fake server's counts (loopback only).
# qemu-user (7.2) has no io_uring_setup or io_setup, so auto falls back
# (to libaio or psync) and the report must say which engine ran and why.
# Under qemu-user the binary reads the host's /proc (CPU model, flags,
# cores, memory), so only what holds there is checked. Skips when the
# binary is not built or qemu-aarch64-static (qemu-user-static) is absent.
. tests/lib.sh
# (summary name static_arm: run-all.sh reads only [a-z_-]+ names)
BIN=${VPSBENCH_STATIC_AARCH64:-./vpsbench-static-aarch64}
if [ ! -x "$BIN" ]; then
	t_skip static_aarch64 "$BIN not built (make static-aarch64)"; t_summary static_arm; exit 0
fi
QEMU=$(command -v qemu-aarch64-static || true)
if [ -z "$QEMU" ]; then
	t_skip static_aarch64 "no qemu-aarch64-static (apt-get install qemu-user-static)"; t_summary static_arm; exit 0
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
T=$(t_tmpdir)
trap 'rm -rf "$T"' EXIT
mkdir "$T/data"
# q ARGS...: the binary under qemu; exit code in $T/rc, stdout $T/out, stderr $T/err
q() {
	timeout 300 "$QEMU" "$BIN" "$@" >"$T/out" 2>"$T/err"
	echo $? > "$T/rc"
}
rc() { cat "$T/rc"; }

if command -v file >/dev/null 2>&1; then
	f=$(file -b "$BIN")
	case $f in
	*"ARM aarch64"*"statically linked"*) t_ok file_says_aarch64_static ;;
	*) t_fail file_says_aarch64_static "$f" ;;
	esac
else
	t_skip file_says_aarch64_static "no file(1)"
fi
out=$(scripts/static-check.sh "$BIN" 2>&1) && t_ok static_no_interp_no_dynamic || t_fail static_no_interp_no_dynamic "$out"

q --version
[ "$(rc)" -eq 0 ] && [ "$(cat "$T/out")" = "vpsbench $(sed -n 's/^VERSION *:= *//p' Makefile)" ] &&
	t_ok qemu_version || t_fail qemu_version "rc=$(rc) $(cat "$T/out" "$T/err")"

if ! command -v python3 >/dev/null 2>&1; then
	t_skip qemu_json "needs python3"; t_summary static_arm; exit 0
fi

# sysinfo: uname under qemu-user says aarch64; the rest is the host's
q --only sysinfo --json --quiet
if [ "$(rc)" -eq 0 ] && t_json "$T/out" 'j["schema"] == "vpsbench.report/1"' \
	'j["modules"]["sysinfo"]["status"] == "ok"' 'j["sysinfo"]["os"]["arch"] == "aarch64"' \
	'j["sysinfo"]["cpu"]["cores_online"] >= 1' 'j["sysinfo"]["mem"]["ram_total_bytes"] > 0' \
	'j["sysinfo"]["os"]["kernel"]'; then t_ok qemu_sysinfo_arch_aarch64
else t_fail qemu_sysinfo_arch_aarch64 "rc=$(rc) $(head -c 400 "$T/err") $(head -c 400 "$T/out")"; fi

# short seq + rand, --engine auto: whichever engine ran is named, and a
# fallback from io_uring carries the reason (io_uring's, and libaio's too
# when it fell through to psync)
q --only seq,rand --engine auto --dir "$T/data" --seq-runs 1 --seq-size 8M --size 16M \
	--runtime 1 --ramp 0 --jobs 1 --format json --quiet
if [ "$(rc)" -eq 0 ] && t_json "$T/out" 'j["modules"]["seq"]["status"] == "ok"' \
	'j["modules"]["rand"]["status"] == "ok"' \
	"j['seq']['write']['avg_mbps'] > 0" "j['seq']['read']['mbps'] > 0" \
	"len(j['rand']['passes']) >= 1" \
	"all(p['status'] == 'ok' and p['read']['iops'] > 0 for p in j['rand']['passes'])" &&
   [ -z "$(ls -A "$T/data")" ]; then t_ok qemu_seq_rand
else t_fail qemu_seq_rand "rc=$(rc) $(head -c 400 "$T/err") left: $(ls -A "$T/data")"; fi
if [ "$(rc)" -eq 0 ] && t_json "$T/out" \
	"all(p['engine'] in ('io_uring', 'libaio', 'psync') for p in j['rand']['passes'])" \
	"all(p['engine'] == 'io_uring' or 'io_uring' in (p['engine_fallback_reason'] or '') for p in j['rand']['passes'])" \
	"all(p['engine'] != 'psync' or 'libaio' in (p['engine_fallback_reason'] or '') for p in j['rand']['passes'])"; then
	t_ok qemu_engine_auto_named
	python3 -c 'import json, sys
for p in json.load(open(sys.argv[1]))["rand"]["passes"]:
    print("     %s: engine %s (%s)" % (p["name"], p["engine"], p["engine_fallback_reason"] or "no fallback"))' "$T/out"
else t_fail qemu_engine_auto_named "rc=$(rc) $(head -c 600 "$T/out")"; fi

# --net: the native iperf3 client against the real server and the fake
# one (whose own byte counts the figures must match)
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listening() { for _ in $(seq 50); do ss -Hltn "sport = :$1" | grep -q . && return 0; sleep 0.1; done; return 1; }
if command -v iperf3 >/dev/null; then
	P=$(port)
	iperf3 -s -B 127.0.0.1 -p "$P" >/dev/null 2>&1 &
	ipid=$!
	listening "$P"
	q --only net --net --net-server "127.0.0.1:$P,Lo,loop" --net-time 2 --net-streams 4 --json --quiet
	kill $ipid; wait $ipid 2>/dev/null
	if [ "$(rc)" -eq 0 ] && t_json "$T/out" 'j["modules"]["net"]["status"] == "ok"' \
		'(x := j["net"]["servers"][0])["send"]["status"] == "ok" and x["recv"]["status"] == "ok"' \
		'all(abs(x[k]["bits_per_second"] - x[k]["bytes"] * 8 / x[k]["seconds"]) < 1e-3 for k in ("send", "recv"))' \
		'x["send"]["bytes"] <= x["send"]["sender_bytes"] and x["recv"]["bytes"] <= x["recv"]["sender_bytes"]'; then
		t_ok qemu_net_vs_iperf3_server
	else t_fail qemu_net_vs_iperf3_server "rc=$(rc) $(head -c 400 "$T/err")"; fi
else
	t_skip qemu_net_vs_iperf3_server "iperf3 missing"
fi
P=$(port)
python3 tests/helpers/fake_iperf3.py 127.0.0.1 "$P" ok "$T/fake.log" 2>/dev/null &
fpid=$!
listening "$P"
q --only net --net --net-server "127.0.0.1:$P,Fake,lo" --net-time 1 --net-streams 2 --json --quiet
kill $fpid; wait $fpid 2>/dev/null
if [ "$(rc)" -eq 0 ] && t_json "$T/out" "(L := [json.loads(l) for l in open('$T/fake.log')]) and len(L) == 2" \
	'(x := j["net"]["servers"][0])["send"]["bytes"] == sum(L[0]["bytes"])' \
	'x["recv"]["sender_bytes"] == sum(L[1]["bytes"]) and x["recv"]["bytes"] <= x["recv"]["sender_bytes"]'; then
	t_ok qemu_net_vs_fake_counts
else t_fail qemu_net_vs_fake_counts "rc=$(rc) $(head -c 400 "$T/err")"; fi
t_summary static_arm
