#!/usr/bin/env python3
"""published_ref.py — an independent reference for `vpsbench place`: the
published population and a saved report's placement computed straight from
data/published/*.csv (it does not import scripts/published-tables.py and
does not read grade/published_data.c), by the rules of data/published/README.md
and grade/place.h.

    published_ref.py [--data DIR] population [filters]
    published_ref.py [--data DIR] place REPORT.json [filters]
    published_ref.py [--data DIR] check-population VPSBENCH.json [filters]
    published_ref.py [--data DIR] check-place REPORT.json VPSBENCH.json [filters]
filters: --kind vps|dedicated|any  --vcpus N|N-M  --years Y|Y-Y
         --per-machine  --include-cached  --min-n N

population prints {"schema": "vpsbench.population/1", "filter": {...},
"tables": [...]} like `vpsbench place --population --format json`;
place prints {"placement": {"rand_note": bool, "items": [...]}} with the
fields tests/smoke_published.sh compares (items, placed, n, below, equal,
percentile, p10..p90, min, max, years, undated, cached_left_out).

check-* compare vpsbench's JSON (`vpsbench place --population --format
json`, `vpsbench place REPORT --format json`) with this reference: the same
tables / items in the same order, n, below, equal, placed, years, undated,
cached_left_out exact; percentile, quantiles, min, max, value within 1e-9
relative. Each difference is one line; exit 1 when there is any.

The rules, as written in the brief of issue #43 (restated, not shared code):
  rows      yabs_disk.csv total_iops / total_mbps per bs; sysbench_cpu.csv
            lines of mode "Fast Mode, 1-Pass @ 5sec" (单核 1 thread, 多核 all);
            benchsh_dd.csv io_avg_mbps (bench.sh and bench.monster: both
            `dd bs=512K count=2048 conv=fdatasync`); yabs_net.csv send/recv
            per server, location and family (tables with >= 20 figures).
  kind      yabs: vps, dedicated, other (anything else printed), unknown
            (empty); sysbench/dd: the one kind of the yabs runs at the same
            source_url, else unknown. Filter vps/dedicated: that kind only;
            any: all.
  vcpus     N or N-M: runs printing a count in range.
  years     Y or Y-Y: dated runs in range; no filter keeps undated.
  machine   yabs: machine_group; sysbench/dd: provider, plan, cpu_model,
            vcpus. First of machine (per table): earliest date, undated
            last, ties by id. per_machine keeps those.
  cached    yabs run with 1m total_mbps > 15000: left out of the fio
            tables unless include_cached (counted in cached_left_out).
  rank      percentile 100 (below + equal / 2) / n; quantiles type 7.
"""
import argparse
import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "data", "published"))
BS = {"4k": 4096, "64k": 65536, "512k": 524288, "1m": 1048576}
PROBS = (0.10, 0.25, 0.50, 0.75, 0.90)
QKEYS = ("p10", "p25", "p50", "p75", "p90")
GIB = 1 << 30


