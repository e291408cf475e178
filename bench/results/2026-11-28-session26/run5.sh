#!/usr/bin/env bash
# session 26, call 5 (one H200): sell's block-a-row long rows (a matrix of few slices) with
# each warp's 8 steps of loads issued at once (few_chunk_sum), for the small matrices'
# <= 5 us (issue 14): old = 0e33834, new = few_chunk_sum in the block rows, exp = also in
# the few matrices' ticket path (exp-call5.diff); alternating processes, three rounds, sell
# and auto on the bundled and shared small matrices, sell on three large ones (two rounds);
# the GPU suite's "cuda" and conversion cases on new.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + few_chunk_sum"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn --jobs 2 >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300 cuda "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
wait
S="$(ls $R/data/*.mtx $R/data/*.mtx.gz $D/m/*.mtx)"
for round in 1 2 3; do
  for lib in old new exp; do
    for m in $S; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell,auto --reps 300 \
        >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $7, $12}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
    done
  done
done
for round in 1 2; do
  for lib in old new exp; do
    for m in /tmp/m/circuit-1000000.mtx /tmp/m/rmat-20.mtx /tmp/m/knn-400000.mtx; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell --reps 200 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7, $12}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
