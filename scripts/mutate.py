#!/usr/bin/env python3
"""mutate.py — `make mutate`: applies each mutant of tests/mutants.txt, one at
a time, to a temporary copy of the tree, rebuilds, runs the test named for
it and reports it caught (the test failed) or survived, then a mutation
score. `mutate.py --check` only checks that every mutant still applies (its
exact text is in its file exactly once); a mutant that does not names itself
and fails the run, so the list cannot rot silently. Both also check that
every module folder, renderer and fleet output has a mutant (owners()).

  scripts/mutate.py [--check] [--only ID[,ID]] [--part K/N] [--keep]

--part K/N takes every Nth mutant from the Kth, to run N copies side by side.
The copy takes the current build/ along (timestamps kept), so only what a
mutant touches is compiled again."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.environ.get("MUTANTS_LIST") or os.path.join(ROOT, "tests", "mutants.txt")


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}.get(s[i + 1], "\\" + s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def load():
    muts, bad = [], []
    for no, line in enumerate(open(LIST), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 5:
            bad.append("tests/mutants.txt:%d: %d fields, want 5 (id, file, text, replacement, test)" % (no, len(f)))
            continue
        muts.append({"id": f[0], "file": f[1], "text": unescape(f[2]), "repl": unescape(f[3]), "test": f[4],
                     "line": no})
    ids = [m["id"] for m in muts]
    for i in set(x for x in ids if ids.count(x) > 1):
        bad.append("mutant %s: id used twice" % i)
    return muts, bad


def check(muts, root):
    bad = []
    for m in muts:
        p = os.path.join(root, m["file"])
        try:
            src = open(p).read()
        except OSError as e:
            bad.append("mutant %s: %s: %s" % (m["id"], m["file"], e.strerror))
            continue
        n = src.count(m["text"])
        if n != 1:
            bad.append("mutant %s: its text is in %s %d times, not once: %r" % (m["id"], m["file"], n, m["text"]))
        if m["text"] == m["repl"]:
            bad.append("mutant %s: replacement equals the text" % m["id"])
    return bad


def owners(root):
    """What must have mutants, from the tree itself: every module folder
    (modules/NAME/), every renderer that render/render.h declares
    (render_NAME(): NAME.c and NAME_*.c in render/ or a format folder
    render/FMT/) and every fleet output that render/fleet/fleet_render.h
    declares (fleet_NAME(): render/fleet/fleet_NAME.c).
    Returns [(what, test of a path)]."""
    out = []
    mods = os.path.join(root, "modules")
    for n in sorted(os.listdir(mods)) if os.path.isdir(mods) else []:
        if os.path.isdir(os.path.join(mods, n)):
            out.append(("module " + n, lambda f, n=n: f.startswith("modules/%s/" % n)))
    # a format's entry point takes the report and the plan (struct fleet for
    # a fleet output); render_section_ran() and other helpers do not
    for hdr, pat, arg, kind in (("render.h", r"\brender_(\w+)\s*\(([^;{]*)\)\s*;", "struct bench_plan", "renderer"),
                                ("fleet/fleet_render.h", r"\bfleet_(\w+)\s*\(([^;{]*)\)\s*;", "struct fleet ",
                                 "fleet output")):
        try:
            text = open(os.path.join(root, "render", hdr)).read()
        except OSError:
            continue
        for n in sorted(set(n for n, args in re.findall(pat, text) if arg in args)):
            if kind == "renderer":
                test = lambda f, n=n: re.fullmatch(r"render/(\w+/)?%s(_\w+)?\.c" % n, f) is not None
            else:
                test = lambda f, n=n: f == "render/fleet/fleet_%s.c" % n
            out.append(("%s %s" % (kind, n), test))
    return out


def coverage(muts, root):
    return ["%s has no mutant in tests/mutants.txt: a new module or renderer comes with its own" % what
            for what, test in owners(root) if not any(test(m["file"]) for m in muts)]


def run(cmd, cwd, log):
    with open(log, "w") as f:
        return subprocess.call(["bash", "-c", cmd], cwd=cwd, stdout=f, stderr=subprocess.STDOUT)


def main():
    args = sys.argv[1:]
    muts, bad = load()
    bad += check(muts, ROOT)
    bad += coverage(muts, ROOT)
    if len(muts) < 25:
        bad.append("tests/mutants.txt: %d mutants, at least 25 wanted" % len(muts))
    for b in bad:
        print("mutate: " + b)
    if "--check" in args:
        print("mutate: %d mutants, %s" % (len(muts), "all apply" if not bad else "%d problems" % len(bad)))
        sys.exit(1 if bad else 0)
    if bad:
        sys.exit(1)
    if "--only" in args:
        want = args[args.index("--only") + 1].split(",")
        muts = [m for m in muts if m["id"] in want]
    if "--part" in args:
        k, n = (int(x) for x in args[args.index("--part") + 1].split("/"))
        muts = muts[k - 1::n]
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="vpsbench-mutate.")
    work = os.path.join(tmp, "tree")
    shutil.copytree(ROOT, work, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", "vpsbench-static*", "dist", "static", "static-deps*", "static-aarch64", "fuzz"))
    build = "nice make -j2 vpsbench build/san/vpsbench build/san/unit >/dev/null 2>&1"
    if run(build, work, os.path.join(tmp, "build.log")) != 0:
        print("mutate: the unmutated tree does not build")
        sys.exit(1)
    caught = 0
    results = []
    for m in muts:
        p = os.path.join(work, m["file"])
        orig = open(p).read()
        open(p, "w").write(orig.replace(m["text"], m["repl"], 1))
        t1 = time.time()
        log = os.path.join(tmp, m["id"] + ".log")
        # only what the test runs: the unit binary or the sanitizer build
        target = "build/san/unit" if m["test"].startswith("unit:") else "build/san/vpsbench"
        if run("nice make -j2 %s >/dev/null 2>&1" % target, work, log) != 0:
            verdict = "BUILD-FAILED"
        else:
            cmd = m["test"]
            if cmd.startswith("unit:"):
                cmd = "./build/san/unit " + cmd[5:]
            verdict = "caught" if run(cmd, work, log) != 0 else "SURVIVED"
        open(p, "w").write(orig)
        os.utime(p)  # rebuilt from the original next time
        if verdict == "caught":
            caught += 1
        results.append((m, verdict))
        print("%-9s %-22s %-28s %5.0f s  %s" % (verdict, m["id"], m["file"], time.time() - t1, m["test"]),
              flush=True)
    dt = time.time() - t0
    print("mutation score: %d/%d caught (%.0f%%) in %.0f s" % (caught, len(muts), 100.0 * caught / max(1, len(muts)), dt))
    if "--keep" in args:
        print("logs and tree kept in " + tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(0 if caught == len(muts) else 1)


if __name__ == "__main__":
    main()
