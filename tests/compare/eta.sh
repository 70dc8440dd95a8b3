#!/bin/bash
# eta.sh — benchmark (not part of make test): how well the progress line's
# plan matches the real time, per module. Runs vpsbench ARGS (default: the
# whole default run in a temporary directory) on a pseudo-terminal, then
# takes, for each module, the "total" ETA of its first status line (the
# time the plan says is left from there) and the real time its steps took
# ("done in X s" lines); a module's planned time = its total minus the next
# module's. Prints planned, real and real / planned (target within 15%).
# Needs script(1) (util-linux). Prints `uptime` first and last.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
VPSBENCH=${VPSBENCH:-$here/vpsbench}
command -v script >/dev/null || { echo "eta: needs script (util-linux)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d"
[ $# -gt 0 ] || set -- --dir "$tmp/d"
echo "eta: $("$VPSBENCH" --version | head -1); $(uptime)"
t0=$(date +%s.%N)
script -q -c "$(printf '%q ' "$VPSBENCH" "$@") --no-color" /dev/null > "$tmp/out" 2>&1 < /dev/null
t1=$(date +%s.%N)
python3 - "$tmp/out" "$t0" "$t1" <<'PY'
import re, sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
wall = float(sys.argv[3]) - float(sys.argv[2])
first, real, order = {}, {}, []
for frag in re.split(r"\r\x1b\[2K|\r|\n", out):
    m = re.match(r"(\w+) .*\[eta [^,]*, total (?:(\d+)h)?(\d\d)m:(\d\d)s\]", frag)
    if m and m.group(1) not in first:
        first[m.group(1)] = int(m.group(2) or 0) * 3600 + int(m.group(3)) * 60 + int(m.group(4))
        if m.group(1) not in order:
            order.append(m.group(1))
    d = re.match(r"vpsbench: (\w+): .*: done in ([0-9.]+) s", frag)
    if d:
        real[d.group(1)] = real.get(d.group(1), 0) + float(d.group(2))
        if d.group(1) not in order:
            order.append(d.group(1))
print("%-8s %9s %9s %8s" % ("module", "planned", "real", "ratio"))
mods = [m for m in order if m in first]
bad = 0
for i, m in enumerate(mods):
    nxt = first[mods[i + 1]] if i + 1 < len(mods) else 0
    plan = first[m] - nxt
    r = real.get(m, 0)
    ratio = r / plan if plan > 0 else float("nan")
    ok = abs(ratio - 1) <= 0.15
    bad += not ok
    print("%-8s %8.1fs %8.1fs %8.2f%s" % (m, plan, r, ratio, "" if ok else "  (off by more than 15%)"))
print("whole run: %.1f s wall; modules' steps %.1f s" % (wall, sum(real.values())))
PY
echo "eta: $(uptime)"
