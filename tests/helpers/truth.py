#!/usr/bin/env python3
"""truth.py — checks that every figure of a vpsbench report is what its raw
parts say, and that every format of one run shows the same figures.

  truth.py json REPORT.json             rates, IOPS, percentiles, metrics
                                        (cpu: events/s, MB/s; mem: STREAM MB/s)
  truth.py tiers REPORT.json DUMP.json  each grade's tier from the bounds
  truth.py text REPORT.json OUT.txt     the text report against the JSON
  truth.py html REPORT.json OUT.html    the HTML report against the JSON
  truth.py prom REPORT.json OUT.prom    the Prometheus text against the JSON
  truth.py yabs REPORT.json OUT.yabs    the yabs JSON against the JSON
  truth.py fio REPORT.json OUT.fio      the --format fio jobs of fsync against the JSON
  truth.py multi NAME CHECK ARGS... [-- NAME CHECK ARGS...]...
                                        several of the checks above in one process
                                        (python's start is most of a check's cost):
                                        each checked alone, as its own call would;
                                        prints "pass NAME" or "fail NAME" and that
                                        check's false claims (indented) per check;
                                        exit 1 when any fails

Nothing here calls the product: the percentile selection (fio's rule), the
bucket values and the unit conversions are written again from their
definitions. Prints one line per false claim; exit 1 when there is any."""
import json
import math
import re
from fractions import Fraction
import sys

BAD = []


def claim(ok, what):
    if not ok:
        BAD.append(what)
    return ok


def close(a, b, rel=1e-9, abs_=0.0):
    if a is None or b is None:
        return False
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def eq(a, b, what, rel=1e-9, abs_=0.0):
    claim(close(a, b, rel, abs_), "%s: %r != %r" % (what, a, b))


# --- fio's log-linear histogram, from its definition (6 bits, 29 groups) ---
PLAT_BITS, PLAT_VAL, PLAT_NR = 6, 64, 29 * 64


def plat_idx_to_val(idx):
    if idx < (PLAT_VAL << 1):
        return idx
    error_bits = (idx >> PLAT_BITS) - 1
    base = 1 << (error_bits + PLAT_BITS)
    k = idx % PLAT_VAL
    return base + int((k + 0.5) * (1 << error_bits))


def plat_val_to_idx(v):
    msb = v.bit_length() - 1 if v else 0
    if msb <= PLAT_BITS:
        return v
    eb = msb - PLAT_BITS
    idx = ((eb + 1) << PLAT_BITS) + ((PLAT_VAL - 1) & (v >> eb))
    return min(idx, PLAT_NR - 1)


BUCKET_VALUES = {plat_idx_to_val(i): i for i in range(PLAT_NR)}


def round_ext(x):
    """x (a Fraction) rounded to the x87 long double fio computes in: a
    64-bit significand, round to nearest, ties to even."""
    if x == 0:
        return x
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    scale = Fraction(2) ** (63 - e)
    q = x * scale
    r = math.floor(q)
    if q - r > Fraction(1, 2) or (q - r == Fraction(1, 2) and r % 2):
        r += 1
    return r / scale


def percentile_from_bins(bins, n, p):
    """fio's calc_clat_percentiles: the first bucket (in value order) whose
    running count reaches (long double)p / 100.0 * N."""
    want = round_ext(round_ext(Fraction(p) / 100) * n)
    run = 0
    last = None
    for v in sorted(bins):
        run += bins[v]
        last = v
        if run >= want:
            return v
    return last


def main_pass(ps):
    for p in ps:
        if p.get("status") == "ok" and p["iodepth"] > 1 and p["bs"] == 4096:
            return p
    return None


def lat_pass(ps):
    for p in ps:
        if p.get("status") == "ok" and p["iodepth"] == 1 and p["rw"] == "randread" and p["bs"] == 4096:
            return p
    return None


