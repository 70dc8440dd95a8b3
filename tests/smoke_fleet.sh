# run-all: check (see tests/run-all.sh)
# smoke_fleet.sh — `vpsbench fleet` on the fixture reports in
# tests/fixtures/fleet (five default-profile nodes, one of them without
# its rand module, one yabs-profile node, one broken file, one foreign
# file): golden text, JSON and CSV (tests/golden/fleet.*), the figures
# checked against the fixtures by hand, --require and exit 3, the HTML
# strip charts, and the bad-input rules. Also --label in each format.
. tests/lib.sh
tmp=$(t_tmpdir)
trap 'rm -rf "$tmp"' EXIT
F=tests/fixtures/fleet
G=tests/golden

"$VPSBENCH" fleet $F >"$tmp/f.txt" 2>"$tmp/f.err"; rc=$?
if [ $rc -eq 0 ] && diff -u $G/fleet.txt "$tmp/f.txt"; then t_ok fleet_text_golden; else t_fail fleet_text_golden "rc=$rc"; fi
if grep -q "skipped $F/broken.json: not valid JSON" "$tmp/f.err" &&
   grep -q "skipped $F/foreign.json: not a vpsbench report" "$tmp/f.err"; then
	t_ok "broken and foreign files in a directory: listed, the rest ranked"
else
	t_fail "dir with broken files" "$(cat "$tmp/f.err")"
fi
"$VPSBENCH" fleet $F --format json 2>/dev/null | sed 's/"version":\t"[^"]*"/"version":\t"X"/' >"$tmp/f.json"
if diff -u $G/fleet.json "$tmp/f.json"; then t_ok fleet_json_golden; else t_fail fleet_json_golden; fi
"$VPSBENCH" fleet $F --format csv >"$tmp/f.csv" 2>/dev/null
if diff -u $G/fleet.csv "$tmp/f.csv"; then t_ok fleet_csv_golden; else t_fail fleet_csv_golden; fi

# the figures, recomputed here from the fixture files (not from the output)
python3 - "$F" "$tmp/f.json" <<'PY' && t_ok "median/p10/p90 and outliers equal a recomputation" || t_fail "fleet figures"
import json, glob, sys, statistics
F, out = sys.argv[1], json.load(open(sys.argv[2]))
reps = []
for p in sorted(glob.glob(F + "/*.json")):
    try:
        j = json.load(open(p))
    except Exception:
        continue
    if j.get("schema") == "vpsbench.report/1":
        reps.append(j)
def pct(v, p):
    v = sorted(v); r = p / 100 * (len(v) - 1); i = int(r)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (r - i)
bad = []
assert out["mixed_profiles"] and out["left_out"] == ["lat_p50_ms", "lat_p99_ms"], out["left_out"]
lower = {"lat_p50_ms", "lat_p99_ms", "rand_cov_pct"}
for m in out["metrics"]:
    vals = [r["metrics"][m["metric"]] for r in reps if r["metrics"].get(m["metric"]) is not None]
    for k, p in (("median", 50), ("p10", 10), ("p90", 90)):
        if abs(m[k] - pct(vals, p)) > 1e-9:
            bad.append("%s %s %s != %s" % (m["metric"], k, m[k], pct(vals, p)))
    assert m["median"] == statistics.median(vals)
    for n in out["nodes"]:
        v = n["values"][m["metric"]]
        if v is None:
            continue
        worse = ((v - m["median"]) if m["metric"] in lower else (m["median"] - v)) / m["median"] * 100
        if (worse > 30) != (m["metric"] in n["outliers"]):
            bad.append("%s %s flag" % (n["label"], m["metric"]))
labels = [n["label"] for n in out["nodes"]]
# worst first: the node whose report names a health problem (ams1-01: steal), then outliers
if labels[:2] != ["ams1-01", "fra1-03"] or labels[2] != "e":
    bad.append("order %s" % labels)
