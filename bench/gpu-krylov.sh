#!/usr/bin/env bash
# gpu-krylov.sh - time per iteration of CG, BiCGSTAB and PageRank on the GPU, for comparing
# two builds (say, before and after a change to the solvers) in one run, beside the
# copy-bandwidth floor and CuPy's CG. Run from the source tree:
#   bench/gpu-krylov.sh MATRIX_DIR BUILD [BUILD ...]
# Each BUILD is a built tree holding examples/spira-solve, -spmv and -pagerank. Prints,
# per build and problem, the solver's report lines (iterations, residual, time each).
# ROUNDS (default 2) passes over the builds, interleaved; REPEAT=N adds spira-solve's
# --repeat N (builds from before it existed refuse it), whose median leaves out the
# first solve's one-time costs.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
mats=${1:?usage: gpu-krylov.sh MATRIX_DIR BUILD [BUILD ...]}; shift
echo "== device"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$1/examples/spira-spmv" --copy-bandwidth
report() { sed -n 's/^  //p' | grep -E 'solver|result|residual|each|repeated' | tr -s ' ' | paste -sd' '; }
solve() { "$b/examples/spira-solve" ${REPEAT:+--repeat $REPEAT} "$@" | report; }
for rep in $(seq "${ROUNDS:-2}"); do   # builds interleaved, to see the machine's drift
  for b in "$@"; do
    echo "== build $b (round $rep)"
    for f in csr-scalar dia cusparse; do
      echo "-- CG, 3-D Poisson 100^3, $f"
      solve --laplacian 3:100 --format "$f"
    done
    echo "-- CG, 2-D Poisson 300^2"; solve --laplacian 2:300
    echo "-- CG, 3-D Poisson 100^3, float"
    solve --laplacian 3:100 --precision s --tol 1e-5
    for m in bcsstk01 bcsstk16 gr_30_30; do
      for p in none jacobi ilu0; do
        echo "-- CG, $m, $p"; solve "$mats/$m.mtx" --precond $p
      done
    done
    echo "-- BiCGSTAB, 3-D Poisson 100^3"
    solve --laplacian 3:100 --solver bicgstab
    for m in pores_1 orsirr_1 sherman5; do
      for p in none jacobi ilu0; do
        echo "-- BiCGSTAB, $m, $p"
        solve "$mats/$m.mtx" --solver bicgstab --precond $p --maxit 20000
      done
    done
  done
done
echo "== PageRank"
for rep in $(seq "${ROUNDS:-2}"); do
  for b in "$@"; do
    for m in email-Eu-core wiki-Vote p2p-Gnutella31; do
      echo "-- $b, $m (round $rep)"
      "$b/examples/spira-pagerank" "$mats/$m.mtx" --top 1 | grep -E 'result|time' | tr -s ' ' | paste -sd' '
    done
  done
done
echo "== CuPy CG, 3-D Poisson 100^3"; python3 "$src/bench/cupy_cg.py" 100 1e-8 2>&1 | tail -1