def check_json(j):
    check_fsync_json(j)
    s = j.get("seq") or {}
    if s.get("status") == "ok":
        runs = s["write"]["runs"]
        claim(len(runs) == s["runs_planned"], "seq: %d runs, %d planned" % (len(runs), s["runs_planned"]))
        for i, r in enumerate(runs):
            eq(r["mbps"], r["bytes"] / r["seconds"] / 1e6, "seq run %d mbps = bytes/seconds/1e6" % (i + 1))
            eq(r["mibps"], r["bytes"] / r["seconds"] / 2**20, "seq run %d mibps = bytes/seconds/2^20" % (i + 1))
            eq(r["bytes"], s["size_bytes"], "seq run %d bytes = size_bytes" % (i + 1))
            claim(r["flush_seconds"] <= r["seconds"], "seq run %d flush within the run" % (i + 1))
        rates = [r["mbps"] for r in runs]
        mean = sum(rates) / len(rates)
        eq(s["write"]["avg_mbps"], mean, "seq avg_mbps = mean of runs")
        eq(s["write"]["avg_mibps"], mean * 1e6 / 2**20, "seq avg_mibps = avg_mbps * 1e6/2^20")
        tb, ts = sum(r["bytes"] for r in runs), sum(r["seconds"] for r in runs)
        eq(s["write"]["total_mbps"], tb / ts / 1e6, "seq total_mbps = all bytes / all seconds / 1e6")
        eq(s["write"]["total_mibps"], tb / ts / 2**20, "seq total_mibps = all bytes / all seconds / 2^20")
        eq(s["write"]["min_mbps"], min(rates), "seq min_mbps")
        eq(s["write"]["max_mbps"], max(rates), "seq max_mbps")
        if len(rates) > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in rates) / (len(rates) - 1))
            eq(s["write"]["cov"], sd / mean, "seq cov = sample stddev / mean")
        rd = s["read"]
        if rd.get("mbps") is not None:
            eq(rd["mbps"], rd["bytes"] / rd["seconds"] / 1e6, "seq read mbps = bytes/seconds/1e6")
            eq(rd["mibps"], rd["bytes"] / rd["seconds"] / 2**20, "seq read mibps = bytes/seconds/2^20")
    ps = (j.get("rand") or {}).get("passes") or []
    for p in ps:
        if p.get("status") != "ok":
            continue
        for dn in ("read", "write"):
            d = p.get(dn)
            if d is None:
                continue
            w = "%s %s" % (p["name"], dn)
            rt = p["runtime_ms"]
            eq(d["runtime"], rt, w + " runtime = pass runtime_ms")
            eq(d["iops"], 1000.0 * d["total_ios"] / rt, w + " iops = total_ios/runtime")
            eq(d["bw_bytes"], 1000.0 * d["io_bytes"] / rt, w + " bw_bytes = io_bytes/runtime")
            eq(d["bw"], d["bw_bytes"] / 1024.0, w + " bw = bw_bytes/1024 (KiB/s)")
            eq(d["io_kbytes"], d["io_bytes"] >> 10, w + " io_kbytes = io_bytes>>10")
            if d["short_ios"] == 0:
                eq(d["io_bytes"], d["total_ios"] * p["bs"], w + " io_bytes = total_ios * bs")
            c = d["clat_ns"]
            eq(c["N"], d["total_ios"], w + " clat N = total_ios")
            if not c["N"]:
                continue
            if not claim("bins" in c, w + ": clat_ns has no bins"):
                continue
            bins = {int(k): v for k, v in c["bins"].items()}
            eq(sum(bins.values()), c["N"], w + " sum(bins) = N")
            for v in bins:
                claim(v in BUCKET_VALUES, w + ": bin %d is not a bucket value" % v)
            eq(min(bins), plat_idx_to_val(plat_val_to_idx(c["min"])), w + " lowest bin holds clat min")
            eq(max(bins), plat_idx_to_val(plat_val_to_idx(c["max"])), w + " highest bin holds clat max")
            claim(c["min"] <= c["mean"] <= c["max"], w + " min <= mean <= max")
            for k, got in c["percentile"].items():
                eq(got, percentile_from_bins(bins, c["N"], float(k)), w + " p" + k + " from bins")
    m = shown_metrics(j)
    if s.get("status") == "ok":
        eq(m.get("seq_write_mbps"), s["write"]["total_mbps"], "metric seq_write_mbps = seq total_mbps")
        if s["read"].get("mbps") is not None:
            eq(m.get("seq_read_mbps"), s["read"]["mbps"], "metric seq_read_mbps = seq read mbps")
    mp = main_pass(ps)
    if mp:
        r = mp.get("read", {}).get("iops", 0.0)
        w = mp.get("write", {}).get("iops", 0.0)
        eq(m.get("rand_iops"), r + w, "metric rand_iops = read+write iops of " + mp["name"])
        if "read" in mp:
            eq(m.get("rand_read_iops"), r, "metric rand_read_iops")
        if "write" in mp:
            eq(m.get("rand_write_iops"), w, "metric rand_write_iops")
    if mp:
        tls = [mp[dn]["iops_timeline"] for dn in ("read", "write") if dn in mp]
        n = max(len(x) for x in tls)
        v = [sum(x[i] for x in tls if i < len(x)) for i in range(n)]
        if n >= 3 and sum(v) > 0:
            mean = sum(v) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
            eq(m.get("rand_cov_pct"), 100 * sd / mean, "metric rand_cov_pct = 100*stddev/mean of per-second IOPS")
            k = n // 3
            if sum(v[:k]) > 0:
                eq(m.get("rand_tail_ratio"), sum(v[n - k:]) / sum(v[:k]), "metric rand_tail_ratio = last third / first third")
        else:
            claim(m.get("rand_cov_pct") is None, "metric rand_cov_pct from fewer than 3 seconds")
    lp = lat_pass(ps)
    if lp:
        pc = lp["read"]["clat_ns"]["percentile"]
        eq(m.get("lat_p50_ms"), pc["50.000000"] / 1e6, "metric lat_p50_ms = clat p50 / 1e6")
        eq(m.get("lat_p99_ms"), pc["99.000000"] / 1e6, "metric lat_p99_ms = clat p99 / 1e6")
    for g in j.get("grades") or []:
        if g.get("value") is not None:
            eq(g["value"], m.get(g["metric"]), "grade %s value = metric" % g["metric"])
    if s.get("status") == "ok":
        for g in j.get("grades") or []:
            if g["metric"] == "seq_write_mbps" and g.get("spread_pct") is not None:
                eq(g["spread_pct"], 100 * s["write"]["cov"], "grade seq_write spread_pct = 100*cov")


def crypto_null(e, what):
    """True when a crypto pass's figure is null: then it must say why (complete
    false, null_reasons.mbps a non-empty string); a figure must be complete."""
    why = (e.get("null_reasons") or {}).get("mbps")
    if e.get("mbps") is None:
        claim(e.get("complete") is False and isinstance(why, str) and why.strip() != "",
              "%s MB/s null without its reason (complete %r, null_reasons.mbps %r)" % (what, e.get("complete"), why))
        return True
    claim(e.get("complete") is True and why is None,
          "%s MB/s a figure but complete %r, null_reasons.mbps %r" % (what, e.get("complete"), why))
    return False


def check_cpu_mem_json(j):
    """cpu and mem figures from their raw parts: events / seconds, bytes /
    seconds / 10^6, words x array bytes / best time / 10^6, ticks."""
    c = j.get("cpu") or {}
    m = j.get("metrics") or {}
    if (j.get("modules") or {}).get("cpu", {}).get("status") == "ok":
        pr = c["prime"]
        for k in ("single", "multi"):
            x = pr[k]
            eq(x["events_per_s"], x["events"] / x["seconds"], "cpu %s events/s = events / seconds" % k)
        eq(pr["scaling"], pr["multi"]["events_per_s"] / pr["single"]["events_per_s"], "cpu scaling = multi / single")
        claim(pr["single"]["threads"] == 1 and pr["multi"]["threads"] == c["threads"], "cpu pass threads")
        # a pass that did not get its CPU (disturbed) is shown, not graded: its metric is null
        for k in ("single", "multi"):
            want = None if pr[k].get("disturbed") else pr[k]["events_per_s"]
            if want is None:
                claim(m.get("cpu_%s_eps" % k) is None, "metric cpu_%s_eps null for a disturbed pass" % k)
            else:
                eq(m.get("cpu_%s_eps" % k), want, "metric cpu_%s_eps" % k)
        x = c.get("crypto") or {}
        if x.get("available"):
            for k in ("aes_256_gcm_single", "aes_256_gcm_multi", "sha256_single", "sha256_multi"):
                if crypto_null(x[k], "cpu " + k):
                    continue
                eq(x[k]["mbps"], x[k]["bytes"] / x[k]["seconds"] / 1e6, "cpu %s MB/s = bytes / seconds / 1e6" % k)
        if c.get("steal_pct") is not None and c.get("total_ticks"):
            eq(c["steal_pct"], 100.0 * c["steal_ticks"] / c["total_ticks"], "cpu steal % = steal / all ticks")
    mm = j.get("mem") or {}
    if (j.get("modules") or {}).get("mem", {}).get("status") == "ok" and mm.get("stream"):
        for r in mm["stream"]:
            for k, v in r["kernels"].items():
                eq(v["mbps"], v["words_per_element"] * mm["array_bytes"] / v["min_s"] / 1e6,
                   "mem %s %dt MB/s = words x array bytes / best s / 1e6" % (k, r["threads"]), rel=1e-9)
        if mm.get("capped"):  # arrays that fit in cache are not graded
            claim(m.get("mem_triad_mbps") is None, "metric mem_triad_mbps of capped arrays")
        else:
            # a STREAM run that did not get its CPU (disturbed) is shown, not graded: null
            for key, r, k in (("mem_triad_1t_mbps", mm["stream"][0], "triad"),
                              ("mem_triad_mbps", mm["stream"][-1], "triad"),
                              ("mem_copy_mbps", mm["stream"][-1], "copy")):
                if r.get("disturbed"):
                    claim(m.get(key) is None, "metric %s null for a disturbed STREAM run" % key)
                else:
                    eq(m.get(key), r["kernels"][k]["mbps"], "metric " + key)


