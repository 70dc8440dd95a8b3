# tests/lib.sh — helpers for the shell smoke tests. Source it, call t_ok /
# t_fail / t_skip, end with t_summary (prints "NAME: N passed, N failed, N skipped").
T_PASS=0; T_FAIL=0; T_SKIP=0
VPSBENCH=${VPSBENCH:-./build/san/vpsbench}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
t_ok()   { T_PASS=$((T_PASS+1)); echo "ok   $1"; }
t_fail() { T_FAIL=$((T_FAIL+1)); echo "FAIL $1${2:+: $2}"; }
t_skip() { T_SKIP=$((T_SKIP+1)); echo "SKIP $1${2:+: $2}"; }
# t_check NAME CMD...: passes when CMD exits 0
t_check() { local n=$1; shift; if "$@"; then t_ok "$n"; else t_fail "$n"; fi; }
t_summary() { echo "$1: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"; [ "$T_FAIL" -eq 0 ]; }
t_is_root() { [ "$(id -u)" -eq 0 ]; }
t_tmpdir() { mktemp -d "${TMPDIR:-/tmp}/vpsbench-test.XXXXXX"; }
# t_umount_below DIR: unmounts everything mounted below DIR, deepest first
t_umount_below() {
	local m
	for m in $(awk -v b="$1/" 'index($2, b) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null
	done
}
