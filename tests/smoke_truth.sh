# smoke_truth.sh — every figure against its raw parts, and every format of
# one run against that run's JSON (tests/helpers/truth.py, which recomputes
# rates, IOPS, percentiles from the exported bins, metrics and tiers without
# calling the product). Three runs, one per stdout format (text, yabs, prom),
# each also writing --output JSON and --html: formats are compared within
# one run only, since figures differ between runs.
. tests/lib.sh
tmp=$(t_tmpdir)
trap 'rm -rf "$tmp"' EXIT
T=tests/helpers/truth.py
# cpu and mem short (0.2 s prime passes, 4 MiB arrays: capped, so not
# graded): their figures from their parts, and in every format; fsync for
# half a second (hundreds of syncs on a disk, its figures checked the same)
short="--cpu-time 0.2 --mem-size 4M --fsync-time 500ms --seq-size 16M --seq-runs 3 --size 16M --ramp 0 --quiet --no-color"
"$VPSBENCH" --dump-thresholds > "$tmp/tiers.json"; rc=$?
[ $rc -eq 0 ] && t_ok dump_thresholds_rc || t_fail dump_thresholds_rc "rc=$rc"

check() { # NAME truth.py-ARGS...
	local n=$1; shift
	if python3 $T "$@" > "$tmp/.out" 2>&1; then t_ok "$n"; else t_fail "$n" "$(head -c 1500 "$tmp/.out")"; fi
}
# TRUTH_ONLY=prom (or text, yabs) runs one of the three (make mutate).
# The runs go at once, each in its own directory (nothing checked depends on
# a quiet machine: a disturbed pass is checked as shown, not graded), then
# are checked in turn.
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait; rm -rf "$tmp"' EXIT
for fmt in ${TRUTH_ONLY:-text yabs prom}; do
	case $fmt in
	text) extra="--runtime 3" ;;       # 3 whole seconds: cov and tail are graded
	yabs) extra="--profile yabs --runtime 1" ;;
	prom) extra="--runtime 1 --rw randrw --rwmixread 60" ;;
	esac
	mkdir -p "$tmp/d$fmt"
	"$VPSBENCH" --dir "$tmp/d$fmt" $short $extra --format $fmt --output "$tmp/$fmt.json" \
		--html "$tmp/$fmt.html" > "$tmp/$fmt.out" 2>"$tmp/$fmt.err" &
	pids+=($!)
done
i=0
for fmt in ${TRUTH_ONLY:-text yabs prom}; do
	wait "${pids[$i]}"; rc=$?; i=$((i + 1))
	if [ $rc -ne 0 ] || [ ! -s "$tmp/$fmt.json" ]; then
		t_fail "run_$fmt" "rc=$rc $(head -c 400 "$tmp/$fmt.err")"; continue
	fi
	t_ok "run_$fmt"
	check "raw_parts_$fmt" json "$tmp/$fmt.json"
	check "tiers_from_bounds_$fmt" tiers "$tmp/$fmt.json" "$tmp/tiers.json"
	check "format_${fmt}_agrees" $fmt "$tmp/$fmt.json" "$tmp/$fmt.out"
	check "format_html_agrees_$fmt" html "$tmp/$fmt.json" "$tmp/$fmt.html"
	rm -rf "$tmp/d$fmt"
done
# the checks look at what they claim to: each run had the figures
[ -n "$TRUTH_ONLY" ] && { t_summary smoke_truth; exit; }
t_json "$tmp/text.json" 'len(s["write"]["runs"]) == 3' 'j["metrics_detail"]["rand_cov_pct"]["value"] is not None' \
	'"bins" in p["read"]["clat_ns"]' 'j["metrics_detail"]["lat_p99_ms"]["value"] is not None' \
	&& t_ok text_run_has_every_figure || t_fail text_run_has_every_figure
python3 -c 'import json,sys; y=json.load(open(sys.argv[1])); sys.exit(len(y.get("fio") or []) != 4)' \
	"$tmp/yabs.out" && t_ok yabs_run_has_4_fio_entries || t_fail yabs_run_has_4_fio_entries
t_summary smoke_truth
