# smoke_formats.sh — reports out: the JSON report validates against
# schema/report.schema.json (python3-jsonschema, Draft 2020-12) for real
# runs; --format yabs has yabs.sh's keys and types; --format prom passes
# promtool check metrics (skipped when promtool is not installed).
. tests/lib.sh
tmp=$(t_tmpdir)
mnt=""
cleanup() {
	local p
	t_bg_kill
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
H=tests/helpers
SCHEMA=schema/report.schema.json
export HOME=$tmp/home/alice
mkdir -p "$HOME/bench" "$tmp/d"

# Debian's python3 has python3-jsonschema; another python3 first on PATH may not.
PY=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then PY=$p; break; fi
done
validate() { # NAME FILE...
	local n=$1; shift
	if [ -z "$PY" ]; then t_skip "$n" "python3-jsonschema not installed"; return; fi
	if "$PY" $H/validate.py "$SCHEMA" "$@" > "$tmp/.val" 2>&1; then t_ok "$n"
	else t_fail "$n" "$(head -c 600 "$tmp/.val")"; fi
}
# every module short (fsync's 100 ms is its minimum): what is checked is the
# reports' shape, not the figures
short="--seq-size 16M --seq-runs 2 --size 8M --runtime 1 --ramp 0 --mem-size 2M --cpu-time 200ms --fsync-time 100ms"

# The long runs (2, 4c, 7, 8) start at once in the background, each in its own
# directory, and are checked where they were, in order; nothing they check
# depends on a quiet machine. bg NAME CMD...: NAME's stdout to $tmp/NAME.out,
# stderr to $tmp/NAME.err; t_bg_wait NAME waits for it, its exit status in rc.
bg() { local n=$1; shift; t_bg "$n" "$tmp/$n.out" "$tmp/$n.err" "$@"; }
mkdir -p "$tmp/df" "$tmp/d2" "$tmp/dm" "$tmp/dy"
odd="$tmp/we\"ird\\dir"
mkdir -p "$odd"
bg full "$VPSBENCH" --quiet --dir "$tmp/df" $short --require 'rand_iops>=1,seq_write_mbps>=100000000' --json
bg multi "$VPSBENCH" --quiet --dir "$tmp/dm" --dir "$tmp/d2" --seq-size 16M --seq-runs 1 --size 8M --skip cpu,mem,fsync \
	--runtime 1 --ramp 0 --verify --engine psync --output "$tmp/multi.json"
# (yabs's keys come from sysinfo and rand only: seq, mem, cpu and fsync are not in them)
bg yabs "$VPSBENCH" --quiet --profile yabs --skip seq,mem,cpu,fsync --dir "$tmp/dy" --size 8M --runtime 1 --ramp 0 \
	--format yabs
bg prom "$VPSBENCH" --quiet --dir "$odd" $short --format prom

# 1. sysinfo only
"$VPSBENCH" --quiet --only sysinfo --json > "$tmp/sys.json" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && t_ok sysinfo_json_rc || t_fail sysinfo_json_rc "rc=$rc $(head -c 300 "$tmp/err")"
validate schema_sysinfo "$tmp/sys.json"

# 2. seq + rand, graded, with --require (one passes, one fails: exit 3)
t_bg_wait full; mv "$tmp/full.out" "$tmp/full.json"
[ "$rc" = 3 ] && t_ok full_run_rc3 || t_fail full_run_rc3 "rc=$rc $(head -c 300 "$tmp/full.err")"
validate schema_seq_rand_grades "$tmp/full.json"
if [ -n "$PY" ] && "$PY" - "$tmp/full.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seq"]["status"] == "ok" and d["seq"]["write"]["avg_mbps"] > 0
assert len(d["rand"]["passes"]) == 2 and all(p["status"] == "ok" for p in d["rand"]["passes"])
# the first holds unless its pass was disturbed (a busy machine): then it fails, saying so
assert [r["passed"] or r["reason"].startswith("disturbed: ") for r in d["requirements"]][0] and not d["requirements"][1]["passed"], d["requirements"]
assert d["grades"] and d["verdict"]["text"]
# every grade carries its marks; metrics_detail covers metrics, and a
# disturbed figure is null in metrics, never graded
for g in d["grades"]:
    assert 0 <= g["rank"] < g["tiers"], g
    assert (g["between"] is not None) == g["borderline"], g
    assert ("rank_hi" in g) == g["borderline"], g
    assert not (g["borderline"] and g["weak"]), g
    assert g["uncertainty"] is None or g["uncertainty"] >= 0, g
assert set(d["metrics_detail"]) == set(d["metrics"])
graded = {g["metric"] for g in d["grades"]}
for k, m in d["metrics_detail"].items():
    assert m["graded"] == (k in graded), k
    if m["disturbed"]:
        assert d["metrics"][k] is None and k not in graded, k
    elif m["measured"]:
        assert d["metrics"][k] == m["value"], k
EOF
then t_ok full_run_content; else t_fail full_run_content; fi

