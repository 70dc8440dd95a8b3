#!/usr/bin/env python3
"""check-layout.py — the folder rules of the README's "Architecture" section.

    scripts/check-layout.py [ROOT] [--objs DIR]

Reads every #include "..." of ROOT's C sources and fails (exit 1, one line per
breach) when:
  - a module (modules/<name>/) includes another module, or grade/, report/, render/;
  - core/ includes anything outside core/;
  - render/ includes anything but render/ and the result headers (RESULT_HEADERS,
    and each module's public header modules/<name>/<name>.h);
  - grade/ or report/ include a module's private header or render/;
  - anything outside a module's folder includes its private headers (every
    header there but <name>.h); tests/ may, to test them;
  - a bare include ("x.h") does not name a file in the includer's own folder.
bench.c and cmd/ (subcommands such as `vpsbench fleet`) join the stages and may
include any of them, but no module's private header.
With --objs DIR (the release objects, build/rel), also fails when the render
objects call each other in a circle (a section calling back its dispatcher).
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# Headers render may read besides render/ and modules/<name>/<name>.h: the
# report, the grades and compare results, and core's plain data types.
RESULT_HEADERS = {
    "report/report.h", "grade/grade.h", "grade/compare.h",
    "core/module.h", "core/value.h", "core/plan.h", "core/options.h",
    "core/lat_hist.h", "core/live.h", "core/clock.h", "core/storage.h", "core/labels.h",
    "core/pass_io.h",
    "grade/fleet.h", "grade/watch_hist.h", "grade/watch_status.h",
}


def sources(root):
    for top in ("bench.c", "cmd", "core", "modules", "grade", "report", "render", "tests"):
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield top
            continue
        for d, _, files in os.walk(p):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), root)


def stage(path):
    """(stage, module name or None) of a repository-relative path."""
    parts = path.split("/")
    if parts[0] == "modules" and len(parts) >= 3:
        return "modules", parts[1]
    if len(parts) == 1:
        return "top", None
    return parts[0], None


def is_public_module_header(path):
    parts = path.split("/")
    return (len(parts) == 3 and parts[0] == "modules" and parts[2] == parts[1] + ".h")


def check_includes(root):
    errs = []
    for src in sources(root):
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        sdir = os.path.dirname(src)
        st, mod = stage(src)
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            where = "%s:%d: #include \"%s\"" % (src, line, inc)
            if "/" not in inc:
                target = os.path.join(sdir, inc) if sdir else inc
                if not os.path.isfile(os.path.join(root, target)):
                    if st != "tests":
                        errs.append("%s: not in %s/ (use the path from the root)" % (where, sdir or "."))
                    continue
            else:
                target = os.path.normpath(inc)
                if not os.path.isfile(os.path.join(root, target)):
                    errs.append("%s: no such file" % where)
                    continue
            tst, tmod = stage(target)
            if st in ("tests", "top", "cmd"):
                continue
            if tst == "modules" and not is_public_module_header(target) and tmod != mod:
                errs.append("%s: a private header of module %s" % (where, tmod))
                continue
            if st == "core" and tst != "core":
                errs.append("%s: core includes no module and no later stage" % where)
            elif st == "modules":
                if tst == "modules" and tmod != mod:
                    errs.append("%s: a module never includes another module" % where)
                elif tst not in ("core", "modules"):
                    errs.append("%s: a module includes only its own folder and core/" % where)
            elif st == "render":
                if tst != "render" and target not in RESULT_HEADERS and not is_public_module_header(target):
                    errs.append("%s: render reads results only (report, grades, module result headers)" % where)
            elif st in ("grade", "report"):
                if tst == "render":
                    errs.append("%s: %s/ does not include render/" % (where, st))
    return errs


def defined_and_used(obj):
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for ln in out.splitlines():
        f = ln.split()
        if len(f) < 2:
            continue
        if f[1] in ("T", "D", "B", "R"):
            defined.add(f[0])
        elif f[1] == "U":
            used.add(f[0])
    return defined, used


def check_render_calls(root, objs):
    rdir = os.path.join(objs, "render")
    # render/ and its format folders (render/text/, render/json/...): one call
    # graph, of the objects whose source is in the tree (not stale ones)
    files = sorted(rel for rel in (os.path.relpath(os.path.join(d, f), rdir)
                                   for d, _, fs in os.walk(rdir) for f in fs if f.endswith(".o"))
                   if os.path.isfile(os.path.join(root, "render", rel[:-2] + ".c")))
    syms = {f: defined_and_used(os.path.join(rdir, f)) for f in files}
    owner = {}
    for f, (d, _) in syms.items():
        for s in d:
            owner[s] = f
    edges = {f: sorted({owner[s] for s in syms[f][1] if s in owner and owner[s] != f}) for f in files}
    errs, state = [], {}

    def visit(f, path):
        state[f] = 1
        for g in edges[f]:
            if state.get(g) == 1:
                cyc = path[path.index(g):] + [g]
                errs.append("render: calls go in a circle: " + " -> ".join(c[:-2] + ".c" for c in cyc))
            elif not state.get(g):
                visit(g, path + [g])
        state[f] = 2

    for f in files:
        if not state.get(f):
            visit(f, [f])
    return errs


def main(argv):
    root, objs = ".", None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--objs":
            objs = args.pop(0)
        else:
            root = a
    errs = check_includes(root)
    if objs:
        errs += check_render_calls(root, objs)
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
