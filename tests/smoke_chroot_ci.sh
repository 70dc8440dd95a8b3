#!/bin/bash
# run-all: opt-in
# smoke_chroot_ci.sh — the README's CI command in a pristine Debian 12: a
# minbase bookworm debootstrapped into a temporary directory, /proc, /sys
# and /dev mounted into it, a clean clone of this tree's HEAD copied in,
# and `.ci/run` run there (it installs what it lacks with apt-get from
# the Debian mirror, builds, runs `make test`). Found this way once: a
# mount lookup that picked /run/netns, a bind mount of the chroot's own
# filesystem that `ip netns add` makes. Everything runs in a mount
# namespace of its own, so nothing mounted there (the tests' netns bind
# mounts too) outlives it; the script's own umounts are checked.
#
# Opt-in: `.ci/run` there takes 15+ minutes, so tests/run-all.sh runs it
# only with TEST_OPT_IN=1; run it alone: `bash tests/smoke_chroot_ci.sh`.
# CHROOT_CI_QUICK=1 instead installs the build packages only, builds, and
# runs tests/smoke_safety.sh after an `ip netns add` (the failure above).
# CHROOT_CI_MIRROR (default: http://deb.debian.org/debian, what apt uses
# here) and CHROOT_CI_KEEP=1 (keep the tree, print its path) for debugging.
# Needs root, debootstrap, unshare and git; skips cleanly without them.
. tests/lib.sh
name=chroot_ci
if ! t_is_root; then t_skip chroot_ci "needs root"; t_summary $name; exit 0; fi
for c in debootstrap unshare git chroot; do
	command -v $c >/dev/null || { t_skip chroot_ci "$c not installed"; t_summary $name; exit 0; }
done
src=$PWD
base=$(t_tmpdir); root=$base/root
cleanup() {
	# the mount namespace is gone with its last process: nothing is mounted below $base
	if [ -n "${CHROOT_CI_KEEP:-}" ]; then echo "kept: $base"; else rm -rf "$base"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mirror=${CHROOT_CI_MIRROR:-http://deb.debian.org/debian}
git clone -q --no-hardlinks "$src" "$root.src" && git -C "$root.src" checkout -q --detach "$(git -C "$src" rev-parse HEAD)" ||
	{ t_fail clean_clone "git clone of $src failed"; t_summary $name; exit 1; }
t_ok clean_clone

# inside: ROOT MIRROR QUICK; each step prints "step NAME rc=N"
cat > "$base/inner.sh" <<'INNER'
root=$1 mirror=$2 quick=$3
step() { echo "step $1 rc=$2"; }
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1
rc=$?; step debootstrap $rc; [ $rc -eq 0 ] || { tail -n 20 "$root.debootstrap.log"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mv "$root.src" "$root/src"
ok=1
mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" &&
	mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" || ok=0
step mounts $((1 - ok)); [ $ok -eq 1 ] || exit 1
if [ "$quick" = 1 ]; then
	cmd='export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends build-essential pkg-config liburing-dev libaio-dev libcjson-dev libcurl4-openssl-dev libssl-dev libiperf-dev python3 iproute2 e2fsprogs util-linux >/dev/null && cd /src && make -j2 vpsbench build/san/vpsbench build/san/unit >/dev/null && echo built && ip netns add vpsbench-chroot-ci && bash tests/smoke_safety.sh; rc=$?; ip netns del vpsbench-chroot-ci; exit $rc'
else
	cmd='cd /src && .ci/run'
fi
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	TERM=dumb /bin/bash -c "$cmd" > "$root.run.log" 2>&1
rc=$?; step run $rc
# every mount of ours, each umount checked; then what the tests inside
# left (ip netns add's /run/netns bind mount stays after ip netns del),
# deepest first, named, each checked too
urc=0
for m in "$root/dev" "$root/sys" "$root/proc"; do
	umount -R "$m" || urc=1
done
for m in $(awk -v r="$root/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
	echo "left by the run inside: ${m#"$root"}"
	umount "$m" || urc=1
done
left=$(awk -v r="$root/" 'index($5, r) == 1' /proc/self/mountinfo | wc -l)
[ "$left" -eq 0 ] || urc=1
step umounts $urc
INNER
unshare --mount --propagation private bash "$base/inner.sh" "$root" "$mirror" "${CHROOT_CI_QUICK:-0}" \
	> "$base/steps" 2>&1
cat "$base/steps"
stepped() { grep -q "^step $1 rc=0$" "$base/steps"; }
stepped debootstrap && t_ok debootstrap_bookworm_minbase || t_fail debootstrap_bookworm_minbase
stepped mounts && t_ok mounts_into_chroot || t_fail mounts_into_chroot
if [ "${CHROOT_CI_QUICK:-0}" = 1 ]; then
	grep -E '^(ok|FAIL|SKIP) |passed, .* failed' "$root.run.log"
	stepped run && t_ok quick_build_and_smoke_safety || t_fail quick_build_and_smoke_safety "$(tail -n 20 "$root.run.log")"
else
	grep -E '^FAIL |^[0-9]+ passed, [0-9]+ failed' "$root.run.log"
	# .ci/run ends with run-all's "N passed, 0 failed" line
	stepped run && tail -n 1 "$root.run.log" | grep -Eq '^[0-9]+ passed, 0 failed' &&
		t_ok ci_run_passes || t_fail ci_run_passes "$(tail -n 20 "$root.run.log")"
fi
stepped umounts && t_ok umounts_checked || t_fail umounts_checked
# nothing of ours left mounted in this namespace either
[ "$(awk -v r="$base/" 'index($5, r) == 1' /proc/self/mountinfo | wc -l)" -eq 0 ] &&
	t_ok nothing_left_mounted || t_fail nothing_left_mounted
t_summary $name
