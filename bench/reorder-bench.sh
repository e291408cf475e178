#!/usr/bin/env bash
# What the solvers' locality reordering (spira_solve_opts.reorder, --reorder) gains on the
# GPU: each problem solved with --reorder none, rcm and degree on the CUDA backend, from a
# build directory:
#   bench/reorder-bench.sh BUILD_DIR [DATA_DIR] [WORK_DIR]
# Problems: CG + Jacobi on a randomly numbered 3-D Poisson matrix (N^3 rows, N = $POISSON_N,
# default 100: 10^6 rows) and on a randomly numbered kNN-graph Laplacian (gen-irregular.py's
# knn at scale $KNN_SCALE, default 1: 4*10^5 rows; needs numpy and scipy, skipped without);
# CG + IC(0) on the Poisson one; BiCGSTAB + ILU(0) and + Jacobi on the bundled irregular
# matrices; PageRank on email-Eu-core and, with numpy, a randomly numbered R-MAT graph
# (gen-irregular.py's rmat at $KNN_SCALE). Generated files go to WORK_DIR (default
# /tmp/spira-reorder-bench) and are kept for the next run.
# One line per (problem, ordering): the ordering's setup ms (reorder_ms: P A P^T and the
# permutation, once per matrix), the bandwidth before -> after, the SpMV format auto chose
# for the matrix solved, iterations, ms an iteration (warm: the median of --repeat's solves
# 2..5; PageRank: its one run), the solver's setup ms (reordering, SpMV plan,
# preconditioner) and total = setup + the first solve's iterations (+ A's own SpMV plan
# without reordering, which that solve then uses; with it, b = A * ones pays for A's plan
# and the solve builds P A P^T's inside its setup).
set -uo pipefail
build=${1:?build dir}; here=$(cd "$(dirname "$0")" && pwd)
data=${2:-$here/../data}; work=${3:-/tmp/spira-reorder-bench}
solve=$build/examples/spira-solve pagerank=$build/examples/spira-pagerank
N=${POISSON_N:-100}; S=${KNN_SCALE:-1}; backend=${BACKEND:-cuda} # BACKEND=cpu: a smoke run without a GPU
mkdir -p "$work"
poisson=$work/poisson3d-$N-scrambled.mtx
[ -f "$poisson" ] || python3 "$here/reorder-gen.py" poisson3d "$N" 1 "$poisson" || exit 1
knn= rmat=
if python3 -c 'import numpy, scipy' 2>/dev/null; then
  python3 "$here/gen-irregular.py" "$work" --problems knn,rmat --scale "$S" --jobs 2 >/dev/null &&
  for f in "$work"/knn-*.mtx; do
    case $f in *-scrambled.mtx) continue ;; esac
    knn=${f%.mtx}-scrambled.mtx
    [ -f "$knn" ] || python3 "$here/reorder-gen.py" scramble "$f" 2 "$knn"
  done
  rmat=$(ls "$work"/rmat-*.mtx 2>/dev/null | head -1) # its vertex ids are random already
else
  echo "# numpy/scipy missing: the kNN and R-MAT problems are skipped" >&2
fi

field() { sed -n "$1" <<<"$2" | head -1; }
printf '%-34s %-7s %10s %18s %-11s %6s %10s %10s %10s\n' problem reorder reorder_ms \
  bandwidth format iters ms_per_it setup_ms total_ms
