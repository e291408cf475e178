#!/usr/bin/env python3
"""reorder-gen.py - randomly numbered matrices for bench/reorder-bench.sh, where a locality
ordering (spira_solve_opts.reorder) has something to win back. Python's standard library
only; deterministic for a seed.

  bench/reorder-gen.py poisson3d N SEED OUT.mtx
      The 7-point Laplacian on an N^3 grid (diagonal 6, off-diagonals -1, Dirichlet: the
      matrix `spira-solve --laplacian 3:N` makes) with its rows and columns renumbered by a
      random permutation: bandwidth near N^3 where the natural order's is N^2. Symmetric file
      (the lower triangle).

  bench/reorder-gen.py scramble IN.mtx SEED OUT.mtx
      IN (coordinate; general or symmetric, real, integer or pattern) with its rows and
      columns renumbered by one random permutation (a square matrix's symmetric permutation,
      so a solver's answer is the same up to the numbering); a symmetric file stays one,
      each entry moved into the lower triangle.
"""
import os
import random
import sys


def permutation(n, seed):
    p = list(range(n))
    random.Random(seed).shuffle(p)
    return p


def write(path, header, n, entries):
    tmp = path + ".part"
    with open(tmp, "w") as f:
        f.write(header)
        f.write("%d %d %d\n" % (n, n, len(entries)))
        f.writelines(entries)
    os.replace(tmp, path)


def poisson3d(n, seed, out):
    N = n ** 3
    p = permutation(N, seed)
    lines = []
    for z in range(n):
        for y in range(n):
            for x in range(n):
                i = x + n * y + n * n * z
                pi = p[i] + 1
                lines.append("%d %d 6\n" % (pi, pi))
                for j, ok in ((i - 1, x > 0), (i - n, y > 0), (i - n * n, z > 0)):
                    if ok:
                        a, b = pi, p[j] + 1
                        lines.append("%d %d -1\n" % ((a, b) if a >= b else (b, a)))
    write(out, "%%%%MatrixMarket matrix coordinate real symmetric\n"
               "%% bench/reorder-gen.py poisson3d %d %d: randomly numbered\n" % (n, seed), N, lines)


def scramble(src, seed, out):
    with open(src) as f:
        banner = f.readline()
        words = banner.lower().split()
        if len(words) < 5 or words[2] != "coordinate":
            sys.exit("reorder-gen.py: %s: not a coordinate Matrix Market file" % src)
        if words[4] not in ("general", "symmetric"):
            sys.exit("reorder-gen.py: %s: %s files are not handled" % (src, words[4]))
        symmetric = words[4] == "symmetric"
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        m, n, nnz = (int(w) for w in line.split())
        if m != n:
            sys.exit("reorder-gen.py: %s is %d x %d, not square" % (src, m, n))
        p = permutation(n, seed)
        lines = []
        for line in f:
            w = line.split()
            if not w:
                continue
            a, b = p[int(w[0]) - 1] + 1, p[int(w[1]) - 1] + 1
            if symmetric and a < b:
                a, b = b, a
            lines.append(" ".join([str(a), str(b)] + w[2:]) + "\n")
    write(out, banner + "%% bench/reorder-gen.py scramble %s %d\n" % (os.path.basename(src), seed),
          n, lines)


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "poisson3d":
        poisson3d(int(a[1]), int(a[2]), a[3])
    elif len(a) == 4 and a[0] == "scramble":
        scramble(a[1], int(a[2]), a[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
