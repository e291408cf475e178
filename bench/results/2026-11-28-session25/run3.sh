#!/usr/bin/env bash
# session 25, call 3 (one H200): where PageRank's setup on R-MAT 2^20 goes, process to
# process (its spread, 14-24 ms in session 24, decides the time-to-solution row). The
# library carries temporary phase prints (SPIRA_PHASES=1; not committed): ten processes
# at defaults, then three under the CUPTI recorder with host calls of 100 us or more.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + phase prints"; date -u; nproc; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
for i in 1 2 3 4 5 6 7 8 9 10; do
  SPIRA_PHASES=1 $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 >/tmp/o/p.txt 2>&1
  echo "== run $i: $(grep 'time ' /tmp/o/p.txt)" >>"$L"
  grep phase /tmp/o/p.txt >>"$L"
done
for i in 1 2 3; do
  SPIRA_PHASES=1 OMP_WAIT_POLICY=passive $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 >/tmp/o/p.txt 2>&1
  echo "== passive run $i: $(grep 'time ' /tmp/o/p.txt)" >>"$L"
  grep phase /tmp/o/p.txt | tr '\n' '|' >>"$L"; echo >>"$L"
done
for i in 1 2 3; do
  SPIRA_PHASES=1 CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/tr-$i.csv GPU_TRACE_API=100 \
    $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 >/tmp/o/p.txt 2>&1
  echo "== traced run $i: $(grep 'time ' /tmp/o/p.txt)" >>"$L"
  grep phase /tmp/o/p.txt | tr '\n' '|' >>"$L"; echo >>"$L"
done
tar czf $OUT/traces3.tgz -C /tmp/o $(cd /tmp/o && ls tr-*.csv)
date -u >>"$L"; echo done >>"$L"
