#!/bin/bash
# tests/fuzz/smoke.sh — runs every built libFuzzer target (build/fuzz/fuzz_*)
# briefly on its corpus (tests/fuzz/corpus/NAME). One pass/fail per target;
# a target that is not built (no clang) is skipped. Crash inputs are kept in
# build/fuzz/artifacts/ for `build/fuzz/fuzz_NAME FILE` to reproduce.
# FUZZ_SECONDS (default 3) sets the time per target.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
secs=${FUZZ_SECONDS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/vpsbench-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p build/fuzz/artifacts
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c); name=${name#fuzz_}
	bin=build/fuzz/fuzz_$name
	if [ ! -x "$bin" ]; then
		t_skip "fuzz_$name" "not built (needs clang with -fsanitize=fuzzer: make fuzz)"
		continue
	fi
	mkdir -p "$work/$name"
	# new inputs go to the scratch dir (first), the checked-in corpus is read only
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$bin" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
		-artifact_prefix="build/fuzz/artifacts/${name}-" \
		"$work/$name" "tests/fuzz/corpus/$name" > "$work/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	if [ $rc -eq 0 ] && [ "${runs:-0}" -gt 0 ]; then
		t_ok "fuzz_$name ($runs runs)"
	else
		t_fail "fuzz_$name" "rc=$rc; crash input in build/fuzz/artifacts/"
		grep -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$work/$name.log" | head -n 20
	fi
done
t_summary fuzz
