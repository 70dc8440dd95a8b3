# smoke_html.sh — --html of a real short run: self-contained, escaped, the SVG
# polylines carry as many points as the JSON report of the same run has
# seconds and percentiles, and headless Chromium renders it at phone width
# without console errors into a screenshot that is not blank.
. tests/lib.sh
tmp=$(t_tmpdir)
# the runs and Chromium starts that take long go in the background at once,
# each with its own files, and are checked in turn; nothing checked depends
# on a quiet machine. bg NAME CMD...: stdout to $tmp/NAME.bgout, stderr to
# $tmp/NAME.bgerr unless CMD redirects them; t_bg_wait NAME waits for it, its
# exit status in rc.
cleanup() {
	local p
	t_bg_kill
	t_umount_below "$tmp"; rm -rf "$tmp"
}
trap cleanup EXIT
bg() { local n=$1; shift; t_bg "$n" "$tmp/$n.bgout" "$tmp/$n.bgerr" "$@"; }
. tests/helpers/html_frames.sh

# shot FILE PNG LOG: headless render at phone width, console to LOG
shot() {
	local prof; prof=$(mktemp -d "$tmp/prof.XXXXXX")
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 --window-size=412,2000 \
		--screenshot="$2" "file://$1" >"$3" 2>&1
}
console_errors() { grep -E 'Uncaught|CONSOLE\(|ERROR:CONSOLE|Failed to load resource' "$1"; }

# a directory name that needs escaping
dir="$tmp/d<b&\"q'>"
mkdir "$dir"
bg main "$VPSBENCH" --dir "$dir" --only seq,rand --seq-size 16M --seq-runs 2 --size 8M --runtime 3s \
	--ramp 0 --html "$tmp/r.html" --output "$tmp/r.json" --quiet
if [ -n "$CHROMIUM" ]; then
	# the storage profile's page (the cliff curves, the write timelines), in a
	# directory of its own named as awkwardly (2 repeats of 0.5 s: the 3 sizes fit the cap)
	sdir="$tmp/s<b&\"q'>"
	mkdir "$sdir"
	bg st "$VPSBENCH" --profile storage --only cache --dir "$sdir" --storage-sizes 16M,32M,64M \
		--storage-point-time 500ms --storage-repeats 2 --storage-max-time 15s --html "$tmp/st.html" --quiet
	# the console check itself must see a broken page
	printf '<!DOCTYPE html><html><body><p>x</p><script>vpsbench_no_such_function();</script></body></html>\n' \
		>"$tmp/broken.html"
	bg broken shot "$tmp/broken.html" "$tmp/broken.png" "$tmp/broken.log"
fi

# a warning that qualifies the grades sits under them, not at the bottom
if t_is_root && mkdir -p "$tmp/shm" && mount -t tmpfs -o size=64M tmpfs "$tmp/shm" 2>/dev/null; then
	"$VPSBENCH" --dir "$tmp/shm" --only rand --size 8M --runtime 1 --ramp 0 --quiet \
		--html "$tmp/w.html" >/dev/null 2>&1
	t_umount "$tmp/shm"
	python3 - "$tmp/w.html" <<'PY' && t_ok html_warning_by_grades || t_fail html_warning_by_grades
import sys
p = open(sys.argv[1]).read()
g, w, r = p.find('id="grades"'), p.find('id="grade-warnings"'), p.find('<section id="rand"')
assert 0 <= g < w < r, (g, w, r)
assert "tmpfs" in p[w:r], p[w:r][:300]
# the warning itself (the rand section's storage line names tmpfs too, by design)
warn = "its figures are not graded as a disk&#39;s"
assert warn in p[w:r], p[w:r][:300]
assert warn not in p[r:], "the tmpfs warning is repeated at the bottom"
PY
else
	t_skip html_warning_by_grades "needs root and a tmpfs mount"
fi

t_bg_wait main; mv "$tmp/main.bgout" "$tmp/out"; mv "$tmp/main.bgerr" "$tmp/err"
# the page at phone width, while the checks below read it
[ -n "$CHROMIUM" ] && bg rshot shot "$tmp/r.html" "$tmp/r.png" "$tmp/r.log"
if [ $rc -eq 0 ] && [ -s "$tmp/r.html" ] && [ -s "$tmp/r.json" ] && [ ! -s "$tmp/err" ]; then
	t_ok html_written
