# run-all: check (see tests/run-all.sh)
# smoke_fleet.sh — `vpsbench fleet` on the fixture reports in
# tests/fixtures/fleet (five default-profile nodes, one of them without
# its rand module, one yabs-profile node, one broken file, one foreign
# file): golden text, JSON and CSV (tests/golden/fleet.*), the figures
# checked against the fixtures by hand, --require and exit 3, the HTML
# strip charts, and the bad-input rules. Also --label in each format.
# The published-results columns: tests/fixtures/fleet/place/lon1-01.json
# (a recorded --profile yabs run, in a folder of its own so the goldens'
# fleet stays the six nodes) placed in every format, its percentiles equal
# to `vpsbench place --format json`'s and to ones computed here from
# data/published/*.csv; the --place-* filters. VPSBENCH_UPDATE_GOLDEN=1
# rewrites the goldens (review the diff).
. tests/lib.sh
tmp=$(t_tmpdir)
trap 'rm -rf "$tmp"' EXIT
F=tests/fixtures/fleet
G=tests/golden

if [ "${VPSBENCH_UPDATE_GOLDEN:-}" = 1 ]; then
	"$VPSBENCH" fleet $F >$G/fleet.txt 2>/dev/null
	"$VPSBENCH" fleet $F --format json 2>/dev/null | sed 's/"version":\t"[^"]*"/"version":\t"X"/' >$G/fleet.json
	"$VPSBENCH" fleet $F --format csv >$G/fleet.csv 2>/dev/null
	"$VPSBENCH" fleet $F/a.json $F/b.json $F/c.json $F/d.json $F/e.json \
		--require 'rand_iops>=20000,lat_p99_ms<=5' >$G/fleet-require.txt 2>&1
	"$VPSBENCH" fleet $F/place $F/a.json >$G/fleet-place.txt 2>/dev/null
	echo "goldens rewritten: git diff $G"
fi
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

# The published-results columns. lon1-01: a recorded --profile yabs run
# (--size 64M --runtime 1s --only sysinfo,rand,cpu,seq); a.json: a
# default-profile node with no module sections, placed on nothing.
P=$F/place/lon1-01.json
"$VPSBENCH" fleet $F/place $F/a.json >"$tmp/pg.txt" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && diff -u $G/fleet-place.txt "$tmp/pg.txt"; then t_ok "pub% columns: golden text (fleet-place.txt)"; else t_fail "fleet-place golden" "rc=$rc"; fi
"$VPSBENCH" fleet $P $F/a.json --format json >"$tmp/p.json" 2>"$tmp/p.err"; rc=$?
python3 - "$tmp/p.json" "$P" data/published <<'PY' && [ $rc -eq 0 ] && t_ok "pub%: lon1-01's 4k IOPS and 1m MB/s percentiles equal ones computed from the CSV" || t_fail "pub% from the CSV" "rc=$rc $(cat "$tmp/p.err")"
import csv, json, sys
out, rep, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
node = next(n for n in out["nodes"] if n["label"] == "lon1-01")
other = next(n for n in out["nodes"] if n["label"] == "fra1-01")
rows = list(csv.DictReader(open(d + "/yabs_disk.csv")))
# runs whose 1m total passes 15000 (yabs MB/s) are cache-inflated: left out by default
cached = {r["run_id"] for r in rows if r["bs"] == "1m" and r["total_mbps"] and float(r["total_mbps"]) > 15000}
def pub(bs, col):
    return [float(r[col]) for r in rows if r["bs"] == bs and r["kind"] == "vps"
            and r["run_id"] not in cached and r[col] != ""]
def midrank(vals, v):
    below = sum(1 for x in vals if x < v); equal = sum(1 for x in vals if x == v)
    return 100.0 * (below + equal / 2) / len(vals), len(vals)
p = {x["bs"]: x for x in rep["rand"]["passes"]}
def total(bs, key):
    return p[bs]["read"][key] + p[bs]["write"][key]
want = {"fio_4k_total_iops": midrank(pub("4k", "total_iops"), total(4096, "iops")),
        "fio_1m_total_mbps": midrank(pub("1m", "total_mbps"), total(1048576, "bw_bytes") / 1024 / 1000)}
