#!/usr/bin/env bash
# session 25, call 4 (one H200): PageRank's row sums and d made on the GPU. The GPU suite's
# cases that hold PageRank (cuda, conversion on the GPU with the new transition test,
# reorder); the setup on R-MAT 2^20, this library against call 1's (b5d3fc8: the host's
# loops) in alternating processes; memcheck and racecheck on PageRank; the R-MAT row of
# the time-to-solution table, seven processes a contender, CuPy in the first round.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 "conversion on the GPU" reorder cuda) >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
wait
for round in 1 2 3 4 5 6; do
  for lib in old new; do
    LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-pagerank /tmp/spira-tts/rmat-20.mtx \
      --top 0 --repeat 3 >/tmp/o/p.txt 2>&1
    echo "round $round $lib: $(grep -E 'time |repeated' /tmp/o/p.txt | tr -s ' ' | tr '\n' ' ')" >>"$L"
  done
done
for tool in memcheck racecheck; do
  for dt in d s; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-pagerank \
      --rmat 14:16 --precision $dt --top 3 >/tmp/o/san.txt 2>&1
    echo "$tool pagerank rmat 14 $dt: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
  done
done
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=7 BUDGET=200 PROBLEMS=rmat \
   FORMATS=cusparse,merge,coo,sell timeout 260 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run4-tts.md" 2>/dev/null
tail -8 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
