# smoke_watch_report.sh — `vpsbench watch --report` on the recorded histories
# of tests/fixtures/watch/: the text summary (golden), --since, malformed
# lines, the --html page (one series per metric, points as the history has
# figures, spans shaded, skipped and failed rounds marked, nothing external,
# reasons escaped) and its layout in headless Chromium at desktop and phone
# width (tests/helpers/html_layout.js: no SVG text overlaps or is cut off;
# tests/helpers/html_align.js: every table header shares its column's
# alignment edge, measured on the text boxes); one outlier clips the y axis
# and a 50x regime makes it logarithmic, the other rounds staying spread;
# bad input: one line, exit 1.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
. tests/helpers/html_frames.sh
F=tests/fixtures/watch
G=tests/golden
# nothing here is timed: the figures come from recorded histories, the layout
# from Chromium's own boxes; the load it ran under is said, not needed
t_load_note

# one_line_exit1 NAME WANT ARGS...: exit 1, one line on stderr containing WANT, nothing on stdout
one_line_exit1() {
	local n=$1 want=$2 rc; shift 2
	"$VPSBENCH" watch --report "$@" >"$tmp/o" 2>"$tmp/e"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/e")" -eq 1 ] && grep -qF -- "$want" "$tmp/e" && [ ! -s "$tmp/o" ]; then
		t_ok "$n"
	else
		t_fail "$n" "rc=$rc stderr: $(head -c 300 "$tmp/e")"
	fi
}

for fx in degraded skipped broken; do
	"$VPSBENCH" watch --report --state-dir "$F/$fx" >"$tmp/$fx.txt" 2>"$tmp/err"; rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && diff -u "$G/watch-$fx.txt" "$tmp/$fx.txt"; then
		t_ok "text_golden_$fx"
	else
		t_fail "text_golden_$fx" "rc=$rc $(head -c 300 "$tmp/err")"
	fi
done
"$VPSBENCH" watch --report --state-dir "$F/flat" --since 2h >"$tmp/since.txt" 2>&1
diff -u "$G/watch-flat-since.txt" "$tmp/since.txt" >/dev/null && t_ok text_golden_flat_since || t_fail text_golden_flat_since
"$VPSBENCH" watch --report --state-dir "$F/degraded" --since 10h >"$tmp/s10.txt" 2>&1
if grep -q '^Period    : 2026-12-01 13:45 UTC to 2026-12-01 23:45 UTC (10 h 0 min), the last 10 h 0 min' "$tmp/s10.txt" \
   && grep -q '^Rounds    : 41 ' "$tmp/s10.txt" \
   && grep -q '2026-12-01 13:45 to 2026-12-01 15:30 UTC (1 h 45 min): 7 rounds' "$tmp/s10.txt"; then
	t_ok since_10h_cuts_the_span
else
	t_fail since_10h_cuts_the_span "$(grep -E '^(Period|Rounds)' "$tmp/s10.txt" | tr '\n' ' ')"
fi
"$VPSBENCH" watch --report --state-dir "$F/degraded" --since 2d > "$tmp/s2d.txt" 2>&1 &&
	grep -q 'the last 2 d 0 h of the history' "$tmp/s2d.txt" && grep -q '^Rounds    : 96 ' "$tmp/s2d.txt" \
	&& t_ok since_days || t_fail since_days "$(head -3 "$tmp/s2d.txt")"
grep -q 'skipped: 2 malformed (the last line is incomplete), 1 not a vpsbench-watch-1 line' "$tmp/broken.txt" \
	&& t_ok malformed_lines_counted || t_fail malformed_lines_counted

# bad input
one_line_exit1 missing_state_dir "$tmp/nope: No such file or directory" --state-dir "$tmp/nope"
mkdir "$tmp/empty"
one_line_exit1 no_history "$tmp/empty/history.jsonl: No such file or directory" --state-dir "$tmp/empty"
mkdir "$tmp/garbage" && printf 'not json\n{"schema":"x"}\n' > "$tmp/garbage/history.jsonl"
one_line_exit1 only_garbage "no history round (2 lines, 2 malformed)" --state-dir "$tmp/garbage"
one_line_exit1 bad_since "--since 'soon'" --state-dir "$F/flat" --since soon
one_line_exit1 since_needs_value "--since needs a value" --state-dir "$F/flat" --since
one_line_exit1 unknown_option "unknown option '--no-such'" --state-dir "$F/flat" --no-such x
one_line_exit1 html_dir_missing "$tmp/nodir/w.html.tmp: No such file or directory" --state-dir "$F/flat" --html "$tmp/nodir/w.html"
[ ! -e "$tmp/nodir" ] && t_ok html_nothing_left || t_fail html_nothing_left