# 3. a --require on a metric that was not measured (sysinfo only)
"$VPSBENCH" --quiet --only sysinfo --require 'lat_p99_ms<=1' --output "$tmp/req.json" \
	>/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && t_ok unmeasured_require_rc3 || t_fail unmeasured_require_rc3 "rc=$rc"
validate schema_unmeasured_require "$tmp/req.json"

# 4. failed/skipped passes: a full 1 MiB tmpfs (root), else a missing test
if t_is_root && mkdir -p "$tmp/full" && mount -t tmpfs -o size=1M tmpfs "$tmp/full" 2>/dev/null; then
	mnt=$tmp/full
	dd if=/dev/zero of="$mnt/fill" bs=64k count=100 2>/dev/null
	# (cpu and mem need no space: they are the full run's)
	"$VPSBENCH" --quiet --dir "$mnt" $short --skip cpu,mem --output "$tmp/failed.json" >/dev/null 2>&1; rc=$?
	# skipped (no space) is not a failure: sysinfo ran, exit 0
	[ $rc -eq 0 ] && t_ok full_fs_rc0 || t_fail full_fs_rc0 "rc=$rc"
	validate schema_failed_pass "$tmp/failed.json"
	if [ -n "$PY" ] && "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["modules"]
sys.exit(0 if m["seq"]["status"] == "skipped" and m["rand"]["status"] == "skipped"
         and "free" in m["seq"]["reason"] else 1)' "$tmp/failed.json"; then
		t_ok failed_pass_marked; else t_fail failed_pass_marked; fi
	t_umount "$mnt" && mnt=""
else
	t_skip schema_failed_pass "needs root and tmpfs mounts"
fi

# 4b. a read-only directory (root: a read-only bind mount)
if t_is_root && mkdir -p "$tmp/ro" && mount --bind "$tmp/ro" "$tmp/ro" 2>/dev/null; then
	mnt=$tmp/ro
	if mount -o remount,bind,ro "$mnt" 2>/dev/null; then
		"$VPSBENCH" --quiet --dir "$mnt" $short --skip cpu,mem --output "$tmp/ro.json" >/dev/null 2>&1
		validate schema_read_only_dir "$tmp/ro.json"
		grep -q '"status":[[:space:]]*"skipped"' "$tmp/ro.json" && t_ok read_only_skipped \
			|| t_fail read_only_skipped
	else
		t_skip schema_read_only_dir "cannot remount read-only"
	fi
	t_umount "$mnt" && mnt=""
else
	t_skip schema_read_only_dir "needs root and bind mounts"
fi

# 4c. two dirs, --verify, the psync engine: seq.dirs[], verify objects
t_bg_wait multi
[ "$rc" = 0 ] && t_ok multi_dir_rc || t_fail multi_dir_rc "rc=$rc"
validate schema_multi_dir_verify "$tmp/multi.json"

# 5. interrupted run: SIGINT during rand, --output still written, marked incomplete
"$VPSBENCH" --quiet --only rand --dir "$tmp/d" --size 8M --runtime 20 --ramp 0 \
	--output "$tmp/int.json" >/dev/null 2>&1 &
pid=$!
t_wait_test_file $pid || t_fail interrupted_started "no test file open"
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && t_ok interrupted_rc130 || t_fail interrupted_rc130 "rc=$rc"
validate schema_interrupted "$tmp/int.json"
grep -q '"complete":[[:space:]]*false' "$tmp/int.json" && t_ok interrupted_marked \
	|| t_fail interrupted_marked

# 6. privacy: $HOME becomes ~ unless --include-host; no hostname, IPs or MACs
"$VPSBENCH" --quiet --only sysinfo --dir "$HOME/bench" --json > "$tmp/priv.json" 2>&1; rc=$?
if [ $rc -eq 0 ] && ! grep -q "$HOME" "$tmp/priv.json" && grep -q '"~/bench"' "$tmp/priv.json"; then
	t_ok home_redacted; else t_fail home_redacted "rc=$rc $(grep -n alice "$tmp/priv.json" | head -3)"; fi
"$VPSBENCH" --quiet --only sysinfo --dir "$HOME/bench" --include-host --json > "$tmp/host.json" 2>&1
grep -q "\"$HOME/bench\"" "$tmp/host.json" && t_ok include_host_keeps_path \
	|| t_fail include_host_keeps_path
"$VPSBENCH" --quiet --only sysinfo --dir "$HOME/bench" > "$tmp/priv.txt" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '~/bench' "$tmp/priv.txt" && ! grep -q "$HOME" "$tmp/priv.txt"; then
	t_ok home_redacted_text; else t_fail home_redacted_text "rc=$rc"; fi
