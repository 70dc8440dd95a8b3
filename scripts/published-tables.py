#!/usr/bin/env python3
"""published-tables.py — compiles data/published/*.csv into grade/published_data.c,
the tables the binary embeds (format: grade/published.h).

    python3 scripts/published-tables.py [--data DIR] [--out FILE] [--check]

Without --check it (re)writes the output file. With --check it writes nothing
and exits 1 naming the first difference when the committed file is not what
the CSVs give (tests/smoke_published.sh runs this). A malformed or foreign CSV
(a missing column, a value that is not a number) stops it with one line
naming file:line and the column, exit 1.

What goes in:
  yabs_disk.csv    per block size (4k, 64k, 512k, 1m): fio_total_iops (IOPS,
                   from total_iops) and fio_total_mbps (yabs's MB/s = KiB/s /
                   1000, from total_mbps); every run of every kind (the
                   filters decide).
  sysbench_cpu.csv only mode "Fast Mode, 1-Pass @ 5sec" (ecs/NodeQuality):
                   单核 -> sysbench_1t_eps, 多核 -> sysbench_all_eps
                   (events/s). The LemonBench-style lines ("Standard Mode,
                   3-Pass @ 30sec", or no mode) are another workload and left
                   out.
  benchsh_dd.csv   dd_write_mbps from io_avg_mbps (MB/s as the script prints
                   it). bench.sh's "I/O Speed" is `dd if=/dev/zero bs=512k
                   count=2048 conv=fdatasync`, 3 runs. bench.monster's "Disk
                   Speed" (laset-com/speedtest, speedtest.sh write_test(), read
                   in all 497 versions of its history that have it) is the same
                   command, `dd if=/dev/zero bs=512K count=$N conv=fdatasync`,
                   3 runs averaged, with N = 2048 when `df -m .` shows more than
                   1024 MB free (1024, 512, 256 below that; its output does not
                   print N). Both convert GB/s x 1024. So every row is the
                   1 GiB command unless the machine had under 1 GiB free: all
                   rows are kept. A row without io_avg_mbps (empty) is left
                   out.
  yabs_net.csv     iperf_send_mbits / iperf_recv_mbits (Mbits/sec) per
                   (iperf_server, iperf_location, ip) whose table has at least
                   NET_MIN_ROWS rows with a figure (empty = "busy": left out).

Runs (pub_runs): one per yabs run_id (disk and net rows share it), then one
per sysbench machine (key source_url, provider, plan, cpu_model, vcpus; its
单核 and 多核 lines, in file order; a label seen again under the same key
starts the next machine of that key), then one per dd row.
  kind    yabs: the run's `kind` (vps, dedicated, anything else printed:
          other; empty: unknown). sysbench/dd: the kind of the yabs runs with
          the same source_url when they agree on one, else unknown.
  vcpus   the integer printed, 0 when empty.
  year    `date` (YYYY-...) - 2000; 0 when empty.
  cached  yabs run whose 1m total_mbps > 15000.
first_of_machine, per table: machines are yabs's machine_group, and
(provider, plan, cpu_model, vcpus) for sysbench and dd; in a machine, runs
are ordered by date (undated after dated), ties by id (run_id, the first
sb_id, bench_id); the first run of the machine that has an entry in the
table is marked.

Values are exact scaled integers (value x 10^decimals, decimals = the most
the table's strings print), taken from the CSV strings, never through float.
"""
import argparse
import csv
import os
import re
import sys

NET_MIN_ROWS = 20
CACHED_MBPS_X1000 = 15000 * 1000     # 15000 yabs MB/s, in thousandths
BS = [("4k", 4096), ("64k", 65536), ("512k", 524288), ("1m", 1048576)]
SB_MODE = "Fast Mode, 1-Pass @ 5sec"
SB_LABELS = {"单核": "sysbench_1t_eps", "多核": "sysbench_all_eps"}
KIND = {"": 0, "vps": 1, "dedicated": 2}   # anything else printed: 3 (other)
KIND_NAME = {0: "PUB_KIND_UNKNOWN", 1: "PUB_KIND_VPS", 2: "PUB_KIND_DEDICATED",
             3: "PUB_KIND_OTHER"}
