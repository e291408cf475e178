#!/usr/bin/env bash
# session 20, call 5 (one H100): the GPU suite with sell's empty slices written again
# (call 4's failure); the numbers for auto's cost table (spmv/cost.c): sell, ell, merge,
# csr-vector and cuSPARSE's algorithms on the generated matrices and the ../shared ones
# whose rows are long or few (double); sanitizers.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
STAGES="suite" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run5.txt; T=$OUT/run5-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + this session's changes"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite5.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
CU=cusparse:alg=1,cusparse:alg=2,cusparse:alg=coo,cusparse:alg=coo2,cusparse:alg=sell
F=$CU,auto,csr-vector,merge,sell,coo,hyb,ell,lightspmv,suraa,cmrs
for src in "--rmat 20:16" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx "--laplacian 3:150" "--laplacian 2:2000"; do
  $B/spira-spmv $src --formats $F,dia --reps 100 >>"$T" 2>&1
done
for m in $D/mat/*.mtx; do $B/spira-spmv $m --formats $F --reps 200 >>"$T" 2>&1; done
for tool in memcheck racecheck; do
  for m in email-Eu-core bcsstk16; do
    compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $D/mat/$m.mtx \
      --reps 3 --warmup 1 --formats merge,merge:items=7,sell,cusparse:alg=coo,cusparse:alg=sell >/tmp/cs.log 2>&1
    echo "$tool $m rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
    grep -oE "in (void )?[A-Za-z_][A-Za-z0-9_:]*" /tmp/cs.log | sort | uniq -c | sort -rn | head -4 >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