bad = []
for key, (pct, n) in want.items():
    got = node["published"][key]
    if got["percentile"] is None or abs(got["percentile"] - pct) > 1e-9 or got["n"] != n:
        bad.append("%s: fleet %s, CSV %s of %s" % (key, got, pct, n))
shown = [c["key"] for c in out["published"]["columns"]]
if "fio_4k_total_iops" not in shown or "fio_1m_total_mbps" not in shown:
    bad.append("columns %s" % shown)
for key, got in other["published"].items():  # a.json: nothing to place, each with its why
    if got["percentile"] is not None or not got["why"]:
        bad.append("a.json %s: %s" % (key, got))
f = out["published"]["filter"]
if (f["kind"], f["min_n"], f["per_machine"], f["include_cached"]) != ("vps", 20, False, False):
    bad.append("filter %s" % f)
if "data/published/README.md" not in out["published"]["caveat"]:
    bad.append("caveat %s" % out["published"]["caveat"])
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# the same figures as `vpsbench place` gives for that report, column by
# column, under the default filter and under --place-kind any (where the
# sysbench and dd rows, of unknown kind, count)
for filt in "" "--place-kind any" "--place-kind any --place-min-n 150"; do
	"$VPSBENCH" fleet $P $F/a.json $filt --format json >"$tmp/pf.json" 2>/dev/null
	if ! "$VPSBENCH" place $P $filt --format json >"$tmp/pl.json" 2>"$tmp/pl.err"; then
		t_fail "vpsbench place $P $filt" "$(head -1 "$tmp/pl.err")"
		continue
	fi
	python3 - "$tmp/pf.json" "$tmp/pl.json" <<'PY' && t_ok "pub% ${filt:-(default filter)}: every column equals vpsbench place's item" || t_fail "pub% vs vpsbench place ${filt:-(default filter)}"
import json, sys
out, pl = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
node = next(n for n in out["nodes"] if n["label"] == "lon1-01")
cols = {"fio_4k_total_iops": ("fio_total_iops", 4096), "fio_1m_total_mbps": ("fio_total_mbps", 1048576),
        "sysbench_1t_eps": ("sysbench_1t_eps", None), "sysbench_all_eps": ("sysbench_all_eps", None),
        "dd_write_mbps": ("dd_write_mbps", None)}
bad = []
if pl["placement"]["filter"]["text"] != out["published"]["filter"]["text"]:
    bad.append("filter text %r != %r" % (out["published"]["filter"]["text"], pl["placement"]["filter"]["text"]))
if {k: v for k, v in pl["placement"]["filter"].items()} != out["published"]["filter"]:
    bad.append("filter %s != %s" % (out["published"]["filter"], pl["placement"]["filter"]))
shown = {c["key"] for c in out["published"]["columns"]}
for key, (metric, bs) in cols.items():
    it = next((i for i in pl["placement"]["items"] if i["metric"] == metric and i["bs"] == bs), None)
    got = node["published"][key]
    if it is None:
        ok = got["percentile"] is None and got["why"]
    elif it["placed"]:
        ok = got["percentile"] == it["percentile"] and got["n"] == it["n"] and key in shown
    else:
        ok = got["percentile"] is None and got["why"] == it["why"]
    if not ok:
        bad.append("%s: fleet %s, place %s" % (key, got, it and {k: it[k] for k in ("placed", "percentile", "n", "why")}))
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
done
# text, CSV and HTML show the JSON's figures
"$VPSBENCH" fleet $P $F/a.json >"$tmp/p.txt" 2>/dev/null
"$VPSBENCH" fleet $P $F/a.json --format csv >"$tmp/p.csv" 2>/dev/null
"$VPSBENCH" fleet $P $F/a.json --format html >"$tmp/p.html" 2>/dev/null
python3 - "$tmp/p.json" "$tmp/p.txt" "$tmp/p.csv" "$tmp/p.html" <<'PY' && t_ok "pub% in text, CSV and HTML: the JSON's percentile and n, — where not placed, the filter stated once" || t_fail "pub% text/csv/html"
import csv, json, re, sys
j = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
rows = list(csv.DictReader(open(sys.argv[3], newline=""))); h = open(sys.argv[4]).read()
cols = [c["key"] for c in j["published"]["columns"]]
heads = [c["header"] for c in j["published"]["columns"]]
ftext = j["published"]["filter"]["text"]
def shown(p):  # rounded, but p0 and p100 only below or above every published figure
    r = int(p + 0.5)
    return 99 if r >= 100 and p < 100 else 1 if r <= 0 and p > 0 else r
