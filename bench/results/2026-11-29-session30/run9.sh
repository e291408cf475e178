#!/usr/bin/env bash
# session 30, call 9 (one H200), the tree of call 8: where PageRank's setup on R-MAT 2^20
# at defaults (auto, which takes merge) spends the 1-2 ms more than `--format merge` (calls
# 5 and 8): GPU timelines with the host's CUDA calls of 20 us or more, two processes each,
# alternating.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/tr
. .device-run/env.sh
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
M=/tmp/spira-tts/rmat-20.mtx
[ -f $M ] || python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1
for r in 1 2; do
  for v in default merge; do
    args=""; [ $v = merge ] && args="--format merge"
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr/$v-$r.csv GPU_TRACE_API=20 \
      $B/spira-pagerank $M $args --top 0 --maxit 10000 >/tmp/o/s.txt 2>&1
    echo "== $v $r: $(grep -E '^\s*time' /tmp/o/s.txt | tr -s ' ')" >>"$L"
  done
done
tar czf $OUT/run9-traces.tgz -C /tmp/tr .
date -u >>"$L"; echo done >>"$L"
