#!/usr/bin/env bash
# session 20, call 4 (one GPU): the GPU suite; sell giving a slice 2-8 warps when its
# slices are few, and merge's one step a thread on short paths, against 139494c's library
# (old) in alternating processes; then every ../shared matrix and the generated ones with
# every cuSPARSE algorithm beside Spira's formats (double); sanitizers with hazards named.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
STAGES="suite" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run4.txt; S=$OUT/run4-ab.txt; T=$OUT/run4-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + this session's changes"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite4.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
for round in 1 2; do
  for lib in new old; do
    [ $lib = old ] && LP=$D/old/lib:$LD_LIBRARY_PATH || LP=$LD_LIBRARY_PATH
    for src in /tmp/m/knn-400000.mtx "--rmat 20:16" "--laplacian 3:150" $D/mat/bcsstk16.mtx $D/mat/bcsstk13.mtx $D/mat/gr_30_30.mtx $D/mat/adder_dcop_05.mtx $D/mat/1138_bus.mtx; do
      echo "== round $round $lib $src" >>"$S"
      LD_LIBRARY_PATH=$LP $B/spira-spmv $src --reps 200 --formats sell,merge,auto >>"$S" 2>&1
    done
  done
done
CU=cusparse:alg=1,cusparse:alg=2,cusparse:alg=coo,cusparse:alg=coo2,cusparse:alg=sell
F=$CU,auto,csr-vector,merge,sell,coo,hyb,ell,lightspmv,suraa,cmrs
for m in $D/mat/*.mtx; do $B/spira-spmv $m --formats $F --reps 200 >>"$T" 2>&1; done
for src in "--rmat 20:16" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx "--laplacian 3:150"; do
  $B/spira-spmv $src --formats $F,dia --reps 100 >>"$T" 2>&1
done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $D/mat/bcsstk13.mtx \
    --reps 3 --warmup 1 --formats merge,merge:items=1,sell,cusparse:alg=coo,cusparse:alg=sell >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
  grep -oE "in (void )?[A-Za-z_][A-Za-z0-9_:]*" /tmp/cs.log | sort | uniq -c | sort -rn | head -6 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
