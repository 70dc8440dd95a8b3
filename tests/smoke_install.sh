# run-all: last (see tests/run-all.sh): its real_static_binary check needs the static binary CI links just before
# smoke_install.sh — install.sh, the `curl -Lso- URL | sh -s -- ARGS`
# installer: shellcheck-clean POSIX sh; with fake curl/wget/uname/id first
# on PATH and a local HTTPS server (127.0.0.1, test CA): arguments pass
# through intact into the caller's directory, a truncated script runs
# nothing, a checksum mismatch aborts before anything runs, unsupported
# architectures fail clearly, the temp dir never outlives the run (also
# on SIGTERM, and with a noexec TMPDIR when root), and the from-source
# path installs dependencies only as root and never calls sudo.
. tests/lib.sh
SRC=${VPSBENCH_SRCDIR:-$PWD}
T=$(t_tmpdir)
SRV_PID=''
cleanup() {
	[ -n "$SRV_PID" ] && kill "$SRV_PID" 2>/dev/null
	mountpoint -q "$T/noexec" 2>/dev/null && umount "$T/noexec"
	rm -rf "$T"
}
trap cleanup EXIT

if command -v shellcheck >/dev/null 2>&1; then
	out=$(shellcheck -s sh install.sh 2>&1) && t_ok shellcheck_install_sh || t_fail shellcheck_install_sh "$out"
	out=$(shellcheck -s sh scripts/static-pin.sh scripts/static-check.sh 2>&1) &&
		shellcheck scripts/build-static.sh >/dev/null 2>&1 && t_ok shellcheck_scripts || t_fail shellcheck_scripts "$out"
else
	t_skip shellcheck_install_sh "shellcheck not installed (apt-get install shellcheck)"
fi
if command -v dash >/dev/null 2>&1; then
	dash -n install.sh && t_ok dash_parses || t_fail dash_parses
fi
# the body is one { } group that ends with the call of main
[ "$(tail -n 2 install.sh | tr -d '\n')" = 'main "$@"}' ] && t_ok ends_with_main_call ||
	t_fail ends_with_main_call "$(tail -n 2 install.sh)"

if ! command -v python3 >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1; then
	t_skip https_server "needs python3, openssl and curl"
	t_summary install
	exit
fi

# --- a local HTTPS server with a test CA, serving $T/www ---
mkdir -p "$T/www" "$T/fake" "$T/tmp" "$T/cwd"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$T/key.pem" -out "$T/ca.pem" >/dev/null 2>&1 ||
	{ t_fail make_cert; t_summary install; exit; }
cat > "$T/srv.py" <<'EOF'
import functools, http.server, ssl, sys
www, cert, key, portfile = sys.argv[1:5]
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(H, directory=www))
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
open(portfile + ".tmp", "w").write(str(srv.server_address[1]))
import os; os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
EOF
python3 "$T/srv.py" "$T/www" "$T/ca.pem" "$T/key.pem" "$T/port" & SRV_PID=$!
for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
PORT=$(cat "$T/port" 2>/dev/null)
[ -n "$PORT" ] || { t_fail https_server "no port"; t_summary install; exit; }
URL=https://127.0.0.1:$PORT

