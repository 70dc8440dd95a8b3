#!/bin/sh
# install.sh — run vpsbench on this machine, in the current directory.
#
#   curl -Lso- https://HOST/PATH/install.sh | sh -s -- [OPTIONS] [ARGS]
#   ./install.sh [OPTIONS] [ARGS]                      (from a checkout)
#
# ARGS go to vpsbench unchanged (./install.sh --only sysinfo).
# With a release base URL below (`make dist` fills it in), it downloads the
# static binary for this CPU over HTTPS, checks its SHA-256 against the
# value pinned below and refuses to run anything on a mismatch. Without
# one, or with --from-source, it builds this checkout: the build
# dependencies are installed with apt-get/dnf/yum/apk when run as root,
# otherwise it says what to install (it never calls sudo). Running the
# benchmark itself needs no root.
#
# OPTIONS, before ARGS (`--` ends them):
#   --from-source     build this checkout even when a release URL is set
#   --deps-only       only install the build dependencies (make deps)
#   --no-run          only build, or only download and verify the binary
#                     into ./vpsbench-ARCH
#   --dry-run         print what would be done and stop
#   --installer-help  this text
#
# The whole script is one { } group that ends by calling main: a truncated
# download does not parse, so it runs nothing at all.
{
set -eu

# Release configuration (scripts/static-pin.sh rewrites these lines).
VPSBENCH_VERSION='0.1.0'
RELEASE_BASE_URL=''
SHA256_X86_64=''
SHA256_AARCH64=''

# Every library the Makefile probes: a missing one turns its part into
# "unavailable: built without X". libssl-dev: the cpu module's AES/SHA
# passes (libcrypto; libcurl4-openssl-dev does not pull it in).
# The net module's iperf3 client is vpsbench's own (cJSON and sockets):
# no libiperf.
APT_DEPS="build-essential pkg-config liburing-dev libaio-dev libcjson-dev libcurl4-openssl-dev libssl-dev libmicrohttpd-dev"
RPM_DEPS="gcc make pkgconf-pkg-config liburing-devel libaio-devel cjson-devel libcurl-devel openssl-devel libmicrohttpd-devel"
APK_DEPS="build-base linux-headers pkgconf liburing-dev libaio-dev cjson-dev curl-dev openssl-dev libmicrohttpd-dev"

TMPD=''
DRY=0

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

usage() {
	sed -n '2,/^# The whole script/{s/^# \{0,1\}//;/^The whole script/d;p;}' "$0" 2>/dev/null ||
		say "usage: sh install.sh [--from-source|--deps-only|--no-run|--dry-run] [--] [vpsbench args]"
}

cleanup() {
	if [ -n "$TMPD" ]; then
		rm -rf "$TMPD"
		TMPD=''
	fi
}

on_signal() {
	cleanup
	trap - EXIT
	exit "$1"
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# --- what machine is this ---

detect_arch() {
	os=$(uname -s 2>/dev/null) || die "uname -s failed"
	[ "$os" = Linux ] || die "unsupported system: $os (vpsbench runs on Linux only)"
	m=$(uname -m 2>/dev/null) || die "uname -m failed"
	case $m in
	x86_64|amd64) ARCH=x86_64 ;;
	aarch64|arm64) ARCH=aarch64 ;;
	*) die "unsupported architecture: $m (vpsbench supports x86_64 and aarch64 only)" ;;
	esac
	# A 32-bit userland on a 64-bit kernel: the ELF class of a running
	# program (byte 5 of /proc/self/exe, here od itself) is 1, not 2.
	USERLAND_BITS=64
	class=$(od -An -tx1 -j4 -N1 /proc/self/exe 2>/dev/null | tr -d ' \n') || class=''
	if [ "$class" = 01 ]; then
		USERLAND_BITS=32
		say "note: 32-bit userland on a 64-bit $ARCH kernel"
	fi
}

# --- release download ---

sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		die "no sha256sum or shasum: cannot verify the download"
	fi
}

