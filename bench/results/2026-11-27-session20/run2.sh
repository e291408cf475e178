#!/usr/bin/env bash
# session 20, call 2 (one GPU): the GPU suite; merge's fixup fused into the tile launch for
# plans of <= 512 tiles and sell's main loop unrolled with padding skipped by a predicate,
# each against 139494c's library (old) in alternating processes; merge's steps a thread
# (items) on the small matrices; sell with and without sorting against cuSPARSE's SELL.
set -u
R=$PWD; D=.device-run; B=$R/$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run2.txt; S=$OUT/run2-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + cusparse algorithms, fused merge fixup, sell predicate loop"; date -u; } >"$L" 2>&1
STAGES="suite" timeout 300 bash bench/gpu-verify.sh $D /tmp/vout >>"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite2.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
small="adder_dcop_05 arrow wiki-Vote p2p-Gnutella31 email-Eu-core G51 mbeacxc sherman5 gr_30_30"
for round in 1 2; do
  for lib in new old; do
    [ $lib = old ] && LP=$R/$D/old/lib:$LD_LIBRARY_PATH || LP=$LD_LIBRARY_PATH
    for m in $small; do
      echo "== round $round $lib $m" >>"$S"
      LD_LIBRARY_PATH=$LP $B/spira-spmv $D/mat/$m.mtx --reps 300 \
        --formats cusparse:alg=coo,cusparse:alg=sell,merge,merge:items=1,merge:items=2,merge:items=4,auto,csr-vector,sell >>"$S" 2>&1
    done
    for src in "--rmat 20:16" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx "--laplacian 3:150"; do
      echo "== round $round $lib $src" >>"$S"
      LD_LIBRARY_PATH=$LP $B/spira-spmv $src --reps 100 \
        --formats cusparse:alg=1,cusparse:alg=sell,merge,sell,sell:sigma=1,sell:sigma=32,auto >>"$S" 2>&1
    done
  done
done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $D/mat/adder_dcop_05.mtx \
    --reps 3 --warmup 1 --formats merge,merge:items=1,sell,cusparse:alg=coo,cusparse:alg=sell >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
  grep -E "^=========     (at|by) " /tmp/cs.log | grep -v -i "cusparse\|csrmv" | head -3 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
