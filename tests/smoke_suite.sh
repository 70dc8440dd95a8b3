#!/bin/bash
# run-all: check (see tests/run-all.sh)
# smoke_suite.sh — the suite's own checks (tests/run-all.sh) can fail: a copy
# of run-all.sh runs a stand-in unit binary and planted scripts in a scratch
# tree, one of which leaves a process and a temporary file behind and one
# of which runs over the time limit (TEST_MAX_S=1) without being marked
# long. The copy must name both leftovers and the slow script and exit 1;
# with the plants fixed it must pass. Also TEST_SET=check runs only the
# scripts marked check. (TEST_SET set each time: `make check` exports it.)
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(t_tmpdir)
leak_pid=
cleanup() {
	[ -n "$leak_pid" ] && kill "$leak_pid" 2>/dev/null
	t_is_root && root_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
# as root the leaky script also leaves a tmpfs mount, a loop device, a
# cgroup and a network namespace (named for this test: the suite's other
# scripts make their own meanwhile, so only these names are looked for)
plant=vpsbench-suite-plant-$$
cg=; [ -d /sys/fs/cgroup/cpu ] && cg=/sys/fs/cgroup/cpu/$plant
[ -z "$cg" ] && [ -f /sys/fs/cgroup/cgroup.controllers ] && cg=/sys/fs/cgroup/$plant
loop=
root_cleanup() {
	umount "$tmp/tree/mnt-$plant" 2>/dev/null
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	ip netns del "$plant" 2>/dev/null
}
mkdir -p "$tmp/tree/tests/fuzz" "$tmp/tree/build/san"
cp tests/run-all.sh tests/lib.sh "$tmp/tree/tests/"
printf '#!/bin/sh\necho "unit: 1 passed, 0 failed, 0 skipped"\n' > "$tmp/tree/build/san/unit"
chmod +x "$tmp/tree/build/san/unit"
printf '. tests/lib.sh\nt_ok fuzz_none\nt_summary fuzz\n' > "$tmp/tree/tests/fuzz/smoke.sh"
# a script that leaves a process (its pid in a file for this test to end) and a file in TMPDIR
cat > "$tmp/tree/tests/smoke_leaky.sh" <<EOF
. tests/lib.sh
sleep 300 &
echo \$! > "$tmp/leak.pid"
: > "\$TMPDIR/left-behind"
t_ok leaky
t_summary leaky
EOF
if t_is_root; then
	truncate -s 1M "$tmp/loopfile"
	cat >> "$tmp/tree/tests/smoke_leaky.sh" <<EOF
mkdir -p "$tmp/tree/mnt-$plant" && mount -t tmpfs -o size=1m none "$tmp/tree/mnt-$plant"
losetup -f --show "$tmp/loopfile" > "$tmp/loop.name"
${cg:+mkdir "$cg"}
ip netns add "$plant"
EOF
	kinds="mount loop${cg:+ cgroup} netns"
else
	export TEST_LEFTOVER_KINDS="tmp process"
	kinds=
fi
# one over the limit, not marked long (5.5 s: beyond the 4 s the limit of 1 s stretches to at most on a busy machine)
printf '. tests/lib.sh\nsleep 5.5\nt_ok slow\nt_summary slow\n' > "$tmp/tree/tests/smoke_slow.sh"
# one over the limit, marked long: allowed
printf '# run-all: long\n. tests/lib.sh\nsleep 5.5\nt_ok slowok\nt_summary slowok\n' > "$tmp/tree/tests/smoke_slowok.sh"
printf '# run-all: check\n. tests/lib.sh\nt_ok quick\nt_summary quick\n' > "$tmp/tree/tests/smoke_quick.sh"

TEST_SET=all TEST_MAX_S=1 bash "$tmp/tree/tests/run-all.sh" > "$tmp/out1" 2>&1; rc=$?
leak_pid=$(cat "$tmp/leak.pid" 2>/dev/null)
grep -q "^FAIL left behind by the tests (process):" "$tmp/out1" && grep -q "pid $leak_pid: sleep 300" "$tmp/out1" \
	&& t_ok suite_names_a_process_left_running || t_fail suite_names_a_process_left_running "$(grep -A2 process "$tmp/out1")"
grep -q "^FAIL left behind by the tests (tmp):" "$tmp/out1" && grep -q "/left-behind$" "$tmp/out1" \
	&& t_ok suite_names_a_file_left_in_tmpdir || t_fail suite_names_a_file_left_in_tmpdir "$(grep -A2 '(tmp)' "$tmp/out1")"
grep -A3 "^FAIL scripts over [0-9]* s" "$tmp/out1" | grep -q "smoke_slow.sh: [0-9]* s" &&
	! grep -A3 "^FAIL scripts over [0-9]* s" "$tmp/out1" | grep -q "smoke_slowok.sh" \
	&& t_ok suite_fails_a_slow_script_not_marked_long || t_fail suite_fails_a_slow_script_not_marked_long "$(grep -A3 'scripts over' "$tmp/out1")"
loop=$(cat "$tmp/loop.name" 2>/dev/null)
for k in $kinds; do
	case $k in mount) want="mnt-$plant" ;; loop) want="$loop" ;; cgroup) want="$cg" ;; netns) want="$plant" ;; esac
	sed -n "/^FAIL left behind by the tests ($k):/,/^[^ ]/p" "$tmp/out1" | grep -qF -- "$want" \
		&& t_ok "suite_names_a_${k}_left_behind" || t_fail "suite_names_a_${k}_left_behind" "$want: $(grep -A3 "($k)" "$tmp/out1")"
done
t_is_root && root_cleanup
nfail=$(grep -c '^FAIL' "$tmp/out1")
# shellcheck disable=SC2086 # $kinds: words
[ $rc -ne 0 ] && tail -n 1 "$tmp/out1" | grep -Eq "^[0-9]+ passed, $nfail failed, 0 skipped\$" && [ "$nfail" -ge $((3 + $(echo $kinds | wc -w))) ] \
	&& t_ok suite_exit_1_counting_each_finding || t_fail suite_exit_1_counting_each_finding "rc=$rc $(tail -n 1 "$tmp/out1")"
kill "$leak_pid" 2>/dev/null; leak_pid=

# fixed: nothing left, the slow one marked long
sed -i -e 's/^sleep 300 &$/true \&/' -e '/left-behind/d' -e '/mount\|losetup\|mkdir\|netns/d' "$tmp/tree/tests/smoke_leaky.sh"
export TEST_LEFTOVER_KINDS="tmp process"
sed -i '1i # run-all: long' "$tmp/tree/tests/smoke_slow.sh"
TEST_SET=all TEST_MAX_S=1 bash "$tmp/tree/tests/run-all.sh" > "$tmp/out2" 2>&1; rc=$?
[ $rc -eq 0 ] && tail -n 1 "$tmp/out2" | grep -q ' 0 failed' \
	&& t_ok suite_passes_when_nothing_is_left || t_fail suite_passes_when_nothing_is_left "rc=$rc $(grep FAIL "$tmp/out2")"

TEST_SET=check bash "$tmp/tree/tests/run-all.sh" > "$tmp/out3" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^== tests/smoke_quick.sh' "$tmp/out3" && ! grep -q '^== tests/smoke_slow' "$tmp/out3" \
	&& t_ok suite_check_set_runs_only_marked_scripts || t_fail suite_check_set_runs_only_marked_scripts "rc=$rc $(grep -e "^==" -e FAIL -A2 "$tmp/out3")"
t_summary smoke_suite
