#!/bin/bash
# build-static.sh — build the libraries of the fully static vpsbench
# (musl + OpenSSL or wolfSSL + libcurl + cJSON + libaio + liburing +
# libmicrohttpd) from Debian source packages into a cache, so `make static`
# only has to compile and link vpsbench itself.
#
#   scripts/build-static.sh [DEPS_DIR [ARCH]]   (make static and make
#                                               static-aarch64 run this)
#
# ARCH is x86_64 (the default; Debian's musl-gcc) or aarch64 (make
# static-aarch64): then the same libraries are cross-built with Debian's
# gcc-aarch64-linux-gnu against a musl built from Debian's musl source
# package, in their own DEPS_DIR. The build host is x86_64 either way.
#
# Everything comes from Debian: build tools from the archive, libraries
# from `apt-get source` (Debian's patches applied, security suite
# included). Nothing else is downloaded. Each library is rebuilt only when
# its source version, its recipe below or the musl version changes, so a
# second run takes about a second. Output, for the Makefile:
#   DEPS_DIR/prefix/{include,lib}   static libraries and headers
#   DEPS_DIR/kinc                   kernel headers for musl-gcc
#   DEPS_DIR/ldlibs                 link flags for libcurl and the rest
#                                   (the Makefile sets HAVE_LIBCRYPTO and
#                                   HAVE_LIBMICROHTTPD from it)
#   DEPS_DIR/versions               "package version" of each source used
#   DEPS_DIR/musl/bin/musl-gcc      aarch64 only: the compiler to use
#   DEPS_DIR/cross-bin              aarch64 only: cross binutils, musl-gcc
#
# Environment: STATIC_TLS=openssl (default) or wolfssl; JOBS (default 2,
# at most 2: the build machine is shared); NICE (default 19).
set -euo pipefail

D=${1:-build/static-deps}
mkdir -p "$D"
D=$(cd "$D" && pwd)
P=$D/prefix
KINC=$D/kinc
SRC=$D/src
WORK=$D/work
STAMPS=$D/stamps
TLS=${STATIC_TLS:-openssl}
ARCH=${2:-x86_64}
JOBS=${JOBS:-2}
[ "$JOBS" -gt 2 ] && JOBS=2
NICE=${NICE:-19}
CC_MUSL=musl-gcc
# Size matters more than speed for everything but the I/O libraries, whose
# hot paths are a few syscalls anyway.
DEP_CFLAGS="-Os -ffunction-sections -fdata-sections"
SOURCES_FILE=/etc/apt/sources.list.d/vpsbench-src.sources
TOOLS_PKGS="musl-tools autoconf automake libtool make perl patch dpkg-dev pkg-config binutils dash"

say() { printf 'build-static: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
is_root() { [ "$(id -u)" -eq 0 ]; }
run() { nice -n "$NICE" "$@"; }

case $TLS in
openssl|wolfssl) ;;
*) die "STATIC_TLS=$TLS: use openssl or wolfssl" ;;
esac
case $ARCH in
x86_64) ;;
aarch64) TOOLS_PKGS="$TOOLS_PKGS gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu linux-libc-dev-arm64-cross" ;;
*) die "ARCH=$ARCH: use x86_64 or aarch64" ;;
esac

# --- build tools and the deb-src entry (root only; otherwise explain) ---

ensure_tools() {
	local need="" p
	for p in $TOOLS_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
	done
	[ -z "$need" ] && return 0
	is_root || die "missing build tools:$need — run as root: apt-get install$need"
	say "installing build tools:$need"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null ||
		die "apt-get install$need failed"
}

have_debsrc() { [ -n "$(apt-cache showsrc cjson 2>/dev/null | sed -n 's/^Version: //p' | head -n1)" ]; }

ensure_debsrc() {
	have_debsrc && return 0
	if ! is_root; then
		ls "$STAMPS"/curl >/dev/null 2>&1 && { say "no deb-src entry; using the cached sources"; return 0; }
		die "no deb-src entry for bookworm: as root, add one (e.g. $SOURCES_FILE with Types: deb-src) and run apt-get update"
	fi
	if [ ! -e "$SOURCES_FILE" ]; then
		say "adding $SOURCES_FILE (deb-src for bookworm, bookworm-updates, bookworm-security)"
		cat > "$SOURCES_FILE" <<-'EOF'
		# Added by vpsbench scripts/build-static.sh: Debian source packages
		# for the static build (apt-get source). Safe to remove.
		Types: deb-src
		URIs: http://deb.debian.org/debian
		Suites: bookworm bookworm-updates
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

		Types: deb-src
		URIs: http://deb.debian.org/debian-security
		Suites: bookworm-security
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
	fi
	DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
	have_debsrc || die "apt-get update did not make source packages visible (see $SOURCES_FILE)"
}

