#!/usr/bin/env bash
# session 22, call 2 (one H100), the library of 9a20ea5 (values all 1 filled on the device)
# and, as "old", 7d4d029's: the whole GPU suite; PageRank's setup on the R-MAT 2^20 graph
# (a pattern file: all ones) and a CG solve on the kNN Laplacian (real values) at defaults,
# new and old in alternating processes; GPU timelines with host calls of SURAA's and CMRS's
# conversions on the circuit and kNN matrices (issue 13's CSR-family setup target).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite2.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/dev/null 2>&1
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for k in 1 2 3 4 5; do
  for lib in new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    s=$(LD_LIBRARY_PATH=$lp $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 2>&1 | grep -E '^  time')
    c=$(LD_LIBRARY_PATH=$lp $B/spira-solve /tmp/m/knn-400000.mtx 2>&1 | grep -E 'SpMV format setup')
    echo "round $k $lib pagerank: $s | knn cg: $c" >>"$L"
  done
done
for m in circuit-1000000 knn-400000; do
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/trace-$m.csv GPU_TRACE_API=10 \
    $B/spira-spmv /tmp/m/$m.mtx --formats suraa,cmrs --reps 3 --warmup 1 --convert-reps 4 >>"$L" 2>&1
done
tar czf "$OUT/traces2.tgz" -C /tmp/o . 2>/dev/null
date -u >>"$L"; echo done >>"$L"
