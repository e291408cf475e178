#!/usr/bin/env bash
# session 25, call 6 (one H200): G's values, all 1 in a pattern graph, filled on the device
# instead of copied in PageRank's transpose; the setup against 5015efe's library (old here)
# in alternating processes, the new one with temporary phase prints (SPIRA_PHASES=1, not
# committed). Then ncu's kernel durations on the small matrices (issue 14's <= 5 us).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + phase prints; old: 5015efe"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1
for round in 1 2 3 4 5 6 7; do
  for lib in old new; do
    SPIRA_PHASES=1 LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-pagerank \
      /tmp/spira-tts/rmat-20.mtx --top 0 >/tmp/o/p.txt 2>&1
    echo "round $round $lib: $(grep -E 'time ' /tmp/o/p.txt | tr -s ' ')" >>"$L"
    [ $lib = new ] && grep phase /tmp/o/p.txt | tr -s ' ' | tr '\n' '|' >>"$L" && echo >>"$L"
  done
done
for m in $R/data/adder_dcop_05.mtx $D/m/wiki-Vote.mtx $R/data/bcsstk01.mtx; do
  timeout 100 ncu --clock-control none -k regex:"sell_kernel|csrmv|csr_vector|coo|spmv" \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread \
    $B/spira-spmv $m --formats sell,csr-vector --reps 3 --warmup 1 >/tmp/o/ncu.txt 2>&1
  echo "== ncu $(basename $m): exit $?" >>"$L"
  grep -E "^  [a-zA-Z_].*\(|duration|grid_size|registers" /tmp/o/ncu.txt | sed 's/(cusparse::KernelCoeffs.*//' | cut -c1-120 | head -40 >>"$L"
  $B/spira-spmv $m --formats sell,csr-vector --reps 200 2>&1 | grep -E "^(cusparse|sell|csr-vector) |back to back" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
