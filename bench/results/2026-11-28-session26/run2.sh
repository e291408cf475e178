#!/usr/bin/env bash
# session 26, call 2 (one H200): where sell's long-row blocks go in the grid (SPIRA_SELL_LONG_ORDER,
# an experiment's switch: 0 after the slices' blocks as on main, 1 spread evenly among them,
# 2 before them) x the long rows' chunk (new = 256 as on main, old = 1024), alternating
# processes, three rounds; the GPU suite's conversion cases with orders 1 and 2.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + experiment; old = chunk 1024"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
for o in 1 2; do
  (cd /tmp/v && SPIRA_SELL_LONG_ORDER=$o sh $R/tests/gpu-cases.sh /tmp/v/cases$o 200 cuda "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
  echo "suite cases, order $o: exit $?" >>"$L"
done
wait
M="/tmp/m/circuit-1000000.mtx /tmp/m/circuit-rows-1000000.mtx /tmp/m/rmat-20.mtx $R/data/adder_dcop_05.mtx $D/m/arrow.mtx $D/m/wiki-Vote.mtx $D/m/p2p-Gnutella31.mtx"
for round in 1 2 3; do
  for lib in new old; do
    for o in 0 1 2; do
      for m in $M; do
        SPIRA_SELL_LONG_ORDER=$o LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell --reps 200 \
          >/tmp/o/s.txt 2>&1
        echo "round $round $lib order $o $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7, $12}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
      done
    done
  done
done
date -u >>"$L"; echo done >>"$L"
