#!/usr/bin/env bash
# session 25, call 9 (one H200): the library left on main. The whole GPU suite case by case,
# memcheck and racecheck on PageRank and on sell's long rows (the sell change of call 2 was
# reverted: this is the code that ran before it), and the time-to-solution table on every
# problem, five processes a contender, no CuPy (calls 4: R-MAT with CuPy).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
( python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems all --jobs 4 >/tmp/o/gen.txt 2>&1 ) &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-pagerank \
    --rmat 14:16 --top 3 >/tmp/o/san.txt 2>&1
  echo "$tool pagerank rmat 14: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 --kernel-name regex:sell \
    $B/spira-spmv $D/m/arrow.mtx --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$tool sell arrow (sell kernels only): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
done
wait
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=170 CUPY=0 \
   FORMATS=cusparse,dia,merge,coo,sell timeout 210 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run9-tts.md" 2>/dev/null
tail -22 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
