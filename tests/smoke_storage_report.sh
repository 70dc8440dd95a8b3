#!/bin/bash
# smoke_storage_report.sh — a default run learns from a storage report
# (issue #30, --storage-report FILE): with a recorded --profile storage
# report of the same directory whose knee is 8 GiB, a rand pass on a 4 MiB
# file is said to be cache-served (a warning naming the report, and
# rand.storage_report.cache_served true in the JSON, schema-valid); with
# a knee of 1 MiB (the knee1g fixture scaled down by 1024, as the file is
# from 4 GiB: the rule compares sizes only, and laying out 4 GiB four times
# was most of the test's time) it is not; a report of another directory
# checks nothing; a file that is not a storage report is a warning, not a
# failure. (The 8 GiB knee, 2^33, stays: a knee cut to 32 bits would be 0
# and serve nothing.) The four runs share the directory, at once (each
# process's test file has its pid in its name).
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BIN=${BIN:-./build/san/vpsbench}
D=$(t_tmpdir)
trap 'rm -rf "$D"' EXIT
mkdir "$D/dir"
sed "s|@DIR@|$D/dir|" tests/fixtures/storage_report/knee8g.json > "$D/knee8g.json"
sed -e "s|@DIR@|$D/dir|" -e 's|"knee_size": 1073741824,|"knee_size": 1048576,|' \
	tests/fixtures/storage_report/knee1g.json > "$D/knee1m.json"
grep -q '"knee_size": 1048576,' "$D/knee1m.json" || t_fail "knee 1 MiB report made" "$(cat "$D/knee1m.json")"
sed "s|@DIR@|/nonexistent/elsewhere|" tests/fixtures/storage_report/knee8g.json > "$D/other.json"
echo '{"seq": {}}' > "$D/nostorage.json"
run() { # REPORT OUT: a 4 MiB rand file, one short pass
	$BIN --dir "$D/dir" --only rand --size 4M --runtime 1s --ramp 0 --storage-report "$1" \
		--output "$D/$2.json" --no-color >"$D/$2.txt" 2>"$D/$2.err"
	echo $? > "$D/$2.rc"
}
pids=()
for r in knee8g:k8 knee1m:k1 other:ko nostorage:kn; do
	run "$D/${r%:*}.json" "${r#*:}" &
	pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null; wait; rm -rf "$D"' EXIT
wait
rc=$(cat "$D/k8.rc")
t_check "knee 8 GiB: exit 0" [ "$rc" -eq 0 ]
t_check "knee 8 GiB, 4 MiB file: cache_served in JSON" t_json "$D/k8.json" \
	'j["rand"]["storage_report"]["cache_served"] is True' 'j["rand"]["storage_report"]["knee_size"] == 8 << 30' \
	'p["size_bytes"] == 4 << 20 if "size_bytes" in p else True'
t_check "knee 8 GiB: the text warns, naming the report" grep -q "cache-served.*$D/knee8g.json\|$D/knee8g.json.*cache-served" "$D/k8.txt"
t_check "knee 8 GiB: the warning gives the 4 MiB file and the 8 GiB knee in their units" \
	sh -c "tr -s '\\n ' '  ' < \"\$1\" | grep -q 'its 4.0 MiB test file sits below the cache cliff (~8.00 GiB)'" sh "$D/k8.txt"
t_schema "report with storage_report validates" "$D/k8.json"
t_check "knee 1 MiB, 4 MiB file: not cache-served, no warning" t_json "$D/k1.json" \
	'j["rand"]["storage_report"]["cache_served"] is False' 'j["rand"]["storage_report"]["same_dir"] is True' \
	'j["rand"]["storage_report"]["knee_size"] == 1 << 20'
t_check "knee 1 MiB: no cache-served warning" sh -c "! grep -q cache-served '$D/k1.txt'"
t_check "another directory: nothing checked" t_json "$D/ko.json" \
	'j["rand"]["storage_report"]["same_dir"] is False' 'j["rand"]["storage_report"]["cache_served"] is False'
rc=$(cat "$D/kn.rc")
t_check "not a storage report: a warning, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'no storage section' '$D/kn.txt'"
t_check "no test file left" [ -z "$(ls -A "$D/dir")" ]
t_summary smoke_storage_report