def shown_metrics(j):
    """The report's metrics, with a disturbed disk figure's value from
    metrics_detail: "metrics" keeps it null (shown, not graded, README
    "Disturbed disk passes"), the detail keeps the measured value."""
    m = dict(j.get("metrics") or {})
    for k, d in (j.get("metrics_detail") or {}).items():
        if m.get(k) is None and isinstance(d, dict) and d.get("disturbed") and \
                (k.startswith(("seq_", "rand_", "lat_", "fsync_"))):
            m[k] = d.get("value")
    return m


def check_tiers(j, dump):
    """Each grade against the dumped bounds and the borderline rule: a named
    tier only when no bound lies strictly inside (v - u, v + u); else
    borderline with rank the worse end's tier and rank_hi the better end's."""
    spec = {m["metric"]: m for m in dump["metrics"]}
    for g in j.get("grades") or []:
        if g.get("value") is None or g["metric"] not in spec:
            continue
        sp, v, u = spec[g["metric"]], g["value"], g.get("uncertainty")
        claim(isinstance(u, (int, float)) and u >= 0,
              "grade %s = %r is graded without a finite uncertainty (%r)" % (g["metric"], v, u))
        if not isinstance(u, (int, float)):
            continue
        lo, hi = tier_of(sp, v - u), tier_of(sp, v + u)
        if sp["direction"] == "lower":
            lo, hi = hi, lo
        inside = [b for b in (t.get("min", t.get("max")) for t in sp["tiers"])
                  if b is not None and v - u < b < v + u]
        if inside:
            claim(g.get("borderline") is True and g["rank"] == lo[1] and g.get("rank_hi") == hi[1],
                  "grade %s = %r ± %r straddles %r: want borderline ranks %r..%r, got borderline=%r rank %r rank_hi %r"
                  % (g["metric"], v, u, inside, lo[1], hi[1], g.get("borderline"), g["rank"], g.get("rank_hi")))
        else:
            want = tier_of(sp, v)
            claim(not g.get("borderline") and want == (g["tier"], g["rank"]),
                  "grade %s = %r ± %r: tier %r rank %r borderline %r, bounds say %r"
                  % (g["metric"], v, u, g["tier"], g.get("rank"), g.get("borderline"), want))


def tier_of(spec, v):
    """(tier, rank): the last tier in the list whose bound the value meets
    (min: value >= bound; max: value <= bound), as --dump-thresholds lists them."""
    best = None
    for i, t in enumerate(spec["tiers"]):
        b = t.get("min", t.get("max"))
        if b is None or (v >= b if spec["direction"] == "higher" else v <= b):
            best = (t["tier"], i)
    return best