for n in out["nodes"]:
    rep = next(j for j in reps if j.get("label", "") == n["label"]) if n["label"] != "e" else {}
    want = rep.get("health", {}).get("status", "unknown") if rep else "unknown"
    if n["health"] != want or (n["status"] == "UNHEALTHY") != (want == "problems"):
        bad.append("%s health %s/%s, report says %s" % (n["label"], n["health"], n["status"], want))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

"$VPSBENCH" fleet $F/a.json $F/b.json $F/c.json $F/d.json $F/e.json \
	--require 'rand_iops>=20000,lat_p99_ms<=5' >"$tmp/r.txt" 2>&1; rc=$?
if [ $rc -eq 3 ] && diff -u $G/fleet-require.txt "$tmp/r.txt"; then
	t_ok "--require: failing nodes named, exit 3 (golden)"
else
	t_fail "--require" "rc=$rc"
fi
"$VPSBENCH" fleet $F/a.json $F/b.json --require 'rand_iops>=20000' >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && t_ok "--require met by every node: exit 0" || t_fail "--require met" "rc=$rc"

# HTML: a strip chart per shown metric, a dot per node with that figure
"$VPSBENCH" fleet $F --format html >"$tmp/f.html" 2>/dev/null; rc=$?
python3 - "$tmp/f.html" "$tmp/f.json" <<'PY' && [ $rc -eq 0 ] && t_ok "HTML: one strip chart per metric, one dot per node" || t_fail "fleet html" "rc=$rc"
import json, re, sys
h, j = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
charts = re.findall(r'<svg class="strip".*?</svg>', h, re.S)
assert len(charts) == len(j["metrics"]), (len(charts), len(j["metrics"]))
for c, m in zip(charts, j["metrics"]):
    dots = re.findall(r'<circle class="(mk-rd|mk-wr)"', c)
    assert len(dots) == m["nodes"], (m["metric"], len(dots), m["nodes"])
    outl = sum(1 for n in j["nodes"] if m["metric"] in n["outliers"])
    assert dots.count("mk-wr") == outl, (m["metric"], dots.count("mk-wr"), outl)
assert "<script" not in h and "http" not in h.replace("http-equiv", "")
def near(txt, want):  # the printed digits against the JSON figure
    dec = len(txt.split(".")[1]) if "." in txt else 0
    return want is not None and abs(float(txt) - want) <= max(0.5 * 10 ** -dec, 0.005 * abs(want)) + 1e-9
# each dot's title: the node's own value of that metric
for c, m in zip(charts, j["metrics"]):
    for lab, num in re.findall(r'<title>([^<:]+): ([0-9.eE+-]+) ', c):
        node = next(n for n in j["nodes"] if n["label"] == lab)
        assert near(num, node["values"][m["metric"]]), (m["metric"], lab, num, node["values"][m["metric"]])
# the table's median, p10 and p90 rows: the JSON's, metric by metric
for k in ("median", "p10", "p90"):
    row = re.search(r"<tr><th>%s</th><td></td>(.*?)</tr>" % k, h).group(1)
    cells = re.findall(r'<td class="n[^"]*">([^<]*)</td>', row)
    assert len(cells) == len(j["metrics"]), (k, len(cells))
    for txt, m in zip(cells, j["metrics"]):
        assert near(txt, m[k]), (k, m["metric"], txt, m[k])
PY

# bad input
out=$("$VPSBENCH" fleet $F/a.json $F/foreign.json 2>&1); rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q "foreign.json: not a vpsbench report"; then
	t_ok "a foreign file named on the command line: refused, exit 1"
else
	t_fail "foreign file" "rc=$rc: $out"
fi
mkdir "$tmp/bad"
cp $F/broken.json $F/foreign.json "$tmp/bad/"
out=$("$VPSBENCH" fleet "$tmp/bad" 2>&1); rc=$?
if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q "no readable report"; then
	t_ok "no readable report: exit 1 naming why"
else
	t_fail "no readable report" "rc=$rc: $out"
