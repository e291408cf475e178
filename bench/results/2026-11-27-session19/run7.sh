#!/usr/bin/env bash
# session 19, call 7 (one GPU): a build with timing prints (not committed) in suraa's and
# cmrs's GPU conversions and the sort: where the host's 0.3-1.4 ms before the first kernel go.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + timing prints"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1
for f in suraa cmrs sell; do
  for src in "--rmat 20:16" /tmp/m/knn-400000.mtx; do
    echo "== $f $src" >>"$L"
    $B/spira-spmv $src --formats $f --reps 5 --convert-reps 3 2>&1 | grep -E "^$f |TIMING" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
