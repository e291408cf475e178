#!/usr/bin/env bash
# gpu-session.sh - the benchmark batch for the GPU machine. Run from a configured, built
# tree (.device/gpu-build leaves one in /tmp/spira-build):
#   bench/gpu-session.sh MATRIX_DIR [OUT_DIR]
# Writes spmv-d.csv / spmv-s.csv (bench/run-spmv.sh over MATRIX_DIR and generated
# Laplacians) and solvers.txt (CG on the 3-D Poisson problem per format beside the copy
# bandwidth floor and CuPy's CG, CG/BiCGSTAB on the real matrices, PageRank on the graphs).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
mats=${1:?usage: gpu-session.sh MATRIX_DIR [OUT_DIR]}
out=${2:-${OUT:-/tmp/out}}
mkdir -p "$out"
export SPIRA_SPMV=./examples/spira-spmv
# the device copy of the tree has no .git: the commit comes from the caller
[ -f "$src/.device/commit" ] && export SPIRA_COMMIT=${SPIRA_COMMIT:-$(cat "$src/.device/commit")}
if [ -z "${SKIP_SPMV:-}" ]; then   # SKIP_SPMV=1: only the solver part
  sh "$src/bench/run-spmv.sh" -o "$out/spmv-d.csv" -p d "$mats"/*.mtx
  sh "$src/bench/run-spmv.sh" -o "$out/spmv-s.csv" -p s "$mats"/*.mtx
fi
{
  echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  echo "== commit"; cat "$src/.device/commit" 2>/dev/null
  echo "== copy bandwidth"; ./examples/spira-spmv --copy-bandwidth
  echo "== CG, 3-D Poisson 100^3 (1e6 rows, 6.94e6 nonzeros), rtol 1e-8, per SpMV format"
  for f in csr-scalar csr-vector coo ell dia hyb cusparse pkt; do
    ./examples/spira-solve --laplacian 3:100 --format "$f" | sed -n 's/^  //p' | grep -E 'solver|result|residual|time|each'
  done
  echo "== CuPy CG, same problem"; python3 "$src/bench/cupy_cg.py" 100 1e-8 2>&1 | tail -1
  echo "== CG / PCG on the SPD matrices"
  for m in bcsstk01 bcsstk13 bcsstk16 1138_bus gr_30_30; do
    for p in none jacobi ilu0; do
      echo "-- $m, precond $p"
      ./examples/spira-solve "$mats/$m.mtx" --precond $p --maxit 20000 | sed -n 's/^  //p' | grep -E 'result|residual|time|each'
    done
  done
  echo "== BiCGSTAB on the nonsymmetric matrices"
  for m in pores_1 orsirr_1 sherman5 bayer10 west0067; do
    for p in none jacobi ilu0 ilut; do
      echo "-- $m, precond $p"
      ./examples/spira-solve "$mats/$m.mtx" --solver bicgstab --precond $p --maxit 20000 | sed -n 's/^  //p' | grep -E 'result|residual|time|each'
    done
  done
  echo "== BiCGSTAB + ILUT on bayer10 with tighter settings (drop tolerance, fill)"
  for a in "1e-4 10" "1e-5 20" "1e-6 50"; do
    set -- $a
    echo "-- bayer10, ilut drop $1 fill $2"
    ./examples/spira-solve "$mats/bayer10.mtx" --solver bicgstab --precond ilut --drop-tol $1 --fill $2 --maxit 20000 | sed -n 's/^  //p' | grep -E 'result|residual|time|each'
  done
  echo "== PageRank"
  for m in email-Eu-core wiki-Vote p2p-Gnutella31; do
    echo "-- $m"; ./examples/spira-pagerank "$mats/$m.mtx" --top 5
  done
} > "$out/solvers.txt" 2>&1
tail -40 "$out/solvers.txt"