# --- rendered numbers: value and the rounding its printed digits allow ---
SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
IEC = {"": 1, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def shown(text, scale=1.0):
    """(value, half a unit in the last printed digit), both times scale."""
    dec = len(text.split(".")[1]) if "." in text else 0
    return float(text) * scale, 0.5 * 10 ** -dec * scale * 1.0001


def agree(textval, scale, want, what):
    v, tol = shown(textval, scale)
    claim(want is not None and abs(v - want) <= tol + 1e-9 * abs(want),
          "%s: shown %s (x%g = %g) but the JSON says %r" % (what, textval, scale, v, want))


def num_si(tok, unit=""):
    m = re.fullmatch(r"([0-9.]+)(k|M|G|T)?" + re.escape(unit), tok)
    return m.group(1), SI[m.group(2) or ""]


def num_iec(tok, unit=""):
    m = re.fullmatch(r"([0-9.]+)(Ki|Mi|Gi|Ti)?" + re.escape(unit), tok)
    return m.group(1), IEC[m.group(2) or ""]


def ns_of(tok):
    m = re.fullmatch(r"([0-9.]+) (ns|us|µs|ms|s)", tok)
    return m.group(1), NS[m.group(2).replace("µ", "u")]


def find(pattern, text, what):
    m = re.search(pattern, text, re.M)
    claim(m is not None, "%s: /%s/ not found" % (what, pattern))
    return m


def check_rendered(j, t, kind):
    check_fsync_rendered(j, t, kind)
    """Text and HTML show the same lines; HTML is checked after its tags go."""
    s = j.get("seq") or {}
    if s.get("status") == "ok":
        for i, r in enumerate(s["write"]["runs"]):
            lab = r"I/O \(%d\w\w run\)\s*:" % (i + 1) if kind == "text" else r"Run %d" % (i + 1)
            m = find(lab + r" ([0-9.]+) MB/s \(([0-9.]+) MiB/s\)", t, kind + " seq run %d" % (i + 1))
            if m:
                agree(m.group(1), 1, r["mbps"], kind + " seq run %d MB/s" % (i + 1))
                agree(m.group(2), 1, r["mibps"], kind + " seq run %d MiB/s" % (i + 1))
        m = find(r"Average\s*:? ([0-9.]+) MB/s \(([0-9.]+) MiB/s\)", t, kind + " seq average")
        if m:
            agree(m.group(1), 1, s["write"]["avg_mbps"], kind + " seq average MB/s")
            agree(m.group(2), 1, s["write"]["avg_mibps"], kind + " seq average MiB/s")
        m = find(r"Sustained\s*:? ([0-9.]+) MB/s \(([0-9.]+) MiB/s\)", t, kind + " seq sustained")
        if m:
            agree(m.group(1), 1, s["write"]["total_mbps"], kind + " seq sustained MB/s")
            agree(m.group(2), 1, s["write"]["total_mibps"], kind + " seq sustained MiB/s")
        if s["read"].get("mbps") is not None:
            m = find(r"Read\s*:? ([0-9.]+) MB/s", t, kind + " seq read")
            if m:
                agree(m.group(1), 1, s["read"]["mbps"], kind + " seq read MB/s")
    ps = (j.get("rand") or {}).get("passes") or []
    starts, pos = [], 0
    for p in ps:  # each pass's section, in report order
        at = t.find(p["name"] + (": " if kind == "text" else " "), pos)
        starts.append(at)
        pos = at + 1 if at >= 0 else pos
    for i, p in enumerate(ps):
        if p.get("status") != "ok":
            continue
        at = starts[i]
        if not claim(at >= 0, kind + ": pass %s not shown" % p["name"]):
            continue
        end = min([x for x in starts[i + 1:] if x > at] + [len(t)])
        seg = cs = t[at:end]
        for dn in ("read", "write"):
            d = p.get(dn)
            if d is None:
                continue
            w = "%s %s %s" % (kind, p["name"], dn)
            if kind == "text":
                m = find(r"%s: IOPS=(\S+), BW=(\S+) \((\S+)\)\n\s+clat p50 (.+?), p99 (.+?), p99.9 (.+?), max (.+?)$" % dn,
                         seg, w)
                if not m:
                    continue
                iops, bw2, bw10, lats = m.group(1), m.group(2), m.group(3), m.groups()[3:]
                agree(*num_iec(bw2, "B/s"), d["bw_bytes"], w + " BW binary")
                agree(*num_si(bw10, "B/s"), d["bw_bytes"], w + " BW decimal")
            else:
                m = find(r"\b%s (\S+) (\S+) ([0-9.]+ [nuµme]?s) ([0-9.]+ [nuµme]?s) ([0-9.]+ [nuµme]?s) ([0-9.]+ [nuµme]?s)" % dn,
                         seg, w)
                if not m:
                    continue
                iops, bw2, lats = m.group(1), m.group(2), m.groups()[2:]
                agree(*num_iec(bw2, "B/s"), d["bw_bytes"], w + " BW binary")
            agree(*num_si(iops), d["iops"], w + " IOPS")
            pc = d["clat_ns"]["percentile"]
            for tok, want, lab in zip(lats, (pc["50.000000"], pc["99.000000"], pc["99.900000"], d["clat_ns"]["max"]),
                                      ("p50", "p99", "p99.9", "max")):
                agree(*ns_of(tok), want, w + " clat " + lab)
            if kind == "html":
                for k, want in pc.items():
                    lab = "p" + ("%g" % float(k))
                    m = find(re.escape(lab) + r": ([0-9.]+ [nuµme]?s)", cs, w + " " + lab)
                    if m:
                        agree(*ns_of(m.group(1)), want, w + " chart " + lab)
                        cs = cs[m.end():]
    check_cpu_mem_rendered(j, t, kind)
    m = shown_metrics(j)
    for g in j.get("grades") or []:
        if g.get("value") is None:
            continue
        # "480 ± 12 MB/s, from 12 per-second samples" (or "480 MB/s ± unknown"), then
        # "ideal, tier 4 of 5" or, borderline, "between good and ideal, tiers 3-4 of 5"
        word = g["between"] if g.get("borderline") else g["label"]
        pat = r"%s\s+([0-9.]+)(?: ± [0-9.]+)? %s(?: ± \w+)?(?:,?\s+from [^\n]*?)?\s+%s, tiers? %d" % (
            g["metric"], re.escape(g.get("unit") or "x"), re.escape(word), g["rank"] + 1)
        mm = find((r"^\s*" if kind == "text" else r"\b") + pat, t, kind + " grade " + g["metric"] + " " + word)
        if mm:
            agree(mm.group(1), 1, m.get(g["metric"]), kind + " grade " + g["metric"])


def check_cpu_mem_rendered(j, t, kind):
    """The cpu and mem lines of text and HTML against the run's JSON."""
    mods = j.get("modules") or {}
    c = j.get("cpu") or {}
    if mods.get("cpu", {}).get("status") == "ok":
        cs = t[t.find("CPU"):]
        pr = c["prime"]
        s1, sn = pr["single"], pr["multi"]
        if kind == "text":
            mo = find(r"1 Thread Test\s*: ([0-9.]+) events/s \((\d+) in", cs, "text cpu 1 thread")
            mn = mo and find(r"(\d+) Threads? Test\s*: ([0-9.]+) events/s \((\d+) in", cs[mo.end():],
                             "text cpu N threads")
            if mo and mn:
                agree(mo.group(1), 1, s1["events_per_s"], "text cpu 1-thread events/s")
                claim(int(mo.group(2)) == s1["events"], "text cpu 1-thread events")
                claim(int(mn.group(1)) == sn["threads"], "text cpu N: threads")
                agree(mn.group(2), 1, sn["events_per_s"], "text cpu N-thread events/s")
                claim(int(mn.group(3)) == sn["events"], "text cpu N-thread events")
        else:
            mo = find(r"1 thread ([0-9.]+) events/s", cs, "html cpu 1 thread")
            mn = find(r"N threads ([0-9.]+) events/s on (\d+) threads", cs, "html cpu N threads")
            if mo and mn:
                agree(mo.group(1), 1, s1["events_per_s"], "html cpu 1-thread events/s")
                agree(mn.group(1), 1, sn["events_per_s"], "html cpu N-thread events/s")
                claim(int(mn.group(2)) == sn["threads"], "html cpu N: threads")
        ms = find(r"Scaling\s*:? ([0-9.]+)x", cs, kind + " cpu scaling")
        if ms:
            agree(ms.group(1), 1, pr["scaling"], kind + " cpu scaling")
        x = c.get("crypto") or {}
        if x.get("available"):
            # each pass: its figure, or "not measured: <why>" with the JSON's reason
            # (the text wraps a long line at 80 columns: any run of spaces and newlines)
            side = r"(?:([0-9.]+) MB/s(?: \[disturbed\])?|not\s+measured:\s+([^()]*?))"
            for lab, k in (("AES-256-GCM", "aes_256_gcm"), ("SHA-256", "sha256")):
                mc = find(re.escape(lab) + r"[^:\n]*?:? " + side + r"\s+\(1 thread\),\s+" + side + r"\s+\((\d+) threads?\)",
                          cs, kind + " cpu " + lab)
                if mc:
                    for i, ps in ((1, "single"), (3, "multi")):
                        e, w = x[k + "_" + ps], "%s cpu %s %s" % (kind, lab, ps)
                        if e["mbps"] is None:
                            shown_why = mc.group(i + 1)
                            claim(shown_why is not None and " ".join(shown_why.split()) == (e.get("null_reasons") or {}).get("mbps"),
                                  "%s: shows %r, the JSON's null has reason %r" % (
                                      w, mc.group(0), (e.get("null_reasons") or {}).get("mbps")))
                        else:
                            claim(mc.group(i) is not None, "%s: shows %r, the JSON says %r MB/s" % (w, mc.group(0), e["mbps"]))
                            if mc.group(i) is not None:
                                agree(mc.group(i), 1, e["mbps"], w + " MB/s")
                    claim(int(mc.group(5)) == x[k + "_multi"]["threads"], kind + " cpu " + lab + " threads")
    mm = j.get("mem") or {}
    if mods.get("mem", {}).get("status") == "ok" and mm.get("stream"):
        ms = t[t.find("Memory"):]
        for r in mm["stream"]:
            lab = "%d threads?" % r["threads"]
            mk = find(lab + r"\s*:? Copy ([0-9.]+),?\s+Scale ([0-9.]+),?\s+Add ([0-9.]+),?\s+Triad ([0-9.]+) MB/s", ms,
                      "%s mem %d threads" % (kind, r["threads"]))
            if mk:
                for i, k in enumerate(("copy", "scale", "add", "triad")):
                    agree(mk.group(i + 1), 1, r["kernels"][k]["mbps"], "%s mem %s %dt" % (kind, k, r["threads"]))
        for lt in mm.get("latency") or []:
            if not lt.get("present"):
                continue
            lab = ("Latency, huge pages" if lt["pages"] != "4k" else
                   "Page walks, 4 KiB" if lt.get("page_walk") else "Latency, 4 KiB pages")
            lv = [k for k in ("L1", "L2", "LLC", "DRAM") if lt["levels_ns"].get(k) is not None]
            ml = find(re.escape(lab) + r"\s*:? " + ", ".join(k + r" ([0-9.]+) ns" for k in lv) + r"(?!, [LD])", ms,
                      kind + " mem " + lab)
            if ml:
                for i, k in enumerate(lv):
                    agree(ml.group(i + 1), 1, lt["levels_ns"][k], "%s mem %s %s ns" % (kind, lt["pages"], k))
        sb = mm.get("sysbench") or {}
        if sb.get("read_mibps") is not None:
            mb = find(r"sysbench-style 1 MiB\s*:? read ([0-9.]+) MiB/s, write ([0-9.]+) MiB/s", ms, kind + " mem sysbench")
            if mb:
                agree(mb.group(1), 1, sb["read_mibps"], kind + " mem sysbench read MiB/s")
                agree(mb.group(2), 1, sb["write_mibps"], kind + " mem sysbench write MiB/s")


def html_cpu_bars(j, h):
    """The CPU chart's bars (data-threads, data-eps) against the JSON."""
    if (j.get("modules") or {}).get("cpu", {}).get("status") != "ok":
        return
    pr = j["cpu"]["prime"]
    bars = re.findall(r'<rect class="bar" data-threads="(\d+)" data-eps="([0-9.]+)"', h)
    claim(len(bars) == 2, "html cpu chart: %d bars, want 2" % len(bars))
    for (th, eps), k in zip(bars, ("single", "multi")):
        claim(int(th) == pr[k]["threads"], "html cpu bar %s threads" % k)
        agree(eps, 1, pr[k]["events_per_s"], "html cpu bar %s events/s" % k)


def check_cpu_mem_prom(j, S):
    mods = j.get("modules") or {}
    if mods.get("cpu", {}).get("status") == "ok":
        c, pr = j["cpu"], j["cpu"]["prime"]
        for k in ("single", "multi"):
            eq(prom_get(S, "vpsbench_cpu_prime_events_per_second", threads=pr[k]["threads"], **{"pass": k}),
               pr[k]["events_per_s"], "prom cpu %s events/s" % k)
        eq(prom_get(S, "vpsbench_cpu_prime_scaling_ratio"), pr["scaling"], "prom cpu scaling")
        x = c.get("crypto") or {}
        if x.get("available"):
            for alg, k in (("aes-256-gcm", "aes_256_gcm"), ("sha256", "sha256")):
                for ps in ("single", "multi"):
                    e = x[k + "_" + ps]
                    if e["mbps"] is None:  # not measured: no series (the JSON says why)
                        got = [v for n, lab, v in S if n == "vpsbench_cpu_crypto_bytes_per_second"
                               and lab.get("algorithm") == alg and lab.get("pass") == ps]
                        claim(not got, "prom cpu %s %s: a series %r for a null figure" % (alg, ps, got))
                        continue
                    eq(prom_get(S, "vpsbench_cpu_crypto_bytes_per_second", algorithm=alg, threads=e["threads"],
                                **{"pass": ps}), e["mbps"] * 1e6, "prom cpu %s %s B/s = MB/s*1e6" % (alg, ps))
        if c.get("steal_pct") is not None:
            eq(prom_get(S, "vpsbench_cpu_steal_ratio"), c["steal_pct"] / 100.0, "prom cpu steal ratio = %/100")
    mm = j.get("mem") or {}
    if mods.get("mem", {}).get("status") == "ok" and mm.get("stream"):
        eq(prom_get(S, "vpsbench_mem_array_bytes", capped="1" if mm["capped"] else "0"), mm["array_bytes"],
           "prom mem array bytes")
        for r in mm["stream"]:
            for k, v in r["kernels"].items():
                eq(prom_get(S, "vpsbench_mem_stream_bytes_per_second", kernel=k, threads=r["threads"]),
                   v["mbps"] * 1e6, "prom mem %s %dt B/s = MB/s*1e6" % (k, r["threads"]))
        for lt in mm.get("latency") or []:
            if lt.get("present"):
                for lv, ns in lt["levels_ns"].items():
                    if ns is not None:
                        eq(prom_get(S, "vpsbench_mem_latency_seconds", pages=lt["pages"], level=lv), ns / 1e9,
                           "prom mem latency %s %s = ns/1e9" % (lt["pages"], lv))
        sb = mm.get("sysbench") or {}
        for op in ("read", "write"):
            if sb.get(op + "_mibps") is not None:
                eq(prom_get(S, "vpsbench_mem_sysbench_bytes_per_second", op=op), sb[op + "_mibps"] * 1048576.0,
                   "prom mem sysbench %s B/s = MiB/s*2^20" % op)


def html_text(h):
    h = re.sub(r"<script.*?</script>|<style.*?</style>", " ", h, flags=re.S)
    h = re.sub(r"<[^>]+>", " ", h)
    h = h.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return re.sub(r"[ \t\r\n]+", " ", h)


def parse_prom(txt):
    out = []
    for line in txt.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"(\w+)(?:\{(.*)\})? (\S+)", line)
        claim(m is not None, "prom: bad line %r" % line)
        if not m:
            continue
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
        out.append((m.group(1), labels, float(m.group(3))))
    return out


