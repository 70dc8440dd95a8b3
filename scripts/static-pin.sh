#!/bin/sh
# static-pin.sh IN OUT VERSION BASE_URL ARCH SHA256 — write the release
# install.sh: the version, the release base URL (https only, may be empty)
# and the pinned SHA-256 of ARCH's binary filled in at the top of IN.
set -eu
[ $# -eq 6 ] || { echo "usage: static-pin.sh IN OUT VERSION BASE_URL ARCH SHA256" >&2; exit 1; }
in=$1 out=$2 ver=$3 url=$4 arch=$5 sum=$6
fail() { printf 'static-pin: %s\n' "$*" >&2; exit 1; }
case $url in
''|https://*) ;;
*) fail "RELEASE_URL must be https:// ($url)" ;;
esac
printf '%s' "$sum" | grep -Eq '^[0-9a-f]{64}$' || fail "not a SHA-256: $sum"
case $arch in
x86_64) var=SHA256_X86_64 ;;
aarch64) var=SHA256_AARCH64 ;;
*) fail "unknown arch $arch" ;;
esac
# The values land single-quoted in sed replacements and in the script:
# only plain URL characters are accepted.
[ -z "$url" ] || printf '%s' "$url" | grep -Eq '^[A-Za-z0-9._~:/?#@!+,;=%-]*$' || fail "RELEASE_URL has characters other than a plain URL's: $url"
tmp=$out.tmp
sed -e "s|^VPSBENCH_VERSION='[^']*'|VPSBENCH_VERSION='$ver'|" \
    -e "s|^RELEASE_BASE_URL='[^']*'|RELEASE_BASE_URL='$url'|" \
    -e "s|^$var='[^']*'|$var='$sum'|" "$in" > "$tmp"
for want in "VPSBENCH_VERSION='$ver'" "RELEASE_BASE_URL='$url'" "$var='$sum'"; do
	grep -qxF "$want" "$tmp" || { rm -f "$tmp"; fail "$in has no line to pin: $want"; }
done
sh -n "$tmp" || { rm -f "$tmp"; fail "pinned installer does not parse"; }
chmod 0755 "$tmp"
mv "$tmp" "$out"
[ -n "$url" ] || echo "static-pin: note: RELEASE_URL is empty, so $out builds from source; make dist RELEASE_URL=https://host/path pins the download" >&2
printf 'static-pin: %s: vpsbench %s, %s %s\n' "$out" "$ver" "$arch" "$sum" >&2