# --- fakes: a vpsbench that prints its arguments, curl/wget that log and
# fetch with the test CA, uname with a chosen arch, id with a chosen uid ---
REAL_CURL=$(command -v curl) REAL_UNAME=$(command -v uname)
cat > "$T/www/vpsbench-x86_64" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "vpsbench 0.1.0"; exit 0; }
echo "$$" > "$FAKE_MARK"
[ -n "${FAKE_SLEEP:-}" ] && { sleep "$FAKE_SLEEP" & trap 'kill $! 2>/dev/null; exit 143' TERM; wait; exit 0; }
echo "cwd=$PWD"
for a in "$@"; do printf '<%s>\n' "$a"; done
exit "${FAKE_RC:-0}"
EOF
cat > "$T/fake/curl" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >> "$T/curl.log"
exec "$REAL_CURL" --cacert "$T/ca.pem" "\$@"
EOF
cat > "$T/fake/uname" <<EOF
#!/bin/sh
case "\$1" in
-m) echo "\${FAKE_ARCH:-x86_64}" ;;
-s) echo "\${FAKE_OS:-Linux}" ;;
*) exec "$REAL_UNAME" "\$@" ;;
esac
EOF
cat > "$T/fake/wget" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >> "$T/wget.log"
[ "\$1" = --help ] && { echo "  --https-only   only follow secure HTTPS links"; exit 0; }
out='' url=''
while [ \$# -gt 0 ]; do case "\$1" in -O) out=\$2; shift ;; https://*) url=\$1 ;; esac; shift; done
exec "$REAL_CURL" --cacert "$T/ca.pem" -fsS -o "\$out" "\$url"
EOF
chmod 0755 "$T/www/vpsbench-x86_64" "$T/fake/"*
export FAKE_MARK=$T/mark
FPATH=$T/fake:$PATH
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
SHA=$(sha_of "$T/www/vpsbench-x86_64")
scripts/static-pin.sh install.sh "$T/install.sh" 0.1.0 "$URL" x86_64 "$SHA" 2>/dev/null &&
	grep -qxF "SHA256_X86_64='$SHA'" "$T/install.sh" && grep -qxF "RELEASE_BASE_URL='$URL'" "$T/install.sh" &&
	t_ok pin_installer || t_fail pin_installer
scripts/static-pin.sh install.sh "$T/x.sh" 0.1.0 "http://127.0.0.1:$PORT" x86_64 "$SHA" 2>/dev/null &&
	t_fail pin_refuses_http || t_ok pin_refuses_http

reset() { rm -f "$T/mark" "$T/curl.log" "$T/wget.log" "$T/out" "$T/err"; }
tmp_empty() { [ -z "$(ls -A "$T/tmp")" ]; }
# inst SCRIPT ARGS...: pipe SCRIPT into `sh -s -- ARGS` from $T/cwd, as
# `curl -Lso- URL | sh -s -- ARGS` does; stdout/stderr in $T/out, $T/err.
inst() {
	local s=$1; shift
	( cd "$T/cwd" && PATH=${IPATH:-$FPATH} TMPDIR=$T/tmp timeout 60 sh -s -- "$@" < "$s" ) >"$T/out" 2>"$T/err"
}

# arguments with spaces, quotes, globs, $, and an empty one arrive intact
reset
inst "$T/install.sh" --dir "a b" "it's \"quoted\"" '$HOME `id`' '*' '' --json; rc=$?
printf '%s\n' "cwd=$T/cwd" '<--dir>' '<a b>' "<it's \"quoted\">" '<$HOME `id`>' '<*>' '<>' '<--json>' > "$T/want"
if [ $rc -eq 0 ] && cmp -s "$T/want" "$T/out"; then t_ok args_pass_through_intact
else t_fail args_pass_through_intact "rc=$rc $(diff "$T/want" "$T/out" | head -5) $(head -c 300 "$T/err")"; fi
grep -q 'running vpsbench 0.1.0' "$T/err" && t_ok prints_version || t_fail prints_version "$(cat "$T/err")"
grep -qx -- '--proto' "$T/curl.log" && grep -qx '=https' "$T/curl.log" && grep -qx -- '--tlsv1.2' "$T/curl.log" &&
	grep -qx -- '-fsSL' "$T/curl.log" && grep -qx "$URL/vpsbench-x86_64" "$T/curl.log" &&
	t_ok curl_https_only || t_fail curl_https_only "$(tr '\n' ' ' < "$T/curl.log")"
tmp_empty && t_ok tmpdir_removed || t_fail tmpdir_removed "$(ls -A "$T/tmp")"

# vpsbench's exit status is the installer's (3: below --require)
reset
FAKE_RC=3 inst "$T/install.sh" --require 'rand_iops>=1'; rc=$?
[ $rc -eq 3 ] && tmp_empty && t_ok exit_status_passes_through || t_fail exit_status_passes_through "rc=$rc"

# run as a file with `--` ending the installer options
reset
( cd "$T/cwd" && PATH=$FPATH TMPDIR=$T/tmp sh "$T/install.sh" -- --dry-run 'x y' ) >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && [ "$(sed -n 2,3p "$T/out")" = "$(printf '<--dry-run>\n<x y>')" ] &&
	t_ok double_dash_ends_options || t_fail double_dash_ends_options "$(cat "$T/out" "$T/err")"

# a truncated download runs nothing: cut after every 3rd line, after each
# of the last 12 lines, and at every byte of the last 40 (where the call
# of main is)
size=$(wc -c < "$T/install.sh") nl=$(wc -l < "$T/install.sh")
cuts="$(awk -v nl="$nl" '{ n += length($0) + 1 } NR % 3 == 0 || NR > nl - 12 { print n }' "$T/install.sh")
	$(seq $((size - 40)) $((size - 2)))"
ran=''
for n in $cuts; do
	[ "$n" -lt "$((size - 1))" ] || continue
	head -c "$n" "$T/install.sh" > "$T/trunc.sh"
	reset
	inst "$T/trunc.sh" --only sysinfo
	if [ -e "$T/mark" ] || [ -e "$T/curl.log" ] || ! tmp_empty || [ -s "$T/out" ]; then ran="$ran $n"; fi
done
[ -z "$ran" ] && t_ok truncated_runs_nothing || t_fail truncated_runs_nothing "cut at bytes:$ran"

# checksum mismatch: the served binary differs from the pinned one
reset
cp "$T/www/vpsbench-x86_64" "$T/good"
printf '# tampered\n' >> "$T/www/vpsbench-x86_64"
inst "$T/install.sh" --only sysinfo; rc=$?
if [ $rc -ne 0 ] && [ ! -e "$T/mark" ] && grep -q 'checksum mismatch' "$T/err" && grep -q "expected $SHA" "$T/err" &&
   [ ! -s "$T/out" ] && tmp_empty; then t_ok checksum_mismatch_aborts
else t_fail checksum_mismatch_aborts "rc=$rc $(cat "$T/err")"; fi
cp "$T/good" "$T/www/vpsbench-x86_64"

# unsupported architecture / system: clear message, nothing downloaded
for a in mips64 i686 armv7l riscv64; do
	reset
	FAKE_ARCH=$a inst "$T/install.sh"; rc=$?
	if [ $rc -ne 0 ] && grep -q "unsupported architecture: $a" "$T/err" && [ ! -e "$T/curl.log" ]; then
		t_ok "unsupported_arch_$a"; else t_fail "unsupported_arch_$a" "rc=$rc $(cat "$T/err")"; fi
done
reset
FAKE_OS=FreeBSD inst "$T/install.sh"; rc=$?
[ $rc -ne 0 ] && grep -q 'unsupported system: FreeBSD' "$T/err" && t_ok unsupported_os || t_fail unsupported_os "$(cat "$T/err")"
# arm64 maps to aarch64, which this installer has no pinned binary for
reset
FAKE_ARCH=arm64 inst "$T/install.sh"; rc=$?
[ $rc -ne 0 ] && grep -q 'no release binary for aarch64' "$T/err" && [ ! -e "$T/curl.log" ] &&
	t_ok arch_arm64_is_aarch64 || t_fail arch_arm64_is_aarch64 "$(cat "$T/err")"

# the release installer as `make dist` pins it: both architectures, each
# machine fetches and checks its own binary (uname -m faked)
sed 's/^echo "cwd=$PWD"$/echo "arch=aarch64"/' "$T/www/vpsbench-x86_64" > "$T/www/vpsbench-aarch64"
chmod 0755 "$T/www/vpsbench-aarch64"
SHA_A64=$(sha_of "$T/www/vpsbench-aarch64")
scripts/static-pin.sh install.sh "$T/both.sh" 0.1.0 "$URL" x86_64 "$SHA" 2>/dev/null &&
	scripts/static-pin.sh "$T/both.sh" "$T/both.sh" 0.1.0 "$URL" aarch64 "$SHA_A64" 2>/dev/null &&
	grep -qxF "SHA256_X86_64='$SHA'" "$T/both.sh" && grep -qxF "SHA256_AARCH64='$SHA_A64'" "$T/both.sh" &&
	t_ok pin_both_arches || t_fail pin_both_arches
for a in x86_64:x86_64 amd64:x86_64 aarch64:aarch64 arm64:aarch64; do
	m=${a%%:*} want=${a#*:}
	reset
	FAKE_ARCH=$m inst "$T/both.sh" 'y'; rc=$?
	if [ $rc -eq 0 ] && grep -qx "$URL/vpsbench-$want" "$T/curl.log" && [ "$(grep -c "$URL/" "$T/curl.log")" -eq 1 ] &&
	   grep -q "($want, SHA-256 verified)" "$T/err" && grep -qx '<y>' "$T/out" &&
	   { [ "$want" = x86_64 ] || grep -qx 'arch=aarch64' "$T/out"; } && tmp_empty; then
		t_ok "release_picks_${want}_on_$m"
	else t_fail "release_picks_${want}_on_$m" "rc=$rc $(cat "$T/err") $(tr '\n' ' ' < "$T/curl.log" 2>/dev/null)"; fi
done
# the x86_64 binary served under the aarch64 name fails aarch64's checksum
cp "$T/www/vpsbench-aarch64" "$T/good-a64"
cp "$T/www/vpsbench-x86_64" "$T/www/vpsbench-aarch64"
reset
FAKE_ARCH=aarch64 inst "$T/both.sh"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$T/mark" ] && grep -q 'checksum mismatch' "$T/err" && grep -q "expected $SHA_A64" "$T/err" &&
	t_ok release_aarch64_checksum || t_fail release_aarch64_checksum "rc=$rc $(cat "$T/err")"
cp "$T/good-a64" "$T/www/vpsbench-aarch64"

# a 32-bit userland on a 64-bit kernel (ELF class 1): said, and the
# 64-bit static binary still runs
REAL_OD=$(command -v od)
printf '#!/bin/sh\n[ -n "${FAKE_ELFCLASS:-}" ] && { echo " $FAKE_ELFCLASS"; exit 0; }\nexec "%s" "$@"\n' "$REAL_OD" > "$T/fake/od"
chmod 0755 "$T/fake/od"
reset
FAKE_ELFCLASS=01 inst "$T/install.sh" 'x'; rc=$?
[ $rc -eq 0 ] && grep -q '32-bit userland on a 64-bit x86_64 kernel' "$T/err" && grep -qx '<x>' "$T/out" &&
	t_ok userland_32bit_noted || t_fail userland_32bit_noted "rc=$rc $(cat "$T/err")"
reset
inst "$T/install.sh" 'x'; rc=$?
[ $rc -eq 0 ] && grep -qx '<x>' "$T/out" && ! grep -q '32-bit' "$T/err" && t_ok userland_64bit_silent \
	|| t_fail userland_64bit_silent "rc=$rc $(cat "$T/err")"

# an http:// release URL is refused before any download
sed "s|^RELEASE_BASE_URL=.*|RELEASE_BASE_URL='http://127.0.0.1:$PORT'|" "$T/install.sh" > "$T/http.sh"
reset
inst "$T/http.sh"; rc=$?
[ $rc -ne 0 ] && grep -q 'must be https' "$T/err" && [ ! -e "$T/curl.log" ] &&
	t_ok http_url_refused || t_fail http_url_refused "$(cat "$T/err")"

# --dry-run downloads nothing; --no-run keeps the verified binary
reset
inst "$T/install.sh" --dry-run --only sysinfo; rc=$?
[ $rc -eq 0 ] && grep -q 'would download' "$T/err" && [ ! -e "$T/curl.log" ] && [ ! -e "$T/mark" ] &&
	t_ok dry_run || t_fail dry_run "$(cat "$T/err")"
reset
inst "$T/install.sh" --no-run; rc=$?
if [ $rc -eq 0 ] && cmp -s "$T/cwd/vpsbench-x86_64" "$T/good" && [ -x "$T/cwd/vpsbench-x86_64" ] && [ ! -e "$T/mark" ]; then
	inst "$T/install.sh" --no-run; rc=$?
	[ $rc -ne 0 ] && grep -q 'not overwriting' "$T/err" && t_ok no_run_keeps_binary || t_fail no_run_keeps_binary "second: $(cat "$T/err")"
else t_fail no_run_keeps_binary "rc=$rc $(cat "$T/err")"; fi
rm -f "$T/cwd/vpsbench-x86_64"

# no curl: GNU wget with --https-only and TLS 1.2
mkdir -p "$T/nocurl"
for c in sh dash cat chmod cp cut dirname id mkdir mktemp rm sed sha256sum od tr grep head timeout; do
	p=$(command -v "$c") && ln -sf "$p" "$T/nocurl/$c"
done
ln -sf "$T/fake/wget" "$T/nocurl/wget"; ln -sf "$T/fake/uname" "$T/nocurl/uname"
reset
IPATH=$T/nocurl inst "$T/install.sh" 'a b'; rc=$?
[ $rc -eq 0 ] && grep -qx '<a b>' "$T/out" && grep -qx -- '--https-only' "$T/wget.log" &&
	grep -qx -- '--secure-protocol=TLSv1_2' "$T/wget.log" && tmp_empty &&
	t_ok wget_https_only || t_fail wget_https_only "rc=$rc $(cat "$T/err")"
# neither curl nor wget
rm -f "$T/nocurl/wget"; reset
IPATH=$T/nocurl inst "$T/install.sh"; rc=$?
[ $rc -ne 0 ] && grep -q 'need curl or wget' "$T/err" && tmp_empty && t_ok no_downloader ||
	t_fail no_downloader "$(cat "$T/err")"

# SIGTERM while the benchmark runs: the temp dir is still removed
reset
( cd "$T/cwd" && FAKE_SLEEP=30 PATH=$FPATH TMPDIR=$T/tmp exec sh "$T/install.sh" ) >"$T/out" 2>"$T/err" & ipid=$!
for _ in $(seq 100); do [ -s "$T/mark" ] && break; sleep 0.1; done
if [ -s "$T/mark" ] && ! tmp_empty; then
	kill -TERM "$ipid" "$(cat "$T/mark")"
	wait "$ipid"; rc=$?
	[ $rc -ne 0 ] && tmp_empty && t_ok sigterm_cleans_tmpdir || t_fail sigterm_cleans_tmpdir "rc=$rc $(ls -A "$T/tmp")"
else
	kill "$ipid" 2>/dev/null; wait "$ipid"
	t_fail sigterm_cleans_tmpdir "benchmark did not start: $(cat "$T/err")"
fi

# noexec TMPDIR (root: a noexec tmpfs): falls back to another directory
if t_is_root && mkdir -p "$T/noexec" && mount -t tmpfs -o noexec,size=8m tmpfs "$T/noexec" 2>/dev/null; then
	reset
	( cd "$T/cwd" && PATH=$FPATH TMPDIR=$T/noexec HOME=$T/tmp timeout 60 sh "$T/install.sh" 'n e' ) >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] && grep -qx '<n e>' "$T/out" && grep -q 'noexec' "$T/err" && [ -z "$(ls -A "$T/noexec")" ] &&
		t_ok noexec_tmp_fallback || t_fail noexec_tmp_fallback "rc=$rc $(cat "$T/err")"
	t_umount "$T/noexec"
else
	t_skip noexec_tmp_fallback "needs root to mount a noexec tmpfs"
fi

# --- from source (no release URL): dependencies only as root, never sudo ---
cat > "$T/fake/dpkg-query" <<EOF
#!/bin/sh
[ -n "\${FAKE_INSTALLED:-}" ] && printf 'install ok installed'
exit 0
EOF
cat > "$T/fake/id" <<'EOF'
#!/bin/sh
[ "$1" = -u ] && { echo "${FAKE_UID:-1000}"; exit 0; }
exec /usr/bin/id "$@"
EOF
for c in apt-get sudo; do
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s/%s.log"\n' "$T" "$c" > "$T/fake/$c"
done
chmod 0755 "$T/fake/"*
srcinst() { rm -f "$T/apt-get.log" "$T/sudo.log"; ( cd "$T/cwd" && PATH=$FPATH timeout 60 sh "$SRC/install.sh" "$@" ) >"$T/out" 2>"$T/err"; }
srcinst --deps-only; rc=$?
[ $rc -ne 0 ] && grep -q 'as root, run: apt-get install' "$T/err" && grep -q 'liburing-dev' "$T/err" &&
	[ ! -e "$T/sudo.log" ] && [ ! -e "$T/apt-get.log" ] && t_ok nonroot_explains_no_sudo ||
	t_fail nonroot_explains_no_sudo "rc=$rc $(cat "$T/err")"
FAKE_UID=0 srcinst --deps-only; rc=$?
[ $rc -eq 0 ] && grep -q '^update' "$T/apt-get.log" && grep -q '^install -y.*libcjson-dev' "$T/apt-get.log" &&
	[ ! -e "$T/sudo.log" ] && t_ok root_installs_deps || t_fail root_installs_deps "rc=$rc $(cat "$T/err")"
# the net module's iperf3 client is vpsbench's own: no libiperf anywhere
! grep -q 'iperf' "$T/apt-get.log" && ! grep -q '_DEPS=.*iperf' "$SRC/install.sh" && t_ok no_libiperf ||
	t_fail no_libiperf "$(cat "$T/apt-get.log")"
# every library the Makefile probes: the Debian package that owns its
# header here is on that apt-get line (a library left out builds its part
# as "unavailable: built without X")
if command -v dpkg >/dev/null 2>&1; then
	miss='' n=0
	for h in $(grep -o 'call probe,[^,]*' "$SRC/Makefile" | sed 's/.*[,<]//'); do
		f=$(printf '#include <stdint.h>\n#include <%s>\n' "$h" | cc -M -x c - 2>/dev/null | tr ' \\' '\n\n' |
			grep "/$h\$" | head -1)
		pkg=$(dpkg -S "$f" 2>/dev/null | head -1 | cut -d: -f1)
		[ -n "$pkg" ] || continue
		n=$((n + 1))
		grep -q "^install -y.* $pkg\( \|\$\)" "$T/apt-get.log" || miss="$miss $pkg($h)"
	done
	if [ "$n" -eq 0 ]; then t_skip apt_deps_cover_probes "no probed header installed from a package here"
	elif [ -z "$miss" ]; then t_ok "apt_deps_cover_probes ($n libraries)"
	else t_fail apt_deps_cover_probes "install.sh's APT_DEPS lacks:$miss"; fi
fi
FAKE_INSTALLED=1 srcinst --deps-only; rc=$?
[ $rc -eq 0 ] && grep -q 'already installed' "$T/err" && [ ! -e "$T/apt-get.log" ] &&
	t_ok deps_already_installed || t_fail deps_already_installed "rc=$rc $(cat "$T/err")"
FAKE_INSTALLED=1 srcinst --dry-run --only sysinfo; rc=$?
[ $rc -eq 0 ] && grep -q "would build in $SRC" "$T/err" && t_ok source_dry_run || t_fail source_dry_run "$(cat "$T/err")"
# piped with no release URL and no checkout: explains, builds nothing
reset
inst "$SRC/install.sh" --only sysinfo; rc=$?
[ $rc -ne 0 ] && grep -q 'not run from a checkout' "$T/err" && t_ok pipe_without_release_explains ||
	t_fail pipe_without_release_explains "$(cat "$T/err")"

# the real static binary through the installer, when it is built
if [ -x vpsbench-static ]; then
	cp vpsbench-static "$T/www/vpsbench-x86_64"
	scripts/static-pin.sh install.sh "$T/real.sh" "$(sed -n 's/^VERSION *:= *//p' Makefile)" "$URL" x86_64 \
		"$(sha_of vpsbench-static)" 2>/dev/null
	reset
	inst "$T/real.sh" --only sysinfo --format json --quiet; rc=$?
	[ $rc -eq 0 ] && grep -q '"schema"' "$T/out" && tmp_empty && t_ok real_static_binary ||
		t_fail real_static_binary "rc=$rc $(head -c 300 "$T/err")"
else
	t_skip real_static_binary "vpsbench-static not built (make static)"
fi
t_summary install