fi
mkdir "$tmp/empty"
out=$("$VPSBENCH" fleet "$tmp/empty" 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q "no \*.json files" && t_ok "empty directory: exit 1" ||
	t_fail "empty dir" "rc=$rc: $out"
out=$("$VPSBENCH" fleet 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && t_ok "no argument: one line, exit 1" || t_fail "no arg" "$out"
out=$("$VPSBENCH" fleet $F --outlier abc 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q -- "--outlier takes" && t_ok "bad --outlier: exit 1" || t_fail "bad outlier" "$out"
out=$("$VPSBENCH" fleet $F --format xml 2>&1); rc=$?
[ $rc -eq 1 ] && t_ok "bad --format: exit 1" || t_fail "bad format" "$out"
# --outlier moves the line: at 50% only fra1-03's rand figures (52% worse) stay outliers
"$VPSBENCH" fleet $F --outlier 50 --format json 2>/dev/null >"$tmp/o.json"
t_json "$tmp/o.json" 'j["nodes_outlier"] == 1' 'j["nodes"][1]["label"] == "fra1-03"' \
	'j["nodes"][1]["outliers"] == ["rand_iops", "rand_read_iops", "rand_write_iops"]' \
	'j["nodes"][0]["label"] == "ams1-01" and j["nodes"][0]["status"] == "UNHEALTHY"' &&
	t_ok "--outlier 50" || t_fail "--outlier 50"

# --label: checked, and shown in every format; absent: no identity at all
for bad in 'a b' 'x/y' "$(printf 'x%.0s' $(seq 65))" 'é'; do
	out=$("$VPSBENCH" --only sysinfo --label "$bad" 2>&1); rc=$?
	if [ $rc -ne 1 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then
		t_fail "--label '$bad' refused" "rc=$rc: $out"; continue
	fi
	t_ok "--label '${bad:0:12}' refused: one line, exit 1"
done
"$VPSBENCH" --only sysinfo --quiet --label "$(printf 'x%.0s' $(seq 64))" --json >/dev/null 2>&1 &&
	t_ok "--label of 64 bytes accepted" || t_fail "64-byte label"
L="--label web-1 --label dc=fra1 --label rack=r4:u12"
"$VPSBENCH" --only sysinfo --quiet $L --json >"$tmp/l.json" 2>/dev/null
t_json "$tmp/l.json" 'j["label"] == "web-1"' 'j["labels"] == {"dc": "fra1", "rack": "r4:u12"}' &&
	python3 tests/helpers/validate.py schema/report.schema.json "$tmp/l.json" &&
	t_ok "--label in JSON (schema-valid)" || t_fail "--label json"
"$VPSBENCH" --only sysinfo --quiet $L | grep -q '^ node web-1, dc=fra1, rack=r4:u12$' &&
	t_ok "--label in text" || t_fail "--label text"
"$VPSBENCH" --only sysinfo --quiet $L --format prom |
	grep -q '^vpsbench_node_info{label="web-1",label_dc="fra1",label_rack="r4:u12"} 1$' &&
	t_ok "--label in prom" || t_fail "--label prom"
"$VPSBENCH" --only sysinfo --quiet $L --html "$tmp/l.html" >/dev/null
grep -q 'node web-1, dc=fra1, rack=r4:u12' "$tmp/l.html" && t_ok "--label in HTML" || t_fail "--label html"
"$VPSBENCH" --only sysinfo --quiet --json >"$tmp/n.json" 2>/dev/null
"$VPSBENCH" --only sysinfo --quiet --format prom >"$tmp/n.prom" 2>/dev/null
t_json "$tmp/n.json" '"label" not in j' '"labels" not in j' && ! grep -q node_info "$tmp/n.prom" &&
	t_ok "no --label: no identity in JSON or prom" || t_fail "no label"
cp "$tmp/l.json" "$tmp/bad/web.json"
"$VPSBENCH" fleet "$tmp/l.json" --format csv 2>/dev/null | grep -q '^web-1,.*,"dc=fra1, rack=r4:u12",' &&
	t_ok "fleet shows the report's --label" || t_fail "fleet label"
t_summary fleet
