#!/bin/sh
# static-check.sh BINARY — refuse a "static" binary that is not: no INTERP
# program header, no dynamic section, and at most 3.0 MiB stripped (2.5 MiB until the cpu, mem and net modules).
set -eu
bin=${1:?usage: static-check.sh BINARY}
max=$((3 * 1024 * 1024))
fail() { printf 'static-check: %s: %s\n' "$bin" "$*" >&2; exit 1; }
[ -f "$bin" ] || fail "no such file"
hdr=$(readelf -lW "$bin") || fail "readelf -l failed"
printf '%s\n' "$hdr" | grep -q 'INTERP' && fail "has an INTERP header (dynamically linked)"
readelf -dW "$bin" | grep -q 'There is no dynamic section' || fail "has a dynamic section"
size=$(wc -c < "$bin")
[ "$size" -le "$max" ] || fail "$size bytes stripped, more than the 3.0 MiB budget ($max)"
printf 'static-check: %s: static, %s bytes (%s KiB) stripped\n' "$bin" "$size" "$((size / 1024))"