bad = []
if txt.count(ftext) != 1 or txt.count("a best-case sample: see data/published/README.md") != 1:
    bad.append("text: the filter and caveat once")
if h.count(ftext) != 1 or h.count("a best-case sample: see data/published/README.md") != 1:
    bad.append("html: the filter and caveat once")
hdr = next(l for l in txt.splitlines() if l.startswith(" node "))
if [x for x in heads if x not in hdr]:
    bad.append("text header " + hdr)
for n in j["nodes"]:
    line = next(l for l in txt.splitlines() if l.startswith(" %s " % n["label"]))
    cells = re.findall(r"p(\d+) \(n (\d+)\)|—", line)
    want = [(str(shown(n["published"][k]["percentile"])), str(n["published"][k]["n"]))
            if n["published"][k]["percentile"] is not None else ("", "") for k in cols]
    if cells != want:
        bad.append("text %s: %s != %s" % (n["label"], cells, want))
    r = next(r for r in rows if r["node"] == n["label"])
    for k in cols:
        pc = n["published"][k]
        if (pc["percentile"] is None and (r["pub_pct_" + k] or r["pub_n_" + k])) or \
           (pc["percentile"] is not None and (abs(float(r["pub_pct_" + k]) - pc["percentile"]) > 1e-9
                                           or int(r["pub_n_" + k]) != pc["n"])):
            bad.append("csv %s %s" % (n["label"], k))
    tr = re.search(r"<tr><td>%s.*?</tr>" % re.escape(n["label"]), h).group(0)
    hc = re.findall(r'<td class="n" title="[^"]*">(?:p(\d+) <span class="note">\(n (\d+)\)</span>|—)</td>', tr)
    if hc != want:
        bad.append("html %s: %s != %s" % (n["label"], hc, want))
# the legend reads out the first placed cell (nodes in order, columns in order)
ex = next(n["published"][k] for n in j["nodes"] for k in cols if n["published"][k]["percentile"] is not None)
leg = "p%d (n %d): at the %d" % (shown(ex["percentile"]), ex["n"], shown(ex["percentile"]))
if leg not in txt or leg not in h:
    bad.append("legend: no %r" % leg)
for x in heads:
    if '<th class="n">%s</th>' % x.replace("&", "&amp;") not in h:
        bad.append("html header " + x)
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# the filters: the same options as a run; too few rows: not placed, saying why
"$VPSBENCH" fleet $P --place-min-n 1000 --format json >"$tmp/m.json" 2>/dev/null
t_json "$tmp/m.json" 'j["published"]["filter"]["min_n"] == 1000' \
	'j["nodes"][0]["published"]["fio_4k_total_iops"]["percentile"] is None' \
	'"minimum 1000" in j["nodes"][0]["published"]["fio_4k_total_iops"]["why"]' \
	'j["published"]["columns"] == []' &&
	t_ok "--place-min-n 1000: not placed, why names the minimum" || t_fail "--place-min-n"
"$VPSBENCH" fleet $P --place-kind any --place-include-cached --place-per-machine --format json >"$tmp/k.json" 2>/dev/null
t_json "$tmp/k.json" 'j["published"]["filter"]["kind"] == "any"' 'j["published"]["filter"]["include_cached"]' \
	'j["published"]["filter"]["per_machine"]' &&
	t_ok "--place-kind any --place-include-cached --place-per-machine: the filter stated" || t_fail "place filters"
