#!/usr/bin/env bash
# session 30, call 12 (one H200), the tree after 8aa869f with PageRank's row scales 8 lanes
# a row and 4 chunks a batch: GPU cases conversion on the GPU (the transition against the
# host's byte for byte) and cuda (PageRank like the CPU); spira-pagerank on R-MAT 2^20 with
# `--format merge`, five processes (call 11: setup median 10.30 ms), and one with a GPU
# timeline for the kernel's time (call 9: 0.47 ms).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/tr
. .device-run/env.sh
L=$OUT/run12.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
M=/tmp/spira-tts/rmat-20.mtx
python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 "conversion on the GPU" cuda) >>"$L" 2>&1
echo "cases: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
$B/spira-pagerank $M --top 0 >/dev/null 2>&1 # untimed first
for r in 1 2 3 4 5; do
  $B/spira-pagerank $M --format merge --top 0 --maxit 10000 >/tmp/o/s.txt 2>&1
  echo "$r merge $(grep -E '^\s*time' /tmp/o/s.txt | tr -s ' ')" >>"$L"
done
CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr/t.csv $B/spira-pagerank $M --format merge --top 0 >/tmp/o/s.txt 2>&1
echo "traced: $(grep -E '^\s*time' /tmp/o/s.txt | tr -s ' ') $(grep -h scales_kernel /tmp/tr/t.csv | cut -d, -f2 | tr '\n' ' ') ns" >>"$L"
date -u >>"$L"; echo done >>"$L"
