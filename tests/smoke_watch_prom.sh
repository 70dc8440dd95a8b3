#!/bin/bash
# smoke_watch_prom.sh — Debian's Prometheus scrapes `vpsbench watch --every
# 200ms` on 127.0.0.1 (free ports) every second; PromQL queries read the
# randread p99 probe series and the degraded gauge back, and each equals a
# value the watcher served on /metrics (the same gauge, never a default).
# The baseline is the recorded fixture with its randread p99 set to 1 us,
# so every probe is worse than it by far more than --margin: the randread
# degraded gauge must turn 1 after --window 2 rounds, and PromQL must say 1.
# Every body served is `promtool check metrics` clean. First, without
# Prometheus: a watcher whose rounds after the first are all skipped (budget)
# stops advancing last_success, turns probe_stale to 1 and counts the skips.
. tests/lib.sh
t_load_note
tmp=$(t_tmpdir)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

# --- stale: one ok round, then every round skipped by the budget -----------
# --budget 1: the first round's probes (~0.3 s) are over 1% of the wall time until 30 s in;
# stale after --window 2 x --every 200ms x 1.1 + --probe-time 100ms = 0.54 s
sd="$tmp/stale"; mkdir -p "$sd"
"$VPSBENCH" watch --state-dir "$sd" --baseline tests/fixtures/watch/baseline.json --listen none \
	--prom-file "$tmp/stale.prom" --every 200ms --probe-time 100ms --budget 1 --max-load 100000 \
	--max-cpu 100 --max-psi 100 --window 2 --rounds 12 2>"$tmp/stale.err" &
sw=$!; pids+=($sw)
pv() { awk -v k="$2" '$1 == k {print $2}' "$1" 2>/dev/null; }
LS='vpsbench_watch_probe_last_success_timestamp_seconds{probe="prime"}'
ls3=; ls9=
while kill -0 $sw 2>/dev/null; do
	n=$(pv "$tmp/stale.prom" vpsbench_watch_rounds_total)
	[ -z "$ls3" ] && [ "${n:-0}" -ge 3 ] && ls3=$(pv "$tmp/stale.prom" "$LS") && cp "$tmp/stale.prom" "$tmp/stale3.prom"
	[ -z "$ls9" ] && [ "${n:-0}" -ge 9 ] && ls9=$(pv "$tmp/stale.prom" "$LS")
	sleep 0.05
done
wait $sw; rc=$?
t_promtool_metrics stale_prom_file_promtool_clean "$tmp/stale.prom"
[ -n "$ls3" ] && t_promtool_metrics stale_prom_file_round3_promtool_clean "$tmp/stale3.prom"
first=$(head -n 1 "$sd/history.jsonl" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.3f" % r["unix"] if r["probes"]["prime"]["status"] == "ok" else "skipped")' 2>/dev/null)
lsend=$(pv "$tmp/stale.prom" "$LS")
skipped=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["probes"]["prime"].get("skip") == "budget"))' "$sd/history.jsonl" 2>/dev/null)
bud=$(pv "$tmp/stale.prom" 'vpsbench_watch_probe_skipped_total{probe="prime",reason="budget"}')
budrr=$(pv "$tmp/stale.prom" "vpsbench_watch_probe_skipped_total{probe=\"randread\",dir=\"$sd\",reason=\"budget\"}")
load=$(pv "$tmp/stale.prom" 'vpsbench_watch_probe_skipped_total{probe="prime",reason="load"}')
st=$(pv "$tmp/stale.prom" 'vpsbench_watch_probe_stale{probe="prime"}')
strr=$(pv "$tmp/stale.prom" "vpsbench_watch_probe_stale{probe=\"randread\",dir=\"$sd\"}")
st3=$(pv "$tmp/stale3.prom" 'vpsbench_watch_probe_stale{probe="prime"}')
age=$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) - float(sys.argv[2])))' "$(pv "$tmp/stale.prom" vpsbench_watch_last_round_timestamp_seconds)" "${lsend:-0}" 2>/dev/null)
# the last round started over 0.54 s after the last success: stale (the body is rendered at its end)
if [ $rc -eq 0 ] && [ "$first" != skipped ] && [ -n "$ls3" ] && [ "$ls3" = "$ls9" ] && [ "$ls9" = "$lsend" ] &&
   python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 0.01 or float(sys.argv[3]) <= 0.54)' "$lsend" "$first" "$age" &&
   [ "${skipped:-0}" = 11 ] && [ "$bud" = 11 ] && [ "$budrr" = 11 ] && [ "$load" = 0 ] && [ "$st" = 1 ] && [ "$strr" = 1 ]; then
	t_ok "stale: last_success stays at round 1 over rounds 3, 9, 12 ($age s old at the end); skipped_total{reason=budget} $bud; probe_stale $st3 at round 3, $st at 12 (load $(cut -d' ' -f1 /proc/loadavg))"
else
	t_fail stale "rc=$rc first=$first last_success r3=$ls3 r9=$ls9 end=$lsend age=$age skipped(history)=$skipped budget=$bud/$budrr load=$load stale=$st/$strr $(tail -2 "$tmp/stale.err")"
fi

PROM=$(command -v prometheus)
if [ -z "$PROM" ] || ! command -v curl >/dev/null; then
	if [ -n "${CI:-}" ]; then t_fail prometheus "prometheus or curl missing"
	else t_skip prometheus "needs prometheus and curl (Debian packages)"; fi
	t_summary watch_prom
	exit 0
