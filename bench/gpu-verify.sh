#!/usr/bin/env bash
# gpu-verify.sh - one GPU batch over a build carried by bench/carry-build.sh (nothing is
# compiled on the GPU machine): the whole GPU suite case by case, compute-sanitizer on the
# SpMV kernels and the ILU applies, and the benchmarks of what changed most recently
# (merge and sell against cuSPARSE on the generated irregular matrices, PageRank on R-MAT
# 2^20 at defaults and with RCM, exact solves / Jacobi sweeps / ISAI). From the source
# root on the GPU machine:
#   bash bench/gpu-verify.sh [CARRY_DIR [OUT_DIR]]          (defaults .device-run, $OUT)
# STAGES="suite sanitize spmv pagerank small trisolve" picks stages (default all); on two
# GPUs or more, STAGES="devices" runs check_gpu_devices and the GF(2) sequence on 1 and 2
# devices. Writes a log a stage into OUT_DIR and a line a result into OUT_DIR/summary.txt.
set -uo pipefail
root=$(pwd)
carry=${1:-.device-run}
out=${2:-${OUT:-/tmp/out}}
stages=${STAGES:-suite sanitize spmv pagerank small trisolve}
[ -f "$carry/env.sh" ] || { echo "gpu-verify.sh: no $carry/env.sh (bench/carry-build.sh)" >&2; exit 2; }
# shellcheck disable=SC1091
. "$carry/env.sh"
bin=$root/$carry/bin
mkdir -p "$out" /tmp/verify/tests /tmp/verify/m
sum=$out/summary.txt
{ nvidia-smi -L; echo "commit $(cat "$carry/commit")"; date -u; } >"$sum" 2>&1
note() { echo "$*" | tee -a "$sum"; }

# the generated matrices, in the background while the suite runs
( python3 "$root/bench/gen-irregular.py" /tmp/verify/m --problems rmat,knn,circuit --jobs 3 \
    >/tmp/verify/m/gen.txt 2>&1 ) &
gen=$!