def rows(data, name):
    with open(os.path.join(data, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def kind_name(s):
    if s == "":
        return "unknown"
    if s in ("vps", "dedicated"):
        return s
    return "other"


def year(s):
    return int(s[:4]) if s else 0


class Entry:
    """One published figure with what the filters look at."""
    def __init__(self, value, kind, vcpus, yr, cached, machine, order):
        self.value, self.kind, self.vcpus, self.year = value, kind, vcpus, yr
        self.cached, self.machine, self.order = cached, machine, order
        self.first = False


def mark_first(entries):
    best = {}
    for e in entries:
        if e.machine not in best or e.order < best[e.machine].order:
            best[e.machine] = e
    for e in best.values():
        e.first = True
    # an entry of the same run as the marked one (not in these data) stays unmarked


def order_key(date, ident):
    return (0 if date else 1, date, ident)


def load(data):
    """[(key dict, unit, is_fio, [Entry])] in the order the binary lists them."""
    disk = rows(data, "yabs_disk.csv")
    runs = {}
    for r in disk:
        x = runs.setdefault(r["run_id"], {"rows": [], "r": r})
        x["rows"].append(r)
    url_kind = {}
    for rid, x in runs.items():
        r = x["r"]
        url_kind.setdefault(r["source_url"], set()).add(kind_name(r["kind"]))
        x["cached"] = any(y["bs"] == "1m" and y["total_mbps"] != "" and
                          float(y["total_mbps"]) > 15000 for y in x["rows"])

    def yabs_entry(rid, value):
        r = runs[rid]["r"]
        return Entry(value, kind_name(r["kind"]), int(r["vcpus"] or 0), year(r["date"]),
                     runs[rid]["cached"], ("y", r["machine_group"] or rid),
                     order_key(r["date"], rid))

    def url_kind_of(url):
        k = url_kind.get(url, set())
        return next(iter(k)) if len(k) == 1 else "unknown"

    tables = []
    for bsname in ("4k", "64k", "512k", "1m"):
        for col, metric, unit in (("total_iops", "fio_total_iops", "IOPS"),
                                  ("total_mbps", "fio_total_mbps", "MB/s")):
            es = [yabs_entry(r["run_id"], float(r[col])) for r in disk
                  if r["bs"] == bsname and r[col] != ""]
            tables.append(({"metric": metric, "bs": BS[bsname], "server": None, "location": None,
                            "family": None}, unit, True, es))

    # sysbench: a machine = key; a label seen twice starts the next machine
    sb = [r for r in rows(data, "sysbench_cpu.csv") if r["mode"] == "Fast Mode, 1-Pass @ 5sec"]
    groups = []
    open_group = {}
    for r in sb:
        key = (r["source_url"], r["provider"], r["plan"], r["cpu_model"], r["vcpus"])
        g = open_group.get(key)
        if g is None or r["label"] in g["labels"]:
            g = {"labels": {}, "first_id": r["sb_id"], "r": r}
            open_group[key] = g
            groups.append(g)
        g["labels"][r["label"]] = r
    for label, metric in (("单核", "sysbench_1t_eps"), ("多核", "sysbench_all_eps")):
        es = []
        for g in groups:
            if label not in g["labels"]:
                continue
            r = g["r"]
            es.append(Entry(float(g["labels"][label]["score"]), url_kind_of(r["source_url"]),
                            int(r["vcpus"] or 0), year(r["date"]), False,
                            ("s", r["provider"], r["plan"], r["cpu_model"], r["vcpus"]),
                            order_key(r["date"], g["first_id"])))
        tables.append(({"metric": metric, "bs": None, "server": None, "location": None,
                        "family": None}, "events/s", False, es))

    es = []
    for r in rows(data, "benchsh_dd.csv"):
        if r["io_avg_mbps"] == "":
            continue
        es.append(Entry(float(r["io_avg_mbps"]), url_kind_of(r["source_url"]),
                        int(r["vcpus"] or 0), year(r["date"]), False,
                        ("d", r["provider"], r["plan"], r["cpu_model"], r["vcpus"]),
                        order_key(r["date"], r["bench_id"])))
    tables.append(({"metric": "dd_write_mbps", "bs": None, "server": None, "location": None,
                    "family": None}, "MB/s", False, es))

    net = {}
    for r in rows(data, "yabs_net.csv"):
        for col, metric in (("send_mbits", "iperf_send_mbits"), ("recv_mbits", "iperf_recv_mbits")):
            if r[col] != "":
                net.setdefault((r["iperf_server"], r["iperf_location"], r["ip"], metric),
                               []).append(yabs_entry(r["run_id"], float(r[col])))
    keys = sorted(net, key=lambda k: (k[0], k[1], k[2], 0 if k[3] == "iperf_send_mbits" else 1))
    for k in keys:
        if len(net[k]) >= 20:
            tables.append(({"metric": k[3], "bs": None, "server": k[0], "location": k[1],
                            "family": k[2]}, "Mbits/sec", False, net[k]))
    for t in tables:
        mark_first(t[3])
    return tables


def parse_range(s, what):
    if s is None or s == "any":
        return None
    a, _, b = s.partition("-")
    lo, hi = int(a), int(b or a)
    if lo > hi:
        sys.exit(f"published_ref: --{what} {s}: low above high")
    return [lo, hi]


def filt_of(a):
    return {"kind": a.kind, "vcpus": parse_range(a.vcpus, "vcpus"),
            "years": parse_range(a.years, "years"), "per_machine": a.per_machine,
            "include_cached": a.include_cached, "min_n": a.min_n}


def select(table, f):
    """The kept values (sorted) and the counts the JSON shows."""
    _, _, is_fio, es = table
    vals, years, undated, cached = [], [], 0, 0
    for e in es:
        if f["kind"] != "any" and e.kind != f["kind"]:
            continue
        if f["vcpus"] and not (e.vcpus and f["vcpus"][0] <= e.vcpus <= f["vcpus"][1]):
            continue
        if f["years"] and not (e.year and f["years"][0] <= e.year <= f["years"][1]):
            continue
        if f["per_machine"] and not e.first:
            continue
        if is_fio and e.cached and not f["include_cached"]:
            cached += 1
            continue
        vals.append(e.value)
        if e.year:
            years.append(e.year)
        else:
            undated += 1
    vals.sort()
    return vals, ([min(years), max(years)] if years else None), undated, cached


def quantile(v, p):
    h = (len(v) - 1) * p
    lo = math.floor(h)
    if lo + 1 >= len(v):
        return v[-1]
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def stats(vals):
    d = {k: (quantile(vals, p) if vals else None) for k, p in zip(QKEYS, PROBS)}
    d["min"] = vals[0] if vals else None
    d["max"] = vals[-1] if vals else None
    return d


def population(tables, f):
    out = []
    for t in tables:
        vals, yrs, undated, cached = select(t, f)
        d = dict(t[0])
        d["unit"] = t[1]
        d["n"] = len(vals)
        d.update(stats(vals))
        d.update({"years": yrs, "undated": undated, "cached_left_out": cached})
        out.append(d)
    return {"schema": "vpsbench.population/1", "filter": f, "tables": out}


def find(tables, metric, bs=None, server=None, location=None, family=None):
    for t in tables:
        k = t[0]
        if (k["metric"], k["bs"], k["server"], k["location"], k["family"]) == \
                (metric, bs, server, location, family):
            return t
    return None


def item(tables, f, key, value, placeable):
    """One placement item: placeable False = not placed before any table."""
    it = dict(key)
    it.update({"value": value, "placed": False, "n": 0, "below": 0, "equal": 0,
               "percentile": None, "years": None, "undated": 0, "cached_left_out": 0})
    it.update({k: None for k in QKEYS + ("min", "max")})
    t = find(tables, **{k: key[k] for k in ("metric", "bs", "server", "location", "family")})
    if value is None or not placeable or t is None:
        return it
    vals, yrs, undated, cached = select(t, f)
    if len(vals) == 0 or len(vals) < f["min_n"]:
        return it
    below = sum(1 for v in vals if v < value)
    equal = sum(1 for v in vals if v == value)
    it.update({"placed": True, "n": len(vals), "below": below, "equal": equal,
               "percentile": 100.0 * (below + equal / 2) / len(vals),
               "years": yrs, "undated": undated, "cached_left_out": cached})
    it.update(stats(vals))
    return it


def num(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def place(tables, f, rep):
    items = []
    nokey = {"server": None, "location": None, "family": None}
    mods = rep.get("modules") or {}

    def ran(name):
        return name in mods and (mods[name] or {}).get("status") != "not_run"

    # fio: the yabs-shaped passes (randrw 50/50, qd64, 2 jobs, a yabs bs) of the first dir
    passes = (rep.get("rand") or {}).get("passes") or []
    fio = []
    dir0 = passes[0].get("dir") if passes else None
    for p in passes:
        if p.get("dir") != dir0:
            continue
        if not (p.get("rw") == "randrw" and p.get("rwmixread") == 50 and p.get("iodepth") == 64
                and p.get("jobs") == 2 and p.get("bs") in BS.values()):
            continue
        ok = p.get("status") == "ok"
        rd, wr = p.get("read") or {}, p.get("write") or {}
        iops = (num(rd.get("iops")) or 0) + (num(wr.get("iops")) or 0)
        mbps = ((num(rd.get("bw_bytes")) or 0) + (num(wr.get("bw_bytes")) or 0)) / 1024 / 1000
        placeable = ok and p.get("direct") is True and \
            not (p.get("disturbance") or {}).get("disturbed", False)
        fio.append((p["bs"], iops if ok else None, mbps if ok else None, placeable))
    fio.sort(key=lambda x: x[0])
    for bs, iops, mbps, placeable in fio:
        items.append(item(tables, f, dict(nokey, metric="fio_total_iops", bs=bs), iops, placeable))
        items.append(item(tables, f, dict(nokey, metric="fio_total_mbps", bs=bs), mbps, placeable))
    rand_note = bool(passes) and not fio

    if ran("cpu"):
        prime = (rep.get("cpu") or {}).get("prime") or {}
        for k, metric in (("single", "sysbench_1t_eps"), ("multi", "sysbench_all_eps")):
            x = prime.get(k) or {}
            v = num(x.get("events_per_s"))
            placeable = x.get("complete") is True and not x.get("disturbed") and \
                prime.get("max_prime") == 10000
            items.append(item(tables, f, dict(nokey, metric=metric, bs=None), v, placeable))
    if ran("seq"):
        s = rep.get("seq") or {}
        v = num((s.get("write") or {}).get("avg_mbps")) if isinstance(s.get("dir"), str) else None
        placeable = s.get("status") == "ok" and s.get("direct") is not True and \
            s.get("size_bytes") == GIB
        items.append(item(tables, f, dict(nokey, metric="dd_write_mbps", bs=None), v, placeable))
    if ran("net"):
        net = rep.get("net") or {}
        for row in net.get("servers") or []:
            fam = "IPv6" if row.get("mode") == "IPv6" else "IPv4"
            for k, metric in (("send", "iperf_send_mbits"), ("recv", "iperf_recv_mbits")):
                d = row.get(k) or {}
                bps = num(d.get("bits_per_second"))
                placeable = not d.get("implausible") and net.get("streams") == 8
                items.append(item(tables, f, {"metric": metric, "bs": None,
                                              "server": row.get("provider") or "",
                                              "location": row.get("location") or "",
                                              "family": fam},
                                  bps / 1e6 if bps is not None else None, placeable))
    return {"placement": {"filter": f, "rand_note": rand_note, "items": items}}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


EXACT = ("n", "below", "equal", "placed", "years", "undated", "cached_left_out")
NEAR = QKEYS + ("min", "max", "percentile", "value")
KEY = ("metric", "bs", "server", "location", "family")


def compare(what, want, have):
    """Lines naming each difference between the reference's rows and vpsbench's."""
    bad = []
    if len(want) != len(have):
        bad.append(f"{what}: {len(have)} rows, the reference has {len(want)}")
    for i, (w, h) in enumerate(zip(want, have)):
        kw = tuple(w.get(k) for k in KEY)
        kh = tuple(h.get(k) for k in KEY)
        if kw != kh:
            bad.append(f"{what} {i}: {kh}, the reference has {kw}")
            continue
        name = " ".join(str(x) for x in kw if x is not None)
        for k in EXACT:
            if k in w and w[k] != (list(h[k]) if isinstance(h.get(k), list) else h.get(k)):
                bad.append(f"{what} {i} ({name}): {k} {h.get(k)!r}, the reference {w[k]!r}")
        for k in NEAR:
            if k in w and not close(w[k], h.get(k)):
                bad.append(f"{what} {i} ({name}): {k} {h.get(k)!r}, the reference {w[k]!r}")
    return bad


def check_filter(want, have):
    bad = []
    for k in ("kind", "vcpus", "years", "per_machine", "include_cached", "min_n"):
        if want[k] != have.get(k):
            bad.append(f"filter {k}: {have.get(k)!r}, the reference {want[k]!r}")
    return bad


def main():
    ap = argparse.ArgumentParser(description="independent reference for vpsbench place")
    ap.add_argument("--data", default=DATA)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("population", "place", "check-population", "check-place"):
        p = sub.add_parser(name)
        if name in ("place", "check-place"):
            p.add_argument("report")
        if name.startswith("check-"):
            p.add_argument("vpsbench_json")
        p.add_argument("--kind", default="vps", choices=("vps", "dedicated", "any"))
        p.add_argument("--vcpus")
        p.add_argument("--years")
        p.add_argument("--per-machine", action="store_true")
        p.add_argument("--include-cached", action="store_true")
        p.add_argument("--min-n", type=int, default=20)
    a = ap.parse_args()
    tables = load(a.data)
    f = filt_of(a)
    if a.cmd.startswith("check-"):
        with open(a.vpsbench_json, encoding="utf-8") as fh:
            have = json.load(fh)
    if a.cmd in ("place", "check-place"):
        with open(a.report, encoding="utf-8") as fh:
            rep = json.load(fh)
    if a.cmd == "check-population":
        want = population(tables, f)
        bad = check_filter(f, have.get("filter") or {})
        if have.get("schema") != want["schema"]:
            bad.append(f"schema {have.get('schema')!r}")
        bad += compare("table", want["tables"], have.get("tables") or [])
    elif a.cmd == "check-place":
        want = place(tables, f, rep)["placement"]
        hp = have.get("placement") or {}
        bad = check_filter(f, hp.get("filter") or {})
        if want["rand_note"] != (hp.get("rand_note") is not None):
            bad.append(f"rand_note {hp.get('rand_note')!r}, the reference expects "
                       f"{'one' if want['rand_note'] else 'none'}")
        bad += compare("item", want["items"], hp.get("items") or [])
    if a.cmd.startswith("check-"):
        for line in bad:
            print(line)
        return 1 if bad else 0
    if a.cmd == "population":
        out = population(tables, f)
    else:
        out = place(tables, f, rep)
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
