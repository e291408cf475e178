#!/usr/bin/env python3
"""gen-irregular.py - large synthetic pattern matrices for SpMV benchmarks, where the shared
SuiteSparse set has only small ones. Deterministic (fixed seed); needs numpy.

  bench/gen-irregular.py OUT_DIR [ROWS]

Writes OUT_DIR/powerlaw-ROWS.mtx: row lengths 4*Zipf(2) capped at ROWS/50 (a few very long
rows, most short, like a web or citation graph), half of each row's columns within 1000 of
the diagonal and half uniform; and OUT_DIR/uniform-ROWS.mtx: 16 uniform random columns per
row. Repeated (row, column) pairs are dropped."""
import os
import sys

import numpy as np


def write(path, n, rows, cols):
    key = np.unique(rows.astype(np.int64) * n + cols)
    r, c = key // n, key % n
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern general\n")
        f.write("%% synthetic, bench/gen-irregular.py\n")
        f.write("%d %d %d\n" % (n, n, len(key)))
        np.savetxt(f, np.column_stack((r + 1, c + 1)), fmt="%d")
    print("%s: %d rows, %d nonzeros, longest row %d" %
          (path, n, len(key), np.bincount(r, minlength=n).max()))


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20151)
    lens = np.minimum(4 * rng.zipf(2.0, n), n // 50)
    rows = np.repeat(np.arange(n), lens)
    near = rows + rng.integers(-1000, 1001, len(rows))
    far = rng.integers(0, n, len(rows))
    cols = np.where(rng.random(len(rows)) < 0.5, near, far) % n
    write(os.path.join(out, "powerlaw-%d.mtx" % n), n, rows, cols)
    rows = np.repeat(np.arange(n), 16)
    write(os.path.join(out, "uniform-%d.mtx" % n), n, rows, rng.integers(0, n, len(rows)))


if __name__ == "__main__":
    main()
