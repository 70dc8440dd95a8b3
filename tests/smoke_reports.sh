# smoke_reports.sh — reports held against their real consumers:
# --format fio read by Debian's fio_jsonplus_clat2csv (percentiles agree
# with vpsbench's own) and shaped like a real fio 3.33 json+ run;
# --format yabs under any profile, one line, only yabs-shaped passes,
# IPv6 true only for a global address; --prom-file / --output / --html
# replaced atomically, a failed run keeps the previous prom file.
. tests/lib.sh
tmp=$(t_tmpdir)
H=tests/helpers
mkdir -p "$tmp/d"
short="--size 8M --runtime 1 --ramp 0"

# The three rand runs of 1 and 2 go at once in the background, each in its
# own directory ($tmp/d stays empty for the checks of 3), and are checked
# where they were; nothing checked depends on a quiet machine.
# bg NAME OUT CMD...: stdout to OUT, stderr to $tmp/NAME.err; t_bg_wait NAME
# waits for it, its exit status in rc.
trap 't_bg_kill; rm -rf "$tmp"' EXIT
bg() { local n=$1 o=$2; shift 2; t_bg "$n" "$o" "$tmp/$n.err" "$@"; }
cat > "$tmp/mix.ini" <<'INI'
[pass near]
rw = randrw
rwmixread = 50
bs = 4k
iodepth = 32
jobs = 2
[pass yabs4k]
rw = randrw
rwmixread = 50
bs = 4k
iodepth = 64
jobs = 2
[pass other]
rw = randrw
rwmixread = 75
bs = 64k
iodepth = 64
jobs = 2
INI
mkdir -p "$tmp/d0" "$tmp/d1" "$tmp/d2" "$tmp/d3"
# (and the real fio run that 1 compares the shape with)
have_fio=""
command -v fio >/dev/null && command -v fio_jsonplus_clat2csv >/dev/null && have_fio=1
[ -n "$have_fio" ] && bg fio "$tmp/real.json" fio --name=rand_rw_4k --ioengine=psync --rw=randrw --bs=4k \
	--size=8M --runtime=1 --time_based --filename="$tmp/d0/real.fio" --output-format=json+
bg f "$tmp/f.json" "$VPSBENCH" --quiet --only rand --dir "$tmp/d1" $short --format fio --output "$tmp/n.json"
bg y "$tmp/y.json" "$VPSBENCH" --quiet --only rand --dir "$tmp/d2" $short --format yabs --output "$tmp/yd.json"
bg ym "$tmp/ym.out" "$VPSBENCH" --quiet --only rand --dir "$tmp/d3" --profile "$tmp/mix.ini" $short --format yabs \
	--output "$tmp/ym.json"

# 1. --format fio against fio's own tool and a real fio result
t_bg_wait f
[ $rc -eq 0 ] && t_ok fio_rc || t_fail fio_rc "rc=$rc $(head -c 300 "$tmp/f.err")"
if [ -n "$have_fio" ]; then
	t_bg_wait fio; rm -f "$tmp/d0/real.fio"
	if ( cd "$tmp" && fio_jsonplus_clat2csv f.json csv.csv > clat2csv.out 2>&1 ); then
		t_ok fio_jsonplus_clat2csv_reads_it
		if python3 $H/fio_check.py "$tmp/f.json" "$tmp/n.json" "$tmp/csv" "$tmp/real.json" \
			> "$tmp/.fc" 2>&1; then t_ok fio_percentiles_and_shape
		else t_fail fio_percentiles_and_shape "$(head -c 800 "$tmp/.fc")"; fi
	else
		t_fail fio_jsonplus_clat2csv_reads_it "$(tail -c 400 "$tmp/clat2csv.out")"
	fi
else
	t_skip fio_jsonplus_clat2csv_reads_it "Debian package fio not installed"
