#!/usr/bin/env bash
# session 30, call 4 (one H200), ecfe1e9 (a plan's multiply launched from a CUDA graph):
# (a) the large irregular matrices with SPIRA_SPMV_GRAPHS=1 and =0 (cusparse, sell, merge,
# auto), to see that the graphs cost nothing there; (b) every format on adder_dcop_05 and
# 1138_bus; (c) small solves with graphs on and off: BiCGSTAB + Jacobi on sherman5 and
# orsirr_1, PageRank on email-Eu-core and wiki-Vote, three processes each; (d) time to
# solution of circuit, kNN and R-MAT, the default against cusparse, merge and sell, three
# processes a contender.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1
for m in rmat-20 knn-400000 circuit-1000000; do
  for g in 1 0; do
    SPIRA_SPMV_GRAPHS=$g $B/spira-spmv /tmp/m/$m.mtx --formats sell,merge,auto --reps 200 >/tmp/o/s.txt 2>&1
    echo "graphs=$g $m: $(grep -E '^(cusparse|sell|merge|auto) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
  done
done
for m in $R/data/adder_dcop_05.mtx $R/data/1138_bus.mtx; do
  echo "=== $(basename $m), every format, graphs on" >>"$L"
  $B/spira-spmv $m --reps 300 >/tmp/o/s.txt 2>&1
  grep -E "^[a-z]" /tmp/o/s.txt | grep -v "^spira-spmv\|^format\|^fastest\|^auto:" | awk '{print $1, $6, $7}' | tr '\n' ';' >>"$L"; echo >>"$L"
  echo "b2b: $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
  echo "graph: $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
done
for r in 1 2 3; do
  for g in 1 0; do
    for m in sherman5 orsirr_1; do
      SPIRA_SPMV_GRAPHS=$g $B/spira-solve $R/data/$m.mtx --solver bicgstab --precond jacobi --tol 1e-8 --repeat 5 --backend cuda >/tmp/o/s.txt 2>&1
      echo "round $r graphs=$g bicgstab $m: $(grep -E 'result|iterations [0-9.]* ms|repeated' /tmp/o/s.txt | tr -s ' ' | tr '\n' ' ')" >>"$L"
    done
    for m in $R/data/email-Eu-core.mtx $D/m/wiki-Vote.mtx.gz; do
      SPIRA_SPMV_GRAPHS=$g $B/spira-pagerank $m --backend cuda >/tmp/o/s.txt 2>&1
      echo "round $r graphs=$g pagerank $(basename $m): $(grep -E 'iterations|time' /tmp/o/s.txt | tr -s ' ' | tr '\n' ' ')" >>"$L"
    done
  done
done
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
rm -rf /tmp/o/tts
(cd /tmp/tts && CACHE=/tmp/m SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=200 CUPY=0 PROBLEMS=circuit,knn,rmat \
   FORMATS=cusparse,merge,sell timeout 260 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run4-tts.md" 2>/dev/null
tar czf "$OUT/run4-tts-raw.tgz" -C /tmp/o/tts raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
