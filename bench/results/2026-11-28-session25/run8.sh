#!/usr/bin/env bash
# session 25, call 8 (one H200): sell's warps a slice doubled while the widest slice leaves
# each warp 4 steps (was 8), for the small matrices' <= 5 us with auto (issue 14); this
# library against 073240b's in alternating processes, three rounds, sell and auto, on the
# bundled and shared small matrices, and kNN 4e5 (more slices, the rule's other side).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) (+ the group rule); old: 073240b"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems knn >/tmp/o/gen.txt 2>&1 &
M="$(ls $R/data/*.mtx $R/data/*.mtx.gz $D/m/*.mtx)"
wait
for round in 1 2 3; do
  for lib in old new; do
    for m in $M /tmp/m/knn-400000.mtx; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell,auto --reps 300 \
        >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(sell|auto) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
