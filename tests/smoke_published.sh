# run-all: check (see tests/run-all.sh)
# smoke_published.sh — the published population compiled into the binary,
# checked against the CSVs of data/published/:
#  (a) scripts/published-tables.py --check: re-running the generator gives
#      grade/published_data.c byte for byte;
#  (b) a broken copy of the data (a number that is not one, a dropped column,
#      a foreign CSV) -> exit 1 and one line naming file:line and the column;
#  (c) `vpsbench place --population --format json` under several filters
#      equals tests/helpers/published_ref.py's, an independent reading of the
#      CSVs (n exact, quantiles within 1e-9 relative);
#  (d) each recorded report of tests/fixtures/place: `vpsbench place FIXTURE
#      --format json`'s placement equals the reference's item by item (same
#      items, placed, n, below, equal; percentile and quantiles 1e-9), also a
#      copy of the yabs fixture with its disturbed flags cleared (the
#      recording machine was loaded: its cpu and 1m passes are "disturbed",
#      so the copy is what places them);
#  (e) bad input: malformed JSON, foreign JSON, a missing file -> exit 1, one
#      line naming the file; a filter leaving too few rows -> "not placed"
#      with the why; a bad filter value -> exit 2 naming the option; the
#      default-profile report -> no fio item, rand_note naming --profile yabs.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
T=$(t_tmpdir)
trap 'rm -rf "$T"' EXIT
REF=tests/helpers/published_ref.py
FIX=tests/fixtures/place
GEN=scripts/published-tables.py

# (a) the committed tables are what the CSVs give
if out=$(python3 "$GEN" --check 2>&1); then
	t_ok "tables: grade/published_data.c reproduced byte for byte"
else
	t_fail "tables: grade/published_data.c is stale" "$out"
fi
# the check itself sees a one-byte change
cp grade/published_data.c "$T/stale.c"
sed -i '0,/0x00,/s//0x01,/' "$T/stale.c"
if python3 "$GEN" --check --out "$T/stale.c" 2>/dev/null; then
	t_fail "tables: --check passed a changed file"
else
	t_ok "tables: --check fails on a changed byte"
fi

# (b) broken data: one line on stderr naming file:line and the column, exit 1
# bad_data NAME EXPECT_RE PYTHON: PYTHON edits the copy in $T/d/NAME
bad_data() {
	local name=$1 want=$2 py=$3 rc lines err
	rm -rf "$T/d"
	cp -r data/published "$T/d"
	python3 -c "$py" "$T/d" || { t_fail "bad data $name: the edit failed"; return; }
	python3 "$GEN" --data "$T/d" --out "$T/out.c" 2>"$T/err"
	rc=$?
	err=$(cat "$T/err")
	lines=$(wc -l < "$T/err")
	if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [[ $err =~ $want ]] && [ ! -e "$T/out.c" ]; then
		t_ok "bad data $name: exit 1, \"$err\""
	else
		t_fail "bad data $name" "rc $rc, $lines lines: $err (want /$want/)"
	fi
}
bad_data "number" 'yabs_disk\.csv:3: column total_iops: "12x00" is not a number' '
import sys; p = sys.argv[1] + "/yabs_disk.csv"
L = open(p, encoding="utf-8").read().split("\n")
L[2] = L[2].replace(",2000,", ",12x00,", 1)
open(p, "w", encoding="utf-8").write("\n".join(L))'
bad_data "dropped column" 'sysbench_cpu\.csv:1: column "score" missing' '
import csv, sys; p = sys.argv[1] + "/sysbench_cpu.csv"
rows = list(csv.reader(open(p, encoding="utf-8", newline="")))
i = rows[0].index("score")
w = csv.writer(open(p, "w", encoding="utf-8", newline=""))
for r in rows: w.writerow(r[:i] + r[i + 1:])'
bad_data "foreign csv" 'yabs_net\.csv:1: column "run_id" missing' '
import sys; open(sys.argv[1] + "/yabs_net.csv", "w").write("name,score\nx,1\n")'
bad_data "bad date" 'benchsh_dd\.csv:2: column date: "yesterday" is not YYYY-MM-DD' '
import csv, sys; p = sys.argv[1] + "/benchsh_dd.csv"
rows = list(csv.reader(open(p, encoding="utf-8", newline="")))
rows[1][rows[0].index("date")] = "yesterday"
w = csv.writer(open(p, "w", encoding="utf-8", newline=""))
w.writerows(rows)'

if ! "$VPSBENCH" place --population --format json > "$T/probe.json" 2>"$T/probe.err"; then
	t_skip "place" "vpsbench place --population failed (built without it?): $(head -c 200 "$T/probe.err")"
	t_summary smoke_published
	exit
fi

