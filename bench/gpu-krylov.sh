#!/usr/bin/env bash
# gpu-krylov.sh - time per iteration of CG and BiCGSTAB on the GPU, for comparing two builds
# (say, before and after a change to the solvers) in one run, beside the copy-bandwidth floor
# and CuPy's CG. Run from the source tree:
#   bench/gpu-krylov.sh MATRIX_DIR BUILD [BUILD ...]
# Each BUILD is a built tree holding examples/spira-solve and examples/spira-spmv. Prints,
# per build and problem, the solver's report lines (iterations, residual, time each).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
mats=${1:?usage: gpu-krylov.sh MATRIX_DIR BUILD [BUILD ...]}; shift
echo "== device"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$1/examples/spira-spmv" --copy-bandwidth
report() { sed -n 's/^  //p' | grep -E 'solver|result|residual|each' | tr -s ' ' | paste -sd' '; }
for rep in 1 2; do   # twice, builds interleaved, to see the machine's drift
  for b in "$@"; do
    echo "== build $b (round $rep)"
    for f in csr-scalar dia cusparse; do
      echo "-- CG, 3-D Poisson 100^3, $f"
      "$b/examples/spira-solve" --laplacian 3:100 --format "$f" | report
    done
    echo "-- CG, 2-D Poisson 300^2"; "$b/examples/spira-solve" --laplacian 2:300 | report
    echo "-- CG, 3-D Poisson 100^3, float"
    "$b/examples/spira-solve" --laplacian 3:100 --precision s --tol 1e-5 | report
    for m in bcsstk01 bcsstk16 gr_30_30; do
      for p in none jacobi ilu0; do
        echo "-- CG, $m, $p"; "$b/examples/spira-solve" "$mats/$m.mtx" --precond $p | report
      done
    done
    echo "-- BiCGSTAB, 3-D Poisson 100^3"
    "$b/examples/spira-solve" --laplacian 3:100 --solver bicgstab | report
    for m in pores_1 orsirr_1 sherman5; do
      for p in none jacobi ilu0; do
        echo "-- BiCGSTAB, $m, $p"
        "$b/examples/spira-solve" "$mats/$m.mtx" --solver bicgstab --precond $p --maxit 20000 | report
      done
    done
  done
done
echo "== CuPy CG, 3-D Poisson 100^3"; python3 "$src/bench/cupy_cg.py" 100 1e-8 2>&1 | tail -1
