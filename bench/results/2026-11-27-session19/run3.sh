#!/usr/bin/env bash
# session 19, call 3 (one GPU): an experiment (a build not committed): merge's staging loads
# with cache hints (EXP_MODE bit 1: entries and columns evict-first; bit 2: x not allocated
# in L1), with and without hub slots, and merge's share (items) on R-MAT 2^20.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + merge hubs + EXP_MODE (experiment)"; date -u; } >"$L" 2>&1
for p in d s; do
  for m in 0 1 2 3; do
    echo "== R-MAT 2^20 precision $p EXP_MODE $m" >>"$L"
    EXP_MODE=$m $B/spira-spmv --rmat 20:16 --precision $p --reps 100 \
      --formats merge,merge:hubs=1024,merge:hubs=8192,merge:hubs=32768 2>&1 | grep -E "^(merge|cusparse)" >>"$L"
  done
done
echo "== R-MAT 2^20 merge items" >>"$L"
$B/spira-spmv --rmat 20:16 --reps 100 --formats merge:items=3,merge:items=5,merge:items=7,merge:items=9,merge:items=12,merge:items=16 2>&1 | grep -E "^(merge|cusparse)" >>"$L"
date -u >>"$L"; echo done >>"$L"
