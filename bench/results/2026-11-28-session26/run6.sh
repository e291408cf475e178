#!/usr/bin/env bash
# session 26, call 6 (one H200): the library on main. The whole GPU suite case by case;
# memcheck and racecheck on PageRank (its scales through the new first-bad-row helper), on
# Jacobi's inverse diagonal (spira-solve --precond jacobi) and on sell's kernel; the
# time-to-solution table on the circuit, kNN and R-MAT problems, five processes a
# contender, no CuPy.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
( python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems circuit,knn,rmat --jobs 3 >/tmp/o/gen.txt 2>&1 ) &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-pagerank \
    --rmat 14:16 --top 3 >/tmp/o/san.txt 2>&1
  echo "$tool pagerank rmat 14: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-solve --laplacian 2:40 \
    --solver cg --precond jacobi --backend cuda >/tmp/o/san.txt 2>&1
  echo "$tool solve jacobi laplacian 2:40: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -m1 -i 'iterations' /tmp/o/san.txt | cut -c1-100)" >>"$L"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 --kernel-name kns=sell_kernel \
    $B/spira-spmv $D/m/arrow.mtx --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$tool sell arrow (sell_kernel only): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
done
wait
cat /tmp/o/gen.txt | tail -3 >>"$L"
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=200 CUPY=0 PROBLEMS=circuit,knn,rmat \
   FORMATS=cusparse,merge,coo,sell timeout 240 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run6-tts.md" 2>/dev/null
tail -22 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
