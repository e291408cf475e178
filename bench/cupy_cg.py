#!/usr/bin/env python3
"""CuPy's CG on the same 3-D Poisson problem spira-solve --laplacian 3:N solves, for comparison.

Usage: cupy_cg.py N [rtol]. Prints one line: iterations, total ms, ms per iteration.
b = A * ones, x0 = 0, tolerance on ||r|| / ||b||, like spira-solve's default problem.
"""
import inspect
import sys
import time

import cupy as cp
import cupyx.scipy.sparse as csp
import cupyx.scipy.sparse.linalg as cla
import scipy.sparse as sp


def laplacian3d(n):
    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    a = (sp.kron(sp.kron(one, eye), eye) + sp.kron(sp.kron(eye, one), eye)
         + sp.kron(sp.kron(eye, eye), one))
    return a.tocsr()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rtol = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-8
    a = csp.csr_matrix(laplacian3d(n))
    b = a @ cp.ones(a.shape[0])
    its = [0]

    def count(_):
        its[0] += 1

    # the tolerance keyword was renamed tol -> rtol in newer CuPy
    kw = "rtol" if "rtol" in inspect.signature(cla.cg).parameters else "tol"
    cla.cg(a, b, maxiter=10, **{kw: rtol})  # warm-up: kernels compiled and cached
    cp.cuda.Device().synchronize()
    best = None
    for _ in range(3):
        its[0] = 0
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        x, info = cla.cg(a, b, maxiter=10000, callback=count, **{kw: rtol})
        cp.cuda.Device().synchronize()
        ms = (time.perf_counter() - t0) * 1e3
        best = ms if best is None else min(best, ms)
    rel = float(cp.linalg.norm(b - a @ x) / cp.linalg.norm(b))
    print(f"cupy cg n={n}^3: info={info} iterations={its[0]} total_ms={best:.3f} "
          f"ms_per_iteration={best / max(its[0], 1):.4f} rel_residual={rel:.3e}")


if __name__ == "__main__":
    main()
