#!/bin/bash
# vs-openssl.sh — vpsbench's crypto passes against `openssl speed`
# (Debian's openssl), alternately A B A B, PAIRS rounds of
#   A: vpsbench --only cpu --cpu-time CRYPTO_S/0.08 (each crypto pass runs
#      8% of --cpu-time: CRYPTO_S seconds), AES-256-GCM and SHA-256 MB/s
#      on 1 and N threads
#   B: openssl speed -elapsed -seconds CRYPTO_S -bytes 16384 -evp aes-256-gcm
#      and -evp sha256, plain (1 process) and with -multi N
# printing each round, the medians and the median of the per-round ratios.
# A benchmark, not a test: exits 0 once the table is printed.
# Knobs: PAIRS (3), CRYPTO_S (1), N (nproc), VPSBENCH, OPENSSL.
set -u
cd "$(dirname "$0")/../.." || exit 1
PAIRS=${PAIRS:-3}
CRYPTO_S=${CRYPTO_S:-1}
N=${N:-$(nproc)}
OPENSSL=${OPENSSL:-openssl}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "${VPSBENCH:-./vpsbench}" "$tmp/vpsbench" || { echo "build first: make vpsbench"; exit 1; }
cpu_time=$(python3 -c "print('%gs' % ($CRYPTO_S / 0.08))")

median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x != "-"]; print("%.3f" % statistics.median(v) if v else "-")' "$@"; }
# openssl speed: the last "name  NNNN.NNk" line, 1000s of bytes/s -> MB/s
ossl() {
	local alg=$1 multi=$2
	# shellcheck disable=SC2086 # $multi is "" or "-multi N"
	"$OPENSSL" speed -elapsed -seconds "$CRYPTO_S" -bytes 16384 $multi -evp "$alg" 2>/dev/null |
		awk '$NF ~ /^[0-9.]+k$/ { v = $NF } END { if (v) { sub(/k$/, "", v); printf "%.1f\n", v / 1000 } else print "-" }'
}

echo "vpsbench $("$tmp/vpsbench" --version | cut -d' ' -f2) vs $("$OPENSSL" version); N=$N; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %-6s %12s %12s %8s\n' test round vpsbench_MBs openssl_MBs ratio
declare -A A B R
keys="aes1 aesn sha1 shan"
for i in $(seq 1 "$PAIRS"); do
	"$tmp/vpsbench" --only cpu --cpu-time "$cpu_time" --cpu-threads "$N" --json --quiet > "$tmp/a.json" 2>/dev/null
	# shellcheck disable=SC2034 # read back through eval below
	read -r a_aes1 a_aesn a_sha1 a_shan < <(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cpu"]["crypto"]
f = lambda k: "%.1f" % c[k]["mbps"] if c.get(k) and c[k]["mbps"] else "-"
print(f("aes_256_gcm_single"), f("aes_256_gcm_multi"), f("sha256_single"), f("sha256_multi"))' "$tmp/a.json" 2>/dev/null || echo "- - - -")
	# shellcheck disable=SC2034
	b_aes1=$(ossl aes-256-gcm "")
	# shellcheck disable=SC2034
	b_aesn=$(ossl aes-256-gcm "-multi $N")
	# shellcheck disable=SC2034
	b_sha1=$(ossl sha256 "")
	# shellcheck disable=SC2034
	b_shan=$(ossl sha256 "-multi $N")
	for k in $keys; do
		a=$(eval echo "\$a_$k"); b=$(eval echo "\$b_$k")
		r=$(python3 -c 'import sys; a,b=sys.argv[1:]; print("%.3f" % (float(a)/float(b)) if "-" not in (a,b) else "-")' "$a" "$b")
		A[$k]="${A[$k]:-} $a"; B[$k]="${B[$k]:-} $b"; R[$k]="${R[$k]:-} $r"
		printf '%-22s %-6s %12s %12s %8s\n' "$k" "$i" "$a" "$b" "$r"
		[ "$a" = - ] || [ "$b" = - ] && echo "! a run failed ($k, round $i)"
	done
done
for k in $keys; do
	# shellcheck disable=SC2086
	printf '%-22s %-6s %12s %12s %8s\n' "$k" median "$(median ${A[$k]})" "$(median ${B[$k]})" "$(median ${R[$k]})"
done
echo "aes1/sha1 = 1 thread (1 process), aesn/shan = $N threads (openssl -multi $N processes); MB = 10^6 B;"
echo "16 KiB buffers; AES-256-GCM: EVP_EncryptUpdate in place, SHA-256: one EVP_Digest per buffer."
