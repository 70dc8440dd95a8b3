#!/bin/bash
# smoke_mutants.sh — the mutant list of `make mutate` still applies: every
# mutant's exact text is in its file exactly once (scripts/mutate.py
# --check), and a stale mutant fails the check with its id named.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
out=$(python3 scripts/mutate.py --check 2>&1); rc=$?
[ $rc -eq 0 ] && t_ok mutants_apply || t_fail mutants_apply "rc=$rc $out"
n=$(grep -cv '^#' tests/mutants.txt)
[ "$n" -ge 25 ] && t_ok "mutants_at_least_25 ($n)" || t_fail mutants_at_least_25 "$n"
{ cat tests/mutants.txt; printf 'stale-one\tcore/lat_hist.c\tno such text anywhere\tx\tunit:lat\n'; } > "$tmp/m.txt"
out=$(MUTANTS_LIST=$tmp/m.txt python3 scripts/mutate.py --check 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q 'mutant stale-one' && t_ok stale_mutant_named \
	|| t_fail stale_mutant_named "rc=$rc $out"
t_summary smoke_mutants