# --- source packages: newest version that downloads, cached in $SRC ---

# Versions apt knows for source package $1, newest first (Debian ordering).
src_versions() {
	local v out=()
	while read -r v; do
		local i=0
		while [ $i -lt ${#out[@]} ] && dpkg --compare-versions "${out[$i]}" gt "$v"; do i=$((i+1)); done
		out=("${out[@]:0:$i}" "$v" "${out[@]:$i}")
	done < <(apt-cache showsrc --only-source "$1" 2>/dev/null | sed -n 's/^Version: //p' | sort -u)
	[ ${#out[@]} -gt 0 ] && printf '%s\n' "${out[@]}"
	return 0
}

# fetch_src PKG: sets SRCDIR to a directory holding the downloaded source
# package (.dsc and tarballs) and SRCVER to its version. Only the package
# files are kept: unpacked trees under build/ would feed their *.d files
# (curl's docs) to the Makefile's `-include` of dependency files.
fetch_src() {
	local pkg=$1 v dir
	SRCDIR="" SRCVER=""
	mkdir -p "$SRC"
	for v in $(src_versions "$pkg"); do
		dir=$SRC/${pkg}_$v
		if [ -f "$dir/.downloaded" ]; then SRCDIR=$dir SRCVER=$v; return 0; fi
		# Known missing on the mirror within the last day: do not ask again.
		if [ -n "$(find "$SRC" -maxdepth 1 -name ".missing-${pkg}_$v" -mmin -1440 2>/dev/null)" ]; then
			continue
		fi
		say "fetching source package $pkg $v"
		rm -rf "$dir"; mkdir -p "$dir"
		# A version listed in Sources can still be missing on the mirror
		# (seen: openssl 3.0.22-1~deb12u2, 404): try the next one.
		if ! (cd "$dir" && apt-get source --download-only -qq "$pkg=$v" >/dev/null 2>&1); then
			say "  $pkg $v not downloadable, trying an older version"
			touch "$SRC/.missing-${pkg}_$v"
			rm -rf "$dir"
			continue
		fi
		touch "$dir/.downloaded"
		SRCDIR=$dir SRCVER=$v
		return 0
	done
	# No apt metadata (non-root without deb-src): newest cached package.
	for dir in $(find "$SRC" -maxdepth 1 -name "${pkg}_*" -type d | sort -r); do
		[ -f "$dir/.downloaded" ] || continue
		SRCDIR=$dir SRCVER=${dir##*/"${pkg}"_}
		return 0
	done
	die "no downloadable source package for $pkg"
}

# --- cache keys: source version + recipe text + compiler version ---

MUSL_VER=$(dpkg-query -W -f='${Version}' musl-tools 2>/dev/null || echo unknown)

key_of() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }

# up_to_date NAME KEY: the library NAME was built with KEY.
up_to_date() { [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }
mark_built() { mkdir -p "$STAMPS"; printf '%s\n' "$2" > "$STAMPS/$1"; }

# fresh_tree NAME: unpack the source package with Debian's patches into
# $WORK/NAME and cd there. apt checked the .dsc against the signed Release
# file and dpkg-source checks the tarballs against the .dsc; its warning
# that the .dsc signature cannot be checked (no debian-keyring) is noise.
fresh_tree() {
	rm -rf "${WORK:?}/$1"; mkdir -p "$WORK"
	dpkg-source -x "$SRCDIR"/*.dsc "$WORK/$1" >/dev/null 2>&1 ||
		{ say "dpkg-source -x $SRCDIR/*.dsc failed"; return 1; }
	cd "$WORK/$1"
}

# --- recipes (each runs in a fresh copy of the source tree) ---

recipe_kinc() {
	# musl-gcc does not search /usr/include; give it the kernel headers only.
	mkdir -p "$KINC"
	ln -sfn /usr/include/linux "$KINC/linux"
	ln -sfn /usr/include/x86_64-linux-gnu/asm "$KINC/asm"
	ln -sfn /usr/include/asm-generic "$KINC/asm-generic"
}

recipe_libaio() {
	run make -s -C src CC=$CC_MUSL CPPFLAGS="-I$KINC" CFLAGS="-O2 -Wall -fdata-sections -ffunction-sections" \
		ENABLE_SHARED=0 libaio.a
	install -D -m 0644 src/libaio.a "$P/lib/libaio.a"
	install -D -m 0644 src/libaio.h "$P/include/libaio.h"
}

recipe_liburing() {
	CFLAGS="-O2 -I$KINC" run ./configure --cc=$CC_MUSL --prefix="$P" >/dev/null
	run make -s -C src -j"$JOBS" CFLAGS="-O2 -ffunction-sections -fdata-sections -I$KINC" liburing.a
	install -D -m 0644 src/liburing.a "$P/lib/liburing.a"
	install -D -m 0644 src/include/liburing.h "$P/include/liburing.h"
	install -D -m 0644 -t "$P/include/liburing" src/include/liburing/*.h
}

recipe_cjson() {
	# shellcheck disable=SC2086
	run $CC_MUSL $DEP_CFLAGS -c -o cJSON.o cJSON.c
	mkdir -p "$P/lib" "$P/include/cjson"
	rm -f "$P/lib/libcjson.a"
	ar rcs "$P/lib/libcjson.a" cJSON.o
	install -m 0644 cJSON.h "$P/include/cjson/cJSON.h"
}

recipe_openssl() {
	# Client TLS 1.2/1.3 with the usual certificate algorithms; everything a
	# benchmark's HTTPS POST never needs is configured out for size. No
	# config file is read at start-up (no-autoload-config); the CA file is
	# always passed by vpsbench (CURLOPT_CAINFO), so OPENSSLDIR is unused.
	# Entropy: getrandom(2), /dev/urandom only when the kernel lacks it.
	# P-256 uses OpenSSL's generic constant-time ladder instead of the
	# assembler code, whose 150 KB precomputed table alone would break the
	# size budget (TLS speed is irrelevant here); AES-NI, SHA and X25519
	# assembler stay. OpenSSL 3.0 picks that code in crypto/ec/build.info.
	# shellcheck disable=SC2016 # literal $ in build.info
	sed -i -e 's/^\( *\$ECASM_x86_64=\).*/\1x25519-x86_64.s/' \
		-e 's/^\( *\$ECDEF_x86_64=\).*/\1X25519_ASM/' crypto/ec/build.info
	# shellcheck disable=SC2016
	grep -q '^ *\$ECASM_x86_64=x25519-x86_64.s$' crypto/ec/build.info || die "crypto/ec/build.info: no x86_64 EC asm line to change"
	run ./Configure linux-x86_64 CC=$CC_MUSL CFLAGS="$DEP_CFLAGS" CPPFLAGS="-I$KINC" \
		--prefix="$P" --libdir=lib --openssldir=/etc/ssl \
		no-shared no-module no-dso no-engine no-afalgeng no-async no-comp \
		no-legacy no-ssl3 no-dtls no-srp no-idea no-camellia no-seed no-bf \
		no-cast no-rc2 no-rc4 no-rc5 no-md4 no-mdc2 no-rmd160 no-whirlpool \
		no-des no-dsa no-sm2 no-sm3 no-sm4 no-siphash no-aria no-scrypt \
		no-cms no-ts no-srtp no-gost no-ui-console no-tests no-autoload-config \
		no-ec2m no-cmp no-rfc3779 no-ocb no-ct no-nextprotoneg no-blake2 \
		no-chacha no-poly1305 no-cmac no-siv no-dgram no-multiblock no-ocsp \
		no-psk no-ssl-trace no-deprecated no-dh no-secure-memory >/dev/null
	run make -s -j"$JOBS" build_libs >/dev/null
	run make -s install_dev >/dev/null
}

recipe_wolfssl() {
	run ./autogen.sh >/dev/null 2>&1
	run ./configure --host=x86_64-linux-musl CC=$CC_MUSL CFLAGS="$DEP_CFLAGS -DWOLFSSL_GETRANDOM" \
		CPPFLAGS="-I$KINC" --prefix="$P" --libdir="$P/lib" \
		--enable-static --disable-shared --enable-tls13 --enable-curl \
		--enable-ip-alt-name --enable-sni --enable-altcertchains \
		--disable-examples --disable-crypttests --disable-benchmark \
		--disable-oldtls --disable-sslv3 >/dev/null
	run make -s -j"$JOBS" >/dev/null
	run make -s install >/dev/null
}

recipe_curl() {
	# Debian renames the library for its GnuTLS/NSS flavours; undo that.
	patch -s -R -p1 < debian/patches/99_nss.patch
	patch -s -R -p1 < debian/patches/90_gnutls.patch
	run autoreconf -fi >/dev/null 2>&1
	mkdir build && cd build
	# HTTP/HTTPS only; no compiled-in CA path: vpsbench finds the bundle
	# at run time and sets CURLOPT_CAINFO. configure and the libtool it
	# writes run under dash, not bash: their thousands of small shells
	# (a libtool per object) cost about a quarter less CPU, with the same
	# libcurl.a (CI builds this on every change).
	CONFIG_SHELL=/bin/dash PKG_CONFIG_PATH="$P/lib/pkgconfig" LIBS="-pthread" run /bin/dash ../configure \
		CC=$CC_MUSL CPPFLAGS="-I$KINC" CFLAGS="$DEP_CFLAGS" \
		--prefix="$P" --with-"$TLS"="$P" \
		--disable-shared --enable-static --disable-dependency-tracking \
		--enable-threaded-resolver --disable-ldap --disable-ldaps \
		--disable-rtsp --disable-dict --disable-telnet --disable-tftp \
		--disable-pop3 --disable-imap --disable-smb --disable-smtp \
		--disable-gopher --disable-mqtt --disable-ftp --disable-file \
		--disable-manual --disable-ntlm --disable-ntlm-wb --disable-cookies \
		--disable-mime --disable-netrc --disable-doh --disable-hsts \
		--without-zlib --without-brotli --without-zstd --without-libpsl \
		--without-libidn2 --without-nghttp2 --without-ngtcp2 \
		--without-nghttp3 --without-quiche --without-msh3 \
		--without-libssh2 --without-libssh --without-wolfssh \
		--without-librtmp --without-hyper --without-libgsasl \
		--without-ca-bundle --without-ca-path --without-ca-fallback \
		--without-zsh-functions-dir --without-fish-functions-dir >configure.out ||
		{ tail -n 20 config.log >&2; die "curl configure failed"; }
	grep -q 'SSL:.*enabled' configure.out || grep -qi "SSL:.*$TLS" configure.out ||
		{ cat configure.out >&2; die "curl configure: TLS ($TLS) not enabled"; }
	grep -q 'ca cert bundle: *no' configure.out || die "curl would compile in a CA bundle path"
	run make -s -j"$JOBS" -C lib >/dev/null
	run make -s -C lib install >/dev/null
	run make -s -C include install >/dev/null
	install -D -m 0644 libcurl.pc "$P/lib/pkgconfig/libcurl.pc"
}

recipe_libmicrohttpd() {
	# The HTTP server of `vpsbench watch` (Prometheus /metrics): plain HTTP
	# only (no HTTPS, so no GnuTLS or libgcrypt), epoll and POSIX threads,
	# the library and its header only. The optional features (auth,
	# PostProcessor, Upgrade) stay: with --gc-sections an unused one adds
	# nothing to the binary (measured: a minimal daemon is the same size
	# with --disable-dauth --disable-postprocessor --disable-httpupgrade).
	CONFIG_SHELL=/bin/dash run /bin/dash ./configure --host=x86_64-linux-musl \
		CC=$CC_MUSL CFLAGS="$DEP_CFLAGS" CPPFLAGS="-I$KINC" --prefix="$P" --libdir="$P/lib" \
		--enable-static --disable-shared --disable-dependency-tracking \
		--disable-https --without-gnutls --disable-curl --disable-doc \
		--disable-examples --disable-nls --enable-epoll=yes \
		--with-threads=posix >configure.out ||
		{ tail -n 20 config.log >&2; die "libmicrohttpd configure failed"; }
	if ! grep -q 'epoll support: *yes' configure.out || ! grep -q 'HTTPS support: *no' configure.out; then
		cat configure.out >&2; die "libmicrohttpd configure: want epoll on, HTTPS off"
	fi
	run make -s -j"$JOBS" -C src/microhttpd >/dev/null
	run make -s -C src/microhttpd install >/dev/null
	run make -s -C src/include install >/dev/null
	install -D -m 0644 libmicrohttpd.pc "$P/lib/pkgconfig/libmicrohttpd.pc"
}

# build NAME PKG [EXTRA_KEY...]: fetch PKG's source and run recipe_NAME
# unless the cached build has the same key. Sets KEY_<NAME>.
build() {
	local name=$1 pkg=$2; shift 2
	fetch_src "$pkg"
	local key; key=$(key_of "$pkg $SRCVER" "$MUSL_VER" "$DEP_CFLAGS" "$(declare -f "recipe_$name")" "$@")
	printf -v "KEY_$name" '%s' "$key"
	VERSIONS="$VERSIONS$pkg $SRCVER"$'\n'
	if up_to_date "$name" "$key"; then return 0; fi
	say "building $name from $pkg $SRCVER"
	local t0=$SECONDS
	rm -f "$STAMPS/$name"
	mkdir -p "$D/logs"
	if ! ( fresh_tree "$name" && "recipe_$name" ) >"$D/logs/$name.log" 2>&1; then
		tail -n 40 "$D/logs/$name.log" >&2
		# KEEP_WORK=1 keeps the tree for debugging (its *.d files then
		# confuse the Makefile until it is removed).
		[ -n "${KEEP_WORK:-}" ] || rm -rf "${WORK:?}/$name"
		die "building $name ($pkg $SRCVER) failed; log: $D/logs/$name.log"
	fi
	rm -rf "${WORK:?}/$name"
	mark_built "$name" "$key"
	say "  $name done in $((SECONDS - t0)) s"
}

# --- aarch64: cross toolchain and the recipes' aarch64 variants ---
#
# The x86_64 recipes above stay exactly as they are (their text is part of
# the x86_64 cache keys). For aarch64 a few are redefined from that text
# with literal replacements (libmicrohttpd: only its --host); libaio,
# liburing and cJSON need none: their CC_MUSL (musl-gcc) and ar/ranlib are
# the aarch64 ones first in PATH.

# adapt NAME OLD NEW [OLD NEW...]: redefine recipe_NAME with every OLD
# replaced by NEW (literal strings); an OLD that is not there is an error.
adapt() {
	local name=$1 text
	text=$(declare -f "recipe_$name"); shift
	while [ $# -ge 2 ]; do
		[[ $text == *"$1"* ]] || die "recipe_$name: no '$1' to replace for $ARCH"
		text=${text//"$1"/"$2"}
		shift 2
	done
	eval "$text"
}

recipe_musl() {
	# musl for aarch64 (Debian's musl-tools is x86_64 only), with musl's
	# own musl-gcc wrapper around Debian's cross gcc; static only.
	run ./configure --target=aarch64-linux-musl CROSS_COMPILE=aarch64-linux-gnu- \
		--prefix="$D/musl" --disable-shared --enable-wrapper=gcc CFLAGS="-O2" >/dev/null
	run make -s -j"$JOBS" >/dev/null
	rm -rf "${D:?}/musl"
	run make -s install >/dev/null
	[ -x "$D/musl/bin/musl-gcc" ] || die "musl install has no bin/musl-gcc"
}

# cross_setup: cross binutils first in PATH (plain and host-prefixed names,
# for Makefiles that call ar/ranlib and for configure --host), the recipe
# variants, musl built (cached like a library) and its musl-gcc first in
# PATH too (so CC_MUSL stays musl-gcc), MUSL_VER set.
cross_setup() {
	local t bin=$D/cross-bin gcc_pkg
	mkdir -p "$bin"
	for t in ar ranlib nm strip objdump; do
		ln -sfn "/usr/bin/aarch64-linux-gnu-$t" "$bin/$t"
		ln -sfn "/usr/bin/aarch64-linux-gnu-$t" "$bin/aarch64-linux-musl-$t"
	done
	PATH=$bin:$PATH
	# kernel headers of the cross toolchain (linux-libc-dev-arm64-cross)
	recipe_kinc() {
		mkdir -p "$KINC"
		local h
		for h in linux asm asm-generic; do
			[ -d "/usr/aarch64-linux-gnu/include/$h" ] || die "no /usr/aarch64-linux-gnu/include/$h"
			ln -sfn "/usr/aarch64-linux-gnu/include/$h" "$KINC/$h"
		done
	}
	# OpenSSL: target linux-aarch64; its P-256 assembler (and table) goes
	# for the same size reason as on x86_64; there is no X25519 assembler.
	# The armv8 AES and SHA assembler stay.
	adapt openssl '\1x25519-x86_64.s/' '\1/' '\1X25519_ASM/' '\1/' \
		'=x25519-x86_64.s$' '=$' x86_64 aarch64
	adapt wolfssl x86_64-linux-musl aarch64-linux-musl
	# shellcheck disable=SC2016 # literal $P: replaced in the recipe's text
	adapt curl '--prefix="$P"' '--host=aarch64-linux-musl --prefix="$P"'
	adapt libmicrohttpd x86_64-linux-musl aarch64-linux-musl
	gcc_pkg=$(dpkg -S "$(readlink -f /usr/bin/aarch64-linux-gnu-gcc)" 2>/dev/null | cut -d: -f1)
	[ -n "$gcc_pkg" ] || die "aarch64-linux-gnu-gcc: not from a Debian package"
	# The key of musl and so of every library: compiler and this setup.
	MUSL_VER="$ARCH $gcc_pkg $(dpkg-query -W -f='${Version}' "$gcc_pkg") $(key_of "$(declare -f cross_setup adapt)")"
	VERSIONS="$gcc_pkg $(dpkg-query -W -f='${Version}' "$gcc_pkg")"$'\n'
	build musl musl
	# shellcheck disable=SC2154 # KEY_musl is set by build() (printf -v)
	MUSL_VER="$MUSL_VER musl $KEY_musl"
	ln -sfn "$D/musl/bin/musl-gcc" "$bin/musl-gcc"
	[ "$(command -v musl-gcc)" = "$bin/musl-gcc" ] || die "musl-gcc is not $bin/musl-gcc"
}

main() {
	command -v apt-get >/dev/null 2>&1 || die "needs a Debian system (apt-get)"
	[ "$(uname -m)" = x86_64 ] || die "only an x86_64 build host is supported"
	ensure_tools
	ensure_debsrc
	mkdir -p "$P/lib" "$P/include"
	if [ "$ARCH" = x86_64 ]; then
		VERSIONS="musl-tools $MUSL_VER"$'\n'
	else
		cross_setup
	fi
	recipe_kinc
	build libaio libaio
	build liburing liburing
	build cjson cjson
	build libmicrohttpd libmicrohttpd
	build "$TLS" "$TLS"
	local tlskey=KEY_$TLS
	build curl curl "$TLS ${!tlskey}"
	# pkg-config gives the whole static link line, whichever TLS library.
	local libs
	libs=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --static --libs libcurl) ||
		die "pkg-config libcurl failed"
	# libmicrohttpd needs only libc and -pthread (the Makefile adds that).
	printf '%s -lmicrohttpd -lcjson -laio -luring\n' "-L$P/lib $libs" > "$D/ldlibs.new"
	printf '%s' "$VERSIONS" > "$D/versions.new"
	# shellcheck disable=SC2154 # the KEY_ variables are set by build() (printf -v)
	printf 'keys %s\n' "$(key_of "$KEY_libaio" "$KEY_liburing" "$KEY_cjson" "$KEY_libmicrohttpd" "${!tlskey}" "$KEY_curl")" >> "$D/versions.new"
	printf 'tls %s\n' "$TLS" >> "$D/versions.new"
	[ "$ARCH" = x86_64 ] || printf 'arch %s\n' "$ARCH" >> "$D/versions.new"
	# Touch the outputs only when they change: make recompiles on a change.
	local f
	for f in ldlibs versions; do
		if cmp -s "$D/$f.new" "$D/$f"; then rm -f "$D/$f.new"; else mv "$D/$f.new" "$D/$f"; fi
	done
	say "libraries ready in $P ($(tr '\n' ' ' < "$D/versions"| sed 's/ $//'))"
}

main "$@"