leak=""
hn=$(cat /proc/sys/kernel/hostname 2>/dev/null)
[ ${#hn} -ge 4 ] && grep -qF "\"$hn" "$tmp/priv.json" && leak="$leak hostname"
grep -qE '"[^"]*\b([0-9]{1,3}\.){3}[0-9]{1,3}\b' "$tmp/priv.json" && leak="$leak ipv4"
grep -qiE '\b([0-9a-f]{2}:){5}[0-9a-f]{2}\b' "$tmp/priv.json" && leak="$leak mac"
[ -r /etc/machine-id ] && [ -s /etc/machine-id ] && grep -qF "$(cat /etc/machine-id)" "$tmp/priv.json" \
	&& leak="$leak machine-id"
[ -z "$leak" ] && t_ok no_host_identifiers || t_fail no_host_identifiers "$leak"

# 7. --format yabs: yabs.sh's keys and types
# The reference is a copy in the repository (tests/helpers/yabs-example.json,
# from ../shared/reference/ beside the repository root): CI runs on a clean
# clone where ../shared does not exist. Missing, it fails under CI.
YABS_REF=$H/yabs-example.json
if [ -r "$YABS_REF" ]; then t_ok yabs_reference_present
elif [ -n "$CI" ]; then t_fail yabs_reference_present "$YABS_REF missing (CI is set)"
else t_skip yabs_reference_present "$YABS_REF missing"; fi
# where the shared copy exists beside the repository root, ours is the same
if [ -r ../shared/reference/yabs-example.json ]; then
	cmp -s ../shared/reference/yabs-example.json "$YABS_REF" && t_ok yabs_reference_current \
		|| t_fail yabs_reference_current "tests/helpers/yabs-example.json differs from ../shared/reference/"
fi
check_yabs() { # NAME FILE: against yabs's own example JSON ($YABS_REF)
	if python3 $H/yabs_check.py "$YABS_REF" "$2" > "$tmp/.y" 2>&1; then t_ok "$1"
	else t_fail "$1" "$(head -c 600 "$tmp/.y")"; fi
}
"$VPSBENCH" --quiet --only sysinfo --format yabs > "$tmp/y1.json" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && check_yabs yabs_sysinfo "$tmp/y1.json" || t_fail yabs_sysinfo "rc=$rc"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit("fio" in d or "partition" in d)' \
	"$tmp/y1.json" && t_ok yabs_no_fio_without_rand || t_fail yabs_no_fio_without_rand
t_bg_wait yabs; mv "$tmp/yabs.out" "$tmp/y2.json"
[ "$rc" = 0 ] && check_yabs yabs_fio "$tmp/y2.json" || t_fail yabs_fio "rc=$rc"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [e["bs"] for e in d["fio"]] == ["4k", "64k", "512k", "1m"]
assert all(e["iops_r"] > 0 and e["iops_w"] > 0 for e in d["fio"])
# KiB/s as fio terse: speed ~ iops * bs / 1024
for e, bs in zip(d["fio"], (4, 64, 512, 1024)):
    assert abs(e["speed_r"] - e["iops_r"] * bs) <= bs + 1, e
assert d["partition"]' "$tmp/y2.json" && t_ok yabs_fio_values || t_fail yabs_fio_values
# (the default profile under --format yabs, custom profiles, IPv6: smoke_reports.sh)

# 8. --format prom: promtool, one sample per series, label escaping
t_bg_wait prom; mv "$tmp/prom.out" "$tmp/m.prom"
[ "$rc" = 0 ] && t_ok prom_rc || t_fail prom_rc "rc=$rc"
if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics < "$tmp/m.prom" > "$tmp/.pt" 2>&1; then t_ok promtool_check
	else t_fail promtool_check "$(head -c 400 "$tmp/.pt")"; fi
else
	t_skip promtool_check "promtool not installed (Debian package prometheus)"
fi
python3 - "$tmp/m.prom" <<'EOF' && t_ok prom_format || t_fail prom_format
import re, sys
lines = open(sys.argv[1]).read().splitlines()
seen, fams, helped = set(), [], set()
for l in lines:
    if l.startswith("# HELP "):
        helped.add(l.split()[2]); continue
    if l.startswith("# TYPE "):
        f = l.split()[2]; assert f in helped and f not in fams, f; fams.append(f); continue
    m = re.match(r'^([a-z_][a-z0-9_]*)(\{.*\})? (\S+)$', l)
    assert m, l
    name, series = m.group(1), m.group(1) + (m.group(2) or "")
    assert name.startswith("vpsbench_"), l
    assert any(name == f or name in (f + "_sum", f + "_count") for f in fams[-1:]), l
    assert series not in seen, "duplicate " + series; seen.add(series)
    float(m.group(3))
text = "\n".join(lines)
assert 'dir="' + sys.argv[1].rsplit("/", 1)[0].replace("\\", "\\\\").replace('"', '\\"') + '/we\\"ird\\\\dir"' in text
for f in ("vpsbench_throughput_bytes_per_second", "vpsbench_iops", "vpsbench_completion_latency_seconds"):
    assert f in fams, f
assert re.search(r'vpsbench_throughput_bytes_per_second\{pass="seq",direction="write"', text)
# each graded metric: its rank, tier count, borderline flag and the best tier reached
ranked = re.findall(r'^vpsbench_grade_rank\{metric="([^"]+)",tier="[^"]*"\} ', text, re.M)
for fam in ("vpsbench_grade_tiers", "vpsbench_grade_borderline", "vpsbench_grade_rank_high"):
    got = re.findall(r'^' + fam + r'\{metric="([^"]+)"\} ', text, re.M)
    assert got == ranked, (fam, got, ranked)
EOF

t_summary formats
