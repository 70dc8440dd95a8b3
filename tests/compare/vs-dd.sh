#!/bin/bash
# vs-dd.sh — benchmark (not part of make test): vpsbench's seq write and
# read passes against dd on the same directory, alternating A B A B.
#   write: vpsbench --only seq --seq-runs 1 --seq-size 1G --seq-bs 64K
#          vs dd if=<random file in page cache> bs=64k count=16k conv=fdatasync
#   read:  vpsbench's O_DIRECT read vs dd if=X of=/dev/null bs=64k iflag=direct
# Usage: tests/compare/vs-dd.sh [DIR] (default: a mktemp -d under the
# current directory); PAIRS=N (default 3). Targets: write within ±10% of
# dd, read within ±15% (median ratio vpsbench/dd).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
pairs=${PAIRS:-3}
[ "$pairs" -ge 3 ] 2>/dev/null || { echo "vs-dd: PAIRS must be >= 3" >&2; exit 1; }
[ -x "$VPSBENCH" ] || { echo "vs-dd: $VPSBENCH not built (run make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "vs-dd: needs python3" >&2; exit 1; }

if [ $# -ge 1 ]; then
	dir=$1; made=""
	[ -d "$dir" ] || { echo "vs-dd: $dir is not a directory" >&2; exit 1; }
	work=$(mktemp -d "$dir/vs-dd.XXXXXX") || exit 1
else
	work=$(mktemp -d "$PWD/vs-dd.XXXXXX") || exit 1; made=1
fi
trap 'rm -rf "$work"' EXIT INT TERM HUP
: "${made:=}"

# dd's input: 1 GiB of random data, read once so dd reads it from the page cache
head -c 1G /dev/urandom > "$work/src.rand" || exit 1
cat "$work/src.rand" > /dev/null
mkdir "$work/t"

dd_rate() { # prints decimal MB/s from dd's byte count and seconds
	LC_ALL=C dd "$@" 2>&1 >/dev/null | tail -n 1 |
		sed -nE 's/^([0-9]+) bytes .* copied, ([0-9.e+-]+) s, .*/\1 \2/p' |
		awk '{ if ($2 > 0) printf "%.1f\n", $1 / $2 / 1e6 }'
}

vw=(); vr=(); dw=(); dr=()
printf '%-5s %14s %14s %7s   %14s %14s %7s\n' pair "vps write" "dd write" ratio "vps read" "dd read" ratio
for i in $(seq 1 "$pairs"); do
	# A: vpsbench
	out=$("$VPSBENCH" --only seq --seq-runs 1 --seq-size 1G --seq-bs 64K --json --quiet --dir "$work/t")
	read -r a_w a_r < <(printf '%s' "$out" | python3 -c '
import json, sys
s = json.load(sys.stdin)["seq"]
w = s["write"]["runs"][0]["mbps"] if s["write"]["runs"] else None
r = s["read"]["mbps"] if s["read"]["direct"] else None
print("%.1f %.1f" % (w or 0, r or 0))')
	sync
	# B: dd
	b_w=$(dd_rate if="$work/src.rand" of="$work/t/X" bs=64k count=16k conv=fdatasync)
	b_r=$(dd_rate if="$work/t/X" of=/dev/null bs=64k iflag=direct)
	rm -f "$work/t/X"; sync
	vw+=("$a_w"); vr+=("$a_r"); dw+=("$b_w"); dr+=("$b_r")
	printf '%-5s %9s MB/s %9s MB/s %7s   %9s MB/s %9s MB/s %7s\n' "$i" "$a_w" "$b_w" \
		"$(awk -v a="$a_w" -v b="$b_w" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" "$a_r" "$b_r" \
		"$(awk -v a="$a_r" -v b="$b_r" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios() { # per-pair ratios of two arrays given as "a1 a2 ..." "b1 b2 ..."
	paste <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") | awk '$2 > 0 { printf "%.4f\n", $1 / $2 }'
}
rw=$(median $(ratios "${vw[*]}" "${dw[*]}"))
rr=$(median $(ratios "${vr[*]}" "${dr[*]}"))
echo "median write: vpsbench $(median "${vw[@]}") MB/s, dd $(median "${dw[@]}") MB/s, ratio $rw (target 0.90-1.10)"
echo "median read:  vpsbench $(median "${vr[@]}") MB/s, dd $(median "${dr[@]}") MB/s, ratio $rr (target 0.85-1.15)"
ok=1
awk -v r="$rw" 'BEGIN { exit !(r >= 0.90 && r <= 1.10) }' || { echo "write ratio outside ±10%"; ok=0; }
awk -v r="$rr" 'BEGIN { exit !(r >= 0.85 && r <= 1.15) }' || { echo "read ratio outside ±15%"; ok=0; }
[ "$ok" = 1 ]