NUM = re.compile(r"^[0-9]+(\.[0-9]+)?$")
DATE = re.compile(r"^(20[0-9]{2})-[0-9]{2}(-[0-9]{2})?")

COLS = {
    "yabs_disk.csv": ["run_id", "source_url", "date", "vcpus", "bs", "total_mbps",
                      "total_iops", "kind", "machine_group"],
    "yabs_net.csv": ["run_id", "ip", "iperf_server", "iperf_location", "send_mbits",
                     "recv_mbits"],
    "sysbench_cpu.csv": ["sb_id", "source_url", "date", "provider", "plan", "cpu_model",
                         "vcpus", "label", "score", "mode"],
    "benchsh_dd.csv": ["bench_id", "script", "source_url", "date", "provider", "plan",
                       "cpu_model", "vcpus", "io_avg_mbps"],
}


class DataError(Exception):
    pass


def read_csv(data, name):
    """Rows of data/name as (line, dict); checks the columns are there."""
    path = os.path.join(data, name)
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise DataError(f"{path}: open: {e.strerror}")
    with f:
        rd = csv.reader(f)
        try:
            head = next(rd)
        except StopIteration:
            raise DataError(f"{path}:1: empty file, no header")
        except (csv.Error, UnicodeDecodeError) as e:
            raise DataError(f"{path}:1: not CSV: {e}")
        for c in COLS[name]:
            if c not in head:
                raise DataError(f"{path}:1: column \"{c}\" missing (not a {name} of data/published)")
        rows = []
        try:
            for r in rd:
                if not r:
                    continue
                if len(r) != len(head):
                    raise DataError(f"{path}:{rd.line_num}: {len(r)} fields, the header has {len(head)}")
                rows.append((rd.line_num, dict(zip(head, r))))
        except (csv.Error, UnicodeDecodeError) as e:
            raise DataError(f"{path}:{rd.line_num}: not CSV: {e}")
    return path, rows


def number(path, line, col, s, empty_ok=False):
    """The decimal string s checked: None when empty (and allowed)."""
    if s == "" and empty_ok:
        return None
    if not NUM.match(s):
        raise DataError(f"{path}:{line}: column {col}: \"{s}\" is not a number")
    return s


def scaled(s, decimals):
    """The decimal string s x 10^decimals, an exact integer."""
    whole, _, frac = s.partition(".")
    return int(whole) * 10 ** decimals + (int(frac.ljust(decimals, "0")) if frac else 0)


def ndec(s):
    return len(s.partition(".")[2])


def year_of(path, line, s):
    if s == "":
        return 0
    m = DATE.match(s)
    if not m:
        raise DataError(f"{path}:{line}: column date: \"{s}\" is not YYYY-MM-DD")
    return int(m.group(1)) - 2000


def vcpus_of(path, line, s):
    if s == "":
        return 0
    if not re.match(r"^[0-9]+$", s) or int(s) > 255:
        raise DataError(f"{path}:{line}: column vcpus: \"{s}\" is not a vCPU count")
    return int(s)


def kind_of(s):
    return KIND.get(s, 3)


class Run:
    def __init__(self, rid, kind, vcpus, year, date, machine):
        self.id, self.kind, self.vcpus, self.year = rid, kind, vcpus, year
        self.date, self.machine, self.cached = date, machine, 0


