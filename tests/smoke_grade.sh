# run-all: check (see tests/run-all.sh)
# smoke_grade.sh — thresholds files, --require gating exit codes end to end,
# and `compare` against golden outputs (tests/golden/).
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

# compare: golden text and JSON
"$VPSBENCH" compare tests/golden/report-old.json tests/golden/report-new.json > "$tmp/c.txt"; rc=$?
[ $rc -eq 0 ] && diff -u tests/golden/compare.txt "$tmp/c.txt" && t_ok compare_text_golden \
	|| t_fail compare_text_golden "rc=$rc"
"$VPSBENCH" compare tests/golden/report-old.json tests/golden/report-new.json --format json > "$tmp/c.json"; rc=$?
[ $rc -eq 0 ] && diff -u tests/golden/compare.json "$tmp/c.json" && t_ok compare_json_golden \
	|| t_fail compare_json_golden "rc=$rc"
grep -q '"significant":	true' "$tmp/c.json" && grep -q '"tier_changed":	true' "$tmp/c.json" \
	&& t_ok compare_marks_changes || t_fail compare_marks_changes

# compare: each side's health is the report's own Health block (unknown without one)
python3 -c '
import json,sys; c=json.load(open(sys.argv[1])); o=json.load(open(sys.argv[2])); n=json.load(open(sys.argv[3]))
assert "health" not in o and c["old_health"] == "unknown" and c["old_health_problems"] == "", c
assert c["new_health"] == n["health"]["status"] == "problems", c
assert c["new_health_problems"] == ", ".join(p["check"] for p in n["health"]["problems"]) == "iops_drop", c
' "$tmp/c.json" tests/golden/report-old.json tests/golden/report-new.json && t_ok compare_health_from_reports \
	|| t_fail compare_health_from_reports

