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
# Knobs: PAIRS (3), CRYPTO_S (1, whole seconds: openssl -seconds), N (nproc), VPSBENCH, OPENSSL.
set -u
cd "$(dirname "$0")/../.." || exit 1
PAIRS=${PAIRS:-3}
CRYPTO_S=${CRYPTO_S:-1}
N=${N:-$(nproc)}
OPENSSL=${OPENSSL:-openssl}
# PIN=1 (default): openssl pinned as vpsbench pins its threads (1 process on
# the first CPU of the mask; N processes one per CPU, summed). On a VPS the
# vCPUs need not be equal (here AES-256-GCM ran 3.0 GB/s on CPU 0 and 4.7 on
# CPU 1), and an unpinned openssl drifts to the faster one. PIN=0: openssl's
# own placement and -multi N.
PIN=${PIN:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "${VPSBENCH:-./vpsbench}" "$tmp/vpsbench" || { echo "build first: make vpsbench"; exit 1; }
cpu_time=$(python3 -c "print('%gs' % ($CRYPTO_S / 0.08))")

median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:] if x != "-"]; print("%.3f" % statistics.median(v) if v else "-")' "$@"; }
ratio() { python3 -c 'import sys; a,b=sys.argv[1:]; print("%.3f" % (float(a)/float(b)) if "-" not in (a,b) else "-")' "$1" "$2"; }
# openssl speed -elapsed: "MB/s per-CPU-s-MB/s": the last "name NNNN.NNk" line
# (1000s of bytes per wall second) and, from the processes' rusage, bytes
# per CPU-second x threads (what each process does per CPU it got)
ossl() {
	python3 - "$OPENSSL" "$CRYPTO_S" "$1" "$2" "$PIN" <<'PY'
import os, re, resource, subprocess, sys
ossl, s, alg, n, pin = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
args = [ossl, "speed", "-elapsed", "-seconds", s, "-bytes", "16384", "-evp", alg]
def rate(out):
    v = [float(m.group(1)) for m in re.finditer(r"^\S+\s+([0-9.]+)k\s*$", out, re.M)]
    return v[-1] / 1000 if v else None
if pin:
    # as vpsbench pins its threads: process i on the i-th CPU of the mask,
    # all n started together, their MB/s summed
    cpus = sorted(os.sched_getaffinity(0))[:n]
    ps = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           preexec_fn=lambda c=c: os.sched_setaffinity(0, {c})) for c in cpus]
    rates = [rate(p.communicate()[0]) for p in ps]
    mbps = sum(rates) if rates and None not in rates else None
else:
    if n > 1:
        args += ["-multi", str(n)]
    mbps = rate(subprocess.run(args, capture_output=True, text=True).stdout)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if mbps is None:
    print("- -")
else:
    cpu = ru.ru_utime  # user time, as openssl speed itself counts without -elapsed
    print("%.1f %s" % (mbps, "%.1f" % (mbps * float(s) / cpu * n) if cpu > 0 else "-"))
PY
}

echo "vpsbench $("$tmp/vpsbench" --version | cut -d' ' -f2) vs $("$OPENSSL" version); N=$N; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-6s %10s %10s %7s %11s %11s %7s\n' test round vps_MBs ossl_MBs ratio vps_MBs/cpu ossl/cpu ratio
declare -A A B R AC BC RC
keys="aes1 aesn sha1 shan"
for i in $(seq 1 "$PAIRS"); do
	"$tmp/vpsbench" --only cpu --cpu-time "$cpu_time" --cpu-threads "$N" --json --quiet > "$tmp/a.json" 2>/dev/null
	for k in $keys; do
		case $k in
		aes1) jk=aes_256_gcm_single; alg=aes-256-gcm; n=1 ;;
		aesn) jk=aes_256_gcm_multi; alg=aes-256-gcm; n=$N ;;
		sha1) jk=sha256_single; alg=sha256; n=1 ;;
		shan) jk=sha256_multi; alg=sha256; n=$N ;;
		esac
		read -r a ac < <(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["cpu"]["crypto"].get(sys.argv[2])
ok = c and c["mbps"] and c["cpu_seconds"]
print("%.1f %.1f" % (c["mbps"], c["bytes"] / c["cpu_seconds"] / 1e6 * c["threads"]) if ok else "- -")' "$tmp/a.json" "$jk" 2>/dev/null || echo "- -")
		read -r b bc < <(ossl "$alg" "$n")
		r=$(ratio "$a" "$b"); r2=$(ratio "$ac" "$bc")
		A[$k]="${A[$k]:-} $a"; B[$k]="${B[$k]:-} $b"; R[$k]="${R[$k]:-} $r"
		AC[$k]="${AC[$k]:-} $ac"; BC[$k]="${BC[$k]:-} $bc"; RC[$k]="${RC[$k]:-} $r2"
		printf '%-6s %-6s %10s %10s %7s %11s %11s %7s\n' "$k" "$i" "$a" "$b" "$r" "$ac" "$bc" "$r2"
		if [ "$a" = - ] || [ "$b" = - ]; then echo "! a run failed ($k, round $i)"; fi
	done
done
for k in $keys; do
	# shellcheck disable=SC2086
	printf '%-6s %-6s %10s %10s %7s %11s %11s %7s\n' "$k" median "$(median ${A[$k]})" "$(median ${B[$k]})" \
		"$(median ${R[$k]})" "$(median ${AC[$k]})" "$(median ${BC[$k]})" "$(median ${RC[$k]})"
done
if [ "$PIN" = 1 ]; then
	echo "aes1/sha1 = 1 thread (1 process), aesn/shan = $N threads ($N openssl processes, one pinned per CPU"
	echo "as vpsbench's threads are, MB/s summed; PIN=0 for openssl -multi $N unpinned); MB = 10^6 B;"
else
	echo "aes1/sha1 = 1 thread (1 process), aesn/shan = $N threads (openssl -multi $N processes); MB = 10^6 B;"
fi
echo "16 KiB buffers; AES-256-GCM: each buffer one message (key+IV set, EncryptUpdate in place, Final), as"
echo "openssl speed 3.0.20+ does for AEAD ciphers; SHA-256: one EVP_Digest per buffer."
echo "/cpu = per CPU-second x threads (vpsbench's cpu_seconds, openssl's rusage): agrees on a loaded machine."
