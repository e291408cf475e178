#!/usr/bin/env python3
"""gen-irregular.py - large synthetic matrices for the benchmarks, where the shared
SuiteSparse set has only small ones. Deterministic (a fixed seed per matrix); needs numpy
(and scipy for the kNN graph).

  bench/gen-irregular.py OUT_DIR [ROWS]
      OUT_DIR/powerlaw-ROWS.mtx: row lengths 4*Zipf(2) capped at ROWS/50 (a few very long
      rows, most short, like a web or citation graph), half of each row's columns within
      1000 of the diagonal and half uniform; and OUT_DIR/uniform-ROWS.mtx: 16 uniform random
      columns per row. Pattern files; repeated (row, column) pairs are dropped.

  bench/gen-irregular.py OUT_DIR --problems all|NAME,NAME... [--scale S] [--jobs J]
      The time-to-solution set (bench/time-to-solution.sh), rows scaled by S (default 1; a
      smoke run takes 0.001). A file already there is kept (the name holds the size and the
      seed is fixed, so it is the same matrix). Prints one line "problem NAME PATH KIND" per
      matrix, KIND being spd, nonsymmetric or graph. The problems, at S = 1:
        poisson3d-100, poisson3d-150  the 7-point Laplacian on an N^3 grid (diagonal 6,
                       off-diagonals -1, Dirichlet): the matrix `spira-solve --laplacian
                       3:N` generates, row i = x + N y + N^2 z; symmetric file
        stencil27-80   the 27-point stencil on 80^3 (diagonal 26, the 26 neighbours -1):
                       irreducibly diagonally dominant, so SPD; symmetric file
        knn-400000     a kNN-graph Laplacian (an unstructured-mesh stand-in): 4*10^5 random
                       points in the unit cube numbered along a Morton curve (as a mesher's
                       or RCM's ordering keeps neighbours near), each joined to its 10
                       nearest, the graph made symmetric; A = D - W + diag(s), s uniform in
                       [0.005, 0.05] (a varying s keeps b = A * ones from being L's null
                       vector, which CG would solve in one step); symmetric file
        circuit-1000000  10^6 rows of 3-6 entries within 10 of the diagonal, 40 dense rows
                       and 40 dense columns of ROWS/10 entries each at random places,
                       off-diagonals uniform in [-1, 1] (3 decimals), the diagonal 1.1x the
                       row's other absolute values: nonsymmetric, diagonally dominant
                       (BiCGSTAB + Jacobi converges)
        rmat-20        a Graph500 R-MAT graph of 2^20 vertices, edge factor 16, a = 0.57,
                       b = c = 0.19 (no per-level noise), vertices randomly relabelled,
                       self-loops and repeated edges dropped; pattern file, edge i -> j at
                       (i, j)
Values are written as integers or with 3 decimals, so every reader parses the same
doubles from short text."""
import argparse
import math
import os
import sys

import numpy as np

# ---- writing ------------------------------------------------------------------------------


def _digits(a, zero_pad=0):
    """Non-negative int64 array -> (len, width) uint8 ASCII digits; the leading zeros are
    0 bytes (dropped when the lines are joined), or with zero_pad = W, W digits each."""
    width = zero_pad or (max(1, len(str(int(a.max())))) if len(a) else 1)
    out = np.empty((len(a), width), np.uint8)
    v = a.astype(np.int32) if width < 10 else a.copy()   # int32 divides faster
    for p in range(width - 1, -1, -1):
        v, d = np.divmod(v, 10)
        out[:, p] = 48 + d
    if not zero_pad:
        nd = np.ones(len(a), np.int64)
        for k in range(1, width):
            nd += a >= 10 ** k
        out[np.arange(width)[None, :] < (width - nd)[:, None]] = 0
    return out


def _col(byte, n):
    return np.full((n, 1), ord(byte), np.uint8)


