#!/usr/bin/env bash
# trisolve-sweeps.sh - issue 14's approximate triangular solves on the GPU: IC(0)-CG and
# ILU(0)-BiCGSTAB with cuSPARSE's exact triangular solves against K = 1, 2, 3, 5 Jacobi
# sweeps a solve (spira-solve --trisolve-sweeps K) and against the factors' approximate
# inverses (--trisolve isai, K column "I"), on the bundled matrices and the SPD ones
# of the shared matrices that data/ lacks (bcsstk13, bcsstk16), from a build directory:
#   bench/trisolve-sweeps.sh BUILD_DIR [SHARED_MATRICES_DIR]
# One line per solve: iterations and outcome; setup (SpMV format + preconditioner, the
# first solve's), the median iteration time of solves 2..REPEAT (default 3, kernels warm),
# time to solution = setup + that, and exact's time to solution over this one (the issue
# asks >= 3 where both converge). Then bench/trisolve-bench's time of one apply for each
# way of running the sweeps. Tolerance 1e-8, at most 5000 iterations. About 40 s on an H100.
# BACKEND=cpu runs the solves on the host (a smoke test of the script; no per-apply times).
set -uo pipefail
build=${1:?usage: trisolve-sweeps.sh BUILD_DIR [SHARED_MATRICES_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
# the shared matrices: the argument, else shared/ in the tree or beside it
shared=${2:-$here/../shared/matrices}
[ -d "$shared" ] || shared=$here/../../shared/matrices
solve=$build/examples/spira-solve
repeat=${REPEAT:-3}; backend=${BACKEND:-cuda}
[ -x "$solve" ] || { echo "trisolve-sweeps.sh: no $solve: give a built tree" >&2; exit 2; }

spd="$data/bcsstk01.mtx $data/gr_30_30.mtx $data/1138_bus.mtx"
for m in bcsstk13 bcsstk16; do [ -f "$shared/$m.mtx" ] && spd="$spd $shared/$m.mtx"; done
nonsym="$data/pores_1.mtx $data/west0067.mtx $data/orsirr_1.mtx $data/sherman5.mtx $data/adder_dcop_05.mtx"

printf '%-18s %-9s %2s %6s %-10s %9s %9s %10s %7s\n' matrix solver K its outcome setup_ms iter_ms tts_ms speedup
one() { # file solver: a line per K, exact first
  local f=$1 solver=$2 exact_tts=
  for k in 0 1 2 3 5 I; do
    local out its outcome fmt_setup solver_setup iter tts speed how="--trisolve-sweeps $k"
    [ $k = I ] && how="--trisolve isai"
    out=$("$solve" "$f" --backend "$backend" --solver "$solver" --precond ilu0 $how \
          --maxit 5000 --repeat "$repeat" 2>&1)
    its=$(sed -n 's/^  result .* after \([0-9]*\) iterations.*/\1/p' <<<"$out")
    outcome=$(sed -n 's/^  result *\([a-z]*\).*/\1/p' <<<"$out")
    fmt_setup=$(sed -n 's/.*SpMV format setup \([0-9.]*\) ms.*/\1/p' <<<"$out")
    solver_setup=$(sed -n 's/.*solver setup \([0-9.]*\) ms.*/\1/p' <<<"$out")
    # the repeats' median (iterations only); a single solve's own time when there are none
    iter=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' <<<"$out")
    [ -n "$iter" ] || iter=$(sed -n 's/^ *iterations \([0-9.]*\) ms.*/\1/p' <<<"$out")
    if [ -z "$its" ] || [ -z "$solver_setup" ] || [ -z "$iter" ]; then
      printf '%-18s %-9s %2s %s\n' "$(basename "$f" .mtx)" "$solver" $k \
        "failed: $(grep -m1 'spira-solve:' <<<"$out" | cut -c1-90)"
      continue
    fi
    tts=$(awk -v a="$fmt_setup" -v b="$solver_setup" -v c="$iter" 'BEGIN { printf "%.3f", a + b + c }')
    speed=-
    if [ "$outcome" = converged ]; then
      [ $k = 0 ] && exact_tts=$tts
      [ -n "$exact_tts" ] && speed=$(awk -v e="$exact_tts" -v t="$tts" 'BEGIN { printf "%.2f", e / t }')
    fi
    printf '%-18s %-9s %2s %6s %-10s %9.3f %9.3f %10.3f %7s\n' "$(basename "$f" .mtx)" "$solver" $k \
      "$its" "$outcome" "$(awk -v a="$fmt_setup" -v b="$solver_setup" 'BEGIN { print a + b }')" \
      "$iter" "$tts" "$speed"
  done
}
for f in $spd; do one "$f" cg; done
for f in $nonsym; do one "$f" bicgstab; done

echo
if [ "$backend" != cuda ]; then
  :
elif [ -x "$build/bench/trisolve-bench" ] || make -C "$build" bench/trisolve-bench >/dev/null 2>&1; then
  "$build/bench/trisolve-bench" --reps 100 $spd $nonsym
else
  echo "trisolve-sweeps.sh: bench/trisolve-bench could not be built: no per-apply times" >&2
fi
