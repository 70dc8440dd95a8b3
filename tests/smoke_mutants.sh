#!/bin/bash
# run-all: check (see tests/run-all.sh)
# smoke_mutants.sh — the mutant list of `make mutate` still applies: every
# mutant's exact text is in its file exactly once (scripts/mutate.py
# --check), and a stale mutant fails the check with its id named; a module
# folder, renderer or fleet output without a mutant fails it, named.
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
# every module folder, renderer and fleet output has a mutant: a list
# without cpu's fails naming it; in a copy of the layout with a new module
# folder and a new renderer in render.h, each is named (read from the tree)
grep -v $'\tmodules/cpu/' tests/mutants.txt > "$tmp/nocpu.txt"
out=$(MUTANTS_LIST=$tmp/nocpu.txt python3 scripts/mutate.py --check 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q 'module cpu has no mutant' && ! echo "$out" | grep -q 'module mem has no' &&
	t_ok module_without_mutant_named || t_fail module_without_mutant_named "rc=$rc $out"
c=$tmp/copy
mkdir -p "$c/scripts" "$c/tests" "$c/render" && cp scripts/mutate.py "$c/scripts/" && cp tests/mutants.txt "$c/tests/" &&
	cp render/render.h render/fleet/fleet_render.h "$c/render/" && for m in modules/*/; do mkdir -p "$c/$m"; done &&
	mkdir -p "$c/modules/newmod" && printf 'char *render_newfmt(const struct bench_report *rep, const struct bench_plan *plan);\n' \
	>> "$c/render/render.h"
out=$(python3 "$c/scripts/mutate.py" --check 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q 'module newmod has no mutant' && echo "$out" | grep -q 'renderer newfmt has no mutant' &&
	! echo "$out" | grep -q 'module cpu has no\|renderer text has no\|fleet output csv has no' &&
	t_ok new_module_and_renderer_named || t_fail new_module_and_renderer_named "rc=$rc $(echo "$out" | grep 'has no')"
t_summary smoke_mutants
