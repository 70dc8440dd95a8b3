#!/bin/bash
# run-all: last (see tests/run-all.sh): CI links the static binary just before
# smoke_net_static.sh — the net tests on the static binary (make static),
# the one `curl | sh` users run: the fake-server edge cases
# (smoke_net_fake.sh, loopback) and the rows against Debian's iperf3 -s in
# namespaces, bad input and a default run with no socket under strace -f
# (smoke_net_rows.sh, root). Skips when the binary is not built.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
BIN=${VPSBENCH_STATIC:-./vpsbench-static}
if [ ! -x "$BIN" ]; then
	t_skip net_static "$BIN not built (make static)"; t_summary smoke_net_static; exit 0
fi
"$BIN" --only net --net --net-server 127.0.0.1:1 --quiet --json 2>/dev/null | grep -q 'unavailable' &&
	t_fail net_static_available "$BIN says net is unavailable"
for t in smoke_net_fake smoke_net_rows; do
	out=$(VPSBENCH=$BIN bash tests/$t.sh 2>&1)
	printf '%s\n' "$out" | sed "s/^\(ok  \|FAIL\|SKIP\) /\1 static: /" | grep -v "^$t:"
	set -- $(printf '%s\n' "$out" | sed -n -E "s/^$t: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/p")
	if [ $# -ne 3 ]; then t_fail "static: $t" "no summary line"; continue; fi
	T_PASS=$((T_PASS+$1)); T_FAIL=$((T_FAIL+$2)); T_SKIP=$((T_SKIP+$3))
done
t_summary smoke_net_static
