#!/usr/bin/env bash
# session 25, call 7 (one H200): PageRank's row sums a warp a row in the chunked tree order
# (host and GPU alike). The GPU suite's cases that hold PageRank (conversion on the GPU with
# the transition test, cuda); memcheck and racecheck on PageRank; the setup against
# 5015efe's library (old: a thread a row) alternating, the new one with temporary phase
# prints (SPIRA_PHASES=1, not committed); R-MAT's time-to-solution row, seven processes a
# contender, no CuPy (call 4 ran it).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + phase prints; old: 5015efe"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 "conversion on the GPU" cuda) >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
wait
for round in 1 2 3 4 5 6 7; do
  for lib in old new; do
    SPIRA_PHASES=1 LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-pagerank \
      /tmp/spira-tts/rmat-20.mtx --top 0 >/tmp/o/p.txt 2>&1
    echo "round $round $lib: $(grep -E 'time ' /tmp/o/p.txt | tr -s ' ')" >>"$L"
    [ $lib = new ] && grep phase /tmp/o/p.txt | tr -s ' ' | tr '\n' '|' >>"$L" && echo >>"$L"
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
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=7 BUDGET=150 PROBLEMS=rmat CUPY=0 \
   FORMATS=cusparse,merge,coo,sell timeout 200 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run7-tts.md" 2>/dev/null
tail -7 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
