#!/usr/bin/env python3
"""fio_check.py OURS.json NATIVE.json CSVPREFIX REALFIO.json — checks
--format fio against fio itself:
 1. the CSVs that Debian's fio_jsonplus_clat2csv made from OURS give, for
    every job and direction, the percentiles vpsbench reports in its own
    JSON (NATIVE), bucket for bucket, and the I/O counts;
 2. OURS has the keys and JSON types of a real fio 3.33 --output-format=json+
    result (REALFIO), apart from the figures vpsbench does not measure;
 3. iodepth_level and latency_ns/us/ms are percentages as fio writes them;
 4. io_bytes, bw_bytes, bw, iops, runtime, total_ios from NATIVE's raw
    parts by fio's integer rules."""
import csv, json, sys

UNMEASURED_JOB = {"job_runtime", "ctx", "majf", "minf", "iodepth_submit", "iodepth_complete",
                  "latency_target", "latency_percentile", "latency_window"}
UNMEASURED_DIR = {"bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min",
                  "iops_max", "iops_mean", "iops_stddev", "iops_samples"}
TOP_OPTIONAL = {"disk_util", "global options"}

def jtype(v):
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"

errs = []
ours = json.load(open(sys.argv[1]))
native = json.load(open(sys.argv[2]))
prefix = sys.argv[3]
real = json.load(open(sys.argv[4]))

# 2. shape against real fio
for k in real:
    if k not in ours and k not in TOP_OPTIONAL:
        errs.append("top-level key %r missing" % k)
for k in ours:
    if k not in real and k != "global options":
        errs.append("top-level key %r is not fio's" % k)
    elif k in real and jtype(ours[k]) != jtype(real[k]):
        errs.append("%s: %s, fio has %s" % (k, jtype(ours[k]), jtype(real[k])))
if not str(ours.get("fio version", "")).startswith("vpsbench-"):
    errs.append("fio version %r does not name vpsbench" % ours.get("fio version"))
rj = real["jobs"][0]
if not ours.get("jobs"):
    errs.append("no jobs")
for n, j in enumerate(ours.get("jobs", [])):
    for k in rj:
        if k not in j and k not in UNMEASURED_JOB:
            errs.append("job %d: key %r missing" % (n, k))
    for k in j:
        if k not in rj:
            errs.append("job %d: key %r is not fio's" % (n, k))
        elif jtype(j[k]) != jtype(rj[k]) and not (k in ("usr_cpu", "sys_cpu") and j[k] is None):
            errs.append("job %d: %s is %s, fio has %s" % (n, k, jtype(j[k]), jtype(rj[k])))
    for k, v in j["job options"].items():
        if not isinstance(v, str):
            errs.append("job %d: option %s is not a string" % (n, k))
    for d in ("read", "write", "trim"):
        for k in rj[d]:
            if k not in j[d] and k not in UNMEASURED_DIR:
                errs.append("job %d %s: key %r missing" % (n, d, k))
        for k in j[d]:
            if k not in rj[d]:
                errs.append("job %d %s: key %r is not fio's" % (n, d, k))
        for lat in ("slat_ns", "clat_ns", "lat_ns"):
            for k in ("min", "max", "mean", "stddev", "N"):
                if k not in j[d][lat]:
                    errs.append("job %d %s.%s: no %s" % (n, d, lat, k))
        if j[d]["clat_ns"]["N"] and set(j[d]["clat_ns"]) != set(rj["read"]["clat_ns"]):
            errs.append("job %d %s.clat_ns keys %s, fio json+ has %s" % (
                n, d, sorted(j[d]["clat_ns"]), sorted(rj["read"]["clat_ns"])))
    # 3. percentages
    for key, total in (("iodepth_level", 100), ("latency_ns", None), ("latency_us", None),
                       ("latency_ms", None)):
        if list(j[key]) != list(rj[key]):
            errs.append("job %d %s buckets %s, fio has %s" % (n, key, list(j[key]), list(rj[key])))
    s = sum(j["iodepth_level"].values())
    if not 99.9 <= s <= 100.0 + 0.1 * 7:
        errs.append("job %d iodepth_level sums to %s, not 100 (percent)" % (n, s))
    s = sum(sum(j[k].values()) for k in ("latency_ns", "latency_us", "latency_ms"))
    if not 99.9 <= s <= 100.0 + 0.01 * 32:
        errs.append("job %d latency_* sum to %s, not 100 (percent)" % (n, s))

# 1. fio_jsonplus_clat2csv round trip against the native report
npass = [p for p in native["rand"]["passes"] if p["status"] == "ok"]
if len(npass) != len(ours.get("jobs", [])):
    errs.append("%d jobs for %d passes that ran" % (len(ours.get("jobs", [])), len(npass)))
checked = 0
for n, p in enumerate(npass):
    rows = list(csv.reader(open("%s_job%d.csv" % (prefix, n)), skipinitialspace=True))
    head = [h.strip() for h in rows[0]]
    for d in ("read", "write"):
        if d not in p or not p[d]["clat_ns"]["N"]:
            continue
        ci, cc = head.index(d + "_clat_ns_count"), head.index(d + "_clat_ns_cumulative")
        bins = [(int(r[0]), int(r[ci]), int(r[cc])) for r in rows[1:] if r[ci].strip()]
        total = bins[-1][2]
        if total != p[d]["clat_ns"]["N"] or total != p[d]["total_ios"]:
            errs.append("job %d %s: CSV has %d I/Os, vpsbench %d" % (n, d, total, p[d]["clat_ns"]["N"]))
        for pk, want in p[d]["clat_ns"]["percentile"].items():
            # fio's rule: the first bin whose cumulative count reaches p% of N
            got = next(v for v, _, cum in bins if cum >= float(pk) / 100.0 * total)
            if got != want:
                errs.append("job %d %s p%s: CSV %d ns, vpsbench %d ns" % (n, d, pk, got, want))
            checked += 1
# 4. the figures, from the native report's raw parts with fio's own
# integer rules: B/s = 1000 * bytes / runtime_ms, KiB = bytes >> 10
figs = 0
for n, p in enumerate(npass):
    if n >= len(ours.get("jobs", [])):
        break
    for d in ("read", "write"):
        if d not in p:
            continue
        o, nd, rt = ours["jobs"][n][d], p[d], p["runtime_ms"]
        want = {"io_bytes": nd["io_bytes"], "io_kbytes": int(nd["io_bytes"]) >> 10, "runtime": rt,
                "bw_bytes": 1000 * int(nd["io_bytes"]) // int(rt), "bw": 1000 * int(nd["io_bytes"]) // int(rt) // 1024,
                "total_ios": nd["total_ios"], "iops": nd["iops"]}
        for k, v in want.items():
            if o.get(k) != v:
                errs.append("job %d %s %s: %r, from the native report %r" % (n, d, k, o.get(k), v))
            figs += 1
        if o["clat_ns"]["N"] != nd["clat_ns"]["N"] or o["clat_ns"]["mean"] != nd["clat_ns"]["mean"]:
            errs.append("job %d %s clat_ns N/mean differ from the native report" % (n, d))
if not figs:
    errs.append("no figure compared")
if not checked:
    errs.append("no percentile compared")
for e in errs:
    print("fio_check: " + e)
print("fio_check: %d percentiles and %d figures compared" % (checked, figs))
sys.exit(1 if errs else 0)