# (c) the population under each filter, against the reference
# pop NAME REF_FILTERS...: vpsbench gets the same filters as --place-*
pop() {
	local name=$1 f vf=() out
	shift
	for f in "$@"; do
		case $f in --*) vf+=("--place-${f#--}") ;; *) vf+=("$f") ;; esac
	done
	if ! "$VPSBENCH" place --population --format json "${vf[@]}" > "$T/pop.json" 2>"$T/pop.err"; then
		t_fail "population $name" "vpsbench exit $?: $(head -c 300 "$T/pop.err")"
		return
	fi
	if out=$(python3 "$REF" check-population "$T/pop.json" "$@" 2>&1); then
		t_ok "population $name ($(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tables"]; print(len(t), "tables, 4k IOPS n", t[0]["n"])' "$T/pop.json"))"
	else
		t_fail "population $name" "$(printf '%s' "$out" | head -5)"
	fi
}
pop "default"
pop "kind any" --kind any
pop "dedicated" --kind dedicated
pop "vcpus 2" --vcpus 2
pop "vcpus 1-4" --vcpus 1-4
pop "years 2024-2025" --years 2024-2025
pop "per-machine" --per-machine
pop "include-cached" --include-cached
pop "any, per-machine, 2023" --kind any --per-machine --years 2023
pop "dedicated, cached, vcpus 4-64" --kind dedicated --include-cached --vcpus 4-64
pop "vps, vcpus 1, years 2020-2023, per-machine" --vcpus 1 --years 2020-2023 --per-machine

# (d) the recorded reports' placements, against the reference
# placed FIXTURE NAME REF_FILTERS...
placed() {
	local fx=$1 name=$2 f vf=() out
	shift 2
	for f in "$@"; do
		case $f in --*) vf+=("--place-${f#--}") ;; *) vf+=("$f") ;; esac
	done
	if ! "$VPSBENCH" place "$fx" --format json "${vf[@]}" > "$T/pl.json" 2>"$T/pl.err"; then
		t_fail "place $name" "vpsbench exit $?: $(head -c 300 "$T/pl.err")"
		return
	fi
	if out=$(python3 "$REF" check-place "$fx" "$T/pl.json" "$@" 2>&1); then
		t_ok "place $name ($(python3 -c 'import json,sys; i=json.load(open(sys.argv[1]))["placement"]["items"]; print(len(i), "items,", sum(x["placed"] for x in i), "placed")' "$T/pl.json"))"
	else
		t_fail "place $name" "$(printf '%s' "$out" | head -5)"
	fi
}
# the yabs fixture with its disturbed flags cleared: every figure placeable
python3 - "$FIX/yabs-512M.json" "$T/yabs-undisturbed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["rand"]["passes"]:
    p["disturbance"]["disturbed"] = False
for k in ("single", "multi"):
    d["cpu"]["prime"][k]["disturbed"] = False
json.dump(d, open(sys.argv[2], "w"))
PY
# copies whose figures equal a published value that several rows share (the
# most frequent one of each table): ties, where the mid-rank's equal / 2 counts
python3 - data/published "$T/yabs-undisturbed.json" "$T/yabs-ties.json" \
	"$FIX/net-clouvider-loopback.json" "$T/net-ties.json" <<'PY'
import collections, csv, json, sys
from decimal import Decimal
data, yin, yout, nin, nout = sys.argv[1:]
rd = lambda n: list(csv.DictReader(open(data + "/" + n, encoding="utf-8")))
def common(vals):
    return collections.Counter(v for v in vals if v).most_common(1)[0][0]
disk = [r for r in rd("yabs_disk.csv") if r["kind"] == "vps"]
names = {4096: "4k", 65536: "64k", 524288: "512k", 1048576: "1m"}
d = json.load(open(yin))
for p in d["rand"]["passes"]:
    rows = [r for r in disk if r["bs"] == names[p["bs"]]]
    iops = Decimal(common(r["total_iops"] for r in rows))
    bw = Decimal(common(r["total_mbps"] for r in rows)) * 1024000
    p["read"]["iops"] = p["write"]["iops"] = float(iops / 2)
    p["read"]["bw_bytes"] = p["write"]["bw_bytes"] = float(bw / 2)
sb = [r for r in rd("sysbench_cpu.csv") if r["mode"] == "Fast Mode, 1-Pass @ 5sec"]
for k, label in (("single", "单核"), ("multi", "多核")):
    d["cpu"]["prime"][k]["events_per_s"] = float(common(r["score"] for r in sb if r["label"] == label))
d["seq"]["write"]["avg_mbps"] = float(common(r["io_avg_mbps"] for r in rd("benchsh_dd.csv")))
json.dump(d, open(yout, "w"))
net = [r for r in rd("yabs_net.csv") if r["iperf_server"] == "Clouvider" and
       r["iperf_location"] == "London, UK (10G)" and r["ip"] == "IPv4"]
d = json.load(open(nin))
for row in d["net"]["servers"]:
    for k in ("send", "recv"):
        row[k]["bits_per_second"] = float(Decimal(common(r[k + "_mbits"] for r in net)) * 1000000)