fi
# the native report's iodepth_level is percent too
t_check native_iodepth_level_percent t_json "$tmp/n.json" \
	'all(99.99 < sum(x["iodepth_level"].values()) < 100.01 for x in ps)' \
	'all(0 <= v <= 100 for x in ps for v in x["iodepth_level"].values())'

# 2. --format yabs
# the default profile has no yabs-shaped pass: yabs's four run, and stderr says so
t_bg_wait y
[ $rc -eq 0 ] && t_ok yabs_default_rc || t_fail yabs_default_rc "rc=$rc"
grep -q "format yabs: profile default has no pass with yabs's settings" "$tmp/y.err" \
	&& t_ok yabs_adds_passes_says_so || t_fail yabs_adds_passes_says_so "$(cat "$tmp/y.err")"
python3 $H/yabs_check.py $H/yabs-example.json "$tmp/y.json" > "$tmp/.y" 2>&1 \
	&& t_ok yabs_shape_default || t_fail yabs_shape_default "$(head -c 400 "$tmp/.y")"
python3 - "$tmp/y.json" "$tmp/yd.json" <<'PY' && t_ok yabs_fio_from_added_passes || t_fail yabs_fio_from_added_passes
import json, sys
y = json.load(open(sys.argv[1])); n = json.load(open(sys.argv[2]))
ps = n["rand"]["passes"]
assert [p["name"] for p in ps] == ["randrw-4k-qd64", "randread-4k-qd1", "rand_rw_4k",
                                   "rand_rw_64k", "rand_rw_512k", "rand_rw_1m"], [p["name"] for p in ps]
assert [e["bs"] for e in y["fio"]] == ["4k", "64k", "512k", "1m"]
for e, p in zip(y["fio"], ps[2:]):
    # fio terse: truncated KiB/s and IOPS of the matching pass
    assert e["speed_r"] == int(p["read"]["bw_bytes"] / 1024), (e, p["read"]["bw_bytes"])
    assert e["iops_w"] == int(p["write"]["iops"]), e
PY
# a custom profile: only the pass with yabs's settings reaches fio[], nothing added
t_bg_wait ym
python3 - "$tmp/ym.out" "$tmp/ym.json" "$tmp/ym.err" <<'PY' && t_ok yabs_only_matching_pass || t_fail yabs_only_matching_pass "rc=$rc"
import json, sys
y = json.load(open(sys.argv[1])); n = json.load(open(sys.argv[2]))
assert "no pass with yabs" not in open(sys.argv[3]).read()
assert len(n["rand"]["passes"]) == 3
p = [x for x in n["rand"]["passes"] if x["name"] == "yabs4k"][0]
assert len(y["fio"]) == 1 and y["fio"][0]["bs"] == "4k", y.get("fio")
assert y["fio"][0]["iops_r"] == int(p["read"]["iops"]), (y["fio"][0], p["read"]["iops"])
PY
# IPv6: yabs's true means the internet answers; a ULA-only host says false
fx=$tmp/fx; cp -r tests/fixtures/kvm_vps "$fx"
VPSBENCH_ROOT=$fx "$VPSBENCH" --quiet --only sysinfo --format yabs > "$tmp/g.json" 2>/dev/null
sed -i 's/^2a0104f8c0100d4c/fd12345678900001/' "$fx/proc/net/if_inet6"
VPSBENCH_ROOT=$fx "$VPSBENCH" --quiet --only sysinfo --format yabs > "$tmp/u.json" 2>/dev/null
python3 -c '
import json, sys
g = json.load(open(sys.argv[1])); u = json.load(open(sys.argv[2]))
assert g["net"]["ipv6"] is True, g["net"]
assert u["net"]["ipv6"] is False, u["net"]' "$tmp/g.json" "$tmp/u.json" \
	&& t_ok yabs_ipv6_global_only || t_fail yabs_ipv6_global_only "$(cat "$tmp/g.json" "$tmp/u.json")"