# the page: a copy of skipped/ whose reason needs escaping
cp -r "$F/skipped" "$tmp/esc"
sed -i 's/busy: cpu 97% > 50%/busy: cpu 97% > 50% <b>\&\\"x'"'"'/g' "$tmp/esc/history.jsonl"
# a copy of degraded/ with one outlier (randread 60000 us in round 80, the
# degraded span peaks at 390) and fsync 50x worse from round 51 on (a
# regime spanning more than 20x: the log axis)
cp -r "$F/degraded" "$tmp/outlier"
python3 - "$tmp/outlier" <<'PY'
import json, os, sys
d = sys.argv[1]
for fn in ("history.jsonl.1", "history.jsonl"):
    p = os.path.join(d, fn)
    out = []
    for l in open(p):
        o = json.loads(l)
        if o["seq"] == 80:
            o["probes"]["randread"]["p99_us"] = 60000.0
        if o["seq"] > 50:
            o["probes"]["fsync"]["p99_us"] *= 50
        out.append(json.dumps(o) + "\n")
    open(p, "w").writelines(out)
PY
for fx in degraded skipped esc outlier; do
	d="$F/$fx"; [ "$fx" = esc ] || [ "$fx" = outlier ] && d="$tmp/$fx"
	"$VPSBENCH" watch --report --state-dir "$d" --html "$tmp/$fx.html" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc -eq 0 ] && [ -s "$tmp/$fx.html" ] && [ ! -s "$tmp/err" ] && [ ! -e "$tmp/$fx.html.tmp" ]; then
		t_ok "html_written_$fx"
	else
		t_fail "html_written_$fx" "rc=$rc $(head -c 300 "$tmp/err")"
	fi
done
python3 - "$tmp" "$F" >"$tmp/py" 2>&1 <<'PY'
import html.parser, json, os, sys
tmp, F = sys.argv[1], sys.argv[2]
METRICS = ["randread_p99_us", "fsync_p99_us", "prime_events_per_s", "dram_ns", "wakeup_p99_us"]
FIG = {"randread_p99_us": ("randread", "p99_us"), "fsync_p99_us": ("fsync", "p99_us"),
       "prime_events_per_s": ("prime", "events_per_s"), "dram_ns": ("dram", "ns")}

def rounds(d):
    out = []
    for fn in ("history.jsonl.1", "history.jsonl"):
        p = os.path.join(d, fn)
        if os.path.exists(p):
            for l in open(p):
                try:
                    o = json.loads(l)
                except ValueError:
                    continue
                if o.get("schema") == "vpsbench-watch-1":
                    out.append(o)
    return out

def value(o, m):
    if m == "wakeup_p99_us":
        return o["wakeup"]["p99_us"]
    p, k = FIG[m]
    return o["probes"][p][k]

class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sec, self.per, self.bad = None, {}, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "metric":
            self.sec = a["id"]
            self.per[self.sec] = {"points": 0, "svgs": 0, "deg": 0, "skip": 0, "fail": 0, "base": None,
                                  "dots": 0}
        s = self.per.get(self.sec)
        if tag in ("script", "img", "link", "iframe", "object", "embed"):
            self.bad.append("element " + tag)
        for k, v in attrs:
            if k in ("src", "href") or (v and ("http:" in v or "https:" in v)):
                self.bad.append("reference %s=%s" % (k, v))
        if not s:
            return
        if tag == "svg":
            s["svgs"] += 1
        if tag == "polyline" and "series" in a.get("class", ""):
            s["points"] += len(a["points"].split())
        if tag == "circle" and a.get("class") == "mk-rd":
            s["dots"] += 1
        if tag == "rect" and a.get("class") == "deg":
            s["deg"] += 1
        if tag == "line" and a.get("class") in ("skip", "fail"):
            s[a["class"]] += 1
        if tag == "line" and a.get("class") == "avg base":
            s["base"] = float(a["data-baseline"])

