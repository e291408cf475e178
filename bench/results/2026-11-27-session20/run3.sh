#!/usr/bin/env bash
# session 20, call 3 (one GPU): the GPU suite; merge's fixup finding a run's end 32 carries
# a step (was a binary search) with items 1, 2, 4, 7 on the small matrices; five variants
# of sell's main loop (SPIRA_SELL_EXP, an experiment build: 0 predicate, 1 value loaded
# under the predicate, 2 as 1 with plain loads, 3 as 1 with x not through __ldg, 4 the
# old break) against cuSPARSE's SELL; racecheck's hazards by kernel.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
STAGES="suite" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run3.txt; S=$OUT/run3-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + this session's changes (experiment build)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite3.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1
for m in adder_dcop_05 arrow wiki-Vote mbeacxc email-Eu-core G51 sherman5 bcsstk13 bcsstk16 bayer10 p2p-Gnutella31 1138_bus; do
  echo "== merge $m" >>"$S"
  $B/spira-spmv $D/mat/$m.mtx --reps 300 --formats merge:items=1,merge:items=2,merge:items=4,merge,csr-vector,auto >>"$S" 2>&1
done
for round in 1 2; do
  for v in 0 1 2 3 4; do
    for src in /tmp/m/knn-400000.mtx "--rmat 20:16" "--laplacian 3:150" $D/mat/bcsstk16.mtx; do
      echo "== sell round $round var $v $src" >>"$S"
      SPIRA_SELL_EXP=$v $B/spira-spmv $src --reps 100 --formats sell,sell:sigma=1,cusparse:alg=sell >>"$S" 2>&1
    done
  done
done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $D/mat/mbeacxc.mtx \
    --reps 3 --warmup 1 --formats merge,merge:items=1,sell,cusparse:alg=coo,cusparse:alg=sell >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
  grep -oE "(in|at) [A-Za-z_][A-Za-z0-9_:<>]*" /tmp/cs.log | sort | uniq -c | sort -rn | head -8 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