out=$("$VPSBENCH" fleet $P --place-kind cloud 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q -- "--place-kind" &&
	t_ok "bad --place-kind: one line naming it, exit 1" || t_fail "bad --place-kind" "rc=$rc: $out"

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
# A disturbed figure (metrics null, metrics_detail disturbed): the node is
# DISTURBED with the why, not INCOMPLETE; the figure stays out of the
# median; --require on it fails saying disturbed. The same null without
# metrics_detail (an older report) stays INCOMPLETE, "no figure for".
mkdir -p "$tmp/dist"
cp $F/b.json $F/c.json $F/d.json "$tmp/dist/"
python3 - $F/a.json "$tmp/dist/x-dist.json" "$tmp/dist/x-old.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
v = r["metrics"]["rand_iops"]
r["metrics"]["rand_iops"] = None
r.setdefault("metrics_detail", {})["rand_iops"] = {"value": v, "measured": True, "graded": False,
    "disturbed": True, "why": "pass 1: io pressure 37% (some) in the 0.05 s before the pass"}
r["label"] = "d"
json.dump(r, open(sys.argv[2], "w"))
del r["metrics_detail"]["rand_iops"]
r["label"] = "old"
json.dump(r, open(sys.argv[3], "w"))
PY
"$VPSBENCH" fleet "$tmp/dist" >"$tmp/d.txt" 2>&1; rc1=$?
"$VPSBENCH" fleet "$tmp/dist" --format json >"$tmp/d.json" 2>&1
"$VPSBENCH" fleet "$tmp/dist" --format html >"$tmp/d.html" 2>&1
"$VPSBENCH" fleet "$tmp/dist" --require 'rand_iops>=1' >"$tmp/dr.txt" 2>&1; rc2=$?
if python3 - "$tmp/d.json" "$tmp/dist" $F/a.json <<'PY'
import json, glob, statistics, sys
j = json.load(open(sys.argv[1]))
n = {x["label"]: x for x in j["nodes"]}
assert n["d"]["status"] == "DISTURBED", n["d"]["status"]
assert n["d"]["missing"] == [] and n["d"]["values"]["rand_iops"] is None, n["d"]
assert n["d"]["disturbed"] == [{"metric": "rand_iops",
    "value": json.load(open(sys.argv[3]))["metrics"]["rand_iops"],
    "why": "pass 1: io pressure 37% (some) in the 0.05 s before the pass"}], n["d"]["disturbed"]
assert n["old"]["status"] == "INCOMPLETE" and n["old"]["missing"] == ["rand_iops"], n["old"]
assert n["old"]["disturbed"] == []
# the median of the nodes that have the figure only
have = [json.load(open(f))["metrics"]["rand_iops"] for f in sorted(glob.glob(sys.argv[2] + "/*.json"))]
have = sorted(x for x in have if x is not None)
assert len(have) == 3
m = [x for x in j["metrics"] if x["metric"] == "rand_iops"][0]
assert m["nodes"] == 3, m
assert abs(m["median"] - statistics.median(have)) < 1e-9, (m["median"], have)
PY
then t_ok "a disturbed figure: DISTURBED with its why, out of the median; without metrics_detail INCOMPLETE"
else t_fail "disturbed node (json)" "$(head -c 400 "$tmp/d.json")"; fi
if [ $rc1 -eq 0 ] && grep -qE '^ d +DISTURBED .* disturbed ' "$tmp/d.txt" &&
   grep -qE '^ old +INCOMPLETE ' "$tmp/d.txt" &&
   grep -q '^ d: rand_iops disturbed (pass 1: io pressure 37% (some) in the 0.05 s before the pass)$' "$tmp/d.txt" &&
   grep -q '^ old: no figure for rand_iops$' "$tmp/d.txt" &&
   grep -q '<li>d: rand_iops disturbed (pass 1: io pressure 37% (some)' "$tmp/d.html"; then
	t_ok "a disturbed figure in text and HTML: the cell, the status, the why"
else
	t_fail "disturbed node (text/html)" "rc=$rc1 $(head -c 1500 "$tmp/d.txt")"
fi
if [ $rc2 -eq 3 ] && grep -q '^ d: rand_iops>=1 (disturbed: pass 1: io pressure 37%' "$tmp/dr.txt" &&
   grep -q '^ old: rand_iops>=1 (not measured' "$tmp/dr.txt"; then
	t_ok "--require on a disturbed figure: fails saying disturbed, exit 3"
else
	t_fail "--require disturbed" "rc=$rc2 $(grep -A3 'Failing' "$tmp/dr.txt")"
fi

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
