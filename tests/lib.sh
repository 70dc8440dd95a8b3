# tests/lib.sh — helpers for the shell smoke tests. Source it, call t_ok /
# t_fail / t_skip, end with t_summary (prints "NAME: N passed, N failed, N skipped").
T_PASS=0; T_FAIL=0; T_SKIP=0
# Debian's python3 (it has python3-jsonschema): another first on PATH, such
# as a pyenv shim, cost 0.5 s of CPU and up to 2 s a call on a loaded
# machine, and the scripts call it hundreds of times
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	PATH=/usr/bin:$PATH; export PATH
fi
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
# t_schema NAME FILE...: the reports validate against schema/report.schema.json
# (tests/helpers/validate.py); a skip where python3-jsonschema is missing.
t_schema() {
	local n=$1 out rc=2 py d; shift
	d=$(dirname "${BASH_SOURCE[0]}")
	for py in /usr/bin/python3 python3; do # Debian's has python3-jsonschema; another first on PATH may not
		out=$("$py" "$d/helpers/validate.py" "$d/../schema/report.schema.json" "$@" 2>&1); rc=$?
		[ $rc -ne 2 ] && break
	done
	case $rc in
	0) t_ok "$n" ;;
	2) t_skip "$n" "python3-jsonschema not installed" ;;
	*) t_fail "$n" "$(printf '%s' "$out" | head -c 600)" ;;
	esac
}
# t_json FILE EXPR...: passes when every python EXPR holds over the JSON
# report in FILE, with j = the report, s = its seq section, ps = its rand
# passes and p = the first of them (None without one); prints each EXPR
# that is false or raises, and the modules' status, to stderr.
t_json() {
	python3 - "$@" <<'EOF'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as ex:
    print("  bad json: %s" % ex, file=sys.stderr); sys.exit(1)
s = j.get("seq") or {}
ps = (j.get("rand") or {}).get("passes") or []
p = ps[0] if ps else None
bad = []
for e in sys.argv[2:]:
    try:
        ok = eval(e)
    except Exception as ex:
        ok = False
        e += "  (" + repr(ex) + ")"
    if not ok:
        bad.append(e)
for e in bad:
    print("  false: " + e, file=sys.stderr)
if bad and isinstance(j.get("modules"), dict):
    print("  modules:", {k: (v.get("status"), v.get("reason")) for k, v in j["modules"].items()
                         if isinstance(v, dict)}, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}
# t_bg NAME OUT ERR CMD...: CMD in the background (stdout to OUT, stderr to
# ERR), known by NAME; t_bg_wait NAME waits for it and sets rc to its exit
# status; t_bg_kill ends every one still running (a trap's cleanup)
declare -A T_BG
t_bg() { local n=$1 o=$2 e=$3; shift 3; "$@" > "$o" 2> "$e" & T_BG[$n]=$!; }
t_bg_wait() { wait "${T_BG[$1]}"; rc=$?; unset "T_BG[$1]"; }
t_bg_kill() { local p; for p in "${T_BG[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done; }
# t_wait_test_file PID [TENTHS]: waits (default 30 s) until PID holds a
# .vpsbench-* test file open, i.e. its I/O has begun (its signal handlers are
# in place long before): a fixed sleep races a loaded machine. 0 when it does.
t_wait_test_file() {
	local i
	for i in $(seq 1 "${2:-300}"); do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q '\.vpsbench-' && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# t_umount_below DIR: unmounts everything mounted below DIR, deepest first
# (a trap's cleanup); a mount that stays is said on stderr, and
# tests/run-all.sh fails the suite for any mount a test left behind
t_umount_below() {
	local m
	for m in $(awk -v b="$1/" 'index($2, b) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || echo "t_umount_below: $m stays mounted: $(umount "$m" 2>&1)" >&2
	done
}
# t_umount_checked_below DIR: every mount below DIR, deepest first, with t_umount
t_umount_checked_below() {
	local m
	for m in $(awk -v b="$1/" 'index($2, b) == 1 { print $2 }' /proc/mounts | sort -r); do
		t_umount "$m"
	done
}
# t_umount DIR: unmounts DIR once (no retry, no lazy umount), as a check:
# a busy mount is a failure named "umount_<dir name>", never a silent leak
t_umount() {
	local err
	err=$(umount "$1" 2>&1) && return 0
	t_fail "umount_$(basename "$1")" "$err"
	return 1
}
# t_mount_point DIR: the mount DIR is on, as vpsbench names it: among the
# mounts of DIR's device (st_dev), the one whose mount point is the longest
# prefix of DIR; none (a chroot sees no mount for its root): the top of the
# walk up while st_dev stays the same. Not df: after `ip netns add`, df
# names /run/netns (a bind mount of the same filesystem) for any directory.
t_mount_point() {
	python3 - "$1" <<'EOF'
import os, sys
d = os.path.realpath(sys.argv[1])
dev = os.stat(d).st_dev
want = "%d:%d" % (os.major(dev), os.minor(dev))
best = None
for line in open("/proc/self/mountinfo"):
    f = line.split()
    m = f[4].encode().decode("unicode_escape")
    if f[2] == want and (m == "/" or d == m or d.startswith(m + "/")):
        if best is None or len(m) >= len(best):
            best = m
if best is None:
    best = d
    while best != "/" and os.stat(os.path.dirname(best)).st_dev == dev:
        best = os.path.dirname(best)
print(best)
EOF
}
# t_promtool_metrics NAME FILE: `promtool check metrics` on a Prometheus text
# body (a /metrics fetch or a --prom-file): ok, or FAIL NAME with promtool's
# complaints (lint problems included: they exit 3). Every watch test that
# fetches a body passes it through this (issue #40: the names are a contract).
t_promtool_metrics() {
	local out
	if ! command -v promtool > /dev/null; then t_skip "$1" "no promtool"; return 0; fi
	if out=$(promtool check metrics < "$2" 2>&1); then t_ok "$1"; else
		t_fail "$1" "$(echo "$out" | head -5 | tr '\n' ' ')"; fi
}
# t_load_note: one "# load ..." line with the machine's load and whether
# stress-ng runs beside the test (the watch tests must hold either way, and
# say which they ran under)
t_load_note() {
	echo "# load $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs$(pgrep -x stress-ng > /dev/null && echo ', stress-ng running beside this test')"
}
