#!/usr/bin/env bash
# gpu-sanitize.sh - compute-sanitizer (memcheck, racecheck, initcheck) over every SpMV
# kernel (the GF(2) ones too), the BLAS-1 kernels and the solvers, through the
# command-line drivers on small problems, then memcheck over the whole GPU test suite.
# Run from a built tree:
#   bench/gpu-sanitize.sh [SECONDS_FOR_THE_SUITE]
# TOOLS="memcheck initcheck" picks tools; SECONDS_FOR_THE_SUITE=0 skips the suite.
# API errors are not reported: the out-of-memory test provokes one on purpose.
set -uo pipefail
suite_limit=${1:-240}
# SPIRA_SANITIZE=1: every device array its own allocation, so memcheck sees any overrun
export SPIRA_SANITIZE=1
cs() { compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 "${@:2}" >/tmp/cs.log 2>&1
       rc=$?; printf '%-10s rc=%-3s %s | %s\n' "$1" "$rc" "$(grep -m1 'ERROR SUMMARY' /tmp/cs.log)" "${*:2}"
       # findings inside NVIDIA's libraries (cuSPARSE's csrmv kernels report racecheck
       # hazards) are counted apart from findings in Spira's own kernels
       # anything else (a crash of the tool or of the program): its last words
       case $rc in 0|99) ;; *) tail -n 8 /tmp/cs.log | sed 's/^/    | /' ;; esac
       if [ $rc -eq 99 ]; then
         echo "    findings naming cusparse:: $(grep -c 'cusparse::' /tmp/cs.log), other: $(grep -E '^=========  ' /tmp/cs.log | grep -vc 'cusparse::')"
         grep -E '^=========  ' /tmp/cs.log | grep -v 'cusparse::' | head -10
       fi; }
for tool in ${TOOLS:-memcheck racecheck initcheck}; do
  for p in d s; do
    cs $tool ./examples/spira-spmv data/adder_dcop_05.mtx --precision $p --reps 2 --warmup 1
    cs $tool ./examples/spira-spmv --laplacian 2:300 --precision $p --reps 2 --warmup 1
  done
  cs $tool ./examples/spira-solve data/sherman5.mtx --solver bicgstab --precond jacobi
  cs $tool ./examples/spira-solve --laplacian 3:20 --precond neumann
  cs $tool ./examples/spira-solve data/west0067.mtx --solver bicgstab --precond ilu0
  cs $tool ./examples/spira-solve data/sherman5.mtx --solver bicgstab --precond ilut --precision s --tol 1e-5
  cs $tool ./examples/spira-pagerank data/email-Eu-core.mtx --top 3
  # SURAA's variants (G3 scalar, small segments) and the GF(2) kernels: every format,
  # sub-format and width, then the kernel search
  cs $tool ./examples/spira-spmv data/adder_dcop_05.mtx --reps 2 --warmup 1 \
     --formats suraa,suraa:g3=scalar,suraa:segment=64,suraa:children=0
  # SELL unsorted and in one-slice windows, merge with shares of 1 step (a row's carries
  # over as many threads as it has entries) and 1024, on a power-law graph
  cs $tool ./examples/spira-spmv data/email-Eu-core.mtx --reps 2 --warmup 1 \
     --formats sell,sell:sigma=1,sell:sigma=32,merge,merge:items=1,merge:items=32
  cs $tool ./examples/spira-gf2 --nfs 2000:20 --width 64,128,256 --reps 2 --warmup 1 \
     --formats all,sliced-coo:share=thread,sliced-coo:share=block,sliced-coo:rows=32
  cs $tool ./examples/spira-gf2 --nfs 400:10 --kernel
done
[ "$suite_limit" -gt 0 ] || exit 0
echo "== memcheck over tests/check_gpu (limit ${suite_limit}s)"
timeout "$suite_limit" compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 99 \
  ./tests/check_gpu >/tmp/cs-suite.log 2>&1
echo "rc=$? $(grep -E 'Checks:' /tmp/cs-suite.log) $(grep 'ERROR SUMMARY' /tmp/cs-suite.log)"
grep -E ':[EF]:' /tmp/cs-suite.log | head