for st in $stages; do
  case $st in
  suite)
    cp "$bin/check_gpu" /tmp/verify/tests/
    (cd /tmp/verify && sh "$root/tests/gpu-cases.sh" "$out/cases" 300) >"$out/suite.txt" 2>&1
    note "suite: exit $? ($(grep -c "exit 0" "$out/suite.txt") cases passed of $(grep -c "^case" "$out/suite.txt"))"
    ;;
  sanitize)
    # spira-spmv runs cuSPARSE beside every format (its reference column), and racecheck
    # reports hazards inside cuSPARSE's own CSR kernel: the verdict counts the others
    sanitized() { # $1 what; the rest, the command (every device array its own allocation)
      local what=$1 log=/tmp/verify/sanitize.log; shift
      SPIRA_SANITIZE=1 "$@" >"$log" 2>&1
      local rc=$?
      cat "$log" >>"$out/sanitize.txt"
      note "sanitize: $what: exit $rc; $(grep -E '^=+ (Error|Warning|Invalid)' "$log" | grep -vc 'cusparse::') reports outside cuSPARSE"
    }
    for tool in memcheck racecheck; do
      # adder_dcop_05's rows of up to 1,310 entries: sell's long rows, apart in chunks
      for f in "$root/data/orsirr_1.mtx" "--laplacian 2:300" "$root/data/adder_dcop_05.mtx"; do
        # shellcheck disable=SC2086
        sanitized "$tool spira-spmv $f" compute-sanitizer --tool $tool --error-exitcode 99 \
          "$bin/spira-spmv" --formats merge,merge:items=1,merge:items=8,merge:items=32,sell,csr-vector \
          --reps 2 --warmup 1 $f
      done
      sanitized "$tool ISAI-BiCGSTAB sherman5" compute-sanitizer --tool $tool --error-exitcode 99 \
        "$bin/spira-solve" "$root/data/sherman5.mtx" --solver bicgstab --precond ilu0 \
        --trisolve isai --backend cuda
      # Jacobi's D^-1 made on the device, the vector reductions, the preload thread
      sanitized "$tool Jacobi-BiCGSTAB orsirr_1" compute-sanitizer --tool $tool --error-exitcode 99 \
        "$bin/spira-solve" "$root/data/orsirr_1.mtx" --solver bicgstab --precond jacobi \
        --format csr-vector --backend cuda --repeat 2
      # auto's staged choice: CG's graph captured with the first plan, recaptured with the
      # one chosen at iteration 32
      sanitized "$tool staged CG 2-D Laplacian 100^2" compute-sanitizer --tool $tool \
        --error-exitcode 99 "$bin/spira-solve" --laplacian 2:100 --backend cuda
    done
    ;;
  spmv)
    wait $gen
    for m in rmat-20 knn-400000 circuit-1000000; do
      "$bin/spira-spmv" --formats cusparse,auto,merge,merge:items=8,merge:items=16,hyb,sell \
        --reps 50 "/tmp/verify/m/$m.mtx" >/tmp/verify/spmv.txt 2>&1
      cat /tmp/verify/spmv.txt >>"$out/spmv.txt"
      note "spmv $m, ms: $(grep -E '^(cusparse|auto|merge|sell) ' /tmp/verify/spmv.txt | awk '{print $1, $7}' | tr '\n' ' ')"
      if [ -d "$carry/old/lib" ]; then
        echo "-- $m, old library" >>"$out/spmv.txt"
        LD_LIBRARY_PATH=$root/$carry/old/lib:$LD_LIBRARY_PATH "$bin/spira-spmv" \
          --formats cusparse,merge,sell --reps 50 "/tmp/verify/m/$m.mtx" >>"$out/spmv.txt" 2>&1
      fi
    done
    ;;
  pagerank)
    # at defaults on the R-MAT graph: the first solve of a process (kernels loaded on first
    # launch) and the median of four more; the transition's setup (host threads); RCM's
    wait $gen
    for args in "" "--reorder rcm"; do
      # shellcheck disable=SC2086
      "$bin/spira-pagerank" /tmp/verify/m/rmat-20.mtx --top 0 --repeat 5 $args \
        >/tmp/verify/pagerank.txt 2>&1
      cat /tmp/verify/pagerank.txt >>"$out/pagerank.txt"
      note "pagerank ${args:-default}: $(grep -E '^  (time|repeated|reorder) ' /tmp/verify/pagerank.txt | tr -s ' ' | tr '\n' ';')"
    done
    ;;
  small)
    # issue 14's small systems: each bundled matrix's multiply alone and back to back with
    # auto and csr-vector (cuSPARSE beside), and CG on the small SPD ones on each backend
    # (us an iteration: the median of solves 2..20)
    for m in 1138_bus adder_dcop_05 bcsstk01 email-Eu-core gr_30_30 orsirr_1 pores_1 \
             sherman5 west0067; do
      "$bin/spira-spmv" --formats auto,csr-vector --reps 200 "$root/data/$m.mtx" \
        >/tmp/verify/small.txt 2>&1
      cat /tmp/verify/small.txt >>"$out/small.txt"
      note "small $m, ms alone / back to back: $(awk '/^(cusparse|auto|csr-vector) / {f = $1; t = $7}
        /back to back/ {printf "%s %s / %s; ", f, t, $4}' /tmp/verify/small.txt)"
    done
    for m in bcsstk01 gr_30_30 1138_bus; do
      for be in cpu cuda auto; do
        "$bin/spira-solve" "$root/data/$m.mtx" --backend "$be" --repeat 20 \
          >/tmp/verify/small.txt 2>&1
        cat /tmp/verify/small.txt >>"$out/small.txt"
        note "small CG $m $be: $(sed -n 's/.*median.*(\([0-9.]*\) ms each iteration).*/\1 ms/p' \
          /tmp/verify/small.txt) $(sed -n 's/^  iterated *//p' /tmp/verify/small.txt)"
      done
    done
    ;;
  trisolve)
    mkdir -p /tmp/verify/build/examples /tmp/verify/build/bench
    cp "$bin/spira-solve" /tmp/verify/build/examples/
    [ -x "$bin/trisolve-bench" ] && cp "$bin/trisolve-bench" /tmp/verify/build/bench/
    bash "$root/bench/trisolve-sweeps.sh" /tmp/verify/build >"$out/trisolve.txt" 2>&1
    note "trisolve: exit $? ($(grep -c ' I ' "$out/trisolve.txt") ISAI lines)"
    ;;
  devices)
    "$bin/check_gpu_devices" >"$out/devices.txt" 2>&1
    note "devices: check_gpu_devices exit $? ($(grep -E 'Checks' "$out/devices.txt" | tail -1))"
    for d in 1 2; do
      "$bin/spira-gf2" --nfs 1000000:64 --width 64 --formats csr --sequence 2000 --reps 5 \
        --devices $d >>"$out/devices.txt" 2>&1
      note "devices: sequence on $d device(s): exit $?"
    done
    ;;
  *) note "unknown stage $st" ;;
  esac
done
kill $gen 2>/dev/null
exit 0