def load(data):
    """The runs and the tables' raw entries [(value string, run index)]."""
    runs = []
    tables = []     # dicts: metric set bs server location family unit entries
    summary = {}

    # yabs_disk.csv
    path, rows = read_csv(data, "yabs_disk.csv")
    yabs = {}
    disk = {(m, b): [] for _, b in BS for m in ("fio_total_iops", "fio_total_mbps")}
    bsmap = dict(BS)
    dates = []
    url_kinds = {}
    for line, r in rows:
        if r["run_id"] == "":
            raise DataError(f"{path}:{line}: column run_id: empty")
        if r["bs"] not in bsmap:
            raise DataError(f"{path}:{line}: column bs: \"{r['bs']}\" is not 4k, 64k, 512k or 1m")
        y = year_of(path, line, r["date"])
        v = vcpus_of(path, line, r["vcpus"])
        iops = number(path, line, "total_iops", r["total_iops"], empty_ok=True)
        mbps = number(path, line, "total_mbps", r["total_mbps"], empty_ok=True)
        if r["run_id"] not in yabs:
            yabs[r["run_id"]] = len(runs)
            runs.append(Run(r["run_id"], kind_of(r["kind"]), v, y, r["date"],
                            ("yabs", r["machine_group"] or r["run_id"])))
            url_kinds.setdefault(r["source_url"], set()).add(kind_of(r["kind"]))
            if r["date"]:
                dates.append(r["date"][:7])
        ri = yabs[r["run_id"]]
        b = bsmap[r["bs"]]
        if iops is not None:
            disk[("fio_total_iops", b)].append((iops, ri))
        if mbps is not None:
            disk[("fio_total_mbps", b)].append((mbps, ri))
            if b == 1048576 and scaled(mbps, 3) > CACHED_MBPS_X1000:
                runs[ri].cached = 1
    for _, b in BS:
        tables.append(dict(metric="fio_total_iops", set="PUB_SET_YABS_DISK", bs=b,
                           unit="IOPS", entries=disk[("fio_total_iops", b)]))
        tables.append(dict(metric="fio_total_mbps", set="PUB_SET_YABS_DISK", bs=b,
                           unit="MB/s", entries=disk[("fio_total_mbps", b)]))
    summary["yabs"] = (len(yabs), min(dates) if dates else "", max(dates) if dates else "")

    def kind_by_url(url):
        k = url_kinds.get(url, set())
        return next(iter(k)) if len(k) == 1 else 0

    # sysbench_cpu.csv
    path, rows = read_csv(data, "sysbench_cpu.csv")
    sb = {t: [] for t in SB_LABELS.values()}
    cur = {}        # key -> (run index, labels seen)
    nlines = 0
    for line, r in rows:
        if r["mode"] != SB_MODE:
            continue
        if r["label"] not in SB_LABELS:
            raise DataError(f"{path}:{line}: column label: \"{r['label']}\" is not 单核 or 多核")
        score = number(path, line, "score", r["score"])
        y = year_of(path, line, r["date"])
        v = vcpus_of(path, line, r["vcpus"])
        key = (r["source_url"], r["provider"], r["plan"], r["cpu_model"], r["vcpus"])
        if key not in cur or r["label"] in cur[key][1]:
            runs.append(Run(r["sb_id"], kind_by_url(r["source_url"]), v, y, r["date"],
                            ("sb", r["provider"], r["plan"], r["cpu_model"], r["vcpus"])))
            cur[key] = (len(runs) - 1, set())
        ri, seen = cur[key]
        seen.add(r["label"])
        sb[SB_LABELS[r["label"]]].append((score, ri))
        nlines += 1
    for m in ("sysbench_1t_eps", "sysbench_all_eps"):
        tables.append(dict(metric=m, set="PUB_SET_SYSBENCH", unit="events/s", entries=sb[m]))
    summary["sysbench"] = nlines

    # benchsh_dd.csv
    path, rows = read_csv(data, "benchsh_dd.csv")
    dd = []
    for line, r in rows:
        avg = number(path, line, "io_avg_mbps", r["io_avg_mbps"], empty_ok=True)
        if avg is None:     # no average printed (b0066's was not parsed): no run
            continue
        y = year_of(path, line, r["date"])
        v = vcpus_of(path, line, r["vcpus"])
        runs.append(Run(r["bench_id"], kind_by_url(r["source_url"]), v, y, r["date"],
                        ("dd", r["provider"], r["plan"], r["cpu_model"], r["vcpus"])))
        dd.append((avg, len(runs) - 1))
    tables.append(dict(metric="dd_write_mbps", set="PUB_SET_BENCHSH", unit="MB/s", entries=dd))
    summary["dd"] = len(dd)

    # yabs_net.csv
    path, rows = read_csv(data, "yabs_net.csv")
    net = {}
    for line, r in rows:
        if r["run_id"] not in yabs:
            raise DataError(f"{path}:{line}: column run_id: \"{r['run_id']}\" is not a run of yabs_disk.csv")
        if r["ip"] not in ("IPv4", "IPv6"):
            raise DataError(f"{path}:{line}: column ip: \"{r['ip']}\" is not IPv4 or IPv6")
        ri = yabs[r["run_id"]]
        for col, m in (("send_mbits", "iperf_send_mbits"), ("recv_mbits", "iperf_recv_mbits")):
            s = number(path, line, col, r[col], empty_ok=True)
            if s is not None:
                net.setdefault((r["iperf_server"], r["iperf_location"], r["ip"], m), []).append((s, ri))
    for (srv, loc, fam, m) in sorted(net, key=lambda k: (k[0], k[1], k[2], k[3] != "iperf_send_mbits")):
        e = net[(srv, loc, fam, m)]
        if len(e) >= NET_MIN_ROWS:
            tables.append(dict(metric=m, set="PUB_SET_YABS_NET", server=srv, location=loc,
                               family=fam, unit="Mbits/sec", entries=e))
    summary["net"] = len(rows)
    return runs, tables, summary