def prom_get(samples, name, **lab):
    got = [v for n, l, v in samples if n == name and all(l.get(k) == str(x) for k, x in lab.items())]
    claim(len(got) == 1, "prom: %d samples of %s%r" % (len(got), name, lab))
    return got[0] if got else None


def check_prom(j, txt):
    S = parse_prom(txt)
    check_fsync_prom(j, S)
    si = j.get("sysinfo") or {}
    if si.get("mem"):
        eq(prom_get(S, "vpsbench_memory_total_bytes"), si["mem"]["ram_total_bytes"], "prom memory_total_bytes")
        eq(prom_get(S, "vpsbench_swap_total_bytes"), si["mem"]["swap_total_bytes"], "prom swap_total_bytes")
    if si.get("cpu"):
        eq(prom_get(S, "vpsbench_cpu_online"), si["cpu"]["cores_online"], "prom cpu_online")
        if si["cpu"].get("freq_mhz"):
            eq(prom_get(S, "vpsbench_cpu_frequency_hertz"), si["cpu"]["freq_mhz"] * 1e6, "prom cpu Hz = MHz*1e6")
    s = j.get("seq") or {}
    if s.get("status") == "ok":
        eq(prom_get(S, "vpsbench_throughput_bytes_per_second", **{"pass": "seq", "direction": "write"}),
           s["write"]["total_mbps"] * 1e6, "prom seq write B/s = total_mbps*1e6")
        if s["read"].get("mbps") is not None:
            eq(prom_get(S, "vpsbench_throughput_bytes_per_second", **{"pass": "seq", "direction": "read"}),
               s["read"]["mbps"] * 1e6, "prom seq read B/s = mbps*1e6")
        if s["write"].get("cov") is not None:
            eq(prom_get(S, "vpsbench_seq_write_cov_ratio", **{"pass": "seq"}), s["write"]["cov"], "prom seq cov")
    for p in (j.get("rand") or {}).get("passes") or []:
        if p.get("status") != "ok":
            continue
        for dn in ("read", "write"):
            d = p.get(dn)
            if d is None:
                continue
            lab = {"pass": p["name"], "direction": dn}
            w = "prom %s %s" % (p["name"], dn)
            eq(prom_get(S, "vpsbench_throughput_bytes_per_second", **lab), d["bw_bytes"], w + " B/s")
            eq(prom_get(S, "vpsbench_iops", **lab), d["iops"], w + " iops")
            c = d["clat_ns"]
            if not c["N"]:
                continue
            for q, k in (("0.5", "50.000000"), ("0.9", "90.000000"), ("0.99", "99.000000"), ("0.999", "99.900000")):
                eq(prom_get(S, "vpsbench_completion_latency_seconds", quantile=q, **lab),
                   c["percentile"][k] / 1e9, w + " quantile " + q + " = ns/1e9")
            eq(prom_get(S, "vpsbench_completion_latency_seconds_count", **lab), c["N"], w + " count")
            eq(prom_get(S, "vpsbench_completion_latency_seconds_sum", **lab), c["mean"] * c["N"] / 1e9,
               w + " sum = mean*N/1e9", rel=1e-6)
    check_cpu_mem_prom(j, S)
    for g in j.get("grades") or []:
        if g.get("tier") and g.get("rank") is not None:
            # a borderline figure's tier label is its "between ..." text, never one tier word
            tier = g["between"] if g.get("borderline") else g["tier"]
            eq(prom_get(S, "vpsbench_grade_rank", metric=g["metric"], tier=tier), g["rank"],
               "prom grade rank " + g["metric"])
            eq(prom_get(S, "vpsbench_grade_tiers", metric=g["metric"]), g["tiers"],
               "prom grade tiers " + g["metric"])
            eq(prom_get(S, "vpsbench_grade_borderline", metric=g["metric"]), 1 if g.get("borderline") else 0,
               "prom grade borderline " + g["metric"])


