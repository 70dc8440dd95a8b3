#!/bin/bash
# vs-dd.sh — benchmark (not part of make test): vpsbench's seq write and
# read passes against dd on the same directory, alternating A B A B.
#   write: vpsbench --only seq --seq-runs 1 --seq-size 1G --seq-bs 64K
#          vs dd if=<random file in page cache> bs=64k count=16k conv=fdatasync
#   read:  vpsbench's O_DIRECT read vs dd if=X of=/dev/null bs=64k iflag=direct
#
# Two scenarios:
#   host       the directory as it is. On a host-cached disk that takes
#              1-2 GB/s, dd's copy of its own input (read() from the page
#              cache, a second memcpy per block) is a fifth of its time, so
#              each round also times that copy alone (dd if=SRC
#              of=/dev/null) and prints the ratio against dd minus it.
#   throttled  (root, cgroup v1 blkio) both tools run in a child cgroup whose
#              writes to the directory's disk are capped at THROTTLE_MBPS
#              (default 200, decimal MB/s): the disk, not the CPU, is the
#              bottleneck, as on a typical VPS. Other processes are untouched.
# Usage: tests/compare/vs-dd.sh [DIR] (default: a mktemp -d under the
# current directory); PAIRS=N (default 3), SCENARIOS="host throttled",
# THROTTLE_MBPS=N, SIZE_MB (1024). Targets: write within ±10% of dd (host:
# of dd-net), read within ±15% (median of per-round ratios vpsbench/dd).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
pairs=${PAIRS:-3}
scenarios=${SCENARIOS:-host throttled}
throttle=${THROTTLE_MBPS:-200}
size_mb=${SIZE_MB:-1024}
[ "$pairs" -ge 3 ] 2>/dev/null || { echo "vs-dd: PAIRS must be >= 3" >&2; exit 1; }
[ "$throttle" -gt 0 ] 2>/dev/null || { echo "vs-dd: THROTTLE_MBPS must be > 0" >&2; exit 1; }
[ "$size_mb" -ge 64 ] 2>/dev/null || { echo "vs-dd: SIZE_MB must be >= 64" >&2; exit 1; }
[ -x "$VPSBENCH" ] || { echo "vs-dd: $VPSBENCH not built (run make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "vs-dd: needs python3" >&2; exit 1; }

if [ $# -ge 1 ]; then
	[ -d "$1" ] || { echo "vs-dd: $1 is not a directory" >&2; exit 1; }
	work=$(mktemp -d "$1/vs-dd.XXXXXX") || exit 1
else
	work=$(mktemp -d "$PWD/vs-dd.XXXXXX") || exit 1
fi
cg=""
cleanup() {
	[ -n "$cg" ] && [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# dd's input: random data, read once so dd reads it from the page cache
head -c "${size_mb}M" /dev/urandom > "$work/src.rand" || exit 1
cat "$work/src.rand" > /dev/null
mkdir "$work/t"
count=$(( size_mb * 16 )) # 64 KiB blocks

# in_cg CMD...: CMD inside the throttled cgroup when there is one
in_cg() {
	if [ -n "$cg" ]; then
		bash -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' _ "$cg" "$@"
	else
		"$@"
	fi
}
dd_bs() { # prints "bytes seconds" from dd's last line
	LC_ALL=C in_cg dd "$@" 2>&1 >/dev/null | tail -n 1 |
		sed -nE 's/^([0-9]+) bytes .* copied, ([0-9.e+-]+) s, .*/\1 \2/p'
}
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f\n", b / s / 1e6; else print 0 }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratios() { # per-pair ratios of two arrays given as "a1 a2 ..." "b1 b2 ..."
	paste <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") | awk '$2 > 0 { printf "%.4f\n", $1 / $2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# the whole disk under DIR as MAJ:MIN (blk-throttle takes disks, not partitions)
disk_of() {
	local d sys
	d=$(stat -c '%Hd:%Ld' "$1") || return 1
	sys=$(readlink -f "/sys/dev/block/$d") || return 1
	[ -e "$sys/partition" ] && sys=$(dirname "$sys")
	cat "$sys/dev" 2>/dev/null
}

ok=1
for sc in $scenarios; do
	case $sc in
	host) cg="" ;;
	throttled)
		blk=/sys/fs/cgroup/blkio
		dev=$(disk_of "$work/t" 2>/dev/null)
		if [ "$(id -u)" -ne 0 ] || [ ! -w "$blk/cgroup.procs" ] || [ -z "$dev" ]; then
			echo "[throttled] skipped: needs root, cgroup v1 blkio and a block device under $work"
			continue
		fi
		cg=$(mktemp -d "$blk/vs-dd.XXXXXX") || { echo "[throttled] skipped: no cgroup"; cg=""; continue; }
		if ! echo "$dev $(( throttle * 1000000 ))" > "$cg/blkio.throttle.write_bps_device" 2>/dev/null; then
			echo "[throttled] skipped: cannot throttle $dev"; rmdir "$cg"; cg=""; continue
		fi
		;;
	*) echo "vs-dd: unknown scenario '$sc' (host throttled)" >&2; continue ;;
	esac
	echo
	if [ -n "$cg" ]; then
		echo "[throttled] writes to disk $dev capped at $throttle MB/s for both tools; ${size_mb} MiB, $pairs pairs"
	else
		echo "[host] $(df --output=source "$work" | tail -n 1), $(stat -f -c %T "$work"); ${size_mb} MiB, $pairs pairs"
	fi
	# Warm-up, not counted: the first big writer after a quiet spell pays
	# for faulting in page-cache memory the VM's host had taken back (seen:
	# 370 MB/s, then 2000 MB/s for the same run repeated).
	sync
	in_cg "$VPSBENCH" --only seq --seq-runs 1 --seq-size "${size_mb}M" --quiet --dir "$work/t" >/dev/null
	in_cg dd if="$work/src.rand" of="$work/t/X" bs=64k count="$count" conv=fdatasync status=none
	rm -f "$work/t/X"
	vw=(); vr=(); dw=(); dr=(); dn=()
	printf '%-5s %14s %14s %7s %13s %7s   %14s %14s %7s\n' pair "vps write" "dd write" ratio \
		"dd-net write" ratio "vps read" "dd read" ratio
	for i in $(seq 1 "$pairs"); do
		# A: vpsbench (write, then its O_DIRECT read of the same file)
		sync
		out=$(in_cg "$VPSBENCH" --only seq --seq-runs 1 --seq-size "${size_mb}M" --seq-bs 64K \
			--json --quiet --dir "$work/t")
		read -r a_w a_r < <(printf '%s' "$out" | python3 -c '
import json, sys
s = json.load(sys.stdin)["seq"]
w = s["write"]["runs"][0]["mbps"] if s["write"]["runs"] else None
r = s["read"]["mbps"] if s["read"]["direct"] else None
print("%.1f %.1f" % (w or 0, r or 0))')
		# B: dd write and read, then dd's input copy alone (no output)
		sync
		read -r wb ws < <(dd_bs if="$work/src.rand" of="$work/t/X" bs=64k count="$count" conv=fdatasync)
		read -r rb rs < <(dd_bs if="$work/t/X" of=/dev/null bs=64k iflag=direct)
		read -r _ cs < <(dd_bs if="$work/src.rand" of=/dev/null bs=64k count="$count")
		rm -f "$work/t/X"
		b_w=$(mbps "$wb" "$ws"); b_r=$(mbps "$rb" "$rs")
		b_n=$(awk -v b="$wb" -v s="$ws" -v c="$cs" 'BEGIN { n = s - c; if (n > 0) printf "%.1f\n", b / n / 1e6; else print 0 }')
		vw+=("$a_w"); vr+=("$a_r"); dw+=("$b_w"); dr+=("$b_r"); dn+=("$b_n")
		printf '%-5s %9s MB/s %9s MB/s %7s %8s MB/s %7s   %9s MB/s %9s MB/s %7s\n' "$i" \
			"$a_w" "$b_w" "$(ratio "$a_w" "$b_w")" "$b_n" "$(ratio "$a_w" "$b_n")" \
			"$a_r" "$b_r" "$(ratio "$a_r" "$b_r")"
	done
	mapfile -t q < <(ratios "${vw[*]}" "${dw[*]}"); rw=$(median "${q[@]}")
	mapfile -t q < <(ratios "${vw[*]}" "${dn[*]}"); rn=$(median "${q[@]}")
	mapfile -t q < <(ratios "${vr[*]}" "${dr[*]}"); rr=$(median "${q[@]}")
	echo "median write: vpsbench $(median "${vw[@]}") MB/s, dd $(median "${dw[@]}") MB/s, ratio $rw (target 0.90-1.10)"
	echo "  dd less its input copy (dd-net): $(median "${dn[@]}") MB/s, ratio $rn"
	echo "median read:  vpsbench $(median "${vr[@]}") MB/s, dd $(median "${dr[@]}") MB/s, ratio $rr (target 0.85-1.15)"
	# Unthrottled, dd's figure carries its input copy: judge against dd-net.
	judged=$rw; what=ratio
	[ -z "$cg" ] && { judged=$rn; what="dd-net ratio"; }
	if awk -v r="$judged" 'BEGIN { exit !(r >= 0.90 && r <= 1.10) }'; then
		echo "[$sc] write: $what $judged within ±10%"
	else
		echo "[$sc] write: $what $judged outside ±10%"; ok=0
	fi
	if awk -v r="$rr" 'BEGIN { exit !(r >= 0.85 && r <= 1.15) }'; then
		echo "[$sc] read: ratio $rr within ±15%"
	else
		echo "[$sc] read: ratio $rr outside ±15%"; ok=0
	fi
	[ -n "$cg" ] && { rmdir "$cg"; cg=""; }
done
[ "$ok" = 1 ]