fails = []
for name, d, want in (("degraded", os.path.join(F, "degraded"), {"randread_p99_us": (1, 0, 0), "wakeup_p99_us": (1, 0, 0)}),
                      ("skipped", os.path.join(F, "skipped"), {"randread_p99_us": (0, 4, 0), "fsync_p99_us": (0, 1, 0),
                                                              "prime_events_per_s": (0, 0, 1), "dram_ns": (0, 1, 0)})):
    page = open(os.path.join(tmp, name + ".html"), encoding="utf-8").read()
    p = P(); p.feed(page)
    fails += ["%s: %s" % (name, b) for b in p.bad]
    if "&lt;span" in page or "&lt;/" in page:
        fails.append(name + ": the page's own markup escaped into text")
    if 'lg-skip"></span>skipped (' not in page and name == "skipped":
        fails.append(name + ": no skipped legend")
    if "url(" in page or "@import" in page:
        fails.append(name + ": CSS loads something")
    rs = rounds(d)
    for m in METRICS:
        s = p.per.get(m)
        if not s:
            fails.append("%s: no section %s" % (name, m)); continue
        n = sum(1 for o in rs if value(o, m) is not None)
        if s["svgs"] != 1 or s["points"] != n:
            fails.append("%s %s: %d svgs, %d points, history has %d figures" % (name, m, s["svgs"], s["points"], n))
        deg, skip, fail = want.get(m, (0, 0, 0))
        if (s["deg"], s["skip"], s["fail"]) != (deg, skip, fail):
            fails.append("%s %s: deg/skip/fail %s, want %s" % (name, m, (s["deg"], s["skip"], s["fail"]), (deg, skip, fail)))
        if s["base"] is None:
            fails.append("%s %s: no baseline line" % (name, m))
    if p.per.get("randread_p99_us", {}).get("base") != 74.2:
        fails.append("%s: randread baseline line at %s, want 74.2" % (name, p.per.get("randread_p99_us", {}).get("base")))
page = open(os.path.join(tmp, "esc.html"), encoding="utf-8").read()
if "<b>&" in page or "&lt;b&gt;&amp;&quot;x&#39;" not in page:
    fails.append("a reason is not escaped")
for f in fails:
    print("FAIL:", f)
print("checked %d pages" % 3)
sys.exit(1 if fails else 0)
PY
if [ $? -eq 0 ]; then t_ok html_structure; else t_fail html_structure "$(tr '\n' ' ' < "$tmp/py" | head -c 800)"; fi

# one outlier must not flatten the series: the axis is clipped, the outlier
# drawn on the top edge and marked with its value, the other rounds keep a
# quarter of the plot's height; the fsync regime 50x apart gets a log axis
python3 - "$tmp" >"$tmp/py" 2>&1 <<'PY'
import html.parser, os, re, sys
TOP, BOT = 30.0, 250.0 - 42.0  # HTML_MT, HTML_CH - HTML_MB
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sec, self.s, self.in_lbl = None, {}, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "metric":
            self.sec = a["id"]
            self.s[self.sec] = {"pts": [], "scale": None, "clip": [], "lbl": ""}
        s = self.s.get(self.sec)
        if not s:
            return
        if tag == "desc" and "data-scale" in a:
            s["scale"] = a["data-scale"]
        if tag == "polyline" and "series" in a.get("class", ""):
            s["pts"] += [tuple(map(float, p.split(","))) for p in a["points"].split()]
        if tag == "polygon" and a.get("class") == "clip":
            s["clip"].append(float(a["data-value"]))
        self.in_lbl = tag == "text" and a.get("class") == "clip-lbl"
    def handle_data(self, d):
        if self.in_lbl:
            self.s[self.sec]["lbl"] += d
    def handle_endtag(self, tag):
        self.in_lbl = False
fails = []
def spread(pts):
    ys = [y for _, y in pts]
    return (max(ys) - min(ys)) / (BOT - TOP) if ys else 0
pages = {}
for name in ("degraded", "outlier"):
    p = P(); p.feed(open(os.path.join(sys.argv[1], name + ".html"), encoding="utf-8").read())
    pages[name] = p.s
rr = pages["outlier"]["randread_p99_us"]
# the rounds in order, no gap: round 80 is the outlier
out, rest = rr["pts"][79:80], rr["pts"][:79] + rr["pts"][80:]
top = [pt for pt in out if abs(pt[1] - TOP) < 0.05]
print("randread: scale %s, %d points on the top edge, marks %s, label %r, the other %d points span %.0f%% of the plot "
      "(%.0f%% without the outlier)" % (rr["scale"], len(top), rr["clip"], rr["lbl"], len(rest), 100 * spread(rest),
                                        100 * spread(pages["degraded"]["randread_p99_us"]["pts"])))
if rr["scale"] != "clipped" or len(top) != 1 or rr["clip"] != [60000.0]:
    fails.append("the outlier is not clipped to the top edge and marked")
if "60000" not in rr["lbl"] or "\u2191" not in rr["lbl"]:
    fails.append("the clipped figure is not labelled with its value")
if spread(rest) < 0.25:
    fails.append("the other rounds span %.1f%% of the plot, want >= 25%%" % (100 * spread(rest)))
