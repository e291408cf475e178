#!/usr/bin/env bash
# session 30, call 3 (one H200), the tree after efaece2 with spmv/replay.c (a plan's
# multiply launched from a CUDA graph captured once per (x, y, alpha, beta)): the whole GPU
# suite case by case (cuda has gpu_spmv_replay; every other GPU test now multiplies
# through the graphs); memcheck on spira-spmv with sell, merge, cusparse and auto on
# sherman5 and R-MAT 2^18; launch-floor; the small matrices with SPIRA_SPMV_GRAPHS=1 (the
# default) and =0 against cuSPARSE's CSR, COO and SELL algorithms, one round.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m18 --problems rmat --scale 0.25 >/tmp/o/gen18.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -30 >>"$L"
wait
M18=$(ls /tmp/m18/rmat-*.mtx | head -1)
for m in $R/data/sherman5.mtx $M18; do
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 \
    $B/spira-spmv $m --formats sell,merge,cusparse,auto --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "memcheck spira-spmv $(basename $m): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E '^(sell|merge|cusparse|auto) ' /tmp/o/san.txt | awk '{print $1, $6}' | tr '\n' ' ')" >>"$L"
done
$B/launch-floor >>"$L" 2>&1
for g in 1 0; do
  for m in $R/data/*.mtx $R/data/*.mtx.gz $D/m/G51.mtx.gz $D/m/bcsstk13.mtx.gz; do
    SPIRA_SPMV_GRAPHS=$g $B/spira-spmv $m --formats cusparse:alg=1,cusparse:alg=coo,cusparse:alg=sell,auto --reps 300 >/tmp/o/s.txt 2>&1
    echo "graphs=$g $(basename $m): $(grep -E '^(cusparse|cusparse:[a-z=0-9]*|auto) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
