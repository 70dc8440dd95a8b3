# run-all: check (see tests/run-all.sh)
# smoke_html_place.sh — "Among published results" (#43) outside the unit
# test's strings: the hand-made placement of tests/test_render_place.c
# (written out by its render_place_dump test) as a report's JSON validates
# against schema/report.schema.json with every key described; the place and
# population documents have their schema names; the report's prom passes
# promtool; and headless Chromium draws each strip's "this VPS" mark where
# the value puts it: its rendered centre, back in viewBox units, equals
# 20 + 380 t (t from the value on the strip's log or linear axis), the mark
# is what is drawn at that point, and no strip text overlaps another or is
# cut off (tests/helpers/html_layout.js), at 1200 and 390 px.
. tests/lib.sh
tmp=$(t_tmpdir)
trap 'rm -rf "$tmp"' EXIT
UNIT=${UNIT:-./build/san/unit}
. tests/helpers/html_frames.sh

if VPSBENCH_PLACE_DUMP=$tmp "$UNIT" render_place_dump > "$tmp/unit.out" 2>&1 && [ -s "$tmp/place.html" ]; then
	t_ok place_files_written
else
	t_fail place_files_written "$(tail -5 "$tmp/unit.out")"
	t_summary smoke_html_place
	exit 1
fi

# the schema: the report with its "placement", the placement document's body
PY=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
	if out=$("$PY" tests/helpers/validate.py schema/report.schema.json "$tmp/report.json" 2>&1); then
		t_ok placement_schema
	else t_fail placement_schema "$(printf '%s' "$out" | head -c 600)"; fi
	if out=$(python3 tests/helpers/schema_keys.py schema/report.schema.json "$tmp/report.json" placement 2>&1)
	then t_ok placement_keys_described; else t_fail placement_keys_described "$out"; fi
	if out=$("$PY" - schema/report.schema.json "$tmp/place.json" "$tmp/population.json" 2>&1 <<'EOF'
import json, sys
from jsonschema import Draft202012Validator
s = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
pop = json.load(open(sys.argv[3]))
assert doc["schema"] == "vpsbench.placement/1" and doc["report"] == "r.json" and doc["profile"] == "yabs", doc
errs = list(Draft202012Validator({"$ref": "#/$defs/placement", "$defs": s["$defs"]}).iter_errors(doc["placement"]))
assert not errs, [e.message for e in errs]
assert pop["schema"] == "vpsbench.population/1" and len(pop["tables"]) == 2, pop
# the population's filter has the placement filter's shape
errs = list(Draft202012Validator({"$ref": "#/$defs/place_filter", "$defs": s["$defs"]}).iter_errors(pop["filter"]))
assert not errs, [e.message for e in errs]
EOF
	); then t_ok placement_documents; else t_fail placement_documents "$(printf '%s' "$out" | tail -c 600)"; fi
else
	t_skip placement_schema "python3-jsonschema not installed"
fi

t_promtool_metrics place_promtool "$tmp/report.prom"
if grep -q '^vpsbench_published_percentile{metric="fio_total_iops",bs="4096",.*} 38.053097345132741$' "$tmp/report.prom" &&
	grep -q '^vpsbench_published_placed{metric="fio_total_mbps",.*} 0$' "$tmp/report.prom" &&
	! grep -q '^vpsbench_published_percentile{metric="fio_total_mbps"' "$tmp/report.prom"; then
	t_ok place_prom_samples
else
	t_fail place_prom_samples "$(grep published "$tmp/report.prom" | head -5)"
fi

if [ -z "$CHROMIUM" ]; then
	t_skip place_marker_chromium "chromium not installed (apt-get install chromium)"
	t_summary smoke_html_place
	exit $?
fi
# the place page and the report page, each at 1200 and 390 px in an iframe,
# with a script measuring the marks and html_layout.js checking the text
cat > "$tmp/measure.js" <<'EOF'
(function () {
	var out = [];
	document.querySelectorAll('svg.strip').forEach(function (svg) {
		var vb = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
		var m = svg.querySelector('.pl-this'), b = m.getBoundingClientRect();
		var cx = b.left + b.width / 2, cy = b.top + b.height / 2;
		var hit = document.elementFromPoint(cx, cy);
		out.push({ label: svg.getAttribute('aria-label'), x: (cx - r.left) * vb.width / r.width,
			   hit: hit === m ? 'pl-this' : (hit ? hit.tagName + '.' + (hit.getAttribute('class') || '') : 'none'),
			   px_per_unit: r.width / vb.width });
	});
	var doc = window.parent !== window ? window.parent.document : document;
	var pre = doc.createElement('pre');
	pre.id = 'marker-result';
	pre.textContent = JSON.stringify(out);
	doc.body.appendChild(pre);
})();
EOF
python3 tests/helpers/html_frames.py 2400 marker-result,layout-result "$tmp/measure.js",tests/helpers/html_layout.js \
	p1200:1200:"$tmp/place.html" p390:390:"$tmp/place.html" r1200:1200:"$tmp/report.html" > "$tmp/frames.html"
chromium_dom "$tmp/frames.html" "$tmp/dom"
for page in p1200 p390 r1200; do
	python3 - "$tmp/dom" $page > "$tmp/mk$page" 2>&1 <<'PY'
import html, json, math, re, sys
dom = open(sys.argv[1]).read()
m = re.findall(r'<pre id="marker-result" data-page="%s">(.*?)</pre>' % sys.argv[2], dom, re.S)
assert len(m) == 1, "%d marker results for %s" % (len(m), sys.argv[2])
got = json.loads(html.unescape(m[0]))
# the hand-made values (tests/test_render_place.c): value, min, max, log axis
want = {
    "4k total IOPS": 20 + 380 * math.log(52300 / 1200) / math.log(910000 / 1200),
    "1 thread": 20 + 380 * (5012.34 - 400) / (6000 - 400),
    "Clouvider London, UK (10G) IPv4 send": 20.0,   # 88 under the minimum 95: the axis starts at it
}
bad = []
assert len(got) == 3, "%d strips drawn, want 3 (the one not placed has none)" % len(got)
for g in got:
    label = g["label"].split(":")[0]
    w = want[label]
    # half a device pixel, in viewBox units
    tol = max(0.5, 0.5 / g["px_per_unit"])
    ok = abs(g["x"] - w) <= tol and g["hit"] == "pl-this"
    print("%s: mark at x %.2f, want %.2f (tolerance %.2f), drawn on top: %s" % (label, g["x"], w, tol, g["hit"]))
    if not ok:
        bad.append(label)
lay = re.findall(r'<pre id="layout-result" data-page="%s">(.*?)</pre>' % sys.argv[2], dom, re.S)
assert len(lay) == 1, "%d layout results" % len(lay)
r = json.loads(html.unescape(lay[0]))
strip_problems = [p for p in r["problems"] if "published distribution" in p]
print("layout: %d texts, strip problems: %s" % (r["texts"], strip_problems or "none"))
sys.exit(1 if bad or strip_problems else 0)
PY
	if [ $? -eq 0 ]; then t_ok "place_marker_$page"; else t_fail "place_marker_$page" "$(tr '\n' ' ' < "$tmp/mk$page" | head -c 700)"; fi
	sed 's/^/  /' "$tmp/mk$page"
done
t_summary smoke_html_place
