#!/usr/bin/env python3
"""import-graph.py - the library's include and call graphs, checked for circles.

Reads the C and CUDA files of the layers (lib, spmv, precond, solvers, dist) and of
examples/, and builds two graphs between files:
  include: F -> G when F has #include "G" (resolved as the build's -I list does);
  call:    F -> G when F names a function or object that G defines and exports (a
           non-static definition at the top of G of a name spira_*; F and G source
           files, not headers).
It fails (exit 1), printing what it found, when
  - either graph has a circle between files (F -> ... -> F through other files),
  - a file calls or includes upward: a layer's file reaching a layer above it
    (lib < spmv < precond < solvers < dist < examples),
  - a program in examples/ includes a header other than the public ones (spira.h,
    spira_mpi.h, system headers) and the drivers' own (examples/*.h).
A name defined in two files (a CUDA entry point and its stub in lib/cuda_stub.c) gives an
edge to each. It reads the files as text, so what it sees is what a reader would: calls
through function pointers (ops tables) are not edges, which is the point of those tables.

Usage: import-graph.py [SRCDIR] (default $srcdir, else the folder above this script;
`make check` runs it through import-graph.sh);
--verbose also lists the edges between folders. Exit 0 when clean, 77 without the sources.
"""
import os
import re
import sys

LAYERS = ["lib", "spmv", "precond", "solvers", "dist", "examples"]
INCLUDE_DIRS = ["lib", "spmv", "precond", "solvers", "dist"]
PUBLIC_HEADERS = {"spira.h", "spira_mpi.h"}
SOURCE_ENDINGS = (".c", ".cu")
HEADER_ENDINGS = (".h", ".cuh")

COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# a definition at the top of a file: no indentation, not static, a parameter list, a body
FUNCTION_DEF = re.compile(
    r'^(?!static\b|typedef\b|#|return\b|else\b)(?:extern\s+"C"\s+)?[A-Za-z_][\w \t\*]*?'
    r'\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{', re.M)
OBJECT_DEF = re.compile(
    r'^(?!static\b|typedef\b|#|return\b)(?:extern\s+"C"\s+)?(?:const\s+)?[A-Za-z_]\w*\s+'
    r'(?:const\s+)?\*?\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=', re.M)
IDENTIFIER = re.compile(r'\b[A-Za-z_]\w*\b')
# what a file exports carries the project's prefix (spira_ public, spira__ internal); a
# kernel or a helper in an anonymous namespace is no other file's to call
EXPORTED_PREFIX = "spira_"


def strip(text):
    """Comments and string literals blanked (newlines kept), so that names in them are not
    uses; #include lines are read before this."""
    def blank(m):
        s = m.group(0)
        if s.startswith('"') or s.startswith("'"):
            return '""'
        return "\n" * s.count("\n")
    return COMMENT_OR_STRING.sub(blank, text)


def layer_of(path):
    top = path.split("/", 1)[0]
    return LAYERS.index(top) if top in LAYERS else None


def collect(root):
    files = []
    for top in LAYERS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith(SOURCE_ENDINGS + HEADER_ENDINGS):
                    files.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(files)


def resolve(root, src, name):
    """The file #include "name" in src means: beside src, then the -I folders."""
    for base in [os.path.dirname(src)] + INCLUDE_DIRS:
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def circles(nodes, edges):
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    verbose = "--verbose" in argv
    args = [a for a in argv[1:] if a != "--verbose"]
    root = args[0] if args else os.environ.get("srcdir") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    files = collect(root)
    if not files:
        print("import-graph: no sources under %s" % root)
        return 77
    text = {f: open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
            for f in files}
    bare = {f: strip(t) for f, t in text.items()}

    problems = []
    includes = {}
    for f in files:
        for name in INCLUDE.findall(text[f]):
            g = resolve(root, f, name)
            if g is None:
                continue  # a generated header (config.h) or one of another project
            includes.setdefault(f, set()).add(g)
            if f.startswith("examples/") and os.path.basename(g) not in PUBLIC_HEADERS \
                    and not g.startswith("examples/"):
                problems.append("examples use internals: %s includes %s" % (f, g))

    defined = {}
    for f in files:
        if not f.endswith(SOURCE_ENDINGS):
            continue
        for m in list(FUNCTION_DEF.finditer(bare[f])) + list(OBJECT_DEF.finditer(bare[f])):
            name = m.group(1)
            if name.startswith(EXPORTED_PREFIX):
                defined.setdefault(name, set()).add(f)
    calls = {}
    for f in files:
        if not f.endswith(SOURCE_ENDINGS):
            continue
        for name in set(IDENTIFIER.findall(bare[f])):
            for g in defined.get(name, ()):
                if g != f:
                    calls.setdefault(f, {}).setdefault(g, set()).add(name)

    for kind, edges in (("include", includes),
                        ("call", {f: set(gs) for f, gs in calls.items()})):
        for comp in circles(files, edges):
            problems.append("%s circle: %s" % (kind, " <-> ".join(comp)))
        for f, gs in sorted(edges.items()):
            for g in sorted(gs):
                lf, lg = layer_of(f), layer_of(g)
                if lf is not None and lg is not None and lg > lf:
                    why = ""
                    if kind == "call":
                        why = " (" + ", ".join(sorted(calls[f][g])) + ")"
                    problems.append("%s upward: %s -> %s%s" % (kind, f, g, why))

    folders = {}
    for f, gs in calls.items():
        for g in gs:
            a, b = os.path.dirname(f), os.path.dirname(g)
            if a != b:
                folders.setdefault(a, set()).add(b)
    for comp in circles(set(folders) | {b for v in folders.values() for b in v}, folders):
        problems.append("call circle between folders: %s" % " <-> ".join(comp))

    nsrc = sum(1 for f in files if f.endswith(SOURCE_ENDINGS))
    ncalls = sum(len(g) for g in calls.values())
    nincl = sum(len(g) for g in includes.values())
    print("import-graph: %d files (%d sources), %d include edges, %d call edges between files"
          % (len(files), nsrc, nincl, ncalls))
    if verbose:
        for a in sorted(folders):
            print("  %s -> %s" % (a, ", ".join(sorted(folders[a]))))
    for p in problems:
        print("  " + p)
    if problems:
        print("import-graph: %d problem(s)" % len(problems))
        return 1
    print("import-graph: no circles between files or folders, no upward include or call")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
