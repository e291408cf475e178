#!/usr/bin/env python3
"""rmat-orders.py - the time-to-solution suite's R-MAT graph renumbered by degree, to see
which degree order helps SpMV's gathers of x (issue 14's R-MAT target).

  python3 bench/rmat-orders.py OUT [SCALE]     (default 20)

Writes OUT/rmat-SCALE-{out,in,total}.mtx: P A P^T with the vertices by decreasing out-degree
(row length: what `--reorder degree` does), in-degree (column count: the x entries most
read come first) and their sum; ties by vertex id. And two that renumber the columns only
(A Q, the rows as given): rmat-SCALE-cols-in.mtx, every column by decreasing count, and
rmat-SCALE-cols-hubs.mtx, hub sorting (Balaji and Lucia, IISWC 2018): the columns of at
least 4 x the mean count first, by decreasing count, the others after them in their order.
The graph is gen-irregular.py's, drawn again with its seed. ORDERS=a,b in the environment
writes only those (names as in the files: out, in, total, cols-in, cols-hubs).
"""
import importlib.util
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gen", os.path.join(here, "gen-irregular.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    scale = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    os.makedirs(out, exist_ok=True)
    drawn = {}
    write = gen.write
    gen.write = lambda path, n, m, r, c, *a, **k: drawn.update(n=n, r=r, c=c)
    gen.rmat(None, scale)
    gen.write = write
    n, r, c = drawn["n"], drawn["r"], drawn["c"]
    deg = {"out": np.bincount(r, minlength=n), "in": np.bincount(c, minlength=n)}
    deg["total"] = deg["out"] + deg["in"]
    wanted = os.environ.get("ORDERS", "out,in,total,cols-in,cols-hubs").split(",")
    for name, d in deg.items():
        if name not in wanted:
            continue
        perm = np.argsort(-d, kind="stable")
        inv = np.empty(n, np.int64)
        inv[perm] = np.arange(n)
        rr, cc, _ = gen.row_major(n, inv[r], inv[c], np.zeros(len(r), np.int8))
        path = os.path.join(out, "rmat-%d-%s.mtx" % (scale, name))
        gen.write(path, n, n, rr, cc, note="R-MAT scale %d by decreasing %s-degree" % (scale, name))
        print(path)
    din = deg["in"]
    hubs = din >= 4 * len(c) / n
    orders = {"cols-in": np.argsort(-din, kind="stable"),
              "cols-hubs": np.concatenate([np.flatnonzero(hubs)[np.argsort(-din[hubs], kind="stable")],
                                           np.flatnonzero(~hubs)])}
    for name, perm in orders.items():
        if name not in wanted:
            continue
        inv = np.empty(n, np.int64)
        inv[perm] = np.arange(n)
        rr, cc, _ = gen.row_major(n, r, inv[c], np.zeros(len(r), np.int8))
        path = os.path.join(out, "rmat-%d-%s.mtx" % (scale, name))
        gen.write(path, n, n, rr, cc, note="R-MAT scale %d, columns by %s" % (scale, name))
        print(path)


if __name__ == "__main__":
    main()