fs = pages["outlier"]["fsync_p99_us"]
lo = [y for _, y in fs["pts"][:50]]; hi = [y for _, y in fs["pts"][50:]]
gap = (min(lo) - max(hi)) / (BOT - TOP) if lo and hi else 0
print("fsync: scale %s, the 50x regimes %.0f%% of the plot apart, the low one %.0f%% above the bottom"
      % (fs["scale"], 100 * gap, 100 * (BOT - max(lo)) / (BOT - TOP)))
# linear from 0 would put the low regime 1.2% above the bottom
if fs["scale"] != "log" or gap < 0.4 or (BOT - max(lo)) / (BOT - TOP) < 0.03:
    fails.append("fsync 50x apart: not a log axis with both regimes apart")
for m, s in pages["degraded"].items():
    if s["scale"] != "linear" or s["clip"]:
        fails.append("degraded %s: scale %s, %d clipped: want linear" % (m, s["scale"], len(s["clip"])))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
if [ $? -eq 0 ]; then t_ok html_outlier_axis; sed 's/^/  /' "$tmp/py"
else t_fail html_outlier_axis "$(tr '\n' ' ' < "$tmp/py" | head -c 800)"; fi

if [ -z "$CHROMIUM" ]; then
	t_skip html_layout "chromium not installed (apt-get install chromium)"
	t_summary watch_report
	exit
fi
# the page's layout as smoke_html.sh checks the run report's: every SVG text
# box overlaps no other and lies inside its SVG; chart text about the body's size
layout() { # PAGE WIDTH OUT
	python3 - "$1" "$2" tests/helpers/html_layout.js tests/helpers/html_align.js > "$1.layout.html" <<'PY'
import html, sys
page = open(sys.argv[1], encoding="utf-8").read()
js = open(sys.argv[3]).read() + "\n" + open(sys.argv[4]).read()
page = page.replace("</body></html>", "<script>" + js + "</script></body></html>")
print('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'
      '<iframe style="border:0" width="%s" height="3000" srcdoc="%s"></iframe></body></html>'
      % (sys.argv[2], html.escape(page, quote=True)))
PY
	chromium_dom "$1.layout.html" "$3"
}
for fx in degraded skipped outlier; do
	for w in 1200 390; do
		layout "$tmp/$fx.html" $w "$tmp/dom$fx$w"
		python3 - "$tmp/dom$fx$w" $w > "$tmp/lay$fx$w" 2>&1 <<'PY'
import html, json, re, sys
m = re.search(r'<pre id="layout-result">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
assert m, "no layout result in the dumped DOM"
r = json.loads(html.unescape(m.group(1)))
print("width %s: %d texts in %d svgs, chart text %.1f-%.1f px, body %.1f px" % (
    r["width"], r["texts"], r["svgs"], r["min_text_px"], r["max_text_px"], r["body_px"]))
bad = list(r["problems"])
if r["width"] != int(sys.argv[2]):
    bad.append("rendered at %s px, not %s" % (r["width"], sys.argv[2]))
if r["svgs"] < 5 or r["texts"] < 50:
    bad.append("too little measured")
if r["max_text_px"] > r["body_px"] * 1.05:
    bad.append("chart text %.1f px, larger than the body's %.1f px" % (r["max_text_px"], r["body_px"]))
if r["min_text_px"] < 9:
    bad.append("chart text %.1f px: too small to read" % r["min_text_px"])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
		if [ $? -eq 0 ]; then t_ok "html_layout_${fx}_$w" "$(head -1 "$tmp/lay$fx$w")"
		else t_fail "html_layout_${fx}_$w" "$(tr '\n' ' ' < "$tmp/lay$fx$w" | head -c 700)"; fi
		head -1 "$tmp/lay$fx$w" | sed 's/^/  /'
		# every table's header over its column's edge (D7: a left header over right counts)
		python3 - "$tmp/dom$fx$w" $w > "$tmp/aln$fx$w" 2>&1 <<'PY'
import html, json, re, sys
m = re.search(r'<pre id="align-result">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
assert m, "no alignment result in the dumped DOM"
r = json.loads(html.unescape(m.group(1)))
print("width %s: %d tables, %d columns, %d cells measured" % (r["width"], r["tables"], r["columns"], r["cells"]))
bad = list(r["problems"])
if r["tables"] < 4 or r["columns"] < 20:
    bad.append("too little measured")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
		if [ $? -eq 0 ]; then t_ok "html_align_${fx}_$w"; head -1 "$tmp/aln$fx$w" | sed 's/^/  /'
		else t_fail "html_align_${fx}_$w" "$(tr '\n' ' ' < "$tmp/aln$fx$w" | head -c 1500)"; fi
	done
done
t_summary watch_report