def check_yabs(j, y):
    si = j["sysinfo"]
    mem = y["mem"]
    eq(mem["ram"], si["mem"]["ram_total_bytes"] // 1024, "yabs mem.ram = ram_total_bytes/1024 (KiB)")
    eq(mem["swap"], si["mem"]["swap_total_bytes"] // 1024, "yabs mem.swap = swap_total_bytes/1024 (KiB)")
    claim(mem["ram_units"] == "KiB" and mem["disk_units"] == "KB", "yabs mem units")
    seen, disk = set(), 0
    for d in si["dirs"]:
        key = (d.get("device"), d.get("mountpoint"))
        if d.get("total_bytes") is None or key in seen:
            continue
        seen.add(key)
        disk += d["total_bytes"] // 1024
    eq(mem["disk"], disk, "yabs mem.disk = sum of distinct fs sizes / 1024")
    eq(y["cpu"]["cores"], si["cpu"]["cores_online"], "yabs cpu.cores")
    claim(y["cpu"]["aes"] == si["cpu"]["aes"], "yabs cpu.aes")
    claim(y["os"]["kernel"] == si["os"]["kernel"], "yabs os.kernel")
    claim(y["os"]["distro"] == si["os"]["name"], "yabs os.distro")
    names = {4096: "4k", 65536: "64k", 524288: "512k", 1048576: "1m"}
    want = []
    for p in (j.get("rand") or {}).get("passes") or []:
        if p["status"] == "ok" and p["rw"] == "randrw" and p["rwmixread"] == 50 and p["direct"] \
                and p["bs"] in names and names[p["bs"]] not in [w[0] for w in want]:
            want.append((names[p["bs"]], p))
    fio = y.get("fio") or []
    claim(len(fio) == len(want), "yabs: %d fio entries, %d yabs passes ran" % (len(fio), len(want)))
    for e, (bs, p) in zip(fio, want):
        w = "yabs fio " + bs
        claim(e["bs"] == bs, w + ": bs %r" % e["bs"])
        sr, sw = int(p["read"]["bw_bytes"] / 1024), int(p["write"]["bw_bytes"] / 1024)
        ir, iw = int(p["read"]["iops"]), int(p["write"]["iops"])
        eq(e["speed_r"], sr, w + " speed_r = read KiB/s")
        eq(e["speed_w"], sw, w + " speed_w = write KiB/s")
        eq(e["iops_r"], ir, w + " iops_r")
        eq(e["iops_w"], iw, w + " iops_w")
        eq(e["speed_rw"], sr + sw, w + " speed_rw")
        eq(e["iops_rw"], ir + iw, w + " iops_rw")
        claim(e["speed_units"] == "KBps", w + " speed_units")


# --- fsync: etcd's fdatasync recipe ---
PCTS = ("1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000", "50.000000",
        "60.000000", "70.000000", "80.000000", "90.000000", "95.000000", "99.000000", "99.500000",
        "99.900000", "99.950000", "99.990000")


def check_fio_lat(l, n, what):
    """A fio latency object against its own bins: N, each percentile by
    fio's rule, min and max inside the lowest and highest bucket."""
    eq(l["N"], n, what + " N")
    if not n:
        return
    bins = {int(k): v for k, v in l["bins"].items()}
    claim(all(v in BUCKET_VALUES for v in bins), what + ": a bin key is no bucket value")
    eq(sum(bins.values()), n, what + " bins sum to N")
    claim(sorted(l["percentile"]) == sorted(PCTS), what + ": fio's 17 percentile keys")
    for k in PCTS:
        eq(l["percentile"].get(k), percentile_from_bins(bins, n, float(k)), what + " p" + k + " from the bins")
    claim(plat_val_to_idx(l["min"]) == BUCKET_VALUES[min(bins)], what + ": min in the lowest bucket")
    claim(plat_val_to_idx(l["max"]) == BUCKET_VALUES[max(bins)], what + ": max in the highest bucket")
    claim(l["min"] <= l["mean"] <= l["max"], what + ": min <= mean <= max")


def fsync_dirs(j):
    return ((j.get("fsync") or {}).get("dirs")) or []


def check_fsync_json(j):
    m = shown_metrics(j)
    for i, d in enumerate(fsync_dirs(j)):
        w = "fsync %s" % d["dir"]
        if "sync" not in d:
            claim(d["status"] != "ok", w + ": ok without figures")
            continue
        eq(d["io_bytes"], d["writes"] * d["bs"], w + " io_bytes = writes x bs")
        eq(d["write"]["io_bytes"], d["io_bytes"], w + " write.io_bytes")
        eq(d["sync"]["total_ios"], d["syncs"], w + " sync.total_ios = syncs")
        eq(d["write"]["total_ios"], d["writes"], w + " write.total_ios = writes")
        check_fio_lat(d["sync"]["lat_ns"], d["syncs"], w + " sync.lat_ns")
        check_fio_lat(d["write"]["clat_ns"], d["writes"], w + " write.clat_ns")
        claim(d["p99_low_confidence"] == (d["syncs"] < 1000), w + ": p99_low_confidence is syncs < 1000")
        if d["runtime_s"] > 0:
            eq(d["syncs_per_s"], d["syncs"] / d["runtime_s"], w + " syncs_per_s = syncs / runtime_s", rel=1e-6)
        # the runtime is the writes and syncs back to back (two clock reads
        # apart): their summed latencies fill it, never exceed it; what is
        # between them is at most a fifth of it, or 0.25 s (a loaded machine
        # preempted a 0.18 s tmpfs run for 45 ms between two operations)
        busy = d["sync"]["lat_ns"]["mean"] * d["syncs"] + d["write"]["clat_ns"]["mean"] * d["writes"]
        gap = d["runtime_s"] * 1e9 - busy
        claim(gap <= max(0.2 * d["runtime_s"], 0.25) * 1e9 and busy <= d["runtime_s"] * 1e9 * 1.000001,
              w + ": sync + write latencies sum to the runtime (%.6f of %.6f s)" % (busy / 1e9, d["runtime_s"]))
        if d["status"] == "ok":
            eq(d["syncs"], d["writes"], w + " one fdatasync per write")
            claim(d["time_capped"] or d["io_bytes"] == d["size_bytes"],
                  w + ": not time-capped, so all size_bytes written")
            claim(d["io_bytes"] <= d["size_bytes"], w + ": io_bytes <= size_bytes")
        if i == 0:
            p = d["sync"]["lat_ns"].get("percentile") or {}
            if d["status"] == "ok" and d["storage"]["graded"] and d["syncs"]:
                eq(m.get("fsync_p99_ms"), p["99.000000"] / 1e6, "metric fsync_p99_ms = sync p99 / 1e6")
                eq(m.get("fsync_p50_ms"), p["50.000000"] / 1e6, "metric fsync_p50_ms = sync p50 / 1e6")
            else:
                claim(m.get("fsync_p99_ms") is None, "metric fsync_p99_ms null: %s, graded %s" %
                      (d["status"], d["storage"]["graded"]))


def check_fsync_rendered(j, t, kind):
    pos = t.find("fdatasync latency")
    for d in fsync_dirs(j):
        if "sync" not in d:
            continue
        w = "%s fsync %s" % (kind, d["dir"])
        at = t.find(d["dir"], pos) if pos >= 0 else -1
        claim(at >= 0, w + ": dir not shown")
        if at < 0:
            continue
        m = find(r"Syncs\W+(\d+) in ", t[at:], w + " syncs")
        if m:
            eq(int(m.group(1)), d["syncs"], w + " syncs shown")
        lat = d["sync"]["lat_ns"]
        if not lat["N"]:
            continue
        m = find(r"fdatasync\W+p50 ([0-9.]+ [nuµm]?s), p99 ([0-9.]+ [nuµm]?s), p99\.9 ([0-9.]+ [nuµm]?s), "
                 r"max ([0-9.]+ [nuµm]?s)", t[at:], w + " fdatasync line")
        if m:
            for tok, want, lab in zip(m.groups(), (lat["percentile"]["50.000000"], lat["percentile"]["99.000000"],
                                                   lat["percentile"]["99.900000"], lat["max"]),
                                      ("p50", "p99", "p99.9", "max")):
                agree(*ns_of(tok), want, w + " fdatasync " + lab)
            pos = at + m.end()
        claim(("low: %d syncs" % d["syncs"] in t[at:]) == d["p99_low_confidence"] or
              not d["p99_low_confidence"] and "low: " not in t[at:at + 2000],
              w + ": low-confidence line shown exactly when syncs < 1000")


def check_fsync_prom(j, S):
    for d in fsync_dirs(j):
        if d["status"] != "ok" or not d.get("syncs"):
            claim(not [1 for n, l, v in S if n.startswith("vpsbench_fsync_") and l.get("dir") == d["dir"]],
                  "prom fsync %s: a dir that did not end has samples" % d["dir"])
            continue
        lat, w = d["sync"]["lat_ns"], "prom fsync " + d["dir"]
        for q, k in (("0.5", "50.000000"), ("0.9", "90.000000"), ("0.99", "99.000000"), ("0.999", "99.900000")):
            eq(prom_get(S, "vpsbench_fsync_latency_seconds", dir=d["dir"], quantile=q),
               lat["percentile"][k] / 1e9, w + " quantile " + q + " = ns/1e9")
        eq(prom_get(S, "vpsbench_fsync_latency_seconds_count", dir=d["dir"]), lat["N"], w + " count")
        eq(prom_get(S, "vpsbench_fsync_latency_seconds_sum", dir=d["dir"]), lat["mean"] * lat["N"] / 1e9,
           w + " sum = mean*N/1e9", rel=1e-6)
        eq(prom_get(S, "vpsbench_fsync_low_confidence", dir=d["dir"]), 1 if d["p99_low_confidence"] else 0,
           w + " low confidence")


def check_fio(j, f):
    jobs = [x for x in f.get("jobs") or [] if x.get("jobname") == "fsync"]
    want = [d for d in fsync_dirs(j) if d["status"] == "ok" and d.get("syncs")]
    claim(len(jobs) == len(want), "fio: %d fsync jobs for %d complete dirs" % (len(jobs), len(want)))
    for x, d in zip(jobs, want):
        w = "fio fsync " + d["dir"]
        claim(x["job options"]["directory"] == d["dir"], w + ": directory")
        claim(x["job options"]["fdatasync"] == "1" and x["job options"]["bs"] == str(d["bs"]), w + ": options")
        eq(x["sync"]["total_ios"], d["syncs"], w + " sync.total_ios")
        check_fio_lat(x["sync"]["lat_ns"], d["syncs"], w + " sync.lat_ns")
        claim(x["sync"]["lat_ns"]["percentile"] == d["sync"]["lat_ns"]["percentile"], w + ": sync percentiles = JSON's")
        claim(x["sync"]["lat_ns"]["bins"] == d["sync"]["lat_ns"]["bins"], w + ": sync bins = JSON's")
        eq(x["write"]["io_bytes"], d["io_bytes"], w + " write.io_bytes")
        eq(x["write"]["total_ios"], d["writes"], w + " write.total_ios")
        check_fio_lat(x["write"]["clat_ns"], d["writes"], w + " write.clat_ns")
        eq(x["read"]["total_ios"], 0, w + " read.total_ios")


def run_check(cmd, args):
    """One check, as `truth.py CMD ARGS...` runs it; appends to BAD."""
    rep = json.load(open(args[0]))
    if cmd == "json":
        check_json(rep)
        check_cpu_mem_json(rep)
    elif cmd == "tiers":
        check_tiers(rep, json.load(open(args[1])))
    elif cmd == "text":
        check_rendered(rep, open(args[1]).read(), "text")
    elif cmd == "html":
        h = open(args[1]).read()
        check_rendered(rep, html_text(h), "html")
        html_cpu_bars(rep, h)
    elif cmd == "prom":
        check_prom(rep, open(args[1]).read())
    elif cmd == "yabs":
        check_yabs(rep, json.load(open(args[1])))
    elif cmd == "fio":
        check_fio(rep, json.load(open(args[1])))
    else:
        sys.exit("truth.py: unknown check " + cmd)


def multi(argv):
    """truth.py multi NAME CHECK ARGS... [-- NAME CHECK ARGS...]...: each
    check alone (its own list of false claims; an exception fails that
    check only), in the order given."""
    groups, cur = [], []
    for a in argv:
        if a == "--":
            groups.append(cur)
            cur = []
        else:
            cur.append(a)
    groups.append(cur)
    failed = 0
    for g in groups:
        if len(g) < 3:
            sys.exit("truth.py multi: want NAME CHECK ARGS..., got %r" % (g,))
        name, cmd, args = g[0], g[1], g[2:]
        del BAD[:]
        try:
            run_check(cmd, args)
        except Exception as ex:  # as a single call's traceback: this check fails
            BAD.append("%s: %r" % (type(ex).__name__, ex))
        print(("fail " if BAD else "pass ") + name)
        for b in BAD:
            print("  false: " + b)
        failed += bool(BAD)
    sys.stdout.flush()
    sys.exit(1 if failed else 0)


def main():
    if sys.argv[1] == "multi":
        multi(sys.argv[2:])
    run_check(sys.argv[1], sys.argv[2:])
    for b in BAD:
        print("  false: " + b, file=sys.stderr)
    sys.exit(1 if BAD else 0)


if __name__ == "__main__":
    main()
