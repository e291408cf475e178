#!/usr/bin/env bash
# session 28, call 6 (one H200): auto learns sell's unit values (row statistics say whether
# every value is 1; sell priced at 830 GB/s on uneven rows without its values): the whole
# GPU suite case by case; auto's choice and time on R-MAT 2^20 and the three pattern graphs
# of ../shared (spira-spmv's default horizon), and the R-MAT PageRank at defaults (its P^T
# is not unit: its choice must not move).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
for round in 1 2; do
  for m in /tmp/m/rmat-20.mtx $D/m/*.mtx.gz; do
    $B/spira-spmv $m --formats sell,auto --reps 300 >/tmp/o/s.txt 2>&1
    echo "round $round $(basename $m): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | sort -u | tr '\n' ' ')" >>"$L"
    grep -o 'auto: the option[^;]*' /tmp/o/s.txt | head -1 | cut -c1-300 >>"$L"
  done
done
$B/spira-pagerank /tmp/m/rmat-20.mtx >/tmp/o/pr.txt 2>&1
echo "pagerank rmat-20: exit $? $(grep -i -E 'format|iteration|ms' /tmp/o/pr.txt | head -6 | tr '\n' ' ' | cut -c1-600)" >>"$L"
date -u >>"$L"; echo done >>"$L"