else
	t_fail html_written "rc=$rc $(head -c 300 "$tmp/err")"
fi
[ -z "$(ls -A "$dir")" ] && t_ok no_test_files_left || t_fail no_test_files_left "$(ls -A "$dir")"

# structure: points per polyline against the JSON, bars, escaping, nothing external
python3 - "$tmp/r.html" "$tmp/r.json" "$dir" >"$tmp/py" 2>&1 <<'EOF'
import html.parser, json, sys
page = open(sys.argv[1], encoding="utf-8").read()
rep = json.load(open(sys.argv[2]))
raw_dir = sys.argv[3]

class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.poly, self.rects, self.svgs, self.bad, self.viewport = [], 0, 0, [], False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svgs += 1
            if "viewBox" not in attrs and "viewbox" not in a:
                self.bad.append("svg without viewBox")
        if tag == "polyline":
            self.poly.append(a)
        if tag == "rect" and a.get("class", "").startswith("bar"):
            self.rects += 1
        if tag in ("script", "img", "link", "iframe", "object", "embed"):
            self.bad.append("external or script element " + tag)
        if tag == "meta" and a.get("name") == "viewport":
            self.viewport = True
        for k, v in attrs:
            if k in ("src", "href") or (v and ("http:" in v or "https:" in v)):
                self.bad.append("reference %s=%s" % (k, v))
p = P()
p.feed(page)
fails = list(p.bad)
if not p.viewport:
    fails.append("no viewport meta")
if "url(" in page or "@import" in page:
    fails.append("CSS loads something")
passes = rep["rand"]["passes"]
checked = 0
for i, ps in enumerate(passes):
    for d in ("read", "write"):
        if d not in ps:
            continue
        want = len(ps[d]["iops_timeline"])
        got = [x for x in p.poly if x.get("class", "").endswith("tl-" + d) and x.get("data-pass") == str(i)]
        if want == 0:
            continue
        if len(got) != 1:
            fails.append("pass %d %s: %d timeline polylines" % (i, d, len(got)))
            continue
        n = len(got[0]["points"].split())
        if n != want:
            fails.append("pass %d %s: %d timeline points, JSON has %d seconds" % (i, d, n, want))
        checked += 1
        npct = len(ps[d]["clat_ns"].get("percentile", {}))
        pc = [x for x in p.poly if x.get("class", "").endswith("pct-" + d) and x.get("data-pass") == str(i)]
        if len(pc) != 1 or len(pc[0]["points"].split()) != npct or npct < 10:
            fails.append("pass %d %s: percentile curve %s vs %d percentiles" %
                         (i, d, [len(x["points"].split()) for x in pc], npct))
        checked += 1
seq = rep["seq"]["dirs"][0] if "dirs" in rep["seq"] else rep["seq"]
bars = len(seq["write"]["runs"]) + (1 if seq["read"].get("mbps") is not None else 0)
if p.rects != bars or bars < 3:
    fails.append("%d bars, want %d (runs + read)" % (p.rects, bars))
if raw_dir in page or "d&lt;b&amp;&quot;q&#39;&gt;" not in page:
    fails.append("directory name not escaped")
for h in ("Grades", "Sequential", "Random"):
    if h not in page:
        fails.append("no section " + h)
# the grades carry the JSON's marks: tier N of M, or the between text when
# borderline (no tier word alone), weak on the weak figures, disturbed rows
import html as H
gs = page[page.find('<section id="grades">'):]
gs = gs[:gs.find("</section>")]
for g in rep.get("grades", []):
    i = gs.find('data-metric="%s"' % g["metric"])
    row = gs[i:gs.find("</tr>", i)] if i >= 0 else ""
    if g["borderline"]:
        want = "%s, tiers %d-%d of %d" % (g["between"], g["rank"] + 1, g["rank_hi"] + 1, g["tiers"])
    else:
        want = "%s, tier %d of %d (%d = best)" % (g["label"], g["rank"] + 1, g["tiers"], g["tiers"])
    if H.escape(want) not in row:
        fails.append("grade %s: %r not in its row %r" % (g["metric"], want, row[:200]))
    if g["weak"] != ("<b>weak</b>" in row):
        fails.append("grade %s: weak %s, row %r" % (g["metric"], g["weak"], row[:200]))
