#!/usr/bin/env bash
# session 19, call 8 (one GPU): call 7 again after the preload also loads the sorting
# modules' own kernels (key kernels, fills, copies); timing prints still in (not committed);
# then PageRank's setup on R-MAT 2^20, three processes.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + kernels loaded by the warm-up + timing prints"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1
for f in suraa cmrs sell; do
  for src in "--rmat 20:16" /tmp/m/knn-400000.mtx; do
    echo "== $f $src" >>"$L"
    $B/spira-spmv $src --formats $f --reps 5 --convert-reps 3 2>&1 | grep -E "^$f |TIMING" >>"$L"
  done
done
for r in 1 2 3; do $B/spira-pagerank --rmat 20:16 --top 0 2>&1 | grep -E "^  time|TIMING" >>"$L"; done
date -u >>"$L"; echo done >>"$L"