def _lines(r, c, milli):
    """The text of entries (r, c[, value]) with 1-based indices; milli holds value * 1000
    as int64 (None: a pattern file)."""
    n = len(r)
    parts = [_digits(r + 1), _col(" ", n), _digits(c + 1)]
    if milli is not None:
        sign = np.where(milli < 0, ord("-"), 0).astype(np.uint8)[:, None]
        a = np.abs(milli)
        parts += [_col(" ", n), sign]
        if np.all(a % 1000 == 0):
            parts.append(_digits(a // 1000))
        else:
            parts += [_digits(a // 1000), _col(".", n), _digits(a % 1000, zero_pad=3)]
    parts.append(_col("\n", n))
    m = np.concatenate(parts, axis=1).ravel()
    return m[m != 0].tobytes()


def write(path, nrows, ncols, r, c, milli=None, symmetric=False, note=""):
    """Matrix Market coordinate file, entries in row-major order; written to a temporary
    name and renamed, so an interrupted run leaves no partial file behind."""
    field = "pattern" if milli is None else "real"
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(("%%%%MatrixMarket matrix coordinate %s %s\n" %
                 (field, "symmetric" if symmetric else "general")).encode())
        f.write(("%% synthetic, bench/gen-irregular.py%s\n" % (": " + note if note else "")).encode())
        f.write(("%d %d %d\n" % (nrows, ncols, len(r))).encode())
        step = 1 << 20
        for k in range(0, len(r), step):
            f.write(_lines(r[k:k + step], c[k:k + step],
                           None if milli is None else milli[k:k + step]))
    os.replace(tmp, path)


def row_major(n, r, c, v):
    """(r, c, v) sorted by row, then column (the pairs distinct)."""
    order = np.argsort(r.astype(np.int64) * n + c)
    return r[order], c[order], v[order]


def unique_pairs(n, rows, cols, vals=None):
    """Sorted distinct (row, col) pairs, the first value of each kept."""
    key = rows.astype(np.int64) * n + cols
    key, first = np.unique(key, return_index=True)
    return key // n, key % n, None if vals is None else vals[first]


# ---- the SpMV benchmark's irregular pair -------------------------------------------------


def irregular(out, n):
    rng = np.random.default_rng(20151)
    lens = np.minimum(4 * rng.zipf(2.0, n), n // 50)
    rows = np.repeat(np.arange(n), lens)
    near = rows + rng.integers(-1000, 1001, len(rows))
    far = rng.integers(0, n, len(rows))
    cols = np.where(rng.random(len(rows)) < 0.5, near, far) % n
    for name, (r, c) in (("powerlaw", (rows, cols)),
                         ("uniform", (np.repeat(np.arange(n), 16), None))):
        if c is None:
            c = rng.integers(0, n, len(r))
        r, c, _ = unique_pairs(n, r, c)
        path = os.path.join(out, "%s-%d.mtx" % (name, n))
        write(path, n, n, r, c)
        print("%s: %d rows, %d nonzeros, longest row %d" %
              (path, n, len(r), np.bincount(r, minlength=n).max()))


# ---- the time-to-solution set -------------------------------------------------------------


def stencil(n, offsets, diag):
    """Lower triangle of a constant-coefficient stencil on an n^3 grid (index x + n y +
    n^2 z), Dirichlet boundary: diag on the diagonal, -1 for each neighbour in offsets."""
    z, y, x = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    x, y, z = x.ravel(), y.ravel(), z.ravel()
    i = np.arange(n ** 3, dtype=np.int64)
    rows, cols = [i], [i]
    for dx, dy, dz in offsets:
        ok = ((x + dx >= 0) & (x + dx < n) & (y + dy >= 0) & (y + dy < n) &
              (z + dz >= 0) & (z + dz < n))
        rows.append(i[ok])
        cols.append(i[ok] + dx + n * dy + n * n * dz)
    r, c = np.concatenate(rows), np.concatenate(cols)
    return row_major(n ** 3, r, c, np.where(r == c, 1000 * diag, -1000).astype(np.int64))


def poisson3d(path, n):
    r, c, v = stencil(n, [(-1, 0, 0), (0, -1, 0), (0, 0, -1)], 6)
    write(path, n ** 3, n ** 3, r, c, v, True, "7-point Laplacian on a %d^3 grid" % n)


def stencil27(path, n):
    lower = [(dx, dy, dz) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
             if dx + n * dy + n * n * dz < 0]
    r, c, v = stencil(n, lower, 26)
    write(path, n ** 3, n ** 3, r, c, v, True, "27-point stencil on a %d^3 grid" % n)


def morton(p, bits=10):
    """Morton (Z-order) key of points in [0, 1)^3."""
    q = np.minimum((p * (1 << bits)).astype(np.int64), (1 << bits) - 1)
    key = np.zeros(len(p), np.int64)
    for b in range(bits):
        for d in range(3):
            key |= ((q[:, d] >> b) & 1) << (3 * b + d)
    return key


def knn(path, npts, k=10):
    from scipy.spatial import cKDTree
    rng = np.random.default_rng(4000)
    p = rng.random((npts, 3))
    p = p[np.argsort(morton(p), kind="stable")]
    _, nb = cKDTree(p).query(p, k + 1)      # the point itself comes first
    i = np.repeat(np.arange(npts, dtype=np.int64), k)
    j = nb[:, 1:].ravel().astype(np.int64)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    r, c, _ = unique_pairs(npts, hi, lo)    # lower triangle of W + W^T's pattern
    deg = np.bincount(r, minlength=npts) + np.bincount(c, minlength=npts)
    shift = rng.integers(5, 51, npts)       # s in [0.005, 0.05], in thousandths
    d = np.arange(npts, dtype=np.int64)
    r, c = np.concatenate((r, d)), np.concatenate((c, d))
    milli = np.concatenate((np.full(len(r) - npts, -1000, np.int64), 1000 * deg + shift))
    r, c, milli = row_major(npts, r, c, milli)
    write(path, npts, npts, r, c, milli, True,
          "kNN-graph Laplacian, %d points, k = %d, + diag(s)" % (npts, k))


def circuit(path, n, dense=40, dense_rows=True, dense_cols=True):
    """The circuit-like matrix; without its dense rows or columns (the same draws, those
    entries left out) for bench/circuit-parts.py's decomposition."""
    rng = np.random.default_rng(1000000)
    length = max(1, n // 10)
    near = rng.integers(2, 6, n)            # 2-5 off-diagonals + the diagonal
    r = np.repeat(np.arange(n, dtype=np.int64), near)
    off = rng.integers(1, 11, len(r)) * rng.choice([-1, 1], len(r))
    c = np.clip(r + off, 0, n - 1)
    drows = rng.choice(n, dense, replace=False)
    dcols = rng.choice(n, dense, replace=False)
    part = np.repeat([0, 1, 2], [len(r), dense * length, dense * length])
    r = np.concatenate((r, np.repeat(drows, length), rng.integers(0, n, dense * length)))
    c = np.concatenate((c, rng.integers(0, n, dense * length), np.repeat(dcols, length)))
    v = rng.integers(1, 1001, len(r)) * rng.choice([-1, 1], len(r))
    keep = (r != c) & ((part != 1) | dense_rows) & ((part != 2) | dense_cols)
    r, c, v = unique_pairs(n, r[keep], c[keep], v[keep])
    rowsum = np.bincount(r, weights=np.abs(v), minlength=n).astype(np.int64)
    diag = (rowsum * 11 + 9) // 10 + 1000  # >= 1.1x the rest of the row, and >= 1
    d = np.arange(n, dtype=np.int64)
    r, c, v = np.concatenate((r, d)), np.concatenate((c, d)), np.concatenate((v, diag))
    r, c, v = row_major(n, r, c, v)
    write(path, n, n, r, c, v, False,
          "circuit-like, %d dense rows and columns of %d entries" % (dense, length))


def rmat(path, scale, edge_factor=16, a=0.57, b=0.19, c=0.19):
    rng = np.random.default_rng(500)
    n, m = 1 << scale, edge_factor << scale
    src, dst = np.zeros(m, np.int64), np.zeros(m, np.int64)
    for level in range(scale):
        u = rng.random(m)
        src |= (u >= a + b).astype(np.int64) << level
        dst |= (((u >= a) & (u < a + b)) | (u >= a + b + c)).astype(np.int64) << level
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    keep = src != dst
    r, c_, _ = unique_pairs(n, src[keep], dst[keep])
    write(path, n, n, r, c_, note="Graph500 R-MAT, scale %d, edge factor %d, a=%g b=%g c=%g"
          % (scale, edge_factor, a, b, c))


def problems(scale):
    """name -> (file base name, kind, generator, its size argument)."""
    grid = lambda n: max(3, round(n * scale ** (1 / 3)))
    rows = lambda n: max(100, round(n * scale))
    out = {}
    for key, n in (("poisson3d-100", 100), ("poisson3d-150", 150)):
        out[key] = ("poisson3d-%d" % grid(n), "spd", poisson3d, grid(n))
    out["stencil27"] = ("stencil27-%d" % grid(80), "spd", stencil27, grid(80))
    out["knn"] = ("knn-%d" % rows(400000), "spd", knn, rows(400000))
    out["circuit"] = ("circuit-%d" % rows(1000000), "nonsymmetric", circuit, rows(1000000))
    s = max(6, 20 + round(math.log2(scale)))
    out["rmat"] = ("rmat-%d" % s, "graph", rmat, s)
    return out


def make(job):
    path, gen, size = job
    if not os.path.exists(path):
        gen(path, size)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("rows", nargs="?", type=int, default=1000000,
                    help="rows of the power-law and uniform pair (default 10^6)")
    ap.add_argument("--problems", help="'all' or a comma list of " +
                    ", ".join(problems(1.0)) + ": the time-to-solution set instead")
    ap.add_argument("--scale", type=float, default=1.0, help="rows x S (default 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="matrices made at once (default: the cores)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.problems:
        irregular(args.out, args.rows)
        return
    table = problems(args.scale)
    names = list(table) if args.problems == "all" else args.problems.split(",")
    bad = [x for x in names if x not in table]
    if bad:
        sys.exit("gen-irregular.py: unknown problem %s (%s)" % (", ".join(bad), ", ".join(table)))
    jobs = [(os.path.join(args.out, table[x][0] + ".mtx"), table[x][2], table[x][3])
            for x in names]
    if args.jobs > 1 and len(jobs) > 1:
        from multiprocessing import Pool
        with Pool(min(args.jobs, len(jobs))) as pool:
            pool.map(make, jobs)
    else:
        for j in jobs:
            make(j)
    for x, (path, _, _) in zip(names, jobs):
        print("problem %s %s %s" % (table[x][0], path, table[x][1]))


if __name__ == "__main__":
    main()