def first_marks(runs, entries):
    """Run indexes marked first_of_machine among the entries' runs."""
    best = {}
    for _, ri in entries:
        r = runs[ri]
        k = (r.date == "", r.date, r.id)
        if r.machine not in best or k < best[r.machine][0]:
            best[r.machine] = (k, ri)
    return {ri for _, ri in best.values()}


def leb128(u):
    out = bytearray()
    while True:
        b = u & 0x7F
        u >>= 7
        if u:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fmt_scaled(u, d):
    """u / 10^d as a decimal string, trailing zeros dropped."""
    if d == 0:
        return str(u)
    s = str(u).rjust(d + 1, "0")
    return (s[:-d] + "." + s[-d:]).rstrip("0").rstrip(".")


def c_str(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(runs, tables, summary):
    out = []
    w = out.append
    w("/*")
    w(" * published_data.c — GENERATED by scripts/published-tables.py from")
    w(" * the CSVs of data/published/; do not edit: change them and re-run the script")
    w(" * (tests/smoke_published.sh checks it reproduces this file byte for byte).")
    w(" * Format: grade/published.h. Every row's source URL is in the CSVs.")
    w(" */")
    w("#include <stddef.h>")
    w("")
    w('#include "published.h"')
    w("")
    nyabs, d0, d1 = summary["yabs"]
    src = (f"data/published/ (yabs_disk.csv {nyabs} runs {d0}..{d1}, yabs_net.csv "
           f"{summary['net']} rows, sysbench_cpu.csv {summary['sysbench']} lines "
           f"\\\"{SB_MODE}\\\", benchsh_dd.csv {summary['dd']} rows; each row's source URL there)")
    w(f'const char pub_source[] = "{src}";')
    w("")
    w(f"/* {len(runs)} runs: kind, vcpus, year - 2000, cached */")
    w("const struct pub_run pub_runs[] = {")
    kinds = {0: "PUB_KIND_UNKNOWN", 1: "PUB_KIND_VPS", 2: "PUB_KIND_DEDICATED", 3: "PUB_KIND_OTHER"}
    for i, r in enumerate(runs):
        w(f"\t{{ {kinds[r.kind]}, {r.vcpus}, {r.year}, {r.cached} }},\t/* {i} {r.id} */")
    w("};")
    w(f"const unsigned pub_nruns = {len(runs)};")
    w("")
    total = 0
    descs = []
    for ti, t in enumerate(tables):
        e = t["entries"]
        dec = max(ndec(s) for s, _ in e)
        vals = sorted(((scaled(s, dec), ri) for s, ri in e))
        marks = first_marks(runs, e)
        enc = bytearray()
        prev = 0
        for v, ri in vals:
            enc += leb128(v - prev)
            enc += leb128(ri << 1 | (1 if ri in marks else 0))
            prev = v
        n = len(vals)
        if n % 2:
            med_s = fmt_scaled(vals[n // 2][0], dec)
        else:
            a, b = vals[n // 2 - 1][0], vals[n // 2][0]
            # the mean of the two middle values, exact: one more decimal
            med_s = fmt_scaled((a + b) * 5, dec + 1)
        if "server" in t:
            what = f"{t['server']} {t['location']} {t['family']}"
        elif "bs" in t:
            what = f"bs {t['bs']}"
        else:
            what = "one table"
        w(f"/* {ti}: {t['metric']}, {what}: n {n}, min {fmt_scaled(vals[0][0], dec)}, "
          f"median {med_s}, max {fmt_scaled(vals[-1][0], dec)} {t['unit']}; "
          f"{len(marks)} first of machine; {len(enc)} bytes */")
        w(f"static const uint8_t enc_{ti}[{len(enc)}] = {{")
        for i in range(0, len(enc), 16):
            w("\t" + ", ".join(f"0x{b:02x}" for b in enc[i:i + 16]) + ",")
        w("};")
        total += len(enc)
        descs.append((t, dec, n, len(enc)))
    w("")
    w(f"/* {len(tables)} tables, {total} bytes of entries */")
    w("const struct pub_table pub_tables[] = {")
    for ti, (t, dec, n, ln) in enumerate(descs):
        w(f"\t{{ {c_str(t['metric'])}, {t['set']}, {t.get('bs', 0)}, {c_str(t.get('server'))}, "
          f"{c_str(t.get('location'))}, {c_str(t.get('family'))}, {c_str(t['unit'])}, {dec}, "
          f"{n}, enc_{ti}, {ln} }},")
    w("};")
    w(f"const unsigned pub_ntables = {len(tables)};")
    return "\n".join(out) + "\n"


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="compile data/published/*.csv into grade/published_data.c")
    ap.add_argument("--data", default=os.path.join(here, "data", "published"),
                    help="the CSVs' directory (default data/published)")
    ap.add_argument("--out", default=os.path.join(here, "grade", "published_data.c"))
    ap.add_argument("--check", action="store_true",
                    help="exit 1 naming the difference when --out is not what the CSVs give")
    a = ap.parse_args()
    try:
        runs, tables, summary = load(a.data)
    except DataError as e:
        print(f"published-tables: {e}", file=sys.stderr)
        return 1
    text = render(runs, tables, summary)
    if a.check:
        try:
            with open(a.out, encoding="utf-8") as f:
                have = f.read()
        except OSError as e:
            print(f"published-tables: {a.out}: open: {e.strerror}", file=sys.stderr)
            return 1
        if have == text:
            return 0
        hl, nl = have.split("\n"), text.split("\n")
        for i in range(max(len(hl), len(nl))):
            x = hl[i] if i < len(hl) else "(end of file)"
            y = nl[i] if i < len(nl) else "(end of file)"
            if x != y:
                print(f"published-tables: {a.out}:{i + 1} is stale: has \"{x[:100]}\", "
                      f"the CSVs give \"{y[:100]}\" (run python3 scripts/published-tables.py)",
                      file=sys.stderr)
                return 1
        return 1
    tmp = a.out + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, a.out)
    except OSError as e:
        print(f"published-tables: {a.out}: write: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