# compare: bad input -> exit 1, one line naming the file
echo '{"version": "v2025", "fio": []}' > "$tmp/foreign.json"
echo '{"schema": "vpsbench.report/1", "metrics": {' > "$tmp/broken.json"
for case in "nosuch:$tmp/nosuch.json" "foreign:$tmp/foreign.json" "broken:$tmp/broken.json"; do
	name=${case%%:*}; f=${case#*:}
	"$VPSBENCH" compare tests/golden/report-old.json "$f" > "$tmp/out" 2> "$tmp/err"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "$f" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		t_ok "compare_rejects_$name"
	else t_fail "compare_rejects_$name" "rc=$rc $(cat "$tmp/err")"; fi
done
"$VPSBENCH" compare tests/golden/report-old.json > /dev/null 2>&1; [ $? -eq 1 ] \
	&& t_ok compare_needs_two || t_fail compare_needs_two

# thresholds: the dump loads back and dumps the same (every metric's tiers carry their
# source; a dump with a source-less metric is refused by --thresholds, as it must be)
"$VPSBENCH" --dump-thresholds > "$tmp/t.json"
if python3 -c 'import json,sys; sys.exit(any(not m["source"]["url"] for m in json.load(open(sys.argv[1]))["metrics"]))' "$tmp/t.json"; then
	"$VPSBENCH" --thresholds "$tmp/t.json" --dump-thresholds > "$tmp/t2.json" \
		&& cmp -s "$tmp/t.json" "$tmp/t2.json" && python3 -m json.tool "$tmp/t.json" > /dev/null \
		&& t_ok thresholds_roundtrip || t_fail thresholds_roundtrip
else
	t_skip thresholds_roundtrip "a built-in metric has no source yet (grade/grade_table.c)"
fi
# health bounds and rules always carry theirs
python3 - "$tmp/t.json" <<'PY' && t_ok thresholds_dump_sources || t_fail thresholds_dump_sources
import json, sys
t = json.load(open(sys.argv[1])); bad = []
names = {h["name"]: h for h in t["health"]}
want = {"steal_pct": 10, "iops_cov_pct": 15, "iops_tail_ratio": 0.7, "scaling_slack": 1.05,
        "mem_eff_min": 0.25, "mem_psi_avg10": 1.0}
for n, v in want.items():
    h = names.get(n)
    if not h or h["value"] != v or not (h["min"] <= v <= h["max"]) or not h["unit"] or not h["description"]:
        bad.append("health bound %s: %r" % (n, h))
    elif not h["source"]["url"] or not h["source"]["says"]:
        bad.append("health bound %s without a source" % n)
for r in t["rules"]:
    if not r["conditions"] or not r["source"]["url"] or not r["source"]["says"]:
        bad.append("rule %r" % r)
for b in bad:
    print("  " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
printf '{"metrics": [\n  {"metric": "rand_iops",\n   "direction": "sideways", "tiers": []}\n]}\n' > "$tmp/bad.json"
"$VPSBENCH" --thresholds "$tmp/bad.json" --only sysinfo > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "bad.json:3: rand_iops: key \"direction\"" "$tmp/err" && [ ! -s "$tmp/out" ] \
	&& t_ok thresholds_bad_file_exit1 || t_fail thresholds_bad_file_exit1 "rc=$rc $(cat "$tmp/err")"
"$VPSBENCH" --require 'rand_iops=>5' --only sysinfo > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q -- '--require' "$tmp/err" && t_ok require_bad_expr_exit1 \
	|| t_fail require_bad_expr_exit1 "rc=$rc"

# gating end to end on a real short seq run
d=$(mktemp -d "$tmp/dir.XXXX")
run_gate() { "$VPSBENCH" --quiet --only seq --seq-size 64M --seq-runs 1 --dir "$d" --json --require "$1" > "$tmp/g.json" 2> "$tmp/g.err"; }
run_gate 'seq_write_mbps>=0.001'; rc=$?
# a pass disturbed by the machine's other I/O fails any --require on it
# (README "Disturbed disk passes"): that is the rule, not a product fault
if [ $rc -eq 3 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["requirements"][0]["reason"].startswith("disturbed")' "$tmp/g.json" 2>/dev/null; then
	t_skip gate_pass_exit0 "the seq pass was disturbed (machine busy): $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["requirements"][0]["reason"])' "$tmp/g.json")"
elif [ $rc -eq 0 ] && python3 -c '
import json,sys; r=json.load(open(sys.argv[1])); q=r["requirements"][0]
assert q["passed"] and q["value"] > 0, q
assert r["metrics"]["seq_write_mbps"] == q["value"]
# graded when its uncertainty is known (the borderline rule), always with a tier name
assert all(g["tier"] for g in r["grades"] if g["metric"] == "seq_write_mbps")
assert r["verdict"]["text"].startswith("health: ") and r["health"]["checks"]' "$tmp/g.json"; then
	t_ok gate_pass_exit0
else
	t_fail gate_pass_exit0 "rc=$rc $(head -c 300 "$tmp/g.err")"
fi
run_gate 'seq_write_mbps>=1e12'; rc=$?
[ $rc -eq 3 ] && python3 -c '
import json,sys; r=json.load(open(sys.argv[1])); q=r["requirements"][0]
# "measured N" below the bound, or disturbed (a busy machine): failed either way
assert not q["passed"] and q["value"] > 0 and ("measured" in q["reason"] or q["reason"].startswith("disturbed: ")), q' "$tmp/g.json" \
	&& t_ok gate_fail_exit3 || t_fail gate_fail_exit3 "rc=$rc"
run_gate 'seq_write_mbps>=0.001,rand_iops>=1'; rc=$?
[ $rc -eq 3 ] && python3 -c '
import json,sys; r=json.load(open(sys.argv[1])); q=r["requirements"]
assert (q[0]["passed"] or q[0]["reason"].startswith("disturbed: ")) and not q[1]["passed"] and q[1]["value"] is None and "not measured" in q[1]["reason"], q' "$tmp/g.json" \
	&& t_ok gate_unmeasured_fails_exit3 || t_fail gate_unmeasured_fails_exit3 "rc=$rc"
[ -z "$(ls -A "$d")" ] && t_ok gate_runs_leave_nothing || t_fail gate_runs_leave_nothing "$(ls -A "$d")"
t_summary grade