row() { # label, file, spira-solve args...
  local label=$1 file=$2; shift 2
  for r in none rcm degree; do
    local out; out=$("$solve" "$file" --backend "$backend" --reorder $r --repeat 5 "$@" 2>&1)
    local rms band fmt its msit setup iter fmts total
    rms=$(field 's/^  reorder .* in \([0-9.]*\) ms.*/\1/p' "$out"); rms=${rms:-0}
    band=$(field 's/.*bandwidth \([0-9]*\) -> \([0-9]*\).*/\1->\2/p' "$out"); band=${band:--}
    fmt=$(field 's/.*SpMV format \([^ ,]*\)$/\1/p' "$out")
    its=$(field 's/^  result .* after \([0-9]*\) iterations.*/\1/p' "$out")
    msit=$(field 's/.*(\([0-9.]*\) ms each iteration).*/\1/p' "$out")
    fmts=$(field 's/.*SpMV format setup \([0-9.]*\) ms.*/\1/p' "$out")
    setup=$(field 's/.*solver setup \([0-9.]*\) ms.*/\1/p' "$out")
    iter=$(field 's/^ *iterations \([0-9.]*\) ms.*/\1/p' "$out")
    if [ -z "$its" ] || [ -z "$setup" ]; then
      printf '%-34s %-7s failed: %s\n' "$label" $r "$(grep -m1 SPIRA_ <<<"$out")"
      continue
    fi
    total=$(awk -v a="$setup" -v b="$iter" -v f="$fmts" -v r=$r \
      'BEGIN { printf "%.3f", a + b + (r == "none" ? f : 0) }')
    printf '%-34s %-7s %10s %18s %-11s %6s %10s %10s %10s\n' "$label" $r "$rms" "$band" \
      "${fmt:--}" "$its" "${msit:--}" "$setup" "$total"
  done
}
prow() { # label, graph file, spira-pagerank args...
  local label=$1 file=$2; shift 2
  for r in none rcm degree; do
    local out; out=$("$pagerank" "$file" --backend "$backend" --reorder $r --top 0 "$@" 2>&1)
    local rms band fmt its msit setup iter
    rms=$(field 's/^  reorder .* in \([0-9.]*\) ms.*/\1/p' "$out"); rms=${rms:-0}
    band=$(field 's/.*bandwidth \([0-9]*\) -> \([0-9]*\).*/\1->\2/p' "$out"); band=${band:--}
    fmt=$(field 's/^  alpha .*SpMV format \([^ ]*\)$/\1/p' "$out")
    its=$(field 's/^  result .* after \([0-9]*\) iterations.*/\1/p' "$out")
    setup=$(field 's/^  time *setup \([0-9.]*\) ms.*/\1/p' "$out")
    iter=$(field 's/.*iterations \([0-9.]*\) ms (.*/\1/p' "$out")
    msit=$(field 's/.*(\([0-9.]*\) ms each).*/\1/p' "$out")
    if [ -z "$its" ] || [ -z "$setup" ]; then
      printf '%-34s %-7s failed: %s\n' "$label" $r "$(grep -m1 SPIRA_ <<<"$out")"
      continue
    fi
    printf '%-34s %-7s %10s %18s %-11s %6s %10s %10s %10s\n' "$label" $r "$rms" "$band" \
      "${fmt:--}" "$its" "${msit:--}" "$setup" \
      "$(awk -v a="$setup" -v b="$iter" 'BEGIN { printf "%.3f", a + b }')"
  done
}

row "poisson3d-$N scrambled cg+jacobi" "$poisson" --solver cg --precond jacobi
row "poisson3d-$N scrambled cg+ic0" "$poisson" --solver cg --precond ilu0
[ -n "$knn" ] && row "$(basename "${knn%.mtx}") cg+jacobi" "$knn" --solver cg --precond jacobi
for m in sherman5 orsirr_1 pores_1 west0067 adder_dcop_05 1138_bus; do
  row "$m bicgstab+ilu0" "$data/$m.mtx" --solver bicgstab --precond ilu0
done
for m in sherman5 orsirr_1 1138_bus; do
  row "$m bicgstab+jacobi" "$data/$m.mtx" --solver bicgstab --precond jacobi
done
prow "email-Eu-core pagerank" "$data/email-Eu-core.mtx"
[ -n "$rmat" ] && prow "$(basename "${rmat%.mtx}") pagerank" "$rmat"
exit 0
