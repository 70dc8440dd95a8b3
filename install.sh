#!/bin/sh
# install.sh — on a fresh Debian/Ubuntu machine: install the build
# dependencies, build vpsbench, and run the default benchmark in the
# current directory. Arguments after the options go to vpsbench.
#   ./install.sh               deps + build + run
#   ./install.sh --deps-only   deps only (what `make deps` runs)
#   ./install.sh --no-run      deps + build
# The whole body is in functions, called on the last line, so a truncated
# download runs nothing.
set -eu

BUILD_DEPS="build-essential pkg-config liburing-dev libaio-dev libcjson-dev libcurl4-openssl-dev"

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root (or sudo) to run: $*"
	fi
}

missing_pkgs() {
	out=""
	for p in $BUILD_DEPS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out="$out $p"
	done
	printf '%s' "$out"
}

install_deps() {
	command -v apt-get >/dev/null 2>&1 || die "no apt-get: install a C compiler, make, liburing, libaio, cJSON and libcurl headers by hand, then run make"
	need=$(missing_pkgs)
	if [ -z "$need" ]; then
		say "build dependencies already installed"
		return 0
	fi
	say "installing:$need"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
}

build() {
	here=$(cd "$(dirname "$0")" && pwd)
	make -C "$here" -s -j"$(nproc 2>/dev/null || echo 2)" vpsbench
	VPSBENCH_BIN="$here/vpsbench"
}

main() {
	mode=run
	case "${1:-}" in
	--deps-only) mode=deps; shift ;;
	--no-run) mode=build; shift ;;
	esac
	install_deps
	[ "$mode" = deps ] && return 0
	build
	[ "$mode" = build ] && { say "built $VPSBENCH_BIN"; return 0; }
	exec "$VPSBENCH_BIN" "$@"
}

main "$@"