for name, m in rep.get("metrics_detail", {}).items():
    if m["disturbed"] and 'class="disturbed" data-metric="%s"' % name not in gs:
        fails.append("disturbed %s has no marked row" % name)
print("checked %d polylines, %d bars, %d svgs" % (checked, p.rects, p.svgs))
if checked < 6:
    fails.append("only %d polylines checked, want >= 6 (randrw read+write, randread)" % checked)
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
EOF
if [ $? -eq 0 ]; then t_ok html_structure; else t_fail html_structure "$(tr '\n' ' ' < "$tmp/py" | head -c 600)"; fi

# the system section (sysinfo is not part of the run above)
"$VPSBENCH" --only sysinfo --html "$tmp/s.html" --quiet >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '<section id="system">' "$tmp/s.html" && grep -q '<th>CPU Model</th>' "$tmp/s.html" \
   && grep -q '<th>Kernel</th><td>'"$(uname -r)"'</td>' "$tmp/s.html"; then t_ok html_system
else t_fail html_system "rc=$rc $(head -c 200 "$tmp/err")"; fi

# a page whose directory is missing: found before the run, exit 1, one line naming it
"$VPSBENCH" --only sysinfo --html "$tmp/nodir/x.html" --quiet >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "nodir/x.html" "$tmp/err" && grep -q "No such file" "$tmp/err" \
   && [ "$(wc -l < "$tmp/err")" -eq 1 ]; then
	t_ok html_unwritable_exit1
else
	t_fail html_unwritable_exit1 "rc=$rc $(head -c 200 "$tmp/err")"
fi

# read by a person: µs not us, uptime in days/hours as the text report,
# write drawn dashed with square markers
grep -q ' us<' "$tmp/r.html" && t_fail html_micro_sign "' us' in the page" || \
	{ grep -q 'µs' "$tmp/r.html" && t_ok html_micro_sign || t_fail html_micro_sign "no µs"; }
up=$("$VPSBENCH" --only sysinfo --quiet | sed -n 's/^ Uptime *: //p')
grep -qF "<th>Uptime</th><td>$up</td>" "$tmp/s.html" && t_ok html_uptime_as_text \
	|| t_fail html_uptime_as_text "text: $up; html: $(grep -o '<th>Uptime</th><td>[^<]*' "$tmp/s.html")"
grep -q 'class="mk-wr" x=' "$tmp/r.html" && grep -q 'svg .wr{[^}]*stroke-dasharray' "$tmp/r.html" \
	&& t_ok html_write_series_distinct || t_fail html_write_series_distinct

if [ -z "$CHROMIUM" ]; then
	t_skip html_chromium "chromium not installed (apt-get install chromium)"
	t_summary html
	exit
fi

t_bg_wait broken
console_errors "$tmp/broken.log" >/dev/null && t_ok console_check_sees_errors \
	|| t_fail console_check_sees_errors "no error logged for a page that throws"

t_bg_wait rshot
if [ $rc -eq 0 ] && [ -s "$tmp/r.png" ]; then t_ok chromium_screenshot
else t_fail chromium_screenshot "rc=$rc $(tail -c 300 "$tmp/r.log")"; fi
if console_errors "$tmp/r.log" >"$tmp/cons"; then
	t_fail no_console_errors "$(head -c 300 "$tmp/cons")"
else
	t_ok no_console_errors
fi

