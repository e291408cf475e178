#!/usr/bin/env bash
# session 26, call 3 (one H200): sell's long-row chunk of 1,024 in a matrix of many slices
# (256 in one of few, as before) - the GPU suite's "cuda" and conversion cases with the new
# test, memcheck/racecheck on sell alone at both chunk sizes, and three libraries in
# alternating processes: new = the chunk rule (main's numbers: call 2's "new o0"), exp = the chunk rule
# with switches (exp-call3.diff) for the long blocks' place (SPIRA_SELL_LONG_ORDER 0 last,
# 2 first) and their x loads through L2 only (SPIRA_SELL_LONG_CG=1).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + the chunk rule"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/circuit-parts.py /tmp/s 600000 >/tmp/o/parts2.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn --jobs 2 >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300 cuda "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
wait
for tool in memcheck racecheck; do
  for m in /tmp/s/circuit-rows-600000.mtx $D/m/arrow.mtx; do
    for f in "--kernel-name kns=sell_kernel" "--filter kns=sell_kernel"; do
      timeout 200 compute-sanitizer --tool $tool $f --error-exitcode 99 $B/spira-spmv $m \
        --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
      s=$?
      echo "$tool $f $(basename $m): exit $s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
      [ $s -eq 1 ] && { tail -3 /tmp/o/san.txt >>"$L"; continue; }
      grep -E "^sell " /tmp/o/san.txt | cut -c1-140 >>"$L"; break
    done
  done
done
M="/tmp/m/circuit-1000000.mtx /tmp/m/circuit-rows-1000000.mtx /tmp/m/rmat-20.mtx /tmp/m/knn-400000.mtx $R/data/adder_dcop_05.mtx $D/m/wiki-Vote.mtx"
for round in 1 2 3; do
  for v in new exp:0:0 exp:0:1 exp:2:0 exp:2:1; do
    lib=${v%%:*}; o=$(echo $v | cut -d: -f2 -s); c=$(echo $v | cut -d: -f3 -s)
    for m in $M; do
      SPIRA_SELL_LONG_ORDER=${o:-0} SPIRA_SELL_LONG_CG=${c:-0} LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH \
        $B/spira-spmv $m --formats sell --reps 200 >/tmp/o/s.txt 2>&1
      echo "round $round $v $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7, $12}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
