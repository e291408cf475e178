#!/usr/bin/env bash
# session 30, call 11 (one H200), 2b6fcd1: PageRank on R-MAT 2^20 at defaults against
# `--format merge` (the same plan), ten alternating pairs of processes, setup and
# iterations as spira-pagerank prints them: is the default's setup slower (calls 5 and 8:
# medians 1.1x) or is it the benchmark's order (the default runs first in each round)?
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run11.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
M=/tmp/spira-tts/rmat-20.mtx
[ -f $M ] || python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1
$B/spira-pagerank $M --top 0 >/dev/null 2>&1 # untimed first
for r in $(seq 1 10); do
  for v in default merge; do
    args=""; [ $v = merge ] && args="--format merge"
    [ $((r % 2)) = 0 ] && [ $v = default ] && continue
    $B/spira-pagerank $M $args --top 0 --maxit 10000 >/tmp/o/s.txt 2>&1
    echo "$r $v $(grep -E '^\s*time' /tmp/o/s.txt | tr -s ' ')" >>"$L"
    [ $((r % 2)) = 0 ] && [ $v = merge ] && { $B/spira-pagerank $M --top 0 --maxit 10000 >/tmp/o/s.txt 2>&1;
      echo "$r default $(grep -E '^\s*time' /tmp/o/s.txt | tr -s ' ')" >>"$L"; }
  done
done
date -u >>"$L"; echo done >>"$L"