# not blank: decode the PNG (zlib + scanline filters, stdlib only)
python3 - "$tmp/r.png" >"$tmp/png" 2>&1 <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif t == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), "unexpected PNG format %d/%d" % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, i, colors, nonwhite = bytearray(stride), 0, set(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colors.add(px)
        if px != b"\xff\xff\xff":
            nonwhite += 1
    prev = line
share = nonwhite / (w * h)
print("%dx%d, %d colours, %.1f%% not white" % (w, h, len(colors), share * 100))
sys.exit(0 if len(colors) >= 50 and share >= 0.03 else 1)
EOF
if [ $? -eq 0 ]; then t_ok screenshot_not_blank "$(cat "$tmp/png")"
else t_fail screenshot_not_blank "$(tr '\n' ' ' < "$tmp/png" | head -c 300)"; fi
echo "  $(cat "$tmp/png")"

# the page's own layout at desktop and phone width: every SVG text box
# (getBBox, written into the DOM by tests/helpers/html_layout.js and read
# back with --dump-dom) overlaps no other and lies inside its SVG; chart
# text is about the body's size
# layouts OUT NAME:WIDTH:PAGE...: one Chromium start for every page at every
# width: each page, with the script at its end, in an iframe exactly WIDTH
# wide; the script's result (a <pre> in this document) tagged NAME at once,
# in the same script
layouts() {
	local out=$1; shift
	python3 tests/helpers/html_frames.py 3000 layout-result,align-result \
		tests/helpers/html_layout.js,tests/helpers/html_align.js "$@" > "$tmp/layouts.html"
	chromium_dom "$tmp/layouts.html" "$out"
}
t_bg_wait st
[ "$rc" -eq 0 ] || t_fail html_storage_run "$(head -c 300 "$tmp/st.bgerr")"
layouts "$tmp/dom" r1200:1200:"$tmp/r.html" r390:390:"$tmp/r.html" st1200:1200:"$tmp/st.html" st390:390:"$tmp/st.html"
for page in r st; do
for w in 1200 390; do
	python3 - "$tmp/dom" $w $page$w > "$tmp/lay$page$w" 2>&1 <<'PY'
import html, json, re, sys
m = re.findall(r'<pre id="layout-result" data-page="%s">(.*?)</pre>' % sys.argv[3], open(sys.argv[1]).read(), re.S)
assert len(m) == 1, "%d layout results for %s in the dumped DOM" % (len(m), sys.argv[3])
r = json.loads(html.unescape(m[0]))
print("width %s: %d texts in %d svgs, chart text %.1f-%.1f px, body %.1f px" % (
    r["width"], r["texts"], r["svgs"], r["min_text_px"], r["max_text_px"], r["body_px"]))
bad = list(r["problems"])
if r["width"] != int(sys.argv[2]):
    bad.append("rendered at %s px, not %s" % (r["width"], sys.argv[2]))
if r["svgs"] < 4 or r["texts"] < 40:
    bad.append("too little measured")
if r["max_text_px"] > r["body_px"] * 1.05:
    bad.append("chart text %.1f px, larger than the body's %.1f px" % (r["max_text_px"], r["body_px"]))
if r["min_text_px"] < 9:
    bad.append("chart text %.1f px: too small to read" % r["min_text_px"])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
	lrc=$?
	name=html_layout_$w; [ $page = st ] && name=html_storage_layout_$w
	if [ $lrc -eq 0 ]; then t_ok "$name" "$(head -1 "$tmp/lay$page$w")"
	else t_fail "$name" "$(tr '\n' ' ' < "$tmp/lay$page$w" | head -c 700)"; fi
	head -1 "$tmp/lay$page$w" | sed 's/^/  /'
	# every table's header on its column's edge (tests/helpers/html_align.js; issue #40 D7)
	python3 - "$tmp/dom" $page$w > "$tmp/aln$page$w" 2>&1 <<'PY'
import html, json, re, sys
m = re.findall(r'<pre id="align-result" data-page="%s">(.*?)</pre>' % sys.argv[2], open(sys.argv[1]).read(), re.S)
assert len(m) == 1, "%d alignment results for %s in the dumped DOM" % (len(m), sys.argv[2])
r = json.loads(html.unescape(m[0]))
print("width %s: %d tables, %d columns, %d cells measured" % (r["width"], r["tables"], r["columns"], r["cells"]))
bad = list(r["problems"]) + ([] if r["tables"] >= 2 else ["too little measured"])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
	lrc=$?
	name=html_align_$w; [ $page = st ] && name=html_storage_align_$w
	if [ $lrc -eq 0 ]; then t_ok "$name"; else t_fail "$name" "$(tr '\n' ' ' < "$tmp/aln$page$w" | head -c 700)"; fi
	head -1 "$tmp/aln$page$w" | sed 's/^/  /'
done
done
t_summary html