# IPv4 the same: the fixture's public 5.161.10.20 made a private 10.161.10.20
sed -i 's/5\.161\.10\./10.161.10./g' "$fx/proc/net/fib_trie"
VPSBENCH_ROOT=$fx "$VPSBENCH" --quiet --only sysinfo --format yabs > "$tmp/p4.json" 2>/dev/null
python3 -c '
import json, sys
g = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
assert g["net"]["ipv4"] is True, g["net"]
assert p["net"]["ipv4"] is False, p["net"]' "$tmp/g.json" "$tmp/p4.json" \
	&& t_ok yabs_ipv4_global_only || t_fail yabs_ipv4_global_only "$(cat "$tmp/g.json" "$tmp/p4.json")"

# 3. files replaced atomically
p=$tmp/tf/vpsbench.prom; mkdir -p "$tmp/tf"
echo "# previous" > "$p"
exec 3< "$p" # the old file, as a reader that opened it before the run holds it
"$VPSBENCH" --quiet --only sysinfo --dir "$tmp/d" --prom-file "$p" --output "$tmp/tf/r.json" \
	--html "$tmp/tf/r.html" > /dev/null 2>&1; rc=$?
cls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sysinfo"]["dirs"][0]["storage"]["class"])' "$tmp/tf/r.json" 2>/dev/null)
[ $rc -eq 0 ] && [ -n "$cls" ] && grep -q '^vpsbench_dir_info{dir="'"$tmp/d"'",fstype="[^"]*",device="[^"]*",storage_class="'"$cls"'"} 1$' "$p" \
	&& t_ok prom_file_written || t_fail prom_file_written "rc=$rc"
[ "$(cat <&3)" = "# previous" ] && t_ok prom_file_replaced_not_rewritten \
	|| t_fail prom_file_replaced_not_rewritten "the old inode was overwritten in place"
exec 3<&-
[ "$(stat -c %a "$p")" = "$(umask -S >/dev/null; printf '%o' $((0666 & ~0$(umask))))" ] \
	&& t_ok prom_file_mode || t_fail prom_file_mode "$(stat -c %a "$p")"
[ -z "$(ls -A "$tmp/tf" | grep -v -x -e vpsbench.prom -e r.json -e r.html)" ] \
	&& t_ok no_temp_files_left || t_fail no_temp_files_left "$(ls -A "$tmp/tf")"
if command -v promtool >/dev/null; then
	promtool check metrics < "$p" > "$tmp/.pt" 2>&1 && t_ok prom_file_promtool \
		|| t_fail prom_file_promtool "$(head -c 300 "$tmp/.pt")"
fi
# a failed (interrupted) run leaves the previous prom file as it was
cp "$p" "$tmp/prev.prom"
"$VPSBENCH" --quiet --only rand --dir "$tmp/d" --size 8M --runtime 30 --ramp 0 \
	--prom-file "$p" > /dev/null 2> "$tmp/int.err" &
pid=$!
# interrupted once its I/O has begun (30 s bound), not after a fixed 2 s
t_wait_test_file $pid || echo "the interrupted run opened no test file" >> "$tmp/int.err"
sleep 0.5; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] && cmp -s "$p" "$tmp/prev.prom" && grep -q 'left as it was' "$tmp/int.err" \
	&& t_ok failed_run_keeps_prom_file || t_fail failed_run_keeps_prom_file "rc=$rc $(cat "$tmp/int.err")"
# a missing directory: one line, exit 1, nothing run
for opt in --prom-file --output --html; do
	"$VPSBENCH" --only rand --dir "$tmp/d" $short $opt "$tmp/nodir/x" > "$tmp/m.out" 2> "$tmp/m.err"; rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/m.err")" -eq 1 ] && [ ! -s "$tmp/m.out" ] \
		&& grep -q -- "$opt $tmp/nodir/x: directory $tmp/nodir: No such file" "$tmp/m.err" \
		&& [ -z "$(ls -A "$tmp/d")" ] && t_ok "missing_dir${opt#-}" \
		|| t_fail "missing_dir${opt#-}" "rc=$rc $(cat "$tmp/m.err")"
done

t_summary reports
