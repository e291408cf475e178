#!/usr/bin/env bash
# session 27, call 3 (one H200): sell's default sigma of 1024 beyond 131072 rows (1b7009c,
# "new") against 620a83b ("old"): the GPU suite's cuda and conversion cases on new;
# memcheck and racecheck on sell's kernels (kernel names containing "sell") on a 262,144-row
# R-MAT graph (windows of 1024 with long rows); sell and auto with setup (--convert-reps 5)
# on the large matrices, alternating processes, three rounds; time to solution on the
# circuit, kNN and R-MAT problems at new, five processes a contender, no CuPy.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
[ -f /tmp/m/rmat-20.mtx ] || python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit,poisson3d-100 --jobs 4 >/tmp/o/gen.txt 2>&1
[ -f /tmp/m/powerlaw-1000000.mtx ] || python3 $R/bench/gen-irregular.py /tmp/m >/tmp/o/gen2.txt 2>&1
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300 cuda "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 --kernel-name kns=sell \
    $B/spira-spmv --rmat 18:8 --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$tool sell rmat 18:8 (kernels named *sell*): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -m1 'sigma' /tmp/o/san.txt | cut -c1-100)" >>"$L"
done
F=$OUT/run3-spmv.txt; : >"$F"
for round in 1 2 3; do
  for lib in old new; do
    for m in circuit-1000000 knn-400000 rmat-20 powerlaw-1000000 uniform-1000000 poisson3d-100; do
      echo "=== round $round $lib $m" >>"$F"
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv /tmp/m/$m.mtx --formats sell,auto \
        --reps 200 --convert-reps 5 >>"$F" 2>&1
    done
  done
done
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=200 CUPY=0 PROBLEMS=circuit,knn,rmat \
   FORMATS=cusparse,merge,sell timeout 240 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run3-tts.md" 2>/dev/null
tail -22 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
