#!/usr/bin/env bash
# Where the host beats the GPU: CG (and ILU(0)-BiCGSTAB) per-iteration time on the CPU
# backend and on the CUDA backend, each named (so neither moves the solve), on 2-D
# Laplacians from 10^2 to 600^2 rows and the bundled matrices, plus the AUTO context's
# choice (solvers/host_solve.c), from a build directory:
#   bench/host-crossover.sh BUILD_DIR [DATA_DIR]
# Prints one line per problem: rows, nonzeros, ms an iteration on each backend (median of
# 9 repeats after the first) and where AUTO iterated with its time.
set -uo pipefail
build=${1:?build dir}; data=${2:-$(dirname "$0")/../data}
solve=$build/examples/spira-solve
each() { # args...: the per-iteration ms of the repeats, or "-"
  "$solve" "$@" --repeat 10 2>/dev/null |
    sed -n 's/.*median [0-9.]* ms (\([0-9.]*\) ms each iteration).*/\1/p' | head -1 | grep . || echo -
}
where() { "$solve" "$@" 2>/dev/null | sed -n 's/^  iterated    on the \([A-Z]*\).*/\1/p' | grep . || echo ctx; }
printf '%-26s %9s %10s %10s %10s %10s %6s\n' problem rows nnz cpu_ms cuda_ms auto_ms auto_on
run() { # label, args...
  local label=$1; shift
  local info; info=$("$solve" "$@" --backend cpu --maxit 1 2>/dev/null | sed -n 's/^  matrix *\([0-9]*\) x [0-9]*, \([0-9]*\) nonzeros.*/\1 \2/p')
  printf '%-26s %9s %10s %10s %10s %10s %6s\n' "$label" $info "$(each "$@" --backend cpu)" \
    "$(each "$@" --backend cuda)" "$(each "$@")" "$(where "$@")"
}
for n in 10 20 30 50 70 100 150 200 300 400 600; do run "laplacian2d-$n cg" --laplacian 2:$n; done
for n in 10 15 20 30 40 60; do run "laplacian3d-$n cg" --laplacian 3:$n; done
for m in bcsstk01 1138_bus gr_30_30; do
  run "$m cg+jacobi" "$data/$m.mtx" --solver cg --precond jacobi
done
for m in orsirr_1 pores_1 sherman5 west0067; do
  run "$m bicgstab+ilu0" "$data/$m.mtx" --solver bicgstab --precond ilu0
done
