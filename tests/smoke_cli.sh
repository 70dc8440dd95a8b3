# run-all: check (see tests/run-all.sh)
# smoke_cli.sh — command-line contract: exit codes, one-line errors, help, version.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT

# usage errors: exit 1, one line on stderr, nothing on stdout, nothing created
usage_case() {
	local name=$1; shift
	( cd "$tmp" && "$OLDPWD/$VPSBENCH" "$@" ) >"$tmp/.out" 2>"$tmp/.err"
	local rc=$? lines; lines=$(wc -l < "$tmp/.err")
	if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/.out" ] && \
	   [ -z "$(ls -A "$tmp" | grep -v '^\.out$\|^\.err$')" ]; then t_ok "$name"
	else t_fail "$name" "rc=$rc stderr_lines=$lines: $(head -c 200 "$tmp/.err")"; fi
}
usage_case bogus_option --bogus
usage_case bogus_short -q
usage_case dir_missing_value --dir
usage_case dir_not_exist --dir /nonexistent/x
usage_case dir_is_file --dir /etc/passwd
usage_case dir_is_device --dir /dev/null
usage_case bad_only --only foo
usage_case bad_format --format xml
usage_case bad_size --size 12Q
usage_case bad_runtime --runtime fast
usage_case iodepth_zero --iodepth 0
usage_case bs_not_512 --bs 1000
usage_case size_below_bs --size 512 --bs 4k
usage_case jobs_zero --jobs 0
usage_case jobs_huge --jobs 100000
usage_case bad_rw --rw randomish
usage_case seq_bs_not_512 --seq-bs 1000
usage_case seq_bs_too_big --seq-bs 128M
usage_case seq_runs_zero --seq-runs 0
usage_case seq_size_below_bs --seq-size 4k --seq-bs 64k
usage_case bad_profile --profile nosuchprofile
usage_case bad_engine --engine spdk
usage_case stray_arg foo

lnk=$(t_tmpdir); ln -s "$tmp" "$lnk/link"
usage_case dir_symlink --dir "$lnk/link"
rm -rf "$lnk"

"$VPSBENCH" --help > "$tmp/help" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q -- '--dir PATH' "$tmp/help" && grep -q 'Exit status' "$tmp/help" \
   && grep -q -- '--seq-bs' "$tmp/help"; then t_ok help; else t_fail help "rc=$rc"; fi
# every option in --help is in the man page and the README
missing=""
for o in $(grep -oE '^  --[a-z-]+' "$tmp/help" | tr -d ' '); do
	sed 's/\\-/-/g' man/vpsbench.1 | grep -q -- "$o" || missing="$missing man:$o"
	grep -q -- "$o" README.md || missing="$missing readme:$o"
done
[ -z "$missing" ] && t_ok help_in_step_with_docs || t_fail help_in_step_with_docs "$missing"
# --thresholds bad input (issue #39): one line naming file:line, the key and the
# problem, exit 1, nothing on stdout
thr=$(t_tmpdir); trap 'rm -rf "$tmp" "$thr"' EXIT
thresholds_case() { # NAME FILE-TEXT EXPECTED (grep -F, after "FILE:")
	printf '%b' "$2" > "$thr/$1.json"
	"$VPSBENCH" --thresholds "$thr/$1.json" --only sysinfo > "$thr/.out" 2> "$thr/.err"
	local rc=$? lines; lines=$(wc -l < "$thr/.err")
	if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -s "$thr/.out" ] &&
	   grep -qF -- "$thr/$1.json:$3" "$thr/.err"; then t_ok "thresholds_$1"
	else t_fail "thresholds_$1" "rc=$rc stderr_lines=$lines: $(head -c 300 "$thr/.err")"; fi
}
thresholds_case tiers_no_source \
	'{"metrics": [\n {"metric": "rand_iops", "direction": "higher", "tiers": [\n  {"tier": "slow", "min": null},\n  {"tier": "fast", "min": 5000}]}\n]}\n' \
	'2: rand_iops: key "source": tiers need the source of their bounds'
thresholds_case tiers_overlap \
	'{"metrics": [\n {"metric": "rand_iops", "direction": "higher", "tiers": [\n  {"tier": "slow", "min": null},\n  {"tier": "ok", "min": 5000},\n  {"tier": "fast", "min": 5000}],\n  "source": {"url": "https://example.org", "says": "x"}}\n]}\n' \
	'5: rand_iops: tiers[2]: key "min" must be higher than the previous tier'"'"'s'
thresholds_case tiers_wrong_direction \
	'{"metrics": [\n {"metric": "lat_p99_ms", "direction": "lower", "tiers": [\n  {"tier": "slow", "max": null},\n  {"tier": "ok", "max": 2},\n  {"tier": "fast", "max": 5}],\n  "source": {"url": "https://example.org", "says": "x"}}\n]}\n' \
	'5: lat_p99_ms: tiers[2]: key "max" must be lower than the previous tier'"'"'s'
thresholds_case health_out_of_range \
	'{"health": [\n {"name": "steal_pct",\n  "value": 150,\n  "source": {"url": "https://example.org", "says": "x"}}\n]}\n' \
	'3: health[0] steal_pct: key "value": 150 is outside its range [0, 100]'
thresholds_case health_unknown_name \
	'{"health": [\n {"name": "steal_percent", "value": 5,\n  "source": {"url": "https://example.org", "says": "x"}}\n]}\n' \
	'2: health[0] steal_percent: key "name": unknown health bound (known: steal_pct'
thresholds_case health_no_source \
	'{"health": [\n {"name": "steal_pct", "value": 5}\n]}\n' \
	'2: health[0] steal_pct: key "source"'
thresholds_case rule_condition_bad_op \
	'{"rules": [\n {"rule": "db", "conditions": [\n  {"metric": "lat_p99_ms", "op": "<", "value": 10},\n  {"metric": "fsync_p99_ms", "op": "=<", "value": 10}],\n  "source": {"url": "https://example.org", "says": "x"}}\n]}\n' \
	'4: rules[0] db: key "op": unknown operator'
v=$("$VPSBENCH" --version); [ "$v" = "vpsbench $(sed -n 's/^VERSION *:= *//p' Makefile)" ] \
	&& t_ok version || t_fail version "$v"
t_summary cli
