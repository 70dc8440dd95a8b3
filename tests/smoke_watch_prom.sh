#!/bin/bash
# smoke_watch_prom.sh — Debian's Prometheus scrapes `vpsbench watch --every
# 200ms` on 127.0.0.1 (free ports) every second; PromQL queries read the
# randread p99 probe series and the degraded gauge back, and each equals a
# value the watcher served on /metrics (the same gauge, never a default).
# The baseline is the recorded fixture with its randread p99 set to 1 us,
# so every probe is worse than it by far more than --margin: the randread
# degraded gauge must turn 1 after --window 2 rounds, and PromQL must say 1.
. tests/lib.sh
tmp=$(t_tmpdir)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
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
	p99=$(query 'vpsbench_watch_randread_latency_seconds{quantile="0.99",job="vpsbench-watch"}')
	[ -n "$p99" ] && break
	sleep 0.5
done
served=$(curl -sf "http://127.0.0.1:$W/metrics" > "$tmp/m1"; grep '^vpsbench_watch_randread_latency_seconds{quantile="0.99"}' "$tmp/m1" | awk '{print $2}')
rounds=$(query 'vpsbench_watch_rounds_total')
if [ -n "$p99" ] && python3 -c 'import sys; v=float(sys.argv[1]); sys.exit(not (1e-6 < v < 10))' "$p99"; then
	t_ok "PromQL reads the randread p99 probe series ($p99 s after $rounds rounds)"
else
	t_fail promql_p99 "got '$p99'; watcher serves '$served'; $(tail -3 "$tmp/watch.log")"
fi
# over the scrapes, every stored p99 sample is one the history recorded
hist_ok=$(python3 - "$tmp/sd/history.jsonl" "$(curl -sf "http://127.0.0.1:$Q/api/v1/query" --data-urlencode \
	'query=vpsbench_watch_randread_latency_seconds{quantile="0.99"}[30s]')" <<'PY'
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
base_p99=$(grep '^vpsbench_watch_baseline{metric="randread_p99_us"}' "$tmp/m1" | awk '{print $2}')
deg=""
for _ in $(seq 40); do
	deg=$(query 'vpsbench_watch_degraded{metric="randread_p99_us"}')
	srv=$(curl -sf "http://127.0.0.1:$W/metrics" | grep '^vpsbench_watch_degraded{metric="randread_p99_us"}' | awk '{print $2}')
	[ "$deg" = 1 ] && [ "$srv" = 1 ] && break
	sleep 0.5
done
ratio=$(curl -sf "http://127.0.0.1:$W/metrics" | grep '^vpsbench_watch_drift_ratio{metric="randread_p99_us"}' | awk '{print $2}')
# every probe is > 1.25 x a 1 us baseline: degraded after --window 2 rounds
if [ "$deg" = 1 ] && [ "$srv" = 1 ] && python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > 1.25)' "${ratio:-0}"; then
	t_ok "PromQL reads the degraded gauge: $deg (served $srv; drift ratio $ratio against baseline $base_p99 us)"
else
	t_fail promql_degraded "PromQL '$deg', served '$srv', ratio '$ratio', want '$want'"
fi
t_summary watch_prom
