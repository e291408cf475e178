#!/usr/bin/env bash
# session 19, call 5 (one GPU): the preload thread warming the sorting modules (CUB's radix
# sort kernels) and loading suraa's and cmrs's: GPU suite, sanitizers, then the first
# conversion of suraa, sell and cmrs in a fresh process (R-MAT 2^20, kNN) and PageRank's
# setup, with the preload (default) and without (SPIRA_PRELOAD=0), alternating.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1 &
gen=$!
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $R/data/email-Eu-core.mtx \
    --reps 2 --warmup 1 --formats sell,suraa,cmrs >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) spira-spmv sell,suraa,cmrs" >>"$L"
  grep -E "Race|Invalid|by thread|at 0x" /tmp/cs.log | grep -v -i cusparse | head -5 >>"$L"
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-pagerank $R/data/email-Eu-core.mtx --top 2 >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) spira-pagerank" >>"$L"
done
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite5.txt"
wait $gen
K=/tmp/m/knn-400000.mtx
for round in 1 2; do
  for pre in 1 0; do
    for f in suraa sell cmrs; do
      for m in rmat knn; do
        [ $m = rmat ] && src="--rmat 20:16" || src=$K
        echo "round $round preload $pre $m $(SPIRA_PRELOAD=$pre $B/spira-spmv $src --formats $f --reps 20 2>&1 | grep -E "^$f ")" >>"$L"
      done
    done
    SPIRA_PRELOAD=$pre $B/spira-pagerank --rmat 20:16 --top 0 2>&1 | grep -E "^  time" | sed "s/^/round $round preload $pre pagerank /" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
