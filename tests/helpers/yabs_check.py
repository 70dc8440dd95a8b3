#!/usr/bin/env python3
"""yabs_check.py EXAMPLE OUT — checks --format yabs output against yabs.sh's
own JSON (EXAMPLE: a real `yabs -j` result, tests/helpers/yabs-example.json,
copied from yabs's repository): for every section present, the key set and
each value's JSON type equal the example's; no section or key outside
yabs's; fio entries in yabs's block-size order; OUT is one line, as
`yabs -j | tail -1` needs."""
import json
import sys

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

def shape_of(v):
    if isinstance(v, dict):
        return {k: shape_of(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape_of(v[0])] if v else []
    return jtype(v)

def main():
    example = json.load(open(sys.argv[1]))
    shape = shape_of(example)
    # newer yabs.sh (after the example's v2023-04-23) writes the tested
    # partition before fio[]: JSON_RESULT+=',"partition":"'$CURRENT_PARTITION'","fio":['
    shape.setdefault("partition", "string")
    for e in example.get("fio", []):
        assert shape_of(e) == shape["fio"][0], "example fio entries differ"
    raw = open(sys.argv[2]).read()
    out = json.loads(raw)
    errs = []
    if raw.count("\n") != 1 or not raw.endswith("}\n"):
        errs.append("not one line of JSON ending in a newline (%d lines)" % raw.count("\n"))
    if not isinstance(out, dict):
        errs.append("not an object")
    else:
        for k, v in out.items():
            if k not in shape:
                errs.append("key %s is not in yabs's JSON" % k)
                continue
            want = shape[k]
            if isinstance(want, dict):
                if not isinstance(v, dict):
                    errs.append("%s: object expected" % k)
                    continue
                if set(v) != set(want):
                    errs.append("%s: keys %s, yabs has %s" % (k, sorted(v), sorted(want)))
                for kk, vv in v.items():
                    if kk in want and jtype(vv) != want[kk]:
                        errs.append("%s.%s: %s, yabs has %s" % (k, kk, jtype(vv), want[kk]))
            elif isinstance(want, list):
                if not isinstance(v, list) or not v:
                    errs.append("%s: non-empty array expected" % k)
                    continue
                for i, e in enumerate(v):
                    if set(e) != set(want[0]):
                        errs.append("%s[%d]: keys %s, yabs has %s" % (k, i, sorted(e), sorted(want[0])))
                    for kk, vv in e.items():
                        if kk in want[0] and jtype(vv) != want[0][kk]:
                            errs.append("%s[%d].%s: %s, yabs has %s" % (k, i, kk, jtype(vv), want[0][kk]))
            elif jtype(v) != want:
                errs.append("%s: %s, yabs has %s" % (k, jtype(v), want))
        # yabs prints these as integers and fixed unit strings
        import re
        if not re.match(r"^[0-9]{8}-[0-9]{6}$", str(out.get("time"))):
            errs.append("time %r is not YYYYMMDD-HHMMSS" % out.get("time"))
        ints = [("runtime", k) for k in ("start", "end", "elapsed")]
        ints += [("mem", k) for k in ("ram", "swap", "disk")] + [("cpu", "cores")]
        for sec, k in ints:
            x = out.get(sec, {}).get(k) if isinstance(out.get(sec), dict) else None
            if sec in out and not (isinstance(x, int) and not isinstance(x, bool)):
                errs.append("%s.%s = %r, yabs prints an integer" % (sec, k, x))
        units = {"ram_units": "KiB", "swap_units": "KiB", "disk_units": "KB"}
        for k, u in units.items():
            if "mem" in out and out["mem"].get(k) != u:
                errs.append("mem.%s = %r, yabs has %r" % (k, out["mem"].get(k), u))
        for e in out.get("fio", []):
            if e.get("speed_units") != "KBps":
                errs.append("fio speed_units %r" % e.get("speed_units"))
            for k in ("speed_r", "iops_r", "speed_w", "iops_w", "speed_rw", "iops_rw"):
                if not isinstance(e.get(k), int) or isinstance(e.get(k), bool):
                    errs.append("fio %s = %r, yabs prints an integer" % (k, e.get(k)))
            if e.get("speed_rw") != e.get("speed_r", 0) + e.get("speed_w", 0):
                errs.append("fio speed_rw is not speed_r + speed_w")
            if e.get("iops_rw") != e.get("iops_r", 0) + e.get("iops_w", 0):
                errs.append("fio iops_rw is not iops_r + iops_w")
        keys = list(out)
        if "partition" in out and ("fio" not in out or keys.index("fio") != keys.index("partition") + 1):
            errs.append("partition is written just before fio, as yabs does")
        if "fio" in out:
            order = ["4k", "64k", "512k", "1m"]
            got = [e.get("bs") for e in out["fio"]]
            if got != [b for b in order if b in got]:
                errs.append("fio bs order %s" % got)
    for e in errs:
        print("yabs_check: " + e)
    sys.exit(1 if errs else 0)

main()
