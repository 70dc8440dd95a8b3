# smoke_pushgateway.sh — --upload-format prom into Debian's
# prometheus-pushgateway on 127.0.0.1 (a free port): two nodes' series read
# back from /metrics equal their JSON reports; a second upload for a node
# replaces its series (PUT), the other node's stay. With the Prometheus
# server installed, a scrape and a PromQL query return the same value.
. tests/lib.sh
PY=python3 # (Debian's: tests/lib.sh puts it first on PATH)
tmp=$(t_tmpdir)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
case $VPSBENCH in /*) VB=$VPSBENCH ;; *) VB=$PWD/$VPSBENCH ;; esac

# bad input first: it needs no gateway
out=$("$VB" --upload-format xml 2>&1); rc=$?
if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
   printf '%s' "$out" | grep -q 'upload-format takes one of json|yabs|prom'; then
	t_ok "unknown --upload-format: one line, exit 1"
else
	t_fail "unknown --upload-format" "rc=$rc: $out"
fi

# --upload-format yabs: the body is exactly the --format yabs rendering of the
# run, as application/json, sent with POST; the file saved first is the JSON report
if ! "$VB" --only sysinfo --upload ftp://x/ 2>&1 | grep -q 'built without libcurl'; then
	mkdir -p "$tmp/ys" "$tmp/yrun"
	"$PY" tests/helpers/upload_server.py --mode ok --out "$tmp/ys" &
	pids="$pids $!"
	for _ in $(seq 100); do [ -s "$tmp/ys/port" ] && break; sleep 0.05; done
	( cd "$tmp/yrun" && "$VB" --only sysinfo --quiet --format yabs --upload-format yabs --allow-http \
		--upload "http://127.0.0.1:$(cat "$tmp/ys/port")/up" ) >"$tmp/y.out" 2>"$tmp/y.err"; rc=$?
	saved=$(ls "$tmp/yrun"/vpsbench-report-*.json 2>/dev/null | head -1)
	if [ $rc -eq 0 ] && cmp -s "$tmp/y.out" "$tmp/ys/body" &&
	   grep -qi '^content-type: application/json' "$tmp/ys/headers" &&
	   [ -n "$saved" ] && t_json "$saved" 'j["schema"] == "vpsbench.report/1"'; then
		t_ok "--upload-format yabs: the yabs rendering as application/json; JSON saved"
	else
		t_fail "--upload-format yabs" "rc=$rc: $(cat "$tmp/y.err")"
	fi
fi

PGW=$(command -v prometheus-pushgateway)
if [ -z "$PGW" ] || ! command -v curl >/dev/null; then
	t_skip pushgateway "needs prometheus-pushgateway and curl (Debian packages)"
	t_summary pushgateway
	exit 0
fi
if "$VB" --only sysinfo --upload ftp://x/ 2>&1 | grep -q 'built without libcurl'; then
	t_skip pushgateway "built without libcurl"
	t_summary pushgateway
	exit 0
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() { # URL: up to 10 s
	for _ in $(seq 100); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
	return 1
}
P=$(free_port)
"$PGW" --web.listen-address=127.0.0.1:$P >"$tmp/pgw.log" 2>&1 &
pids="$pids $!"
if ! wait_http "http://127.0.0.1:$P/-/ready"; then
	t_fail "pushgateway start" "$(tail -3 "$tmp/pgw.log")"
	t_summary pushgateway
	exit 1
fi
URL=http://127.0.0.1:$P/metrics/job/vpsbench/instance
mkdir -p "$tmp/d" "$tmp/run"
cd "$tmp/run" || exit 1

# push NODE MODULES [labels...]: a short run, JSON kept in $tmp/NODE.json
push() {
	local node=$1 only=$2; shift 2
	rm -f "$tmp/$node.json"
	"$VB" --only "$only" --seq-size 4M --seq-runs 1 --dir "$tmp/d" --quiet --format json \
		--label "$node" "$@" --output "$tmp/$node.json" --upload-format prom \
		--upload "$URL/$node" --allow-http >/dev/null 2>"$tmp/$node.err"
}
push node-a sysinfo,seq --label dc=fra1; ra=$?
push node-b sysinfo,seq --label dc=ams1; rb=$?
if [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && grep -q 'upload to .*HTTP 200' "$tmp/node-a.err"; then
	t_ok "two nodes pushed (PUT, HTTP 200)"
else
	t_fail "push" "rc $ra/$rb: $(cat "$tmp/node-a.err" "$tmp/node-b.err")"
fi
curl -sf "http://127.0.0.1:$P/metrics" >"$tmp/m1.txt"

# check_series METRICS NODE: the node's seq write/read throughput and its
# start time equal the JSON report's, and vpsbench_node_info carries its labels
check_series() {
	python3 - "$1" "$tmp/$2.json" "$2" <<'PY'
import json, re, sys
text, rep, node = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
def find(name, **want):
    out = []
    for ln in text.splitlines():
        m = re.match(r'^(\w+)\{(.*)\} (\S+)$', ln)
        if not m or m.group(1) != name:
            continue
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2)))
        if all(labels.get(k) == v for k, v in want.items()):
            out.append(float(m.group(3)))
    return out
bad = []
w = find("vpsbench_throughput_bytes_per_second", instance=node, job="vpsbench", direction="write")
r = find("vpsbench_throughput_bytes_per_second", instance=node, job="vpsbench", direction="read")
exp_w = rep["seq"]["write"]["avg_mbps"] * 1e6
exp_r = rep["seq"]["read"]["mbps"] * 1e6
if len(w) != 1 or abs(w[0] - exp_w) > 1e-6 * exp_w:
    bad.append("write %s != %s" % (w, exp_w))
if len(r) != 1 or abs(r[0] - exp_r) > 1e-6 * exp_r:
    bad.append("read %s != %s" % (r, exp_r))
info = find("vpsbench_node_info", instance=node, label=node, label_dc=rep["labels"]["dc"])
if info != [1.0]:
    bad.append("node_info %s" % info)
for b in bad:
    print("  " + node + ": " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
t_check "node-a series equal its JSON report" check_series "$tmp/m1.txt" node-a
t_check "node-b series equal its JSON report" check_series "$tmp/m1.txt" node-b

# a second upload for node-a without seq: PUT replaces the group, so node-a
# has no throughput series left (a POST would keep them); node-b keeps its own
cp "$tmp/node-b.json" "$tmp/node-b.first.json"
push node-a sysinfo --label dc=fra2; ra=$?
curl -sf "http://127.0.0.1:$P/metrics" >"$tmp/m2.txt"
if [ "$ra" -eq 0 ] &&
   ! grep -E '^vpsbench_throughput_bytes_per_second\{.*instance="node-a"' "$tmp/m2.txt" >/dev/null &&
   grep -E '^vpsbench_node_info\{.*instance="node-a".*label_dc="fra2"' "$tmp/m2.txt" >/dev/null &&
   ! grep -E 'label_dc="fra1"' "$tmp/m2.txt" >/dev/null; then
	t_ok "second upload replaced node-a's series"
else
	t_fail "replace" "rc=$ra; $(grep 'instance="node-a"' "$tmp/m2.txt" | head -5)"
fi
t_check "node-b's series untouched by node-a's upload" check_series "$tmp/m2.txt" node-b

# --upload-format json to a Pushgateway: rejected by it (a 400), exit 4
"$VB" --only sysinfo --quiet --upload "$URL/node-c" --allow-http --output "$tmp/c.json" \
	>/dev/null 2>"$tmp/c.err"; rc=$?
if [ "$rc" -eq 4 ] && grep -q 'HTTP 4' "$tmp/c.err"; then
	t_ok "a JSON body to the Pushgateway fails with exit 4"
else
	t_fail "json to pushgateway" "rc=$rc: $(cat "$tmp/c.err")"
fi

# optional: the Prometheus server scrapes the gateway; PromQL returns node-b's figure
PROM=$(command -v prometheus)
if [ -z "$PROM" ]; then
	t_skip "promql" "prometheus not installed"
else
	Q=$(free_port)
	cat >"$tmp/prom.yml" <<YML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$P']
YML
	"$PROM" --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/tsdb" \
		--web.listen-address=127.0.0.1:$Q >"$tmp/prom.log" 2>&1 &
	pids="$pids $!"
	want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seq"]["write"]["avg_mbps"]*1e6)' "$tmp/node-b.json")
	got=""
	if wait_http "http://127.0.0.1:$Q/-/ready"; then
		for _ in $(seq 60); do
			got=$(curl -sf "http://127.0.0.1:$Q/api/v1/query" --data-urlencode \
				'query=vpsbench_throughput_bytes_per_second{instance="node-b",direction="write"}' |
				python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null)
			[ -n "$got" ] && break
			sleep 0.5
		done
	fi
	# the README's PromQL example parses and runs
	readme_q='sum by (instance) (vpsbench_iops{pass="randrw-4k-qd64"}) < 0.7 * quantile_over_time(0.5, (sum by (instance) (vpsbench_iops{pass="randrw-4k-qd64"}))[7d:1h])'
	st=$(curl -s "http://127.0.0.1:$Q/api/v1/query" --data-urlencode "query=$readme_q" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])' 2>/dev/null)
	[ "$st" = success ] && t_ok "the README's PromQL example is accepted" || t_fail "README PromQL" "status '$st'"
	if [ -n "$got" ] && python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(abs(a-b) > 1e-6*b)' "$got" "$want"; then
		t_ok "PromQL returns node-b's write throughput ($got)"
	else
		t_fail "promql" "got '$got', want $want; $(tail -3 "$tmp/prom.log")"
	fi
fi
t_summary pushgateway