# A directory for the download where a program may run: /tmp is often
# mounted noexec, so try the next place and say why.
make_tmpdir() {
	for base in "${TMPDIR:-/tmp}" /var/tmp "${HOME:-/nonexistent}" "$PWD"; do
		if [ ! -d "$base" ] || [ ! -w "$base" ]; then continue; fi
		d=$(mktemp -d "$base/vpsbench-install.XXXXXX" 2>/dev/null) || continue
		TMPD=$d
		printf '#!/bin/sh\nexit 0\n' > "$d/probe" || die "cannot write in $d"
		chmod 0755 "$d/probe" || die "cannot chmod $d/probe"
		if "$d/probe" 2>/dev/null; then
			rm -f "$d/probe"
			return 0
		fi
		say "$base does not allow running programs (mounted noexec?); trying the next directory"
		cleanup
	done
	die "found no writable directory that allows running programs (tried ${TMPDIR:-/tmp}, /var/tmp, \$HOME, .)"
}

download() {
	url=$1 out=$2
	curl_bin=$(command -v curl 2>/dev/null || true)
	case $curl_bin in
	*/snap/*) command -v wget >/dev/null 2>&1 && curl_bin='' ;; # snap curl cannot write to /tmp
	esac
	if [ -n "$curl_bin" ]; then
		"$curl_bin" --proto '=https' --proto-redir '=https' --tlsv1.2 -fsSL --retry 3 -o "$out" "$url" ||
			die "download failed: $url"
	elif command -v wget >/dev/null 2>&1; then
		if wget --help 2>&1 | grep -q -- '--https-only'; then
			wget --https-only --secure-protocol=TLSv1_2 -q -O "$out" "$url" || die "download failed: $url"
		else
			say "warning: only BusyBox wget found; it cannot enforce HTTPS-only or TLS 1.2 (the SHA-256 check below still applies)"
			wget -q -O "$out" "$url" || die "download failed: $url"
		fi
	else
		die "need curl or wget to download $url"
	fi
}

run_release() {
	case $RELEASE_BASE_URL in
	https://*) ;;
	*) die "release URL must be https: $RELEASE_BASE_URL" ;;
	esac
	case $ARCH in
	x86_64) want=$SHA256_X86_64 ;;
	aarch64) want=$SHA256_AARCH64 ;;
	esac
	[ -n "$want" ] || die "no release binary for $ARCH in this installer; build from source: git clone the repository, then ./install.sh"
	url=${RELEASE_BASE_URL%/}/vpsbench-$ARCH
	if [ "$DRY" -eq 1 ]; then
		say "would download $url, check SHA-256 $want, then run: vpsbench $*"
		return 0
	fi
	trap cleanup EXIT
	trap 'on_signal 129' HUP
	trap 'on_signal 130' INT
	trap 'on_signal 143' TERM
	make_tmpdir
	bin=$TMPD/vpsbench
	say "downloading vpsbench $VPSBENCH_VERSION for $ARCH from $url"
	download "$url" "$bin"
	got=$(sha256_of "$bin")
	[ "$got" = "$want" ] ||
		die "checksum mismatch for $url: expected $want, got $got; refusing to run it"
	chmod 0755 "$bin"
	[ "$USERLAND_BITS" -eq 64 ] || say "the static 64-bit binary runs on this 64-bit kernel as it is"
	ver=$("$bin" --version 2>/dev/null) || die "the downloaded binary does not run here ($ARCH, Linux $(uname -r))"
	[ "$ver" = "vpsbench $VPSBENCH_VERSION" ] || say "warning: expected vpsbench $VPSBENCH_VERSION, the binary says: $ver"
	if [ "$MODE" = build ]; then
		dest=./vpsbench-$ARCH
		[ ! -e "$dest" ] || die "$dest exists; not overwriting it"
		cp "$bin" "$dest" || die "cannot write $dest"
		chmod 0755 "$dest" || die "cannot chmod $dest"
		say "$ver verified and saved as $dest"
		return 0
	fi
	say "running $ver ($ARCH, SHA-256 verified) in $PWD"
	rc=0
	"$bin" "$@" || rc=$?
	cleanup
	return "$rc"
}

# --- build from source ---

detect_pm() {
	PM='' DEPS=''
	if command -v apt-get >/dev/null 2>&1; then PM=apt-get DEPS=$APT_DEPS
	elif command -v dnf >/dev/null 2>&1; then PM=dnf DEPS=$RPM_DEPS
	elif command -v yum >/dev/null 2>&1; then PM=yum DEPS=$RPM_DEPS
	elif command -v apk >/dev/null 2>&1; then PM=apk DEPS=$APK_DEPS
	fi
}

pkg_installed() {
	case $PM in
	apt-get) dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' ;;
	dnf|yum) rpm -q "$1" >/dev/null 2>&1 ;;
	apk) apk info -e "$1" >/dev/null 2>&1 ;;
	esac
}

install_cmd() {
	case $PM in
	apt-get) printf 'apt-get install -y --no-install-recommends%s' "$1" ;;
	dnf) printf 'dnf install -y --setopt=strict=0%s' "$1" ;;
	yum) printf 'yum install -y%s' "$1" ;;
	apk) printf 'apk add%s' "$1" ;;
	esac
}

install_deps() {
	detect_pm
	[ -n "$PM" ] || die "no apt-get, dnf, yum or apk here: install a C compiler, make, and the liburing, libaio, cJSON, libcurl and OpenSSL development files by hand, then run make"
	need=''
	for p in $DEPS; do
		pkg_installed "$p" || need="$need $p"
	done
	if [ -z "$need" ]; then
		say "build dependencies already installed"
		return 0
	fi
	if ! is_root; then
		say "missing build dependencies:$need"
		say "as root, run: $(install_cmd "$need")"
		die "then run this again (running the benchmark itself needs no root)"
	fi
	if [ "$DRY" -eq 1 ]; then
		say "would run: $(install_cmd "$need")"
		return 0
	fi
	say "installing:$need"
	case $PM in
	apt-get)
		DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null ||
			die "apt-get install$need failed"
		;;
	dnf)
		# A missing optional library only turns its feature off, so
		# unavailable names (cjson-devel needs EPEL) are skipped.
		# shellcheck disable=SC2086
		dnf install -y --setopt=strict=0 $need || die "dnf install failed"
		;;
	yum)
		# shellcheck disable=SC2086
		yum install -y $need || die "yum install failed"
		;;
	apk)
		# shellcheck disable=SC2086
		apk add $need || die "apk add failed"
		;;
	esac
}

checkout_dir() {
	# Piped into sh, $0 is the shell and there is no checkout.
	[ -f "$0" ] || return 1
	here=$(cd "$(dirname -- "$0")" && pwd) || return 1
	[ -f "$here/Makefile" ] && [ -f "$here/bench.c" ] && [ -f "$here/core/module.h" ]
}

run_source() {
	checkout_dir || die "no release URL in this installer and not run from a checkout: git clone the vpsbench repository and run ./install.sh there"
	install_deps
	[ "$MODE" = deps ] && return 0
	jobs=$(nproc 2>/dev/null || echo 2)
	if [ "$DRY" -eq 1 ]; then
		say "would build in $here (make -j$jobs vpsbench), then run: vpsbench $*"
		return 0
	fi
	command -v make >/dev/null 2>&1 || die "make not found (install the build dependencies)"
	make -C "$here" -s -j"$jobs" vpsbench || die "build failed (make -C $here vpsbench)"
	bin=$here/vpsbench
	ver=$("$bin" --version) || die "$bin does not run"
	if [ "$MODE" = build ]; then
		say "built $bin ($ver)"
		return 0
	fi
	say "running $ver (built from source) in $PWD"
	exec "$bin" "$@"
}

main() {
	MODE=run FROM_SOURCE=0
	while [ $# -gt 0 ]; do
		case $1 in
		--from-source) FROM_SOURCE=1 ;;
		--deps-only) MODE=deps ;;
		--no-run) MODE=build ;;
		--dry-run) DRY=1 ;;
		--installer-help) usage; return 0 ;;
		--) shift; break ;;
		*) break ;;
		esac
		shift
	done
	if [ "$MODE" = deps ]; then
		run_source
		return 0
	fi
	detect_arch
	if [ -n "$RELEASE_BASE_URL" ] && [ "$FROM_SOURCE" -eq 0 ]; then
		run_release "$@"
	else
		run_source "$@"
	fi
}

main "$@"
}