json.dump(d, open(nout, "w"))
PY
for fx in "$FIX"/yabs-512M.json "$FIX"/net-clouvider-loopback.json "$FIX"/default-profile.json \
	"$T/yabs-undisturbed.json" "$T/yabs-ties.json" "$T/net-ties.json"; do
	b=$(basename "$fx" .json)
	placed "$fx" "$b"
	case $b in default-profile) continue ;; esac   # nothing placeable: one filter is enough
	placed "$fx" "$b kind any" --kind any
	placed "$fx" "$b per-machine, 2023-2025" --per-machine --years 2023-2025
	placed "$fx" "$b dedicated" --kind dedicated
	case $b in net-*) continue ;; esac
	placed "$fx" "$b include-cached, vcpus 1-4" --include-cached --vcpus 1-4
done
# every figure of the undisturbed copy is placed (the comparison above is not vacuous)
"$VPSBENCH" place "$T/yabs-undisturbed.json" --format json > "$T/u.json" 2>/dev/null
t_check "place: the undisturbed yabs copy places 8 fio, 2 cpu and the dd figure" python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["placement"]["items"]
m = [x["metric"] for x in i if x["placed"]]
sys.exit(0 if m.count("fio_total_iops") == 4 and m.count("fio_total_mbps") == 4 and
         "sysbench_1t_eps" in m and "sysbench_all_eps" in m and "dd_write_mbps" in m else 1)' "$T/u.json"

# the ties copies do tie: every item placed with equal > 0
for fx in "$T/yabs-ties.json" "$T/net-ties.json"; do
	"$VPSBENCH" place "$fx" --format json > "$T/t.json" 2>/dev/null
	t_check "place: $(basename "$fx" .json) places every item on a tie (equal > 0)" python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["placement"]["items"]
bad = [x["label"] for x in i if not x["placed"] or x["equal"] < 1]
bad and print(*bad, file=sys.stderr)
sys.exit(0 if i and not bad else 1)' "$T/t.json"
done

# (e) bad input
# bad_report NAME FILE: exit 1, one line on stderr naming FILE
bad_report() {
	local name=$1 f=$2 rc n err
	"$VPSBENCH" place "$f" --format json > "$T/b.out" 2>"$T/b.err"
	rc=$?
	n=$(wc -l < "$T/b.err")
	err=$(cat "$T/b.err")
	if [ $rc -eq 1 ] && [ "$n" -eq 1 ] && [[ $err == *"$f"* ]] && [ ! -s "$T/b.out" ]; then
		t_ok "bad report $name: exit 1, \"$err\""
	else
		t_fail "bad report $name" "rc $rc, $n lines: $err"
	fi
}
printf '{"schema": "vpsbench.report/1", "rand": {' > "$T/malformed.json"
printf '{"a":1}\n' > "$T/foreign.json"
bad_report "malformed JSON" "$T/malformed.json"
bad_report "foreign JSON" "$T/foreign.json"
bad_report "missing file" "$T/no-such-report.json"

# fewer rows than the minimum: every item not placed, the why says how many
# few NAME MINIMUM VPSBENCH_FILTERS...
few() {
	local name=$1 minimum=$2
	shift 2
	"$VPSBENCH" place "$FIX/yabs-512M.json" --format json "$@" > "$T/few.json" 2>"$T/few.err"
	t_check "too few rows, $name: no item placed, each why \"N published rows match the filter (minimum M)\"" \
		python3 -c '
import json, re, sys
i = json.load(open(sys.argv[1]))["placement"]["items"]
minimum = sys.argv[2]
ok = len(i) == 11
for x in i:
    if x["placed"] or x["percentile"] is not None or x["n"] != 0:
        ok = False
    w = x["why"] or ""
    if x["metric"].startswith("fio_") and x["bs"] == 1048576 or x["metric"].startswith("sysbench"):
        continue   # disturbed in the recording: their why says so
    m = re.fullmatch(r"(\d+) published rows match the filter \(minimum (\d+)\)", w)
    if not m or m.group(2) != minimum or int(m.group(1)) >= int(minimum):
        print(x["label"], "why:", w, file=sys.stderr)
        ok = False
sys.exit(0 if ok else 1)' "$T/few.json" "$minimum"
}
few "--place-vcpus 64" 20 --place-vcpus 64
few "--place-min-n 1000" 1000 --place-min-n 1000
few "--place-kind dedicated --place-years 2020" 20 --place-kind dedicated --place-years 2020

# a bad filter value: usage error, exit 2, one line naming the option
"$VPSBENCH" place "$FIX/yabs-512M.json" --place-vcpus lots > /dev/null 2>"$T/u.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l < "$T/u.err")" -eq 1 ] && grep -q -- '--place-vcpus' "$T/u.err"; then
	t_ok "bad filter: exit 2, \"$(cat "$T/u.err")\""
else
	t_fail "bad filter" "rc $rc: $(cat "$T/u.err")"
fi

# the default profile's rand is another workload: not placed, pointed at --profile yabs
"$VPSBENCH" place "$FIX/default-profile.json" --format json > "$T/def.json" 2>/dev/null
t_check "default profile: no fio item, rand_note says the workload differs and names --profile yabs" \
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["placement"]
fio = [x for x in p["items"] if x["metric"].startswith("fio_")]
note = p["rand_note"] or ""
sys.exit(0 if not fio and "--profile yabs" in note and "not yabs" in note and "75/25" in note
         else 1)' "$T/def.json"

t_summary smoke_published