fi
if "$VPSBENCH" watch --state-dir "$tmp/probe" --baseline tests/fixtures/watch/baseline.json \
	--listen 127.0.0.1:1 --rounds 1 2>&1 | grep -q 'without libmicrohttpd'; then
	t_skip prometheus "built without libmicrohttpd"
	t_summary watch_prom
	exit 0
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
query() { # PROMQL: the first result's value, or empty
	curl -sf "http://127.0.0.1:$Q/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null
}
# the baseline: the fixture with a randread p99 no disk reaches (1 us)
python3 - tests/fixtures/watch/baseline.json "$tmp/base.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["metrics"]["lat_p99_ms"] = 0.001  # the watcher's randread baseline (README)
json.dump(d, open(sys.argv[2], "w"))
PY
W=$(free_port); Q=$(free_port)
mkdir -p "$tmp/sd"
"$VPSBENCH" watch --state-dir "$tmp/sd" --baseline "$tmp/base.json" --listen "127.0.0.1:$W" \
	--every 200ms --probe-time 100ms --budget 100 --max-load 100000 --max-cpu 100 --max-psi 100 \
	--window 2 --margin 0.25 >"$tmp/watch.log" 2>&1 &
pids+=($!)
cat >"$tmp/prom.yml" <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: vpsbench-watch
    static_configs:
      - targets: ['127.0.0.1:$W']
YML
"$PROM" --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address=127.0.0.1:$Q >"$tmp/prom.log" 2>&1 &
pids+=($!)
ready=""
for _ in $(seq 150); do curl -sf -o /dev/null "http://127.0.0.1:$Q/-/ready" && ready=1 && break; sleep 0.1; done
[ -n "$ready" ] && t_ok prometheus_ready || t_fail prometheus_ready "$(tail -3 "$tmp/prom.log")"

# the probe series: PromQL's latest sample equals one the watcher served
p99=""
for _ in $(seq 60); do
	p99=$(query 'vpsbench_watch_randread_latency_p99_seconds{job="vpsbench-watch"}')
	[ -n "$p99" ] && break
	sleep 0.5
done
served=$(curl -sf "http://127.0.0.1:$W/metrics" > "$tmp/m1"; grep '^vpsbench_watch_randread_latency_p99_seconds{dir=' "$tmp/m1" | awk '{print $2}')
t_promtool_metrics metrics_body_promtool_clean "$tmp/m1"
rounds=$(query 'vpsbench_watch_rounds_total')
if [ -n "$p99" ] && python3 -c 'import sys; v=float(sys.argv[1]); sys.exit(not (1e-6 < v < 10))' "$p99"; then
	t_ok "PromQL reads the randread p99 probe series ($p99 s after $rounds rounds)"
else
	t_fail promql_p99 "got '$p99'; watcher serves '$served'; $(tail -3 "$tmp/watch.log")"
fi
# over the scrapes, every stored p99 sample is one the history recorded
hist_ok=$(python3 - "$tmp/sd/history.jsonl" "$(curl -sf "http://127.0.0.1:$Q/api/v1/query" --data-urlencode \
	'query=vpsbench_watch_randread_latency_p99_seconds[30s]')" <<'PY'
import json, sys
hist = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
vals = {round(h["probes"]["randread"]["p99_us"], 3) for h in hist if h["probes"]["randread"]["p99_us"] is not None}
r = json.loads(sys.argv[2])["data"]["result"]
got = [round(float(v) * 1e6, 3) for _, v in r[0]["values"]] if r else []
bad = [g for g in got if not any(abs(g - v) <= 1e-3 * max(v, 1) for v in vals)]
print("%d %d" % (len(got), len(bad)))
PY
)
set -- $hist_ok
if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" -eq 0 ]; then
	t_ok "each of the $1 scraped p99 samples is a history line's p99"
else
	t_fail promql_history "samples/unmatched: '$hist_ok'"
fi

# the degraded gauge: the baseline's p99 (the fixture's) against the probes here
base_p99=$(grep '^vpsbench_watch_baseline_seconds{metric="randread_p99",' "$tmp/m1" | awk '{print $2}')
deg=""
for _ in $(seq 40); do
	deg=$(query 'vpsbench_watch_degraded{metric="randread_p99"}')
	curl -sf "http://127.0.0.1:$W/metrics" > "$tmp/m2"
	srv=$(grep '^vpsbench_watch_degraded{metric="randread_p99",' "$tmp/m2" | awk '{print $2}')
	[ "$deg" = 1 ] && [ "$srv" = 1 ] && break
	sleep 0.5
done
ratio=$(grep '^vpsbench_watch_drift_ratio{metric="randread_p99",' "$tmp/m2" | awk '{print $2}')
t_promtool_metrics metrics_body_degraded_promtool_clean "$tmp/m2"
# every probe is > 1.25 x a 1 us baseline: degraded after --window 2 rounds
if [ "$deg" = 1 ] && [ "$srv" = 1 ] && python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > 1.25)' "${ratio:-0}"; then
	t_ok "PromQL reads the degraded gauge: $deg (served $srv; drift ratio $ratio against baseline $base_p99 s)"
else
	t_fail promql_degraded "PromQL '$deg', served '$srv', ratio '$ratio', want '$want'"
fi
t_summary watch_prom
